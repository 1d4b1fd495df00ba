#include "core/search/content_memo.h"

#include <chrono>
#include <utility>

namespace rr {

std::string ContentMemo::Key(const Node& node) { return Key(node.oid, node.path.str()); }

std::string ContentMemo::Key(const git_oid& oid, std::string_view path) {
  std::string key(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
  key += path;
  return key;
}

std::shared_ptr<const ContentMemo::Done> ContentMemo::Find(const std::string& key,
                                                           bool* claimed) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kept_.find(key);
  if (claimed) *claimed = it != kept_.end();
  return it == kept_.end() ? nullptr : it->second.done;
}

size_t ContentMemo::EntryCost(const std::string& key) {
  return key.size() + sizeof(Entry) + 64;  // the key twice over, a node, a bucket: roughly
}

bool ContentMemo::Claim(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_.count(key) || bytes_ + EntryCost(key) > kMaxBytes) return false;
  kept_.emplace(key, Entry{});
  bytes_ += EntryCost(key);
  return true;
}

std::shared_ptr<const ContentMemo::Done> ContentMemo::Take(const std::string& key,
                                                           const StopToken& stop, bool* mine) {
  *mine = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    auto it = kept_.find(key);
    if (it == kept_.end()) {
      // Past the bound, nothing more is kept: read by each thread that meets it.
      if (bytes_ + EntryCost(key) > kMaxBytes) return nullptr;
      it = kept_.emplace(key, Entry{}).first;
      bytes_ += EntryCost(key);
    }
    Entry& e = it->second;
    switch (e.state) {
      case State::kDone:
        return e.done;
      case State::kUnkept:
        return nullptr;  // read by each: not kept
      case State::kClaimed:
        e.state = State::kReading;
        *mine = true;
        return nullptr;
      case State::kReading:
        if (stop.stopped()) return nullptr;
        // Another thread reads it now (a read, a match and a scan: bounded); woken when it is
        // done, and looked at again now and then for the stop.
        read_.wait_for(lock, std::chrono::milliseconds(50));
        break;
    }
  }
}

void ContentMemo::Keep(std::string key, bool binary, const FileHits& hits) {
  size_t cost = sizeof(Done);
  for (const auto& l : hits.lines) cost += l.text.size() + sizeof(ShownLine);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(key);
    if (it == kept_.end()) {
      if (bytes_ + EntryCost(key) > kMaxBytes) return;
      it = kept_.emplace(key, Entry{}).first;
      bytes_ += EntryCost(key);
    }
    Entry& e = it->second;
    if (e.state == State::kDone) return;
    if (bytes_ + cost > kMaxBytes) {
      e.state = State::kUnkept;
    } else {
      auto done = std::make_shared<Done>();
      done->binary = binary;
      done->hits = hits;
      e.done = std::move(done);
      e.state = State::kDone;
      bytes_ += cost;
    }
  }
  read_.notify_all();
}

void ContentMemo::Release(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(key);
    if (it == kept_.end() || it->second.state != State::kReading) return;
    it->second.state = State::kClaimed;
  }
  read_.notify_all();
}

}  // namespace rr
