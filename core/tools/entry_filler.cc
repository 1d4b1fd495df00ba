#include "core/tools/entry_filler.h"

#include <algorithm>

#include "core/util/heap_trim.h"

namespace rr {

EntryFiller::EntryFiller(size_t threads, ReadFn read)
    : threads_wanted_(std::max<size_t>(1, threads)),
      read_(std::move(read)),
      stopping_(std::make_shared<std::atomic<bool>>(false)),
      // No time limit of its own: one entry is a bounded read; only the destructor stops it.
      stop_(stopping_, std::chrono::hours(24 * 365 * 50)) {}

EntryFiller::~EntryFiller() { Stop(); }

void EntryFiller::Stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_->store(true);
    queue_.clear();
    threads.swap(threads_);
  }
  work_cv_.notify_all();
  done_cv_.notify_all();
  for (auto& t : threads) t.join();
}

void EntryFiller::Fill(const std::vector<std::shared_ptr<const ServedRepo>>& repos,
                       Clock::time_point until, const StopToken& stop) {
  std::unique_lock<std::mutex> lock(mu_);
  if (stopping_->load()) return;
  if (threads_.empty()) {
    for (size_t i = 0; i < threads_wanted_; ++i) threads_.emplace_back([this] { Work(); });
  }
  // This call's repositories go before what earlier calls left, in the order given.
  for (auto it = repos.rbegin(); it != repos.rend(); ++it) {
    if (pending_.insert(it->get()).second) queue_.push_front(*it);
  }
  work_cv_.notify_all();
  auto done = [&] {
    if (stopping_->load() || stop.stopped()) return true;
    return std::none_of(repos.begin(), repos.end(),
                        [&](const auto& r) { return pending_.count(r.get()) > 0; });
  };
  // Woken as each entry is kept; the call's own stop is looked at at least every 50 ms.
  while (!done() && Clock::now() < until) {
    done_cv_.wait_until(lock, std::min(until, Clock::now() + std::chrono::milliseconds(50)));
  }
}

void EntryFiller::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return stopping_->load() || !queue_.empty(); });
    if (stopping_->load()) return;
    std::shared_ptr<const ServedRepo> repo = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    auto entry = read_(*repo, stop_);
    if (entry && !stopping_->load()) repo->entry_cache().Keep(std::move(entry));
    lock.lock();
    pending_.erase(repo.get());
    done_cv_.notify_all();
    if (queue_.empty()) {
      // Nothing left to read: what the reads used goes back to the system, not kept in this
      // thread's own part of the heap until the next page.
      lock.unlock();
      GiveBackFreeHeap();
      lock.lock();
    }
  }
}

}  // namespace rr
