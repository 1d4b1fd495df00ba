// What the secret filter found in the whole text of a blob, remembered by the blob's id, so that
// a file read again — in any window, by read_file, blame or the repository's overview — is not
// read by the detectors again. One cache belongs to one SecretFilter (secret_filter.h) and dies
// with it: a plugin reloaded or another set of detectors is another filter, with a cache of its
// own, so what one set of detectors found is never used for another.
//
// An entry is used only for exactly the same bytes read the same way: its key is the blob's
// object id (git's hash of the bytes) and size, the kind of text, the path the detectors are
// told (a file's format decides what a setting looks like in it) and the form the text was read
// in. It holds the hidden spans, each cut into its pieces on the text's lines (line, bytes
// within the line), never any of the text itself.
//
// Bounded by bytes (kBytes, what the entries take, keys included); the least recently used
// entry goes first. A failed scan is never kept. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rr {

// The hidden spans of a text read as lines: each span's pieces on the lines it covers.
struct LineSpans {
  struct Piece {
    uint32_t line = 0;          // the text's line, from 0
    uint32_t from = 0, to = 0;  // bytes of that line's text (its line break excluded)
    uint32_t span = 0;          // index in `what`: pieces of one value share it
  };
  std::vector<Piece> pieces;      // sorted by line, then by from
  std::vector<std::string> what;  // per span: what it looked like
  size_t lines = 0;               // how many lines the text has

  // The bytes an entry takes in the cache.
  size_t Bytes() const;
};

class ScanCache {
 public:
  // 16 MiB: an entry of a file without secrets takes about 200 bytes, so some 80,000 files.
  static constexpr size_t kBytes = 16u << 20;

  explicit ScanCache(size_t bytes = kBytes) : bound_(bytes) {}

  // The key for a blob's text: its id and size, the kind of text, the path, the form.
  static std::string Key(std::string_view blob_id, size_t size, int kind, std::string_view path,
                         std::string_view form);

  // The entry for `key`, or null; a found entry becomes the most recently used.
  std::shared_ptr<const LineSpans> Find(const std::string& key);
  // Keeps `spans` for `key` (replacing an entry of that key), then drops the least recently
  // used entries until the cache is within its bound. An entry larger than the bound is not kept.
  void Keep(const std::string& key, std::shared_ptr<const LineSpans> spans);

  struct Stats {
    uint64_t hits = 0, misses = 0;
    size_t entries = 0, bytes = 0;
  };
  Stats stats() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const LineSpans> spans;
    size_t bytes = 0;
  };
  const size_t bound_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // keys live in lru_
  size_t bytes_ = 0;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace rr
