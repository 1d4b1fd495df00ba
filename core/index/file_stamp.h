// FileStamp: how a file or folder looked when it was opened (stat: device, inode, size, change
// time), which tells whether what a process keeps open is still what the path names. An index
// file is never changed in place; one put there under the same name (written anew, a copy from
// elsewhere) has another stamp and is opened again.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace rr {

struct FileStamp {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0;
  bool exists = false;  // false: stat failed (nothing there); the other fields are zero

  bool operator==(const FileStamp& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns &&
           exists == o.exists;
  }
  bool operator!=(const FileStamp& o) const { return !(*this == o); }

  // The stamp in 64 bits, for what keeps one for each of thousands of files: 0 when nothing is
  // there, else a digest of the fields (never 0). Two stamps of a file that changed share one
  // with a chance of 1 in 2^64.
  uint64_t Mark() const {
    if (!exists) return 0;
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint64_t v : {dev, ino, size, static_cast<uint64_t>(mtime_ns)}) {
      h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xFF51AFD7ED558CCDull;
      h ^= h >> 33;
    }
    return h == 0 ? 1 : h;
  }

  static FileStamp Of(const std::string& path) {
    FileStamp s;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return s;
    s.exists = true;
    s.dev = st.st_dev;
    s.ino = st.st_ino;
    s.size = static_cast<uint64_t>(st.st_size);
    s.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
    return s;
  }
};

}  // namespace rr
