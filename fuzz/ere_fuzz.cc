// ERE translation (core/util/ere.h): an agent's pattern translated to PCRE2 and compiled, then
// matched against a subject. Input: one byte of options (ignore_case, multiline), the pattern up
// to the first newline, the subject after it.
#include <cstdint>
#include <string_view>

#include "core/util/ere.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const auto [pattern, subject] =
      rr_fuzz::Cut(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), '\n');
  rr::Ere::Options options;
  options.ignore_case = flags & 1;
  options.multiline = flags & 2;
  (void)rr::TranslateEre(pattern, "pattern", options.ignore_case);
  auto ere = rr::Ere::Compile(pattern, options, "pattern");
  if (!ere) return 0;
  // As the tools use it: a line PCRE2 gives up on ends the look (a search leaves a file after a
  // few such lines), so that one input costs a few match limits, not one per line.
  bool too_costly = false;
  (void)ere->Matches(subject, &too_costly);
  size_t from = 0, begin = 0, end = 0;
  rr::Ere::GaveUp gave_up;
  for (int i = 0; i < 64 && from <= subject.size(); ++i) {
    if (!ere->FindAcross(subject, from, &begin, &end, &gave_up)) break;
    if (begin < from || end < begin || end > subject.size()) __builtin_trap();
    from = end > begin ? end : end + 1;
  }
  if (gave_up.any && (gave_up.begin > gave_up.end || gave_up.end > subject.size())) {
    __builtin_trap();
  }
  from = 0;
  gave_up = {};
  for (int i = 0; i < 64 && from <= subject.size(); ++i) {
    if (!ere->Find(subject, from, &begin, &end, &gave_up)) break;
    if (begin < from || end < begin || end > subject.size()) __builtin_trap();
    from = end > begin ? end : end + 1;
  }
  if (gave_up.any && (gave_up.begin > gave_up.end || gave_up.end > subject.size())) {
    __builtin_trap();
  }
  return 0;
}
