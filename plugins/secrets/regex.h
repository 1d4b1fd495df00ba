// A PCRE2 pattern (8-bit, JIT-compiled once at construction) and anchored matching at a given
// offset of a text.
//
// Patterns are compiled with PCRE2_ANCHORED unless asked otherwise: Match tries them at `start`
// only, which is how the detectors use them (at a keyword's occurrence), and a lookbehind may
// still see the bytes before `start`. Matching runs on the JIT code with per-thread match data, so
// a Pattern is immutable after construction and Match may run on many threads at once. Match
// allocates nothing after a thread's first call.
//
// A pattern that fails to compile leaves ok() false with the reason in error(); the plugin's
// factory then refuses to load rather than run without a detector. A match that fails for any
// reason but "no match" (the JIT stack or the match limit exhausted, memory, a bad offset)
// throws MatchError: the text was not checked, and saying "no secret" would show it. The
// detector's Scan lets it through, so the filter reports the detector as failed and the text is
// withheld.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rr_secrets {

class MatchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Pattern {
 public:
  // `pattern` is a Perl-compatible expression over bytes (no UTF mode). Anchored, it matches
  // only at the offset Match is given; otherwise it finds the first match from there on.
  explicit Pattern(std::string_view pattern, bool anchored = true);
  ~Pattern();
  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;

  bool ok() const { return code_ != nullptr; }
  const std::string& error() const { return error_; }

  // The span of one capture group of a match (begin == end == npos when it did not take part).
  struct Group {
    size_t begin = std::string_view::npos, end = std::string_view::npos;
    bool matched() const { return begin != std::string_view::npos; }
  };
  static constexpr int kMaxGroups = 8;
  struct Match {
    Group group[kMaxGroups];  // group[0] is the whole match
  };

  // Matches at `start` (anchored) or at or after it, in text[0, limit) (limit <= text.size()).
  // True on a match, with the groups in *m; false when there is none; throws MatchError when
  // the match could not be decided.
  bool MatchAt(std::string_view text, size_t start, size_t limit, Match* m) const;
  bool MatchAt(std::string_view text, size_t start, Match* m) const {
    return MatchAt(text, start, text.size(), m);
  }

 private:
  void* code_ = nullptr;  // pcre2_code_8*
  bool jit_ = false;
  std::string error_;
};

}  // namespace rr_secrets
