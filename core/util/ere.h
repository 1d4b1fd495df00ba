// Ere: a POSIX extended regular expression (what `grep -E` and `git log -E --grep` take), run on
// PCRE2 with JIT. The agent's pattern is translated, never passed through: what ERE means is
// what it matches here, and what ERE does not have is refused with an error saying so, never
// silently read as PCRE2 would read it:
//   - refused: back-references (\1), lookaround and every other (?…) group, escapes ERE does not
//     define (\d, \n, \x41…: write [0-9], or the character itself), a quantifier right after
//     another (a++, which PCRE2 would read as possessive), a quantifier with nothing before it
//     to repeat (*a, (+a), x|?a: git refuses them, grep drops them), [=a=] and [.a.] in brackets;
//   - kept as GNU regex (and so git and grep) read them: \w \W \s \S \b \B, \< and \> (word
//     start and end), {,n} (at most n), a { that starts no interval and a ) that closes no group
//     are characters, a backslash inside brackets is a backslash, and with ignore_case
//     [:upper:] and [:lower:] match any letter.
// Matching is per line of the subject when `multiline`: each line is matched on its own (^ and
// $ at its ends), so nothing matches across a line break, as in grep and git log --grep.
// Thread-safe: Match may run on many threads at once (match data is per call).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace rr {

class Ere {
 public:
  struct Options {
    bool ignore_case = false;
    bool multiline = false;
  };
  // `argument` names the argument in errors ("argument `message`: …").
  static Result<Ere> Compile(std::string_view pattern, Options options, std::string_view argument);

  // True when the pattern matches somewhere in `subject`.
  bool Matches(std::string_view subject) const;
  // The first match at or after `from`: its [begin, end) in *begin, *end.
  bool Find(std::string_view subject, size_t from, size_t* begin, size_t* end) const;
  // For a multiline Ere, a fast first look over a whole text in one call: a match at or after
  // `from` that may run across line breaks (^ and $ also at every line's ends). Every match
  // Find gives begins at or after the one this gives, so a caller checks that match's line with
  // Find and, when it holds none, looks again from the next line: what is found is then exactly
  // what Find finds line by line, in far fewer calls. For an Ere that is not multiline, Find.
  bool FindAcross(std::string_view subject, size_t from, size_t* begin, size_t* end) const;

  // The PCRE2 pattern it was translated to (for tests and errors).
  const std::string& translated() const { return translated_; }

 private:
  struct Code;
  std::shared_ptr<const Code> code_;
  std::shared_ptr<const Code> across_;  // multiline: compiled with PCRE2_MULTILINE
  std::string translated_;
  bool multiline_ = false;
};

// The translation alone: the PCRE2 pattern for an ERE, or an error naming `argument`.
// `ignore_case` as in Options (it changes what [:upper:] and [:lower:] mean).
Result<std::string> TranslateEre(std::string_view pattern, std::string_view argument,
                                 bool ignore_case = false);

}  // namespace rr
