// PeriodicService: a background service (service.h) that keeps some work up to date on one
// thread of its own, by passes -- the history indexer and the text indexer are two. It holds
// what every such service repeats: the thread, Start and Stop, a whole pass, then a wait on its
// Clock before the next (spread either way, so that many servers sharing a machine do not pass
// in step), and nudges that ask for work now instead of at the next pass.
//
//   - Start starts the thread once Wanted() says there is something to do (else none is
//     started, and never will be); the first pass begins at once.
//   - Between two passes: a whole pass asked for (Nudge()) begins at once; keys nudged
//     (Nudge(key): "this repository's refs moved") are handed to CatchUp together, as soon as
//     the thread is free, and the wait for the next pass goes on after; every `glance` (when
//     set) Glance() runs, a cheap look for what moved -- spaced at least 20 times as long as
//     the last glance took, so that looking never takes more than a twentieth of the thread.
//     Keys nudged before a pass begins are dropped: the pass covers them.
//   - Every wait is on Schedule::clock, so a test moves a ManualClock on instead of sleeping;
//     rounds() and WaitRounds() tell a test that the work it asked for has been done.
//   - Stop ends a wait at once, tells the work under way to stop (stop() / stopping()) and
//     waits for the thread. A subclass calls Stop() in its own destructor, before its members
//     are gone (the thread calls its overrides).
//
// The work runs at the lowest CPU and I/O priority (when Schedule::lowest_priority), so that
// answering agents always comes first; after each pass the memory it freed goes back to the
// system (GiveBackFreeHeap), not kept for the next.
//
// Thread safety: Start, Stop, Nudge and the accessors may be called from any thread; Pass,
// CatchUp and Glance run on the service's thread only, one at a time.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/runtime/clock.h"
#include "core/runtime/service.h"
#include "core/util/stop.h"

namespace rr {

class PeriodicService : public BackgroundService {
 public:
  struct Schedule {
    std::chrono::milliseconds every{60000};  // from the end of a pass to the next
    // Each wait is `every` times a factor drawn in [1 - spread, 1 + spread).
    double spread = 0;
    // Between passes, Glance() every `glance` (zero: never).
    std::chrono::milliseconds glance{0};
    // Where the waits are measured; it must outlive the service.
    const Clock* clock = &Clock::Real();
    bool lowest_priority = true;
  };

  explicit PeriodicService(Schedule schedule);
  ~PeriodicService() override;
  PeriodicService(const PeriodicService&) = delete;
  PeriodicService& operator=(const PeriodicService&) = delete;

  void Start() override;
  void Stop() override;

  // A whole pass now (once the work under way ends), instead of at the next pass's time.
  void Nudge();
  // `key` caught up soon (CatchUp), without a whole pass.
  void Nudge(const std::string& key);

  // Whole passes finished so far.
  uint64_t passes() const;
  // Passes, catch-ups and glances finished so far.
  uint64_t rounds() const;
  // Blocks until rounds() reaches `n`, or `timeout` of real time has passed (for tests, which
  // must not guess with a sleep). Returns whether it reached `n`.
  bool WaitRounds(uint64_t n, std::chrono::milliseconds timeout) const;

 protected:
  // Asked once by Start: false when there is nothing to do, ever (no thread is started).
  virtual bool Wanted() = 0;
  // One whole pass over the work.
  virtual void Pass() = 0;
  // The keys nudged since the last round, each once, sorted. By default a whole pass.
  virtual void CatchUp(const std::vector<std::string>& keys);
  // A cheap look for what moved (Schedule::glance). By default nothing.
  virtual void Glance() {}

  bool stopping() const { return stopping_->load(); }
  // Stopped only by Stop: no time limit.
  const StopToken& stop() const { return stop_; }
  const Clock& clock() const { return clock_; }

 private:
  void Run();
  Clock::Duration Spread(Clock::Duration d);

  Schedule schedule_;
  const Clock& clock_;
  std::shared_ptr<std::atomic<bool>> stopping_;
  StopToken stop_;
  mutable std::mutex mu_;
  std::condition_variable cv_;             // the thread's waits: Stop, Nudge
  mutable std::condition_variable round_;  // WaitRounds
  bool started_ = false;
  bool whole_ = false;          // a whole pass asked for
  std::set<std::string> keys_;  // nudged, not caught up yet
  uint64_t passes_ = 0, rounds_ = 0;
  std::mt19937_64 random_;  // the spread
  std::thread thread_;
};

}  // namespace rr
