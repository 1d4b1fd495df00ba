// RareText: a text most objects that keep one leave empty, kept as one pointer (null when
// empty) rather than a std::string's 32 bytes. With 20,000 repositories served, the
// description and the guidance folder of each repository's settings (core/served/served_repo.h)
// were 64 bytes a repository, and empty for nearly all. Copies copy the text.
#pragma once

#include <memory>
#include <string>

namespace rr {

class RareText {
 public:
  RareText() = default;
  RareText(std::string text)  // NOLINT: set from a string as a string field is
      : text_(text.empty() ? nullptr : std::make_unique<const std::string>(std::move(text))) {}
  RareText(const RareText& o) : RareText(o.str()) {}
  RareText(RareText&&) noexcept = default;
  RareText& operator=(const RareText& o) { return *this = RareText(o); }
  RareText& operator=(RareText&&) noexcept = default;

  const std::string& str() const {
    static const std::string kEmpty;
    return text_ ? *text_ : kEmpty;
  }
  bool empty() const { return text_ == nullptr; }

 private:
  std::unique_ptr<const std::string> text_;
};

}  // namespace rr
