#include "core/policy/glob.h"

#include <algorithm>
#include <cctype>

#include "core/util/text.h"

namespace rr {
namespace {

char Fold(char c, bool ignore_case) {
  return ignore_case ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
}

// Matches a bracket class starting at pattern[pi] == '['. Sets `end` to the index after ']'.
bool MatchClass(std::string_view p, size_t pi, char c, bool ignore_case, size_t& end) {
  size_t i = pi + 1;
  bool negate = false;
  if (i < p.size() && (p[i] == '!' || p[i] == '^')) {
    negate = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  const char fc = Fold(c, ignore_case);
  while (i < p.size() && (first || p[i] != ']')) {
    first = false;
    char lo = p[i];
    if (lo == '\\' && i + 1 < p.size()) lo = p[++i];
    char hi = lo;
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      hi = p[i + 2];
      if (hi == '\\' && i + 3 < p.size()) hi = p[++i + 2];
      i += 2;
    }
    if (Fold(lo, ignore_case) <= fc && fc <= Fold(hi, ignore_case)) matched = true;
    ++i;
  }
  end = i + 1;  // past ']' (Compile guarantees it exists)
  return matched != negate;
}

}  // namespace

bool MatchPart(std::string_view p, std::string_view s, bool ignore_case) {
  size_t pi = 0, si = 0;
  size_t star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size()) {
      const char pc = p[pi];
      if (pc == '*') {
        star_p = pi++;
        star_s = si;
        continue;
      }
      if (pc == '?') {
        ++pi;
        ++si;
        continue;
      }
      if (pc == '[') {
        size_t end;
        if (MatchClass(p, pi, s[si], ignore_case, end)) {
          pi = end;
          ++si;
          continue;
        }
      } else {
        char lit = pc;
        size_t next = pi + 1;
        if (pc == '\\' && pi + 1 < p.size()) {
          lit = p[pi + 1];
          next = pi + 2;
        }
        if (Fold(lit, ignore_case) == Fold(s[si], ignore_case)) {
          pi = next;
          ++si;
          continue;
        }
      }
    }
    if (star_p != std::string_view::npos) {
      pi = star_p + 1;
      si = ++star_s;
      continue;
    }
    return false;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

Result<Glob> Glob::CompileWhole(std::string_view pattern) {
  if (pattern.find('/') != std::string_view::npos) return Compile(pattern);
  return Compile("/" + std::string(pattern));
}

Result<Glob> Glob::Compile(std::string_view pattern, bool ignore_case) {
  const std::string shown = "pattern `" + EchoArgument(pattern) + "` ";
  if (pattern.empty()) return Error{"a pattern is empty; write one such as src/** or *.md"};
  // A leading `/` (which anchors the pattern) is not counted: CompileWhole writes one before a
  // configured name pattern that has no `/` of its own (mirrors' refs, http.tokens' repos), and
  // the pattern `--check` accepted must still compile then.
  const size_t bytes = pattern.size() - (pattern.front() == '/' ? 1 : 0);
  if (bytes > kMaxBytes) {
    return Error{shown + "is " + WithCommas(bytes) + " bytes long; a pattern is at most " +
                 WithCommas(kMaxBytes) + " bytes: match fewer parts, or use ** for many"};
  }
  for (char c : pattern) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) return Error{shown + "holds a control character"};
  }
  Glob g;
  g.pattern_ = std::string(pattern);
  g.ignore_case_ = ignore_case;
  std::string_view t = pattern;
  bool leading_slash = false;
  if (t.front() == '/') {
    leading_slash = true;
    t.remove_prefix(1);
  }
  if (!t.empty() && t.back() == '/') t.remove_suffix(1);
  if (t.empty()) return Error{shown + "names no path; write one such as src/** or *.md"};
  size_t start = 0;
  while (true) {
    const size_t slash = t.find('/', start);
    std::string part(t.substr(start, slash == std::string_view::npos ? t.npos : slash - start));
    if (part.empty()) return Error{shown + "has an empty part (`//`)"};
    if (part == "." || part == "..") {
      return Error{shown + "has a `" + part + "` part; patterns are written from the root"};
    }
    if (part.find("**") != std::string::npos && part != "**") {
      return Error{shown + "uses ** inside a part; ** stands alone between slashes (src/**/test)"};
    }
    // Every '[' must close.
    for (size_t i = 0; i < part.size(); ++i) {
      if (part[i] == '\\') {
        ++i;
        continue;
      }
      if (part[i] == '[') {
        size_t j = i + 1;
        if (j < part.size() && (part[j] == '!' || part[j] == '^')) ++j;
        if (j < part.size() && part[j] == ']') ++j;
        while (j < part.size() && part[j] != ']') j += part[j] == '\\' ? 2 : 1;
        if (j >= part.size()) return Error{shown + "has a `[` with no closing `]`"};
        i = j;
      }
    }
    if (g.parts_.size() == kMaxParts) {
      return Error{shown + "has more than " + WithCommas(kMaxParts) +
                   " parts; a pattern has at most " + WithCommas(kMaxParts) +
                   ": use ** for many folders"};
    }
    g.star_.push_back(part == "**");
    g.parts_.push_back(std::move(part));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  g.anchored_ = leading_slash || g.parts_.size() > 1;
  return g;
}

