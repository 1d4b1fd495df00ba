#include "core/index/text_indexer.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "core/index/text_store.h"
#include "core/secrets/server_log.h"
#include "core/served/known_default.h"
#include "core/util/text.h"

namespace rr {
namespace {

std::mutex& StatsMutex() {
  static std::mutex mu;
  return mu;
}
TextIndexStats& Stats() {
  static TextIndexStats stats;
  return stats;
}

}  // namespace

TextIndexStats CurrentTextIndexStats() {
  TextIndexStats s;
  {
    std::lock_guard<std::mutex> lock(StatsMutex());
    s = Stats();
  }
  // The store is counted once, however many repositories name its contents.
  const auto stores = KnownTextStores();
  if (!stores.empty()) s.text_bytes = 0;
  for (const auto& store : stores) {
    s.index_bytes += store->bytes + TextPartBytes(store->folder);
    s.text_bytes += store->text_bytes;
  }
  return s;
}

namespace {
PeriodicService::Schedule TextSchedule(const TextIndexer::Options& options) {
  PeriodicService::Schedule s;
  s.every = options.recheck;
  s.spread = 0.1;
  s.glance = options.glance;
  s.clock = options.clock;
  return s;
}
}  // namespace

TextIndexer::TextIndexer(std::shared_ptr<LiveCatalog> catalog, Options options)
    : PeriodicService(TextSchedule(options)), catalog_(std::move(catalog)) {}

TextIndexer::~TextIndexer() { Stop(); }

bool TextIndexer::Wanted() {
  bool any = catalog_->may_change();
  for (const auto& repo : catalog_->Get()->all()) any = any || !TextIndexFile(*repo).empty();
  if (!any) {
    std::lock_guard<std::mutex> stats(StatsMutex());
    Stats().off = true;
  }
  return any;
}

void TextIndexer::WarmDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                              std::shared_ptr<const RefsWatch::Ticket> watched,
                              const TextIndexBuild& build) {
  // Only where the kernel watches the refs (the ticket taken before the build read them): a
  // search trusts what is kept by that ticket alone, and no stamp is kept with it.
  if (!watched || place.empty() || !build.at || !build.root) return;
  KeepDefault(repo, place, std::move(watched), RefsStamp(), *build.at, RepoPath::Root(),
              *build.root);
}

bool TextIndexer::Unmoved(const Seen& seen) {
  if (seen.watched) return RefsWatch::Shared().Unchanged(*seen.watched);
  return seen.stamped && seen.stamped->stamp.Unchanged(RefsStamp::Take(seen.stamped->place));
}

bool TextIndexer::Visit(const std::shared_ptr<const ServedRepo>& shared, Totals* totals) {
  const ServedRepo& repo = *shared;
  totals->repositories++;
  auto seen = seen_.find(NameKey(repo.name()));
  if (seen != seen_.end() && Unmoved(seen->second)) {
    totals->indexed++;
    totals->index_bytes += seen->second.index_bytes;
    totals->text_bytes += seen->second.text_bytes;
    return false;
  }
  // The refs as they are before the repository is read: a move during the build shows next
  // time.
  RefsPlace place;
  {
    auto reader = repo.OpenOnce();
    if (reader) place = reader->Place();
  }
  std::shared_ptr<const RefsWatch::Ticket> watched = RefsWatch::Shared().Watch(place);
  const RefsStamp before = place.empty() ? RefsStamp() : RefsStamp::Take(place);
  const auto start = std::chrono::steady_clock::now();
  auto b = BuildTextIndex(repo, stop());
  if (stopping()) return false;
  if (!b) {
    if (logged_.First(repo.name(), b.error())) {
      LogLine("repo-reader: the text index of `" + repo.name() +
              "` could not be built: " + b.error());
    }
    seen_.erase(NameKey(repo.name()));
    return false;
  }
  logged_.Clear(repo.name());
  WarmDefault(shared, place, watched, *b);
  Seen& now = seen_[NameKey(repo.name())];
  now.stamped =
      watched ? nullptr : std::make_unique<const Seen::Stamped>(Seen::Stamped{place, before});
  now.watched = std::move(watched);
  now.index_bytes = b->index_bytes;
  now.text_bytes = b->text_bytes;
  totals->indexed++;
  totals->index_bytes += b->index_bytes;
  totals->text_bytes += b->text_bytes;
  if (!b->built) return false;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char speed[64];
  std::snprintf(speed, sizeof speed, "%.1f s, %.1f MB/s", seconds,
                seconds > 0 ? static_cast<double>(b->text_bytes) / 1e6 / seconds : 0.0);
  LogLine("repo-reader: text index of `" + repo.name() + "`: " + Plural(b->files, "file", "files") +
          ", " + Megabytes(b->text_bytes) + " of text indexed in " + speed + "; the index takes " +
          Megabytes(b->index_bytes));
  return true;
}

