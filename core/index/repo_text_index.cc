#include "core/index/repo_text_index.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <random>
#include <unordered_map>

#include "core/index/file_stamp.h"
#include "core/secrets/server_log.h"
#include "core/served/known_default.h"
#include "core/served/refs_watch.h"
#include "core/util/private_folder.h"
#include "core/util/text.h"

namespace rr {
namespace {

// The lists opened, by file, with how the file looked (stat) when opened, and the index made of
// the list and the store as it was then.
struct Opened {
  // The kernel's watch on the list (null where it cannot watch): while it reports no change, the
  // list opened is the one there, and it is not looked at again.
  std::shared_ptr<const RefsWatch::Ticket> watched;
  FileStamp file;
  std::shared_ptr<const IndexFile> list;  // null: the file failed its checks
  std::shared_ptr<const TextIndex> index;
};

std::mutex& OpenedMutex() {
  static std::mutex mu;
  return mu;
}
std::unordered_map<std::string, Opened>& OpenedIndexes() {
  static auto* map = new std::unordered_map<std::string, Opened>();
  return *map;
}

// Bumped whenever a list or a shard is written: a store is compacted only after a change.
std::atomic<uint64_t> store_changes{0};

std::mutex& StatsMutex() {
  static std::mutex mu;
  return mu;
}
TextIndexStats& Stats() {
  static TextIndexStats stats;
  return stats;
}

std::string Megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

TextIndexSlot& ServedRepo::text_index_slot() const {
  std::call_once(text_index_once_, [this] {
    text_index_slot_ = std::make_shared<TextIndexSlot>();
    text_index_slot_->store_folder = TextStoreFolder(settings().index_folder);
  });
  return *text_index_slot_;
}

const std::string& TextStoreFolderOf(const ServedRepo& repo) {
  return repo.text_index_slot().store_folder;
}

std::string TextIndexFile(const ServedRepo& repo) {
  const std::string& folder = repo.settings().index_folder;
  return folder.empty() ? std::string() : folder + "/text.list";
}

uint64_t PolicyDigest(const PathPolicy& policy) { return Fnv64(policy.Describe()); }

std::shared_ptr<const TextIndex> CurrentTextIndex(const ServedRepo& repo) {
  if (repo.settings().index_folder.empty()) return nullptr;
  RefsWatch::Shared().Catch();  // every change of the list made before this call is seen
  return CurrentTextIndex(repo, CurrentTextStore(TextStoreFolder(repo.settings().index_folder)));
}

namespace {
std::shared_ptr<const TextIndex> OpenTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store,
    std::shared_ptr<const RefsWatch::Ticket>* watched);
}  // namespace

std::shared_ptr<const TextIndex> CurrentTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store) {
  if (repo.settings().index_folder.empty() || !store) return nullptr;
  // What this repository kept answers while its list is unchanged and the store is the same:
  // no file name made, no table searched.
  TextIndexSlot& slot = repo.text_index_slot();
  {
    std::lock_guard<std::mutex> lock(slot.mu);
    if (slot.index && slot.watched && &slot.index->store() == store.get() &&
        RefsWatch::Shared().Unchanged(*slot.watched)) {
      return slot.serves_as_listed ? slot.index : nullptr;
    }
  }
  std::shared_ptr<const RefsWatch::Ticket> watched;
  auto index = OpenTextIndex(repo, store, &watched);
  if (index && watched) {
    const bool serves = index->policy() == PolicyDigest(repo.policy());
    std::lock_guard<std::mutex> lock(slot.mu);
    slot.watched = std::move(watched);
    slot.index = index;
    slot.serves_as_listed = serves;
    if (!serves) return nullptr;
  }
  return index;
}

