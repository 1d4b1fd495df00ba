// Clock: where a background schedule reads the time and waits. Every interval, jitter and
// backoff of a background service (core/runtime/service.h) is measured on the Clock it was given,
// so a test hands it a ManualClock and moves time on by hand instead of sleeping.
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace rr {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;

  virtual ~Clock() = default;

  // The time on this clock; it never goes back.
  virtual TimePoint Now() const = 0;
  // Seconds since the epoch, for what is shown or compared with a host's dates (a mirror's
  // last sync, an HTTP Retry-After date).
  virtual std::time_t Wall() const = 0;

  // Waits, with `lock` held on the mutex `cv` belongs to, until this clock reaches `until` or
  // `done()` is true. `done` is read with the lock held, at once and whenever `cv` is notified;
  // whoever makes it true must notify `cv` (as a Stop does). Returns done(). `until` may be
  // TimePoint::max(): no time limit.
  virtual bool WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                         TimePoint until, const std::function<bool()>& done) const = 0;

  bool WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, Duration d,
               const std::function<bool()>& done) const {
    return WaitUntil(lock, cv, Now() + d, done);
  }

  // The process's steady clock (and the system clock for Wall); one for the whole process.
  static const Clock& Real();
};

// The real clock: std::chrono::steady_clock, and condition_variable::wait_until.
class SteadyClock final : public Clock {
 public:
  TimePoint Now() const override;
  std::time_t Wall() const override;
  bool WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint until,
                 const std::function<bool()>& done) const override;
};

// A clock for tests: time stands still until Advance moves it. A thread waiting on it wakes
// when its `until` is reached by an Advance (within a millisecond of real time) or as soon as
// its condition variable is notified. Waiting() lets a test see where every thread of the
// service under test is waiting, and until when, before it moves time on -- so a test never
// guesses with a sleep whether a service has reached its wait.
class ManualClock final : public Clock {
 public:
  // Starts at an arbitrary steady time and at `wall` seconds since the epoch.
  explicit ManualClock(std::time_t wall = 1800000000);

  TimePoint Now() const override;
  std::time_t Wall() const override;
  bool WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint until,
                 const std::function<bool()>& done) const override;

  // Moves the time (and the wall time) on by `d` (not back: a negative `d` does nothing).
  void Advance(Duration d);

  // Blocks until at least `threads` threads wait on this clock and each of them has seen the
  // time as it is now (so none is about to wake for an earlier Advance), or until `timeout` of
  // real time has passed. Returns when each waiting thread will wake, earliest first
  // (TimePoint::max() for one waiting without a time limit); fewer than `threads` on timeout.
  std::vector<TimePoint> Waiting(
      size_t threads, std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

 private:
  struct Waiter {
    TimePoint until;
    uint64_t seen = 0;  // the Advance it last saw
  };

  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  const TimePoint start_;
  const std::time_t wall_start_;
  TimePoint now_;
  uint64_t advances_ = 0;
  mutable uint64_t next_waiter_ = 0;
  mutable std::map<uint64_t, Waiter> waiters_;
};

}  // namespace rr
