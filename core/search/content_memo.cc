#include "core/search/content_memo.h"

#include <utility>

namespace rr {

std::string ContentMemo::Key(const Node& node) { return Key(node.oid, node.path.str()); }

std::string ContentMemo::Key(const git_oid& oid, std::string_view path) {
  std::string key(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
  key += path;
  return key;
}

std::shared_ptr<const ContentMemo::Done> ContentMemo::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kept_.find(key);
  return it == kept_.end() ? nullptr : it->second;
}

void ContentMemo::Keep(std::string key, bool binary, const FileHits& hits) {
  size_t cost = key.size() + sizeof(Done) + 64;
  for (const auto& l : hits.lines) cost += l.text.size() + sizeof(ShownLine);
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes_ + cost > kMaxBytes || kept_.count(key)) return;
  auto done = std::make_shared<Done>();
  done->binary = binary;
  done->hits = hits;
  kept_.emplace(std::move(key), std::move(done));
  bytes_ += cost;
}

}  // namespace rr