namespace {

// CurrentTextIndex by the list's file: the index, or null; *watched: the ticket the list it was
// made from is watched by (null when it is not).
std::shared_ptr<const TextIndex> OpenTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store,
    std::shared_ptr<const RefsWatch::Ticket>* watched) {
  const std::string file = TextIndexFile(repo);
  if (file.empty() || !store) return nullptr;
  // What was opened answers when it is of this store (or was refused): the index, null for a
  // refused list or another policy; nullopt to go on.
  auto kept = [&](const Opened& o) -> std::optional<std::shared_ptr<const TextIndex>> {
    if (!o.list) return std::shared_ptr<const TextIndex>();
    if (!o.index || &o.index->store() != store.get()) return std::nullopt;
    return o.index->policy() == PolicyDigest(repo.policy()) ? o.index : nullptr;
  };
  {
    std::lock_guard<std::mutex> lock(OpenedMutex());
    auto it = OpenedIndexes().find(file);
    if (it != OpenedIndexes().end() && it->second.watched &&
        RefsWatch::Shared().Unchanged(*it->second.watched)) {
      if (auto answer = kept(it->second)) {
        *watched = it->second.watched;  // taken before that list was read
        return *answer;
      }
    }
  }
  Opened now;
  now.watched = RefsWatch::Shared().WatchFile(repo.settings().index_folder, "text.list");
  now.file = FileStamp::Of(file);
  if (!now.file.exists) return nullptr;
  std::shared_ptr<const IndexFile> list;
  std::shared_ptr<const TextIndex> previous;  // the same list over the store as it was
  {
    std::lock_guard<std::mutex> lock(OpenedMutex());
    auto it = OpenedIndexes().find(file);
    if (it != OpenedIndexes().end() && it->second.file == now.file) {
      if (auto answer = kept(it->second)) {
        *watched = now.watched;  // taken before the list was found the same
        return *answer;
      }
      list = it->second.list;
      previous = it->second.index;
    }
  }
  if (!list) {
    auto opened = IndexFile::Open(file);
    if (!opened) {
      LogLine("repo-reader: the text index of `" + repo.name() +
              "` is not used (the repository is read instead): " + opened.error());
      std::lock_guard<std::mutex> lock(OpenedMutex());
      OpenedIndexes()[file] = std::move(now);
      return nullptr;
    }
    list = opened.take();
  }
  // Each of its blobs found in the store, once for this list and this store; when the store
  // changed (a shard added by a commit indexed anywhere, say), only what moved is looked up.
  now.list = list;
  now.index = previous ? std::make_shared<const TextIndex>(*previous, store)
                       : std::make_shared<const TextIndex>(list, store);
  std::shared_ptr<const TextIndex> index = now.index;
  *watched = now.watched;  // taken before the list was read
  {
    std::lock_guard<std::mutex> lock(OpenedMutex());
    OpenedIndexes()[file] = std::move(now);
  }
  if (index->policy() != PolicyDigest(repo.policy())) return nullptr;
  return index;
}

}  // namespace

Result<TextIndexBuild> BuildTextIndex(const ServedRepo& repo, const StopToken& stop) {
  const std::string file = TextIndexFile(repo);
  if (file.empty()) return Error{"no folder to keep a text index in"};
  const std::string folder = repo.settings().index_folder;
  const std::string store_folder = TextStoreFolder(folder);
  auto reader = repo.OpenOnce();
  if (!reader) return Error{reader.error()};
  auto at = reader->At(std::nullopt);
  if (!at) return Error{at.error()};
  const uint64_t policy = PolicyDigest(repo.policy());
  TextIndexBuild out;
  out.at = *at;
  auto root = reader->Find(*at, RepoPath::Root(), stop);
  out.root = root;
  if (auto current = CurrentTextIndex(repo);
      current && current->missing() == 0 &&
      git_oid_equal(&current->commit(), &at->commit.id.oid()) != 0) {
    out.files = current->paths();
    out.index_bytes = current->bytes();
    out.text_bytes = current->text_bytes();
    return out;
  }
  if (!root) return Error{root.error()};
  // This thread's CPU time: at the lowest priority on a busy machine, the wall time says more
  // about the machine than about the indexing.
  auto cpu_now = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
  };
  const double cpu_start = cpu_now();
  const auto store = CurrentTextStore(store_folder);
  // Where the store holds a content already: it is not read again.
  auto held = [&](const git_oid& oid, BlobKind* kind, uint32_t* size) {
    for (const auto& shard : store->shards) {
      const size_t b = shard->Find(oid);
      if (b == SIZE_MAX) continue;
      *kind = shard->Kind(b);
      *size = shard->Size(b);
      return true;
    }
    return false;
  };
  IndexFileWriter list, fresh;  // the repository's list; the new blobs' shard
  size_t too_deep = 0;
  Status walked = reader->Walk(
      *root, stop,
      [&](const Node& node) {
        if (node.kind != EntryKind::kFile) return true;
        size_t blob = list.Known(node.oid);
        if (blob == SIZE_MAX) {
          BlobKind kind = BlobKind::kUnread;
          uint32_t size = 0;
          if (!held(node.oid, &kind, &size)) {
            // Never fetched: what the local copy lacks is read by the search, as without an
            // index (and tried again at the next build).
            const auto bytes = reader->Size(node);
            if (bytes && *bytes <= RepoReader::kMaxFileBytes) {
              auto data = reader->Read(node);
              if (data && data->kind == FileData::Kind::kBinary) {
                kind = BlobKind::kBinary;
                fresh.AddBlob(node.oid, kind, {});
              } else if (data) {
                kind = BlobKind::kText;
                size = static_cast<uint32_t>(data->bytes().size());
                fresh.AddBlob(node.oid, kind, data->bytes());
                out.text_bytes += size;
              }
              out.blobs++;
            }
          }
          blob = list.AddSized(node.oid, kind, size);
        }
        list.AddPath(node.path.str(), blob, node.executable);
        out.files++;
        return !stop.stopped();
      },
      &too_deep);
  if (!walked) return Error{walked.error()};
  if (stop.stopped()) return Error{"stopped"};
  // The shard first, then the list naming its blobs: a reader never finds a list whose new
  // blobs are nowhere (and if it did, it would read them).
  auto lock = TextStoreLock::Take(store_folder, stop);
  if (!lock) return Error{lock.error()};
  if (fresh.blobs() > 0) {
    auto shard = WriteTextShard(store_folder, fresh);
    if (!shard) return Error{shard.error()};
    out.shard_bytes = *shard;
  }
  Status made = MakePrivateFolder(folder, "the text index folder");
  if (!made) return Error{made.error()};
  Status written = list.Write(file, at->commit.id.oid(), policy);
  if (!written) return Error{written.error()};
  store_changes.fetch_add(1);
  unlink((folder + "/text.idx").c_str());  // a repository's whole index, as kept before the store
  struct stat st {};
  if (stat(file.c_str(), &st) == 0) out.index_bytes = static_cast<uint64_t>(st.st_size);
  // Few shards, however many repositories were indexed one at a time.
  auto merged = MergeSmallTextShards(store_folder, stop);
  if (!merged && !stop.stopped()) {
    LogLine("repo-reader: the text index's store could not merge its shards: " + merged.error());
  }
  out.built = true;
  if (out.blobs > 0) {
    const double cpu = cpu_now() - cpu_start;
    char line[160];
    std::snprintf(line, sizeof line,
                  "%zu new contents of %zu files read (%.2f MB of new text) in %.2f s of CPU, "
                  "%.1f MB/s per core",
                  out.blobs, out.files, static_cast<double>(out.text_bytes) / 1e6, cpu,
                  cpu > 0 ? static_cast<double>(out.text_bytes) / 1e6 / cpu : 0.0);
    LogLine("repo-reader: text index of `" + repo.name() + "`: " + line);
  }
  return out;
}

