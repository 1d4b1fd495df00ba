// The glob matcher (core/policy/glob.h) against a plain reference written here: a recursive
// matcher that reads a pattern the way the documentation says it (a part character by
// character, every split of every ** tried), too slow for real use but easy to check by eye.
// Many random patterns and paths, generated from a fixed seed, must get the same answer from
// both for every question the matcher answers. Then the pattern that made the old backtracking
// matcher run for hours: nested ** on a deep path, answered at once.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/policy/glob.h"

namespace rr {
namespace glob_property_test {
namespace {

char Fold(char c, bool ic) {
  return ic ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
}

// One character of a bracket class written as the generator writes them: `[`, an optional `!`
// or `^`, items (a character, `\x` for x, or a range lo-hi), `]`. *end is past the `]`.
bool RefClass(std::string_view p, size_t i, char c, bool ic, size_t* end) {
  ++i;  // past '['
  bool negate = false;
  if (p[i] == '!' || p[i] == '^') negate = true, ++i;
  bool hit = false;
  bool first = true;
  while (first || p[i] != ']') {
    first = false;
    char lo = p[i];
    if (lo == '\\') lo = p[++i];
    char hi = lo;
    if (p[i + 1] == '-' && p[i + 2] != ']') {
      hi = p[i + 2];
      i += 2;
    }
    ++i;
    if (Fold(lo, ic) <= Fold(c, ic) && Fold(c, ic) <= Fold(hi, ic)) hit = true;
  }
  *end = i + 1;
  return hit != negate;
}

// One part of a name against one part of a pattern, by plain recursion.
bool RefPart(std::string_view p, std::string_view s, bool ic) {
  if (p.empty()) return s.empty();
  if (p[0] == '*') {
    for (size_t k = 0; k <= s.size(); ++k) {
      if (RefPart(p.substr(1), s.substr(k), ic)) return true;
    }
    return false;
  }
  if (s.empty()) return false;
  if (p[0] == '?') return RefPart(p.substr(1), s.substr(1), ic);
  if (p[0] == '[') {
    size_t end = 0;
    return RefClass(p, 0, s[0], ic, &end) && RefPart(p.substr(end), s.substr(1), ic);
  }
  size_t len = 1;
  char lit = p[0];
  if (p[0] == '\\' && p.size() > 1) lit = p[1], len = 2;
  return Fold(lit, ic) == Fold(s[0], ic) && RefPart(p.substr(len), s.substr(1), ic);
}

struct RefGlob {
  std::vector<std::string> parts;
  bool anchored = false;
  bool ic = false;
};

RefGlob RefCompile(std::string pattern, bool ic) {
  RefGlob g;
  g.ic = ic;
  bool slash = false;
  if (pattern[0] == '/') slash = true, pattern.erase(0, 1);
  size_t start = 0;
  while (true) {
    const size_t at = pattern.find('/', start);
    g.parts.push_back(pattern.substr(start, at == std::string::npos ? at : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  g.anchored = slash || g.parts.size() > 1;
  return g;
}

// Every split of every ** tried.
bool RefFrom(const RefGlob& g, const std::vector<std::string_view>& s, size_t si, size_t gi) {
  if (gi == g.parts.size()) return si == s.size();
  if (g.parts[gi] == "**") {
    for (size_t k = si; k <= s.size(); ++k) {
      if (RefFrom(g, s, k, gi + 1)) return true;
    }
    return false;
  }
  return si < s.size() && RefPart(g.parts[gi], s[si], g.ic) && RefFrom(g, s, si + 1, gi + 1);
}

bool RefMatches(const RefGlob& g, const std::vector<std::string_view>& s) {
  if (s.empty()) return false;
  if (!g.anchored) return g.parts[0] == "**" || RefPart(g.parts[0], s.back(), g.ic);
  return RefFrom(g, s, 0, 0);
}

bool RefPathOrFolder(const RefGlob& g, const std::vector<std::string_view>& s) {
  for (size_t n = 1; n <= s.size(); ++n) {
    if (RefMatches(g, {s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n)})) return true;
  }
  return false;
}

// Some path below the folder could match: the folder's parts read one by one against the
// pattern's until a ** (below which anything may follow) or the folder's end with pattern left.
bool RefBelow(const RefGlob& g, const std::vector<std::string_view>& s) {
  if (!g.anchored) return true;
  size_t gi = 0;
  for (auto part : s) {
    if (gi == g.parts.size()) return false;
    if (g.parts[gi] == "**") return true;
    if (!RefPart(g.parts[gi], part, g.ic)) return false;
    ++gi;
  }
  return gi < g.parts.size();
}

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::string Class() {
    static const std::vector<std::string> kItems = {"a", "b",   "c",   "a-b", "b-c",
                                                    "A", "\\]", "\\-", "]"};
    std::string c = "[";
    const size_t negate = Below(4);
    if (negate == 0) c += '!';
    if (negate == 1) c += '^';
    const size_t items = 1 + Below(3);
    for (size_t i = 0; i < items; ++i) {
      std::string item = kItems[Below(kItems.size())];
      if (item == "]" && i != 0) item = "a";  // `]` is a member only when it comes first
      c += item;
    }
    return c + "]";
  }

  std::string PatternPart() {
    if (Below(10) < 3) return "**";
    std::string p;
    const size_t tokens = 1 + Below(4);
    for (size_t i = 0; i < tokens; ++i) {
      switch (Below(8)) {
        case 0:
        case 1:
          if (p.empty() || p.back() != '*') p += '*';
          break;
        case 2:
          p += '?';
          break;
        case 3:
          p += Class();
          break;
        case 4:
          p += "\\*";
          break;
        default:
          p += "abB"[Below(3)];
      }
    }
    return p;
  }

  std::string Pattern() {
    std::string p = Below(5) == 0 ? "/" : "";
    const size_t parts = 1 + Below(6);
    for (size_t i = 0; i < parts; ++i) p += (i ? "/" : "") + PatternPart();
    if (Below(8) == 0) p += '/';
    return p;
  }

  std::string Name() {
    std::string n;
    const size_t len = 1 + Below(3);
    for (size_t i = 0; i < len; ++i) n += "abcAB*-]"[Below(8)];
    return n;
  }

  std::vector<std::string> Path(size_t max_parts) {
    std::vector<std::string> out;
    const size_t parts = Below(max_parts + 1);
    for (size_t i = 0; i < parts; ++i) out.push_back(Name());
    return out;
  }

 private:
  std::mt19937 rng_;
};

std::vector<std::string_view> Views(const std::vector<std::string>& parts) {
  return {parts.begin(), parts.end()};
}

TEST(GlobProperty, AgreesWithAPlainRecursiveReferenceOnRandomPatternsAndPaths) {
  Gen gen(20261202);
  size_t compared = 0, whole = 0, prefix = 0, below = 0, not_below = 0;
  for (size_t round = 0; round < 3000; ++round) {
    const std::string pattern = gen.Pattern();
    const bool ic = gen.Below(4) == 0;
    auto glob = Glob::Compile(pattern, ic);
    ASSERT_TRUE(glob) << pattern << ": " << glob.error();
    const RefGlob ref =
        RefCompile(pattern.back() == '/' ? pattern.substr(0, pattern.size() - 1) : pattern, ic);
    for (size_t k = 0; k < 40; ++k) {
      const auto path = gen.Path(8);
      const auto parts = Views(path);
      std::string shown;
      for (const auto& p : path) shown += "/" + p;
      const bool m = RefMatches(ref, parts);
      ASSERT_EQ(glob->Matches(parts), m) << pattern << (ic ? " (any case)" : "") << " on " << shown;
      const bool f = RefPathOrFolder(ref, parts);
      ASSERT_EQ(glob->MatchesPathOrFolder(parts), f)
          << pattern << (ic ? " (any case)" : "") << " path or folder " << shown;
      const bool b = RefBelow(ref, parts);
      ASSERT_EQ(glob->CouldMatchBelow(parts), b)
          << pattern << (ic ? " (any case)" : "") << " below " << shown;
      if (ref.parts.size() == 1 && ref.parts[0] != "**" && path.size() == 1) {
        ASSERT_EQ(glob->MatchesName(path[0]), RefPart(ref.parts[0], path[0], ic))
            << pattern << " name " << path[0];
      }
      ++compared;
      whole += m;
      prefix += f;
      below += b;
      not_below += !b;
    }
  }
  // Not a vacuous comparison: every answer came out both ways many times.
  EXPECT_EQ(compared, 120000u);
  EXPECT_GT(whole, 2000u);
  EXPECT_LT(whole, compared - 2000);
  EXPECT_GT(prefix, whole);
  EXPECT_GT(below, 2000u);
  EXPECT_GT(not_below, 2000u);
}

TEST(GlobProperty, NestedDoubleStarsOnADeepPathAreAnsweredAtOnce) {
  // Eight `**/d` groups against a path 300 folders deep, every one named d: a backtracking
  // matcher tries every way of spreading the folders over the eight **s (C(300, 8), about
  // 10^15) before it can say no. The bound is generous; a linear matcher takes microseconds.
  std::string pattern;
  for (int i = 0; i < 8; ++i) pattern += "**/d/";
  pattern += "**/nomatch.txt";
  auto glob = Glob::Compile(pattern);
  ASSERT_TRUE(glob);
  std::vector<std::string> path(300, "d");
  path.push_back("file.txt");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(glob->Matches(Views(path)));
  EXPECT_FALSE(glob->MatchesPathOrFolder(Views(path)));
  path.back() = "nomatch.txt";
  EXPECT_TRUE(glob->Matches(Views(path)));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(5));
}

}  // namespace
}  // namespace glob_property_test
}  // namespace rr
