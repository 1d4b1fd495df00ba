#include "core/served/known_default.h"

#include <atomic>

namespace rr {

// The last path other than the root asked, and what was found there.
struct KnownOther {
  RepoPath path;
  std::shared_ptr<const KnownPath> at;
};

// Refs that cannot be watched: where they are, and their stamp when they were read.
struct KnownStamp {
  RefsPlace place;
  RefsStamp stamp;
};

// Kept lean: one a repository, 20,000 of them with as many repositories searched (with its
// shared count, 80 bytes: the other path, asked of few, apart, and the place and stamp of refs
// that cannot be watched, rare where the kernel watches, apart too).
struct KnownDefaultEntry {
  std::shared_ptr<const RefsWatch::Ticket> watched;  // null: checked by the stamp
  std::shared_ptr<const KnownStamp> stamped;         // when not watched
  std::shared_ptr<const KnownPath> root;
  std::shared_ptr<const KnownOther> other;
  // The default branch is each one's (the same in both).
  const KnownPath& any() const { return root ? *root : *other->at; }
};

namespace {
std::atomic<uint64_t> checked_by_watch{0}, checked_by_stamp{0};
}  // namespace

ReadPoint KnownPath::At() const {
  ReadPoint at;
  at.label = label;
  at.commit.id = commit;
  at.commit.time = time;
  at.commit.offset = offset;
  return at;
}

std::shared_ptr<KnownPath> KnownPath::Of(const ReadPoint& at, const Result<Node>& node) {
  auto p = std::make_shared<KnownPath>();
  // What a search reads of the default branch: not the commit's subject (list_repos and
  // list_refs read it themselves).
  p->label = at.label;
  p->commit = at.commit.id;
  p->time = at.commit.time;
  p->offset = at.commit.offset;
  if (node) {
    p->node = *node;
    p->found = true;
  } else {
    p->error = node.error();
  }
  return p;
}

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
    if (!kept->stamped ||
        !kept->stamped->stamp.Unchanged(RefsStamp::TakeOfHead(kept->stamped->place))) {
      return nullptr;
    }
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
  std::shared_ptr<const KnownPath> p = KnownPath::Of(at, node);
  // Where the refs are and their stamp, where they are not watched.
  auto stamped = watched ? nullptr : std::make_shared<const KnownStamp>(KnownStamp{place, before});
  // The entry replaces the one it was made from, or is made again from the one another thread
  // put there meanwhile (a compare-and-swap: no mutex a repository).
  std::shared_ptr<const KnownDefaultEntry> was = std::atomic_load(&slot);
  for (;;) {
    auto next = std::make_shared<KnownDefaultEntry>();
    if (was && git_oid_equal(&was->any().commit.oid(), &at.commit.id.oid()) &&
        was->any().label == at.label) {
      // The same default branch, at the same commit: what was found of the other path there
      // stays true of it, vouched for by this entry's ticket or stamp from now on.
      *next = *was;
    }
    next->stamped = stamped;
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
