// MirrorSyncer: runs every mirror's sync in the background, on a schedule, never in a tool
// call. Each mirror is synced at start, then every `sync_every` (give or take a tenth, so that
// many mirrors do not reach their hosts at the same moment); a failed sync is tried again after
// 30 s, then twice as long each time, up to sync_every. At most `concurrency` syncs run at once;
// one is stopped after `max_duration` (30 minutes). A sync's outcome goes to the mirror's
// MirrorState (what list_repos shows) and to the server's log, scrubbed of the token.
//
// Thread safety: Start, Stop and the accessors may be called from any thread; Stop (or the
// destructor) stops running syncs (their mirrors keep their last good state) and joins.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/config/config.h"
#include "core/sync/git_process.h"

namespace rr {

class MirrorSyncer {
 public:
  struct Options {
    size_t concurrency = 4;
    std::chrono::seconds max_duration{30 * 60};
    std::chrono::seconds first_retry{30};
    // Each finished sync's line for the log (scrubbed). Default: the server's log.
    std::function<void(const std::string&)> log;
  };

  MirrorSyncer(GitProcess git, std::vector<MirrorConfig> mirrors, Options options);
  ~MirrorSyncer();

  void Start();
  void Stop();

  // How many syncs ran at once at most, so far (for tests and the benchmark).
  size_t most_at_once() const { return most_at_once_.load(); }
  size_t finished() const { return finished_.load(); }

 private:
  using Clock = std::chrono::steady_clock;
  struct Slot {
    Clock::time_point due;
    int failures = 0;
    bool running = false;
  };
  void Work();
  Clock::duration Jitter(Clock::duration d);

  GitProcess git_;
  std::vector<MirrorConfig> mirrors_;
  Options options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Slot> slots_;
  std::vector<std::thread> workers_;
  std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
  std::atomic<size_t> running_{0}, most_at_once_{0}, finished_{0};
  uint64_t seed_;
};

// The syncer for a configuration's mirrors, started; null when it has none. Says at start, in
// the server's log, where the mirrors are kept; an error when git cannot be found.
Result<std::unique_ptr<MirrorSyncer>> StartMirrorSync(const Config& config);

// --check's lines about the mirrors: each one's URL, refs, token variable (set or not; never a
// value), folder and last sync. Reaches no host.
std::vector<std::string> DescribeMirrors(const Config& config);

}  // namespace rr
