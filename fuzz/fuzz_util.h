// What the fuzz targets share: cutting one input into parts, and a private folder for targets
// whose parser reads files (each input's files are written there and removed after).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace rr_fuzz {

// Reads the input front to back: fixed-size numbers and length-prefixed parts. Past the end,
// numbers read as 0 and parts as empty, so every input is a valid one.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : bytes_(reinterpret_cast<const char*>(data), size) {}

  uint8_t Byte() {
    if (at_ >= bytes_.size()) return 0;
    return static_cast<uint8_t>(bytes_[at_++]);
  }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{Byte()} << (8 * i);
    return v;
  }
  // A part of at most `most` bytes, its length first (4 bytes, little-endian).
  std::string_view Part(size_t most) {
    const size_t n = std::min<size_t>({U32(), most, bytes_.size() - at_});
    std::string_view out = bytes_.substr(at_, n);
    at_ += n;
    return out;
  }
  std::string_view Rest() {
    std::string_view out = bytes_.substr(at_);
    at_ = bytes_.size();
    return out;
  }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

// Splits `text` at the first `sep`: (before, after); no `sep`: (text, "").
inline std::pair<std::string_view, std::string_view> Cut(std::string_view text, char sep) {
  const size_t at = text.find(sep);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + 1)};
}

// A folder of the process's own under $TMPDIR (or /tmp), made once (scripts/fuzz.sh points
// TMPDIR into the build folder and empties it after each run).
inline const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/rr-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    return pattern;
  }();
  return dir;
}

inline void WriteFile(const std::string& path, std::string_view bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::abort();
  std::fclose(f);
}

inline void MakeDir(const std::string& path) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) std::abort();
}

// Removes the files named (and leaves the folders for the next input).
inline void RemoveFiles(const std::vector<std::string>& paths) {
  for (const auto& p : paths) unlink(p.c_str());
}

}  // namespace rr_fuzz
