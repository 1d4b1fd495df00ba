#include "core/policy/glob.h"
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

  Result<Glob> Glob::Compile(std::string_view pattern, bool ignore_case) {
    const std::string shown = "pattern `" + DisplayName(pattern) + "` ";
    if (pattern.empty()) return Error{"a pattern is empty; write one such as src/** or *.md"};
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
    if (t.empty()) return Error {
        sho