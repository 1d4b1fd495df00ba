#include "core/served/known_default.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <mutex>
#include <unordered_map>

namespace rr {
namespace {

struct Kept {
  std::weak_ptr<const ServedRepo> repo;
  RefsPlace place;
  std::shared_ptr<const RefsWatch::Ticket> watched;  // null: checked by the stamp
  RefsStamp stamp;
  ReadPoint at;
  RepoPath other;  // the last path other than the root asked
  std::optional<KnownPath> root, at_other;
};

struct Table {
  std::mutex mu;
  std::unordered_map<const ServedRepo*, std::shared_ptr<Kept>> kept;
  size_t pruned_at = 64;  // the size past which entries of repositories gone are dropped
};

Table& TheTable() {
  static auto* table = new Table();
  return *table;
}

// The entry of `repo`, when it is this repository's (not one gone from the same address).
std::shared_ptr<Kept> Find(Table& t, const std::shared_ptr<const ServedRepo>& repo) {
  auto it = t.kept.find(repo.get());
  if (it == t.kept.end()) return nullptr;
  if (it->second->repo.lock() != repo) {
    t.kept.erase(it);
    return nullptr;
  }
  return it->second;
}

std::atomic<uint64_t> checked_by_watch{0}, checked_by_stamp{0};

}  // namespace

KnownDefaultUse CurrentKnownDefaultUse() {
  return KnownDefaultUse{checked_by_watch.load(), checked_by_stamp.load()};
}

std::optional<KnownPath> KnownDefault(const std::shared_ptr<const ServedRepo>& repo,
                                      const RepoPath& path) {
  Table& t = TheTable();
  std::shared_ptr<Kept> kept;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    kept = Find(t, repo);
  }
  if (!kept) return std::nullopt;
  // Outside the lock: the watch's counters, or a few stat calls. An entry is never changed once
  // made (a new one replaces it), so it is read here without the lock.
  if (kept->watched) {
    checked_by_watch.fetch_add(1, std::memory_order_relaxed);
    if (!RefsWatch::Shared().Unchanged(*kept->watched)) return std::nullopt;
  } else {
    checked_by_stamp.fetch_add(1, std::memory_order_relaxed);
    if (!kept->stamp.Unchanged(RefsStamp::TakeOfHead(kept->place))) return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(t.mu);
  if (path.is_root()) return kept->root;
  if (kept->at_other && kept->other == path) return kept->at_other;
  return std::nullopt;
}

void KeepDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                 std::shared_ptr<const RefsWatch::Ticket> watched, const RefsStamp& before,
                 const ReadPoint& at, const RepoPath& path, const Result<Node>& node) {
  Table& t = TheTable();
  std::lock_guard<std::mutex> lock(t.mu);
  std::shared_ptr<Kept> was = Find(t, repo);
  // A racy stamp cannot tell a later change; the watch can.
  if (place.empty() || (!watched && before.racy())) {
    if (was) t.kept.erase(repo.get());
    return;
  }
  auto next = std::make_shared<Kept>();
  if (was && !before.racy() && was->stamp.digest() == before.digest() &&
      git_oid_equal(&was->at.commit.id.oid(), &at.commit.id.oid()) && was->at.label == at.label) {
    *next = *was;  // the same refs: what was kept of other paths stays
  } else {
    next->repo = repo;
    next->place = place;
    next->stamp = before;
    next->at = at;
  }
  next->watched = std::move(watched);
  KnownPath p;
  p.at = at;
  if (node) {
    p.node = *node;
  } else {
    p.error = node.error();
  }
  if (path.is_root()) {
    next->root = std::move(p);
  } else {
    next->other = path;
    next->at_other = std::move(p);
  }
  t.kept[repo.get()] = std::move(next);
  if (t.kept.size() > t.pruned_at) {
    for (auto it = t.kept.begin(); it != t.kept.end();) {
      it = it->second->repo.expired() ? t.kept.erase(it) : std::next(it);
    }
    t.pruned_at = std::max<size_t>(64, 2 * t.kept.size());
  }
}

}  // namespace rr