bool Glob::MatchesName(std::string_view name) const {
  return parts_.size() == 1 && parts_[0] != "**" && MatchPart(parts_[0], name, ignore_case_);
}

bool Glob::Matches(const std::vector<std::string_view>& parts) const {
  if (parts.empty()) return false;
  if (!anchored_) {
    return parts_[0] == "**" || MatchPart(parts_[0], parts.back(), ignore_case_);
  }
  return Run(parts, Want::kWhole);
}

bool Glob::MatchesPathOrFolder(const std::vector<std::string_view>& parts) const {
  if (parts.empty()) return false;
  if (!anchored_) {
    if (parts_[0] == "**") return true;
    for (auto part : parts) {
      if (MatchPart(parts_[0], part, ignore_case_)) return true;
    }
    return false;
  }
  return Run(parts, Want::kPathOrFolder);
}

bool Glob::CouldMatchBelow(const std::vector<std::string_view>& folder) const {
  if (!anchored_) return true;
  return Run(folder, Want::kBelow);
}

bool Glob::Run(const std::vector<std::string_view>& parts, Want want) const {
  // The set of pattern positions the parts read so far lead to: a ** part both stays where it
  // is (it takes the part) and is passed over (it takes none); any other part moves on when it
  // matches the path's part. Each path part is read once against each position, so the cost is
  // the path's depth times the pattern's parts, never a backtracking search over the splits of
  // the **s (which grows as the depth to the power of their number).
  const size_t n = parts_.size();
  std::vector<char> cur(n + 1, 0), next(n + 1, 0);
  auto pass_stars = [&](std::vector<char>& s) {
    for (size_t gi = 0; gi < n; ++gi) {
      if (s[gi] && star_[gi]) s[gi + 1] = 1;
    }
  };
  cur[0] = 1;
  pass_stars(cur);
  for (auto part : parts) {
    std::fill(next.begin(), next.end(), 0);
    bool alive = false;
    for (size_t gi = 0; gi < n; ++gi) {
      if (!cur[gi]) continue;
      if (star_[gi]) {
        next[gi] = 1;
        alive = true;
      } else if (MatchPart(parts_[gi], part, ignore_case_)) {
        next[gi + 1] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    pass_stars(next);
    if (want == Want::kPathOrFolder && next[n]) return true;
    cur.swap(next);
  }
  switch (want) {
    case Want::kWhole:
      return cur[n] != 0;
    case Want::kPathOrFolder:
      return false;
    case Want::kBelow:
      // Some position short of the pattern's end: a path below can still be read on from it.
      return std::find(cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(n), 1) !=
             cur.begin() + static_cast<std::ptrdiff_t>(n);
  }
  return false;
}

}  // namespace rr