void CompactTextStores(const Catalog& catalog, const StopToken& stop) {
  static std::mutex mu;
  static std::map<std::string, uint64_t> compacted;  // store folder -> changes when compacted
  std::lock_guard<std::mutex> lock(mu);
  const uint64_t changes = store_changes.load();
  std::map<std::string, std::string> stores;  // store folder -> the folder of the lists' folders
  for (const auto& repo : catalog.all()) {
    const std::string& folder = repo->settings().index_folder;
    if (folder.empty()) continue;
    stores.emplace(TextStoreFolder(folder), folder.substr(0, folder.rfind('/')));
  }
  for (const auto& [store, lists] : stores) {
    auto it = compacted.find(store);
    if (it != compacted.end() && it->second == changes) continue;
    auto c = CompactTextStore(store, lists, stop);
    if (!c) {
      if (!stop.stopped()) {
        LogLine("repo-reader: the text index's store could not be compacted: " + c.error());
      }
      continue;
    }
    compacted[store] = changes;
    if (c->shards_rewritten || c->shards_dropped) {
      LogLine("repo-reader: text index store: " + std::to_string(c->shards_rewritten) +
              " shards rewritten and " + std::to_string(c->shards_dropped) +
              " dropped for contents no repository names any more, " + Megabytes(c->bytes_before) +
              " -> " + Megabytes(c->bytes_after));
    }
  }
}

namespace {
std::atomic<uint64_t> used_targets{0}, used_passed{0}, used_other{0}, used_unopened{0};
}  // namespace

void CountTextIndexUse(uint64_t files_passed_over, bool other_commit, bool unopened) {
  used_targets.fetch_add(1, std::memory_order_relaxed);
  used_passed.fetch_add(files_passed_over, std::memory_order_relaxed);
  if (other_commit) used_other.fetch_add(1, std::memory_order_relaxed);
  if (unopened) used_unopened.fetch_add(1, std::memory_order_relaxed);
}

TextIndexUse CurrentTextIndexUse() {
  return {used_targets.load(std::memory_order_relaxed), used_passed.load(std::memory_order_relaxed),
          used_other.load(std::memory_order_relaxed),
          used_unopened.load(std::memory_order_relaxed)};
}

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
    s.index_bytes += store->bytes;
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
  return seen.stamp.Unchanged(RefsStamp::Take(seen.place));
}

bool TextIndexer::Visit(const std::shared_ptr<const ServedRepo>& shared, Totals* totals) {
  const ServedRepo& repo = *shared;
  totals->repositories++;
  auto seen = seen_.find(repo.name());
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
    std::string& last = last_error_[repo.name()];
    if (last != b.error()) {
      LogLine("repo-reader: the text index of `" + repo.name() +
              "` could not be built: " + b.error());
    }
    last = b.error();
    seen_.erase(repo.name());
    return false;
  }
  last_error_.erase(repo.name());
  WarmDefault(shared, place, watched, *b);
  seen_[repo.name()] = Seen{place, std::move(watched), before, b->index_bytes, b->text_bytes};
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
    // During a pass the figures only grow towards the new ones, never drop to the partial.
    if (pass_done || totals.indexed > s.indexed) {
      s.repositories = std::max<uint64_t>(totals.repositories, pass_done ? 0 : s.repositories);
      s.indexed = totals.indexed;
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
  publish(true);
}

void TextIndexer::Revisit(const std::shared_ptr<const ServedRepo>& repo) {
  auto before = seen_.find(repo->name());
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
    auto seen = seen_.find(repo->name());
    if (seen == seen_.end() || Unmoved(seen->second)) {
      continue;
    }
    Revisit(repo);
  }
}

}  // namespace rr
