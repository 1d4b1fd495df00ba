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

std::shared_ptr<const ContentMemo::Done> ContentMemo::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kept_.find(key);
  return it == kept_.end() ? nullptr : it->second.done;
}

bool ContentMemo::Claimed(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.count(key) != 0;
}

bool ContentMemo::Claim(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.emplace(key, Entry{}).second;
}

std::shared_ptr<const ContentMemo::Done> ContentMemo::Take(const std::string& key,
                                                           const StopToken& stop, bool* mine) {
  *mine = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    Entry& e = kept_[key];
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
  size_t cost = key.size() + sizeof(Done) + 64;
  for (const auto& l : hits.lines) cost += l.text.size() + sizeof(ShownLine);
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = kept_[key];
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
