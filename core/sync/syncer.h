// MirrorSyncer: runs every mirror's sync in the background, on a schedule, never in a tool
// call. Each mirror is synced at start, then every `sync_every` (give or take a tenth, so that
// many mirrors do not reach their hosts at the same moment); a failed sync is tried again after
// 30 s, then twice as long each time, up to sync_every. At most `concurrency` syncs run at once;
// one is stopped after `max_duration` (30 minutes). A sync's outcome goes to the mirror's
// MirrorState (what list_repos shows) and to the server's log, scrubbed of the token.
//
// Mirrors come and go while it runs (a group listed again): Add schedules a new one's first
// sync soon; Remove takes one out of the schedule and stops its sync under way, which leaves
// the mirror's folder as its last good sync made it (the folder stays on disk).
// A group's first syncs say how far they are: the log line of each ends with "(group
// github.com/acme, first sync: repository 3 of 40)".
//
// A background service (core/runtime/service.h). Every schedule (the first syncs' spread, the
// interval, the backoff) is read from Options::clock, and every wait goes through it, so a test
// moves a ManualClock on instead of sleeping; a sync's own time limit is real time (it bounds a
// git process).
//
// Thread safety: Start, Stop, Add, Remove and the accessors may be called from any thread;
// Stop (or the destructor) stops running syncs (their mirrors keep their last good state) and
// joins.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/config/config.h"
#include "core/runtime/clock.h"
#include "core/runtime/service.h"
#include "core/sync/git_process.h"

namespace rr {

class MirrorSyncer final : public BackgroundService {
 public:
  struct Options {
    size_t concurrency = 4;
    std::chrono::seconds max_duration{30 * 60};
    std::chrono::seconds first_retry{30};
    // Each finished sync's line for the log (scrubbed). Default: the server's log.
    std::function<void(const std::string&)> log;
    // Where the schedule reads the time and waits; it must outlive the syncer.
    const Clock* clock = &Clock::Real();
  };

  MirrorSyncer(GitProcess git, std::vector<MirrorConfig> mirrors, Options options);
  ~MirrorSyncer() override;

  std::string name() const override { return "mirror syncer"; }
  void Start() override;
  void Stop() override;

  // Adds a mirror (a group's new repository), its first sync due within seconds. A mirror with
  // the folder (`dir`) of one already kept is not added twice.
  void Add(MirrorConfig mirror);
  // Told the mirror's name after each sync that went through (its refs may have moved): the
  // text and history indexers catch up with it at once. Called on a sync's thread, outside the
  // syncer's lock; set before Start.
  void OnSynced(std::function<void(const std::string& name)> synced);
  // Removes the mirror kept in `dir`: never synced again; a sync of it under way is stopped.
  // False when there is none.
  bool Remove(const std::string& dir);
  // How many mirrors it keeps now.
  size_t size() const;

  // How many syncs ran at once at most, so far (for tests and the benchmark).
  size_t most_at_once() const { return most_at_once_.load(); }
  size_t finished() const { return finished_.load(); }

 private:
  // One mirror kept: shared with the worker syncing it, so that Remove never pulls it from
  // under a sync.
  struct Slot {
    MirrorConfig mirror;
    Clock::TimePoint due;
    int failures = 0;
    bool running = false;
    bool first = true;  // its first sync since it was added has not ended
    std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
  };
  // A group's first syncs: how many were added, how many ended.
  struct FirstSyncs {
    size_t total = 0, done = 0;
  };
  void Work();
  void StartWorkersLocked();
  Clock::Duration Jitter(Clock::Duration d);

  GitProcess git_;
  Options options_;
  const Clock& clock_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t changes_ = 0;  // under mu_: the schedule changed (a mirror added, a sync ended)
  std::vector<std::shared_ptr<Slot>> slots_;
  // Slots a worker is syncing now, removed ones included: Stop stops them all.
  std::vector<std::shared_ptr<Slot>> in_flight_;
  std::map<std::string, FirstSyncs> first_;  // by group label
  std::function<void(const std::string&)> synced_;
  bool started_ = false;
  std::vector<std::thread> workers_;
  std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
  std::atomic<size_t> running_{0}, most_at_once_{0}, finished_{0};
  uint64_t seed_;
};

// The syncer for a configuration's mirrors, not started (the app's Runtime starts it); null when
// it has none and no group can bring one. Says, in the server's log, where the mirrors are kept;
// an error when git cannot be found.
Result<std::unique_ptr<MirrorSyncer>> MakeMirrorSync(const Config& config,
                                                     const Clock& clock = Clock::Real());

// --check's lines about the mirrors: each one's URL, refs, token variable (set or not; never a
// value), folder and last sync. Reaches no host.
std::vector<std::string> DescribeMirrors(const Config& config);

}  // namespace rr
