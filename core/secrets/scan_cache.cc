#include "core/secrets/scan_cache.h"

namespace rr {
namespace {

// What a cache entry costs beyond its key and spans: the list node, the index slot, the
// LineSpans and its shared_ptr's control block, rounded up.
constexpr size_t kEntryOverhead = 160;

}  // namespace

size_t LineSpans::Bytes() const {
  size_t n =
      sizeof(LineSpans) + pieces.capacity() * sizeof(Piece) + what.capacity() * sizeof(std::string);
  for (const auto& w : what) n += w.capacity() > 15 ? w.capacity() + 1 : 0;
  return n;
}

std::string ScanCache::Key(std::string_view blob_id, size_t size, int kind, std::string_view path,
                           std::string_view form) {
  // Fields that cannot hold a NUL are separated by one; the path, which may hold anything but a
  // NUL in git, comes last.
  std::string k;
  k.reserve(blob_id.size() + path.size() + form.size() + 32);
  k.append(form);
  k.push_back('\0');
  k.append(blob_id);
  k.push_back('\0');
  k.append(std::to_string(size));
  k.push_back('\0');
  k.append(std::to_string(kind));
  k.push_back('\0');
  k.append(path);
  return k;
}

std::shared_ptr<const LineSpans> ScanCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->spans;
}

void ScanCache::Keep(const std::string& key, std::shared_ptr<const LineSpans> spans) {
  if (!spans) return;
  const size_t cost = kEntryOverhead + 2 * key.size() + spans->Bytes();
  if (cost > bound_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = index_.find(key); it != index_.end()) {
    const auto node = it->second;
    index_.erase(it);  // before the entry that holds its key
    bytes_ -= node->bytes;
    lru_.erase(node);
  }
  lru_.push_front(Entry{key, std::move(spans), cost});
  index_.emplace(lru_.front().key, lru_.begin());
  bytes_ += cost;
  while (bytes_ > bound_ && !lru_.empty()) {
    Entry& last = lru_.back();
    bytes_ -= last.bytes;
    index_.erase(last.key);
    lru_.pop_back();
  }
}

ScanCache::Stats ScanCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return Stats{hits_, misses_, lru_.size(), bytes_};
}

}  // namespace rr
