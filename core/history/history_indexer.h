// HistoryIndexer: the server's one background thread that keeps its history index
// (core/git/history_index.h) of each served repository that needs one -- an index is kept
// (cache_folder, history_index: true) and the repository has no commit-graph with Bloom filters
// of its own -- one repository at a time, at the lowest CPU and I/O priority.
//
// A periodic background service (core/runtime/periodic.h) the app owns; the app starts it once
// the server has answered its first message, so starting is never slowed. Each pass reads the
// catalog as it is when the pass begins (a live catalog changes when a group is listed again) and
// updates every such repository (only commits not yet indexed are read), then the thread waits
// `recheck` (on Options::clock) before the next pass. A failure is logged (once, until it
// changes) and stops neither the server nor the other repositories. A mirror's sync that went
// through nudges it with the mirror's name (Nudge(name), wired in core/app/main.cc): that
// repository's new commits are indexed at once, without a whole pass. Stop (and the destructor)
// ends a wait at once, stops the update under way at its next check (what it had written stays)
// and waits for the thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/clock.h"
#include "core/runtime/logged_errors.h"
#include "core/runtime/periodic.h"
#include "core/served/catalog.h"
#include "core/served/live_catalog.h"

namespace rr {

class HistoryIndexer final : public PeriodicService {
 public:
  struct Options {
    std::chrono::milliseconds recheck{60000};  // between passes
    // Where the wait between passes is measured; it must outlive the indexer.
    const Clock* clock = &Clock::Real();
  };

  HistoryIndexer(std::shared_ptr<const Catalog> catalog, Options options);
  // Over a live catalog: each pass takes the set as it is then.
  HistoryIndexer(std::shared_ptr<LiveCatalog> catalog, Options options);
  ~HistoryIndexer() override;
  HistoryIndexer(const HistoryIndexer&) = delete;
  HistoryIndexer& operator=(const HistoryIndexer&) = delete;

  std::string name() const override { return "history indexer"; }

 private:
  // No thread is started when no repository keeps an index (and the catalog cannot change).
  bool Wanted() override;
  void Pass() override;
  // The repositories named (a mirror's sync landed commits: MirrorSyncer::OnSynced), each
  // brought up to date now instead of at the next pass.
  void CatchUp(const std::vector<std::string>& names) override;
  void Update(const ServedRepo& repo);

  std::shared_ptr<LiveCatalog> catalog_;
  LoggedErrors logged_;
};

}  // namespace rr
