#include "core/util/compact_folder.h"

#include "core/util/intern.h"

namespace rr {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case too: it would not come back the same
}

}  // namespace

CompactFolder::CompactFolder(const std::string& path) {
  if (path.empty()) return;
  const size_t slash = path.rfind('/');
  constexpr size_t kHex = 40;
  if (slash != std::string::npos && path.size() - slash - 1 == kHex) {
    bool hex = true;
    for (size_t i = 0; i < kHex / 2 && hex; ++i) {
      const int high = HexValue(path[slash + 1 + 2 * i]);
      const int low = HexValue(path[slash + 2 + 2 * i]);
      hex = high >= 0 && low >= 0;
      leaf_[i] = static_cast<uint8_t>(high * 16 + low);
    }
    if (hex) {
      parent_ = &Intern(path.substr(0, slash));
      has_leaf_ = true;
      return;
    }
    leaf_ = {};
  }
  parent_ = &Intern(path);
}

std::string CompactFolder::str() const {
  if (!parent_) return "";
  if (!has_leaf_) return *parent_;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(parent_->size() + 41);
  out += *parent_;
  out += '/';
  for (uint8_t b : leaf_) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace rr
