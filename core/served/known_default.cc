#include "core/served/known_default.h"

#include <atomic>

namespace rr {

// The last path other than the root asked, and what was found there.
struct KnownOther {
  RepoPath path;
  std::shared_ptr<const KnownPath> at;
};

// Kept lean: one a repository, 20,000 of them with as many repositories searched (with its
// shared count, 96 bytes: the other path, asked of few, apart).
struct KnownDefaultEntry {
  std::shared_ptr<const RefsWatch::Ticket> watched;  // null: checked by the stamp, at `place`
  std::shared_ptr<const RefsPlace> place;
  RefsStamp stamp;
  std::shared_ptr<const KnownPath> root;
  std::shared_ptr<const KnownOther> other;
  // The default branch is each one's `at` (the same in both).
  const ReadPoint& at() const { return root ? root->at : other->at->at; }
};

namespace {
std::atomic<uint64_t> checked_by_watch{0}, checked_by_stamp{0};
}  // namespace

KnownDefaultUse CurrentKnownDefaultUse() {
  return KnownDefaultUse{checked_by_watch.load(), checked_by_stamp.load()};
}

std::shared_ptr<const KnownPath> KnownDefault(const std::shared_ptr<const ServedRepo>& repo,
                                              const RepoPath& path, bool* watched) {
  if (watched) *watched = false;
  const std::shared_ptr<const KnownDefaultEntry> kept =
      std::atomic_load(&repo->known_default_kept());
  if (!kept) return nullptr;
  // The watch's counters, or a few stat calls. An entry is never changed once made (a new one
  // replaces it).
  if (kept->watched) {
    checked_by_watch.fetch_add(1, std::memory_order_relaxed);
    if (!RefsWatch::Shared().Unchanged(*kept->watched)) return nullptr;
    if (watched) *watched = true;
  } else {
    checked_by_stamp.fetch_add(1, std::memory_order_relaxed);
    if (!kept->stamp.Unchanged(RefsStamp::TakeOfHead(*kept->place))) return nullptr;
  }
  if (path.is_root()) return kept->root;
  if (kept->other && kept->other->path == path) return kept->other->at;
  return nullptr;
}

void KeepDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                 std::shared_ptr<const RefsWatch::Ticket> watched, const RefsStamp& before,
                 const ReadPoint& at, const RepoPath& path, const Result<Node>& node) {
  std::shared_ptr<const KnownDefaultEntry>& slot = repo->known_default_kept();
  // A racy stamp cannot tell a later change; the watch can.
  if (place.empty() || (!watched && before.racy())) {
    std::atomic_store(&slot, std::shared_ptr<const KnownDefaultEntry>());
    return;
  }
  auto p = std::make_shared<KnownPath>();
  // What a search reads of the default branch: not the commit's subject (list_repos and
  // list_refs read it themselves).
  p->at.label = at.label;
  p->at.commit.id = at.commit.id;
  p->at.commit.time = at.commit.time;
  p->at.commit.offset = at.commit.offset;
  if (node) {
    p->node = *node;
  } else {
    p->error = node.error();
  }
  // Where the refs are: only a stamp is taken there.
  auto kept_place = watched ? nullptr : std::make_shared<const RefsPlace>(place);
  // The entry replaces the one it was made from, or is made again from the one another thread
  // put there meanwhile (a compare-and-swap: no mutex a repository).
  std::shared_ptr<const KnownDefaultEntry> was = std::atomic_load(&slot);
  for (;;) {
    auto next = std::make_shared<KnownDefaultEntry>();
    if (was && !before.racy() && was->stamp.digest() == before.digest() &&
        git_oid_equal(&was->at().commit.id.oid(), &at.commit.id.oid()) &&
        was->at().label == at.label) {
      *next = *was;  // the same refs: what was kept of other paths stays
    } else {
      next->stamp = before;
    }
    next->place = kept_place;
    next->watched = watched;
    if (path.is_root()) {
      next->root = p;
    } else {
      next->other = std::make_shared<const KnownOther>(KnownOther{path, p});
    }
    std::shared_ptr<const KnownDefaultEntry> made = std::move(next);
    if (std::atomic_compare_exchange_strong(&slot, &was, made)) return;
  }
}

}  // namespace rr
