// The outline parsers (core/outline/outline.h), every language: the first byte picks the kind,
// the rest is the file. Every entry must name a line of the file, in order.
#include <cstdint>
#include <string_view>

#include "core/outline/outline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const rr::OutlineKind kKinds[] = {
      rr::OutlineKind::kMarkdown,   rr::OutlineKind::kC,     rr::OutlineKind::kPython,
      rr::OutlineKind::kJavaScript, rr::OutlineKind::kGo,    rr::OutlineKind::kRust,
      rr::OutlineKind::kJava,       rr::OutlineKind::kShell, rr::OutlineKind::kYaml};
  const rr::OutlineKind kind = kKinds[data[0] % (sizeof kKinds / sizeof kKinds[0])];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  const auto entries = rr::Outline(text, kind, rr::StopToken());
  size_t last = 0;
  for (const auto& e : entries) {
    if (e.line == 0 || e.line > lines || e.line < last) __builtin_trap();
    if (e.level < 0 || e.level > 6) __builtin_trap();
    last = e.line;
  }
  const auto nl = text.find('\n');
  (void)rr::OutlineKindOf(text.substr(0, nl == std::string_view::npos ? 0 : nl), text);
  return 0;
}
