// BoundedExecutor: a fixed number of threads running tasks from a queue of bounded length. A
// task offered while the queue is full is refused at once with an error that says so, never
// queued without bound and never run on the caller's thread behind its back: the caller decides
// (run it itself, answer "busy", try later).
//
// A BackgroundService: Start starts the threads (tasks submitted before wait for them); Stop
// refuses new tasks, drops the tasks still queued, and returns once the running ones have
// ended. WaitIdle waits for the queue to empty and the tasks running to end. A task must not throw
// (one that does is caught and its exception dropped: the thread lives on).
//
// Thread safety: every member may be called from any thread, Submit from a task too.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/runtime/service.h"
#include "core/util/result.h"

namespace rr {

class BoundedExecutor final : public BackgroundService {
 public:
  struct Options {
    std::string name = "executor";  // names it in its refusals
    size_t threads = 4;             // at least 1
    size_t queue = 64;              // tasks waiting for a thread, at most (0: only idle threads)
  };

  explicit BoundedExecutor(Options options);
  ~BoundedExecutor() override;

  std::string name() const override { return options_.name; }
  void Start() override;
  void Stop() override;

  // Queues `task`. Refused, with nothing queued, when the queue already holds Options::queue
  // tasks that no thread has taken yet, or after Stop.
  Status Submit(std::function<void()> task);

  size_t threads() const { return options_.threads; }
  // Tasks queued and not yet taken by a thread; tasks running now.
  size_t queued() const;
  size_t running() const;
  // Waits until no task is queued or running (at once after Stop).
  void WaitIdle();

 private:
  void Work();

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<std::function<void()>> queue_;
  size_t running_ = 0, idle_ = 0;
  bool started_ = false, stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace rr
