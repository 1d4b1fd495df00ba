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
// Thread-safe: Match may run on many threads at once (match data is per call). Each thread
// matches with a JIT stack of its own of up to 8 MB (PCRE2's default is 32 KB), kept for the
// thread's life, so that a pattern such as (a|b)*$ matches a long line instead of giving up.
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

  // A line PCRE2 gave up on before it could tell whether the pattern matches there: its match,
  // depth or heap limit, or the JIT stack, was reached (a pattern that backtracks without end,
  // such as (.*a){25} on a long line of a). Whether that line matches is unknown, so it is never
  // read as "no match": the callers below say where it happened.
  struct GaveUp {
    bool any = false;
    size_t begin = 0, end = 0;  // the line, [begin, end) in the subject (without its '\n')
  };

  // True when the pattern matches somewhere in `subject` (on some line, when multiline). When it
  // does not and PCRE2 gave up on some line, *too_costly (if given) is set: the answer is then
  // unknown, not "no match". A match on any line is a match, whatever the other lines cost.
  bool Matches(std::string_view subject, bool* too_costly = nullptr) const;
  // The first match at or after `from`: its [begin, end) in *begin, *end. When PCRE2 gives up
  // on a line before a match is found, Find stops there: it returns false and, when `gave_up`
  // is given, says which line (a caller goes on from the line after it); without `gave_up`,
  // such a line is passed over as holding no match.
  bool Find(std::string_view subject, size_t from, size_t* begin, size_t* end,
            GaveUp* gave_up = nullptr) const;
  // For a multiline Ere, a fast first look over a whole text in one call: a match at or after
  // `from` that may run across line breaks (^ and $ also at every line's ends). Every match
  // Find gives begins at or after the one this gives, so a caller checks that match's line with
  // Find and, when it holds none, looks again from the next line: what is found is then exactly
  // what Find finds line by line, in far fewer calls. For an Ere that is not multiline, Find.
  // When PCRE2 gives up on the whole text, it looks line by line (Find), and so reports the
  // first line it gives up on as Find does.
  bool FindAcross(std::string_view subject, size_t from, size_t* begin, size_t* end,
                  GaveUp* gave_up = nullptr) const;

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
