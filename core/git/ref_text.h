// RefText: what an agent wrote for a ref, checked before anything resolves it. It is only ever
// handed to the resolver, which turns it into a commit id; nothing after that sees the text.
#pragma once

#include <string>
#include <string_view>

#include "core/util/result.h"

namespace rr {

class RefText {
 public:
  static constexpr size_t kMaxBytes = 1024;

  // Accepts branch and tag names (release/2.1, origin/main), full or abbreviated commit ids,
  // and ~N / ^N suffixes. Refuses: empty text, a leading '-', whitespace, control characters,
  // and revision syntax that reaches anything but a commit or reads more than refs
  // (':' as in main:path or :/text, '@{', '{', '}', '..', '*', '?', '[', '\\').
  static Result<RefText> Parse(std::string_view text);

  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

}  // namespace rr
