// Ref expressions (core/git/ref_text.h): what an agent wrote for a ref, checked before any
// resolver sees it. What is accepted must hold none of the forms RefText refuses.
#include <cstdint>
#include <string_view>

#include "core/git/ref_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ref = rr::RefText::Parse(text);
  if (!ref) return 0;
  const std::string& s = ref->str();
  if (s.empty() || s.size() > rr::RefText::kMaxBytes || s[0] == '-') __builtin_trap();
  for (const char* bad : {":", "@{", "{", "}", "..", "*", "?", "[", "\\", " ", "\n", "\t"}) {
    if (s.find(bad) != std::string::npos) __builtin_trap();
  }
  return 0;
}
