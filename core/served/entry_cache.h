// EntryCache: what list_repos shows of one repository from git (its default branch with the
// commit it is at, how many branches and tags it has, its guidance mark), kept between calls and
// read again only when the repository's refs have changed (RefsStamp) -- never for every
// repository on every call. One per ServedRepo (ServedRepo::entry_cache), so every Catalog that
// holds the repository (a per-caller subset included) shares it. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/served/refs_stamp.h"

namespace rr {

struct RepoEntry {
  using Clock = std::chrono::steady_clock;
  // Something could not be read (the repository did not open, its default branch or refs were
  // unreadable): such an entry is read again after this long even when no ref moved.
  static constexpr std::chrono::seconds kRetryFailedAfter{30};

  RefsPlace place;       // empty when the repository could not be opened
  RefsStamp stamp;       // taken before anything was read
  std::string text;      // the lines read from git, '\n' between them, as list_repos shows them
  std::string guidance;  // the guidance line, or ""
  bool failed = false;
  Clock::time_point read_at = Clock::now();
  // For a mirror: its last sync when the entry was read (MirrorState::View::last_synced); an
  // entry read before the mirror's latest sync is not shown (list_repos reads it again).
  int64_t mirror_synced = 0;
};

class EntryCache {
 public:
  // The entry as last kept, or null.
  std::shared_ptr<const RepoEntry> Last() const { return std::atomic_load(&entry_); }
  // The entry kept, if it still holds: its stamp can be trusted and the refs look as they did
  // (a few stat calls, no repository opened), and it is not a failure older than
  // kRetryFailedAfter (a repository that did not open is kept that long). Else null.
  std::shared_ptr<const RepoEntry> Fresh() const {
    auto e = Last();
    if (!e) return nullptr;
    if (e->failed && RepoEntry::Clock::now() - e->read_at > RepoEntry::kRetryFailedAfter) {
      return nullptr;
    }
    if (e->place.empty()) return e->failed ? e : nullptr;  // did not open: kept a while
    return e->stamp.Unchanged(RefsStamp::Take(e->place)) ? e : nullptr;
  }
  void Keep(std::shared_ptr<const RepoEntry> e) { std::atomic_store(&entry_, std::move(e)); }

 private:
  // Read and written atomically (no mutex of its own: one per repository of 20,000 adds up).
  std::shared_ptr<const RepoEntry> entry_;
};

}  // namespace rr
