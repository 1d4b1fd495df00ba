#include "core/runtime/clock.h"

#include <algorithm>

namespace rr {

const Clock& Clock::Real() {
  static const SteadyClock clock;
  return clock;
}

Clock::TimePoint SteadyClock::Now() const { return std::chrono::steady_clock::now(); }

std::time_t SteadyClock::Wall() const { return std::time(nullptr); }

bool SteadyClock::WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                            TimePoint until, const std::function<bool()>& done) const {
  if (until == TimePoint::max()) {
    cv.wait(lock, done);
    return true;
  }
  return cv.wait_until(lock, until, done);
}

// An arbitrary start, far from zero, so that a schedule that subtracts from Now stays valid.
ManualClock::ManualClock(std::time_t wall)
    : start_(TimePoint(std::chrono::hours(24 * 365))), wall_start_(wall), now_(start_) {}

Clock::TimePoint ManualClock::Now() const {
  std::lock_guard<std::mutex> g(mu_);
  return now_;
}

std::time_t ManualClock::Wall() const {
  std::lock_guard<std::mutex> g(mu_);
  return wall_start_ + std::chrono::duration_cast<std::chrono::seconds>(now_ - start_).count();
}

void ManualClock::Advance(Duration d) {
  if (d <= Duration::zero()) return;
  std::lock_guard<std::mutex> g(mu_);
  now_ += d;
  ++advances_;
  changed_.notify_all();
}

bool ManualClock::WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                            TimePoint until, const std::function<bool()>& done) const {
  uint64_t id;
  {
    std::lock_guard<std::mutex> g(mu_);
    id = next_waiter_++;
  }
  bool result = false;
  while (true) {
    if (done()) {
      result = true;
      break;
    }
    {
      // Seen waiting only while its time is not reached: Waiting() never shows a thread about
      // to wake.
      std::lock_guard<std::mutex> g(mu_);
      if (now_ >= until) break;
      waiters_[id] = Waiter{until, advances_};
      changed_.notify_all();
    }
    // Notified: done() is read again at once; else the manual time is read again within a
    // millisecond.
    cv.wait_for(lock, std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> g(mu_);
  waiters_.erase(id);
  changed_.notify_all();
  return result;
}

std::vector<Clock::TimePoint> ManualClock::Waiting(size_t threads,
                                                   std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> g(mu_);
  std::vector<TimePoint> out;
  auto settled = [&] {
    if (waiters_.size() < threads) return false;
    for (const auto& [id, w] : waiters_) {
      if (w.seen != advances_) return false;
    }
    return true;
  };
  changed_.wait_for(g, timeout, settled);
  for (const auto& [id, w] : waiters_) out.push_back(w.until);
  std::sort(out.begin(), out.end());
  if (!settled()) out.resize(std::min(out.size(), threads ? threads - 1 : 0));
  return out;
}

}  // namespace rr