void TextIndexer::Pass() {
  const std::shared_ptr<const Catalog> catalog = catalog_->Get();
  RefsWatch::Shared().Catch();  // every move made before the pass is seen
  Totals totals;
  auto publish = [&](bool pass_done) {
    std::lock_guard<std::mutex> lock(StatsMutex());
    TextIndexStats& s = Stats();
    // During a pass the figures only grow towards the new ones, never drop to the partial; and
    // they tell every repository indexed only once the pass is done, its indexes made over the
    // store as the pass leaves it (below).
    const uint64_t indexed =
        pass_done ? totals.indexed
                  : std::min<uint64_t>(totals.indexed,
                                       catalog->all().empty() ? 0 : catalog->all().size() - 1);
    if (pass_done || indexed > s.indexed) {
      s.repositories = std::max<uint64_t>(totals.repositories, pass_done ? 0 : s.repositories);
      s.indexed = indexed;
      s.index_bytes = totals.index_bytes;
      s.text_bytes = totals.text_bytes;
    }
    if (pass_done) s.passes++;
  };
  for (const auto& repo : catalog->all()) {
    if (stopping()) return;
    if (TextIndexFile(*repo).empty()) continue;
    if (Visit(repo, &totals)) publish(false);
    if (stopping()) return;
  }
  // What no repository's list names any more is dropped from the store (core/index/text_store.h).
  CompactTextStores(*catalog, stop());
  // Every repository's index made over the store as the pass leaves it (shards added, merged,
  // compacted since its list was written), so that the first search after a pass does not make
  // 20,000 of them itself (a second, over the organisation of bench/orgsearch.py).
  TextStoresLookedAt stores;
  for (const auto& repo : catalog->all()) {
    if (stopping()) return;
    if (TextIndexFile(*repo).empty()) continue;
    CurrentTextIndex(*repo, stores.Of(*repo));
  }
  // Making them looked each content up in the shards (their ids, by halving), which brought
  // those pages into this process, and a shard just written has all of its pages in the page
  // cache: let them go (the page cache keeps them) -- an idle server holds none of them, and a
  // search maps again what it reads.
  for (const auto& store : KnownTextStores()) {
    for (const auto& shard : store->shards) shard->LetGo();
  }
  publish(true);
}

void TextIndexer::Revisit(const std::shared_ptr<const ServedRepo>& repo) {
  auto before = seen_.find(NameKey(repo->name()));
  const bool was = before != seen_.end();
  const uint64_t was_index = was ? before->second.index_bytes : 0;
  const uint64_t was_text = was ? before->second.text_bytes : 0;
  Totals totals;
  Visit(repo, &totals);
  if (stopping()) return;
  std::lock_guard<std::mutex> lock(StatsMutex());
  TextIndexStats& s = Stats();
  auto less = [](uint64_t a, uint64_t b) { return a > b ? a - b : 0; };
  if (was) {
    s.indexed = less(s.indexed, 1);
    s.index_bytes = less(s.index_bytes, was_index);
    s.text_bytes = less(s.text_bytes, was_text);
  }
  s.indexed += totals.indexed;
  s.index_bytes += totals.index_bytes;
  s.text_bytes += totals.text_bytes;
}

void TextIndexer::CatchUp(const std::vector<std::string>& names) {
  const std::shared_ptr<const Catalog> catalog = catalog_->Get();
  RefsWatch::Shared().Catch();
  for (const std::string& name : names) {
    if (stopping()) return;
    auto repo = catalog->Find(name);
    if (!repo || TextIndexFile(**repo).empty()) continue;
    Revisit(*repo);
  }
}

void TextIndexer::Glance() {
  const std::shared_ptr<const Catalog> catalog = catalog_->Get();
  RefsWatch::Shared().Catch();
  for (const auto& repo : catalog->all()) {
    if (stopping()) return;
    // A mirror moves only by its sync, which nudges; a repository never indexed (or failing)
    // waits for the next pass.
    if (repo->settings().mirror) continue;
    auto seen = seen_.find(NameKey(repo->name()));
    if (seen == seen_.end() || Unmoved(seen->second)) {
      continue;
    }
    Revisit(repo);
  }
}

}  // namespace rr
