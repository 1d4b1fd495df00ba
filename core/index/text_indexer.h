// A served repository's text index (core/index/repo_text_index.h) kept up to date, and how much
// is indexed.
//
// TextIndexer is the background thread that keeps the indexes up to date, as HistoryIndexer
// keeps the history's (both are periodic services, core/runtime/periodic.h): one repository at a
// time, at the lowest CPU and I/O priority; a pass opens nothing for a repository whose refs have
// not moved since its index was built (RefsWatch where the kernel can watch what decides its
// default branch: no system call a repository; else RefsStamp), then waits `recheck` (spread by a
// tenth either way, so that many servers sharing a machine do not pass in step) before the next;
// each index built is logged with the new text it read and its speed. After a pass that changed
// anything, the store drops what no list names any more (CompactTextStore). Between passes it
// catches up at once with what moved: a mirror's sync nudges it with the mirror's name
// (Nudge(name), wired in the app), and every `glance` it looks at the local repositories' refs --
// the kernel's reports where they are watched, else their stamps -- and indexes those that moved. A
// search never waits for it: what is not indexed yet is read, as without an index.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/index/repo_text_index.h"
#include "core/runtime/clock.h"
#include "core/runtime/logged_errors.h"
#include "core/runtime/periodic.h"
#include "core/served/live_catalog.h"
#include "core/served/refs_stamp.h"
#include "core/served/refs_watch.h"
#include "core/served/served_repo.h"
#include "core/util/name_key.h"

namespace rr {

// How much the indexer has indexed, for `about` and /metrics (updated after each repository).
struct TextIndexStats {
  uint64_t repositories = 0;  // served repositories that can keep an index
  uint64_t indexed = 0;       // of them, with an index of their default branch as last seen
  uint64_t index_bytes = 0;   // the lists, the store's shards and its parts
  uint64_t text_bytes = 0;    // the unique text the store's shards hold
  uint64_t passes = 0;
  bool off = false;  // no repository can keep one (no cache folder), and none will
};
TextIndexStats CurrentTextIndexStats();

class TextIndexer final : public PeriodicService {
 public:
  struct Options {
    std::chrono::milliseconds recheck{60000};  // between passes (spread by a tenth either way)
    // Between passes, how often the local repositories' refs are looked at (RefsStamp; zero:
    // never); those that moved are indexed at once. A mirror's refs move only by its sync, which
    // nudges the indexer itself (Nudge(name)).
    std::chrono::milliseconds glance{2000};
    // Where the waits are measured; it must outlive the indexer.
    const Clock* clock = &Clock::Real();
  };
  TextIndexer(std::shared_ptr<LiveCatalog> catalog, Options options);
  ~TextIndexer() override;

  std::string name() const override { return "text indexer"; }

 private:
  // No thread when no repository keeps an index (and the catalog cannot change).
  bool Wanted() override;
  void Pass() override;
  // The repositories named (a mirror synced, say), each brought up to date if its refs moved.
  void CatchUp(const std::vector<std::string>& names) override;
  // Every local repository whose index was current: brought up to date if its refs moved.
  void Glance() override;
  // Visit outside a pass: the stats a pass published are changed by what the visit changed.
  void Revisit(const std::shared_ptr<const ServedRepo>& repo);

  // What a pass adds up, for CurrentTextIndexStats.
  struct Totals {
    uint64_t repositories = 0, indexed = 0, index_bytes = 0, text_bytes = 0;
  };
  // Brings `repo`'s index to its default branch unless its refs have not moved since it was
  // last current; adds it to `totals`. True when an index was built.
  bool Visit(const std::shared_ptr<const ServedRepo>& repo, Totals* totals);

  std::shared_ptr<LiveCatalog> catalog_;
  // One a repository indexed, kept lean (20,000 of them: with its NameKey, a 64-byte node of
  // the map; with the name it was 96, and a block for a name past 15 characters).
  struct Seen {
    // What decides the default branch, watched by the kernel (core/served/refs_watch.h); where
    // it cannot be, the refs' stamp, taken at their place (kept only then).
    std::shared_ptr<const RefsWatch::Ticket> watched;
    struct Stamped {
      RefsPlace place;
      RefsStamp stamp;
    };
    std::unique_ptr<const Stamped> stamped;
    uint64_t index_bytes = 0, text_bytes = 0;
  };
  // The refs have not moved since `seen` (as of the last RefsWatch::Catch, where watched).
  static bool Unmoved(const Seen& seen);
  // Keeps the default branch just indexed for searches (core/served/known_default.h), so that
  // the first search after a start (or after a move) need not open every repository to know
  // where to search; only where `watched` (taken before the refs were read) watches its refs.
  void WarmDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                   std::shared_ptr<const RefsWatch::Ticket> watched, const TextIndexBuild& build);
  // NameKey(repository) -> its refs when its index was last current
  std::unordered_map<uint64_t, Seen> seen_;
  LoggedErrors logged_;  // the repositories whose build failed, each logged once a failure
};

}  // namespace rr
