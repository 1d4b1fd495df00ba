// Trigrams: the unit of the text index (core/index/text_index.h), and what a pattern asks of
// them. A trigram is three consecutive bytes of a line, ASCII letters folded to lower case (one
// index serves searches with and without ignore_case), as a 24-bit number. Bytes across a line
// break are never a trigram: grep and search match line by line, so no match holds one.
//
// PlanTrigrams answers which trigrams any match of a pattern must contain, as an OR of ANDs: a
// file may hold a match only when, for some branch, it holds every trigram of that branch. It
// only ever leaves requirements out (a superset of the files that match is kept; the real
// matcher confirms each), never adds one:
//   - a literal: the trigrams of its text;
//   - an ERE (core/util/ere.h): split at its top-level `|`; in each branch, the runs of plain
//     characters not made optional by a following `?`, `*` or `{0,…}` — everything else (`.`,
//     brackets, groups, anchors, \w and the other class escapes, intervals) ends a run and
//     requires nothing. A branch that requires no trigram makes the whole pattern require none.
//   - ignore_case: a trigram holding `k` or `s` (which fold to the Kelvin sign and the long s,
//     U+212A and U+017F, outside ASCII) or any byte outside ASCII requires nothing.
// A pattern that requires no trigram (`all`) is answered by scanning, as without an index.
// This is the project's own analysis of the ERE it already parses, not RE2's prefilter: RE2
// reads a different dialect than the ERE translated to PCRE2 here (\< \>, a `{` that starts no
// interval, brackets with a backslash), and an analysis of one dialect applied to another could
// require a trigram a match does not hold — the one error the index must never make.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

inline unsigned char FoldTrigramByte(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c;
}

inline uint32_t TrigramOf(unsigned char a, unsigned char b, unsigned char c) {
  return (uint32_t{FoldTrigramByte(a)} << 16) | (uint32_t{FoldTrigramByte(b)} << 8) |
         FoldTrigramByte(c);
}

// Calls f(trigram) for every trigram of `bytes` (with repeats), none across a '\n'.
template <typename F>
void ForEachTrigram(std::string_view bytes, F&& f) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  if (n < 3) return;
  uint32_t t = (uint32_t{FoldTrigramByte(p[0])} << 8) | FoldTrigramByte(p[1]);
  for (size_t i = 2; i < n; ++i) {
    t = ((t << 8) | FoldTrigramByte(p[i])) & 0xFFFFFF;
    if (p[i] == '\n' || p[i - 1] == '\n' || p[i - 2] == '\n') continue;
    f(t);
  }
}

struct TrigramQuery {
  bool all = true;                              // no usable trigram: every file is a candidate
  std::vector<std::vector<uint32_t>> branches;  // when !all: OR of ANDs, each sorted, unique
  std::string key;  // TrigramQueryKey, as PlanTrigrams made it ("" for a query made by hand)
};

TrigramQuery PlanTrigrams(std::string_view pattern, bool regex, bool ignore_case);
// A query as bytes: equal for equal queries (to keep answers by query).
std::string TrigramQueryKey(const TrigramQuery& query);

}  // namespace rr
