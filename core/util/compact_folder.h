// CompactFolder: a folder's path that every served repository keeps -- its index folder,
// `<cache folder>/history/<40 hex digits>` (core/config/config.h: HistoryIndexFolder) -- kept in
// 32 bytes and no block of its own. As a std::string each took an 80-byte block besides, 1.6 MB
// over 20,000 repositories.
//
// The parent folder is interned: one string for every path with the same parent, never freed
// (a server's index folders share one or two). A last part of 40 lowercase hex digits is kept
// as its 20 bytes; a path ending otherwise (a test's folder, say) is interned whole. str()
// gives back the path exactly as it was set.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace rr {

class CompactFolder {
 public:
  CompactFolder() = default;
  CompactFolder(const std::string& path);  // NOLINT: set from a string as a string field is
  CompactFolder(const char* path) : CompactFolder(std::string(path)) {}  // NOLINT: likewise

  bool empty() const { return parent_ == nullptr; }
  std::string str() const;
  operator std::string() const { return str(); }  // NOLINT: read as a string field is

 private:
  const std::string* parent_ = nullptr;  // interned; null: the empty path
  bool has_leaf_ = false;                // else the path is *parent_ whole
  std::array<uint8_t, 20> leaf_{};
};

}  // namespace rr
