// RareText: a text most objects that keep one leave empty, kept as one pointer (null when
// empty) rather than a std::string's 32 bytes. With 20,000 repositories served, the
// description and the guidance folder of each repository's settings (core/served/served_repo.h)
// were 64 bytes a repository, and empty for nearly all. Copies copy the text.
//
// RareShared<T>: the same for a std::shared_ptr most leave null (a mirror's content fetcher, a
// guidance repository): one pointer, to the shared pointer when set, rather than its 16 bytes.
// Copies share the object, as copies of a shared pointer do.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

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

template <typename T>
class RareShared {
 public:
  RareShared() = default;
  RareShared(std::nullptr_t) {}  // NOLINT: null as a shared pointer's
  template <typename U>
  RareShared(std::shared_ptr<U> p)  // NOLINT: set from a shared pointer as one is
      : p_(p ? std::make_unique<const std::shared_ptr<T>>(std::move(p)) : nullptr) {}
  RareShared(const RareShared& o) : RareShared(o.shared()) {}
  RareShared(RareShared&&) noexcept = default;
  RareShared& operator=(const RareShared& o) { return *this = RareShared(o); }
  RareShared& operator=(RareShared&&) noexcept = default;

  // The shared pointer (a null one when unset).
  const std::shared_ptr<T>& shared() const {
    static const std::shared_ptr<T> kNone;
    return p_ ? *p_ : kNone;
  }
  T* get() const { return p_ ? p_->get() : nullptr; }
  T* operator->() const { return get(); }
  T& operator*() const { return *get(); }
  explicit operator bool() const { return p_ != nullptr; }
  friend bool operator==(const RareShared& a, std::nullptr_t) { return !a; }
  friend bool operator!=(const RareShared& a, std::nullptr_t) { return static_cast<bool>(a); }

 private:
  std::unique_ptr<const std::shared_ptr<T>> p_;
};

}  // namespace rr
