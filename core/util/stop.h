// StopToken: tells long work when to stop -- the agent cancelled the call, or its time is up.
// Checked in every loop over git data; cheap to call often.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace rr {

class StopToken {
 public:
  using Clock = std::chrono::steady_clock;

  StopToken()
      : cancelled_(std::make_shared<std::atomic<bool>>(false)),
        deadline_(Clock::time_point::max()) {}
  StopToken(std::shared_ptr<std::atomic<bool>> cancelled, Clock::duration budget)
      : cancelled_(std::move(cancelled)), deadline_(Clock::now() + budget), budget_(budget) {}

  bool cancelled() const { return cancelled_->load(std::memory_order_relaxed); }
  bool expired() const { return Clock::now() >= deadline_; }
  bool stopped() const { return cancelled() || expired(); }
  // The time the call was given (zero: no limit).
  Clock::duration budget() const { return budget_; }
  // When the call's time is up (time_point::max(): never), and the flag its cancelling sets:
  // for work handed to another process that must end with the call (core/sync's fetches).
  Clock::time_point deadline() const { return deadline_; }
  const std::atomic<bool>* cancel_flag() const { return cancelled_.get(); }

  // Why the work stopped, as a sentence for the answer.
  std::string Why() const {
    if (cancelled()) return "the call was cancelled";
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(budget_).count();
    const std::string spent =
        ms % 1000 == 0 ? std::to_string(ms / 1000) + (ms == 1000 ? " second" : " seconds")
                       : std::to_string(ms) + " ms";
    return "the call was stopped after " + spent +
           ", its time limit; narrow it (a path, a pattern) and call again";
  }

 private:
  std::shared_ptr<std::atomic<bool>> cancelled_;
  Clock::time_point deadline_;
  Clock::duration budget_{};
};

}  // namespace rr
