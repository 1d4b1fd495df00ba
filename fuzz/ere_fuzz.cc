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
  (void)ere->Matches(subject);
  size_t from = 0, begin = 0, end = 0;
  for (int i = 0; i < 64 && from <= subject.size(); ++i) {
    if (!ere->FindAcross(subject, from, &begin, &end)) break;
    if (begin < from || end < begin || end > subject.size()) __builtin_trap();
    from = end > begin ? end : end + 1;
  }
  from = 0;
  for (int i = 0; i < 64 && from <= subject.size(); ++i) {
    if (!ere->Find(subject, from, &begin, &end)) break;
    if (begin < from || end < begin || end > subject.size()) __builtin_trap();
    from = end > begin ? end : end + 1;
  }
  return 0;
}
