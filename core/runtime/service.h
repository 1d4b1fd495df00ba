// BackgroundService: work the server keeps doing on threads of its own while it serves (the
// mirror syncer, the group relister, the history indexer, list_repos' entry filler), and the
// Runtime that owns them.
//
// A service's contract:
//  - Start returns promptly; the work runs on the service's own threads. A second Start, or a
//    Start after Stop, does nothing.
//  - Stop returns once every thread of the service has ended: work under way is told to stop
//    and ends at its next check (what it finished stays). Stop may be called more than once,
//    and on a service never started. A service waiting for its next turn wakes at once: every
//    wait goes through its Clock (core/runtime/clock.h) with a condition that Stop makes true.
//  - Every interval, jitter and backoff is read from the Clock the service was given, so a test
//    moves a ManualClock on instead of sleeping.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/runtime/clock.h"

namespace rr {

class BackgroundService {
 public:
  virtual ~BackgroundService() = default;
  // A short name for the log and the tests ("mirror syncer").
  virtual std::string name() const = 0;
  virtual void Start() = 0;
  virtual void Stop() = 0;
};

// Runtime: owns the process's background services. Services are added in the order they
// depend on each other (a service added later may use one added before it: the relister tells
// the syncer of mirrors); StartAll starts them in that order and Stop stops them in the reverse
// order, so nothing is stopped while a service that uses it still runs. The destructor stops.
//
// Thread safety: every member may be called from any thread; a Start racing Stop either runs
// before Stop begins or does nothing.
class Runtime {
 public:
  explicit Runtime(const Clock& clock = Clock::Real()) : clock_(clock) {}
  ~Runtime() { Stop(); }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The clock the services of this runtime are given.
  const Clock& clock() const { return clock_; }

  // Takes `service` (not started). Returns it, for the caller to use and to Start later.
  // Null is ignored (returns null).
  template <class T>
  T* Add(std::unique_ptr<T> service) {
    return Add(std::shared_ptr<T>(std::move(service)));
  }
  // The same, for a service something else holds too (list_repos' entry filler, held by the
  // tool): the runtime still stops it, and it lives as long as either holds it.
  template <class T>
  T* Add(std::shared_ptr<T> service) {
    T* raw = service.get();
    AddService(std::shared_ptr<BackgroundService>(std::move(service)));
    return raw;
  }

  // Starts every service added and not started yet, in the order added.
  void StartAll();
  // Starts one service added before (a service started later than the others: the history
  // indexer, once the server has answered). Does nothing after Stop.
  void Start(BackgroundService* service);
  // Stops every service, the last added first, each waited for. Later calls do nothing.
  void Stop();

  // The services' names, in the order added, and which of them are started.
  std::vector<std::string> Names() const;
  bool started(const BackgroundService* service) const;

 private:
  struct Entry {
    std::shared_ptr<BackgroundService> service;
    bool started = false;
  };
  void AddService(std::shared_ptr<BackgroundService> service);

  const Clock& clock_;
  mutable std::mutex mu_;
  std::vector<Entry> services_;
  bool stopped_ = false;
};

}  // namespace rr
