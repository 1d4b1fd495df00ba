#include "core/search/content_memo.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/util/heap_trim.h"

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
  for (const auto& r : hits.runs) {
    cost += sizeof(FileHits::Run) + (r.source.text ? r.source.text->size() : 0) +
            (r.source.blob ? r.source.blob->bytes.size() : 0);
  }
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

void ContentMemo::Settle() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = kept_.begin(); it != kept_.end();) {
    if (it->second.state == State::kDone) {
      ++it;
      continue;
    }
    bytes_ -= std::min(bytes_, EntryCost(it->first));
    it = kept_.erase(it);
  }
}

size_t ContentMemo::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

ContentMemoShelf& ContentMemoShelf::Shared() {
  static ContentMemoShelf* shelf = [] {
    auto* made = new ContentMemoShelf();  // never destroyed: used until exit
    AddCacheTrim([made] { made->DropUnused(); });
    return made;
  }();
  return *shelf;
}

void ContentMemoShelf::DropUnused(std::chrono::steady_clock::time_point now) {
  std::deque<Kept> gone;  // freed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  DropOld(now, &gone);
}

std::shared_ptr<ContentMemo> ContentMemoShelf::Take(const std::string& key,
                                                    std::shared_ptr<const void> owner) {
  std::deque<Kept> gone;  // freed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  DropOld(std::chrono::steady_clock::now(), &gone);
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (it->key != key || it->owner != owner) continue;
    auto memo = std::move(it->memo);
    gone.push_back(std::move(*it));
    kept_.erase(it);
    // A memo half full would soon keep nothing new, and the search would read each copy of a
    // content it has not met: a new one then.
    if (memo->bytes() > ContentMemo::kMaxBytes / 2) {
      gone.back().memo = std::move(memo);
      break;
    }
    return memo;
  }
  return std::make_shared<ContentMemo>();
}

void ContentMemoShelf::Put(const std::string& key, std::shared_ptr<ContentMemo> memo,
                           std::shared_ptr<const void> owner) {
  if (!memo) return;
  memo->Settle();
  const auto now = std::chrono::steady_clock::now();
  std::deque<Kept> gone;  // freed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  // Another search with the same key put its memo back meanwhile: the one put last is kept.
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (it->key == key && it->owner == owner) {
      gone.push_back(std::move(*it));
      kept_.erase(it);
      break;
    }
  }
  if (memo->bytes() > kMaxBytes) return;
  kept_.push_back(Kept{key, std::move(memo), std::move(owner), now});
  DropOld(now, &gone);
}

void ContentMemoShelf::DropOld(std::chrono::steady_clock::time_point now, std::deque<Kept>* gone) {
  size_t total = 0;
  for (const Kept& k : kept_) total += k.memo->bytes();
  while (!kept_.empty() &&
         (kept_.size() > kMemos || total > kMaxBytes || now - kept_.front().used > kUnusedFor)) {
    total -= kept_.front().memo->bytes();
    gone->push_back(std::move(kept_.front()));
    kept_.pop_front();
  }
}

size_t ContentMemoShelf::memos() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.size();
}

size_t ContentMemoShelf::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t total = 0;
  for (const Kept& k : kept_) total += k.memo->bytes();
  return total;
}

void ContentMemoShelf::Clear() {
  std::deque<Kept> gone;
  std::lock_guard<std::mutex> lock(mu_);
  gone.swap(kept_);
}

}  // namespace rr
