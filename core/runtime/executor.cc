#include "core/runtime/executor.h"

#include <algorithm>

#include "core/util/heap_trim.h"

namespace rr {

BoundedExecutor::BoundedExecutor(Options options) : options_(std::move(options)) {
  options_.threads = std::max<size_t>(1, options_.threads);
}

BoundedExecutor::~BoundedExecutor() { Stop(); }

void BoundedExecutor::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ || stopping_) return;
  started_ = true;
  for (size_t i = 0; i < options_.threads; ++i) threads_.emplace_back([this] { Work(); });
}

void BoundedExecutor::Stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
    threads.swap(threads_);
  }
  cv_.notify_all();
  idle_cv_.notify_all();
  for (auto& t : threads) t.join();
}

Status BoundedExecutor::Submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return Error{"the " + options_.name + " is stopping: no task is taken any more"};
    // A thread idle now takes the task at once, even with a queue of 0.
    const size_t room = options_.queue + (started_ ? idle_ : 0);
    if (queue_.size() >= room) {
      return Error{"the " + options_.name + " is busy: " + std::to_string(options_.threads) +
                   (options_.threads == 1 ? " thread is" : " threads are") + " at work and " +
                   std::to_string(queue_.size()) +
                   (queue_.size() == 1 ? " task waits" : " tasks wait") +
                   ", its limit; try again once some have finished"};
    }
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
  return Status::Ok();
}

size_t BoundedExecutor::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

size_t BoundedExecutor::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

void BoundedExecutor::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return running_ == 0 && (queue_.empty() || stopping_); });
}

void BoundedExecutor::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    ++idle_;
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (stopping_) return;
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    try {
      task();
    } catch (...) {
    }
    task = nullptr;  // what it holds is released outside the lock
    lock.lock();
    --running_;
    if (running_ == 0 && queue_.empty()) idle_cv_.notify_all();
    if (queue_.empty() && !stopping_) {
      // About to wait: what the task freed goes back to the heap rather than staying with this
      // thread until its next task (core/util/heap_trim.h). Counted idle meanwhile, as it is:
      // a task submitted now is taken (Submit makes room for idle threads), not refused.
      ++idle_;
      lock.unlock();
      ReleaseThreadCache();
      lock.lock();
      --idle_;
    }
  }
}

}  // namespace rr
