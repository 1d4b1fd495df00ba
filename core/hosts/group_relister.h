// GroupRelister: each group listed again while the server runs, in the background, never in a
// tool call (seed: "A group's listing"; list_repos: "A group's repositories are those its host
// listed at the last sync: the set can change between two calls").
//
// Each group is listed every `list_every` (its `sync_every` when not given), give or take a
// tenth, as the syncer spreads syncs. A listing that succeeds is kept (groups/<digest>.json)
// and becomes the group's set:
//  - a repository added becomes a mirror the syncer syncs ("not mirrored yet" meanwhile);
//  - one no longer listed stops being served: its syncs stop, the log says which left, and its
//    folder stays on disk as its last good sync made it;
//  - the others keep their ServedRepo (caches, MirrorState, entry cache): the new Catalog is
//    made from the old one's repositories wherever a mirror's folder (its digest) is the same.
// The new Catalog is swapped into the LiveCatalog at once; a call that began before reads the
// set it began with to its end.
// A listing that fails changes nothing: the group keeps what it had. It is tried again after
// 30 seconds, twice as long each time up to the group's interval, and never before the host's
// Retry-After (429 / 503: seconds or an HTTP date) allows, itself capped at a day.
//
// A background service (core/runtime/service.h): one thread of its own (Start / Stop). Every
// wait and every "when" is read from Options::clock, so a test moves a ManualClock on to reach
// the next listing. ListNow runs a listing on the caller's thread (tests) and must not run at
// the same time as that thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/config/config.h"
#include "core/hosts/groups.h"
#include "core/runtime/clock.h"
#include "core/runtime/service.h"
#include "core/served/live_catalog.h"
#include "core/sync/syncer.h"

namespace rr {

// The longest a host's Retry-After is waited for: a day.
inline constexpr std::chrono::seconds kMaxRetryAfter{24 * 3600};

// A Retry-After header's wait from `now`: delay-seconds ("120") or an HTTP date ("Wed, 21 Oct
// 2026 07:28:00 GMT"), at most kMaxRetryAfter; a date already past gives 0. Nothing when it is
// neither.
std::optional<std::chrono::seconds> ParseRetryAfter(const std::string& value, std::time_t now);

// How long until a group is listed again, after a listing. `jitter` in [0, 1) places the wait
// within a tenth either side of its middle. After a success: `every`. After the `failures`-th
// failure in a row: `first_retry`, twice as long each time, at most `every` — and never less
// than `retry_after` when the host sent one.
std::chrono::seconds NextListingIn(bool ok, int failures,
                                   std::optional<std::chrono::seconds> retry_after,
                                   std::chrono::seconds every, std::chrono::seconds first_retry,
                                   double jitter);

class GroupRelister final : public BackgroundService {
 public:
  struct Options {
    ListLimits limits;
    std::chrono::seconds first_retry{30};
    // Each listing's outcome for the log. Default: the server's log.
    std::function<void(const std::string&)> log;
    // Makes the served repository of a mirror a listing brings: the app's wiring (ServeMirror,
    // core/app/wiring.h), which joins it to its sync. Required.
    std::function<Result<std::shared_ptr<const ServedRepo>>(
        const Config&, const MirrorConfig&, const std::shared_ptr<const ServedRepo>&)>
        serve;
    // Where the schedule reads the time and waits; it must outlive the relister.
    const Clock* clock = &Clock::Real();
  };

  // `config`: the configuration after ExpandGroups, whose mirrors hold each group's first set
  // as `outcomes` say (GroupOutcome::first_mirror, listed); `live` holds the Catalog
  // BuildCatalog made of it. `syncer` (may be null: nothing is synced) hears of mirrors added
  // and removed. `hosts`: the host plugins loaded.
  GroupRelister(Config config, const std::vector<GroupOutcome>& outcomes,
                std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts,
                std::shared_ptr<LiveCatalog> live, MirrorSyncer* syncer, Options options);
  ~GroupRelister() override;
  GroupRelister(const GroupRelister&) = delete;
  GroupRelister& operator=(const GroupRelister&) = delete;

  std::string name() const override { return "group relister"; }
  // Starts the thread (none when there are no groups).
  void Start() override;
  // Ends the thread: a wait for the next listing ends at once, a listing under way before its
  // next page.
  void Stop() override;

  struct Relisted {
    GroupOutcome outcome;  // error set when the listing failed (nothing changed then)
    std::vector<std::string> added, removed;  // repository names
    std::chrono::seconds next{0};             // until the next listing
  };
  // Lists group `index` now and applies what it brings.
  Relisted ListNow(size_t index);

  // Each group's repositories now (names, in the host's order).
  std::vector<std::string> Names(size_t index) const;

 private:
  struct GroupNow {
    std::vector<MirrorConfig> mirrors;
    int failures = 0;
    Clock::TimePoint due;
  };
  void Run();
  double Jitter();
  std::shared_ptr<const Catalog> Rebuild(const std::vector<std::string>& changed_dirs);

  Config config_;
  size_t fixed_mirrors_ = 0;  // config_.mirrors[0, fixed_mirrors_): configured one by one
  std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts_;
  std::shared_ptr<LiveCatalog> live_;
  MirrorSyncer* syncer_;
  Options options_;
  const Clock& clock_;
  std::vector<GroupNow> groups_;
  uint64_t seed_;

  mutable std::mutex mu_;  // groups_[i].mirrors, for Names
  std::condition_variable cv_;
  std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
  std::thread thread_;
};

}  // namespace rr
