// The files between a search's walkers and its searching threads (core/search/text_search.cc):
// the items, the bounded queue, and a walker's outbox that hands them on a few at a time.
// Internal to the search.
//
// Thread safety: WorkQueue may be used from any thread; an Outbox belongs to one walker.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

#include "core/served/served_repo.h"
#include "core/util/stop.h"

namespace rr {

// A file walked, waiting to be searched: its target, its place in the target's walk, itself.
struct WorkItem {
  size_t target = 0;
  size_t index = 0;
  Node node;
  // From a text index's list, not found again in the tree by the walker (another repository's
  // copy of it was: ContentMemo::Claim): found again by the searching thread before it is read.
  bool verify = false;
};

// The files between the walkers and the searching threads: at most `capacity` at once, so the
// walkers wait while the searchers catch up. A walker hands files on a few at a time (Outbox):
// over an organisation a common word's search hands on thousands, and one at a time each woke a
// searching thread that took it and slept again -- a fifth of the search's time was threads
// waking and switching; a searching thread takes them a few at a time too (PopSome), which took
// a common word's first search over 20,000 repositories from about 300 to 260 ms.
class WorkQueue {
 public:
  WorkQueue(size_t capacity, size_t walkers) : capacity_(capacity), walkers_(walkers) {}

  // Hands on every item of *items (emptied). False when `stop` fired while it waited for room:
  // the items not handed on yet are dropped.
  bool PushAll(std::vector<WorkItem>* items, const StopToken& stop) {
    std::unique_lock<std::mutex> lock(mu_);
    bool all = true;
    for (WorkItem& item : *items) {
      while (items_.size() >= capacity_) {
        not_empty_.notify_all();  // (what is already in is taken meanwhile)
        if (stop.stopped()) {
          all = false;
          break;
        }
        not_full_.wait_for(lock, std::chrono::milliseconds(50));
      }
      if (!all) break;
      items_.push_back(std::move(item));
    }
    items->clear();
    if (items_.size() > 1) {
      not_empty_.notify_all();
    } else if (!items_.empty()) {
      not_empty_.notify_one();
    }
    return all;
  }

  // Moves up to `most` items into *out (a searching thread's own), fewer when few wait: at most
  // a quarter of those waiting, so that the others' threads are not left idle. False once every
  // walker is done and nothing is left.
  bool PopSome(std::deque<WorkItem>* out, size_t most) {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !items_.empty() || walkers_ == 0; });
    if (items_.empty()) return false;
    const size_t n = std::max<size_t>(1, std::min(most, items_.size() / 4));
    for (size_t k = 0; k < n; ++k) {
      out->push_back(std::move(items_.front()));
      items_.pop_front();
    }
    // Room for one walker, or for several.
    if (n == 1) {
      not_full_.notify_one();
    } else {
      not_full_.notify_all();
    }
    return true;
  }

  void WalkerDone() {
    std::lock_guard<std::mutex> lock(mu_);
    --walkers_;
    not_empty_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::deque<WorkItem> items_;
  size_t capacity_;
  size_t walkers_;
};

// A walker's files on their way to the queue: handed on kBatch at a time, and whatever is left
// when the walker is done (or told to, Flush).
class Outbox {
 public:
  static constexpr size_t kBatch = 16;
  Outbox(WorkQueue* queue, const StopToken* stop) : queue_(queue), stop_(stop) {}
  // False when the stop fired while the queue had no room: this item, and those before it
  // not handed on yet, are dropped.
  bool Push(WorkItem item) {
    items_.push_back(std::move(item));
    return items_.size() < kBatch || Flush();
  }
  bool Flush() { return items_.empty() || queue_->PushAll(&items_, *stop_); }

 private:
  WorkQueue* queue_;
  const StopToken* stop_;
  std::vector<WorkItem> items_;
};

}  // namespace rr
