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
#include <unordered_map>

#include "core/index/file_stamp.h"
#include "core/index/text_bases.h"
#include "core/secrets/server_log.h"
#include "core/served/known_default.h"
#include "core/served/refs_watch.h"
#include "core/util/intern.h"
#include "core/util/private_folder.h"
#include "core/util/striped_mutex.h"
#include "core/util/text.h"

namespace rr {
namespace {

// Bumped whenever a list or a shard is written: a store is compacted only after a change.
std::atomic<uint64_t> store_changes{0};

}  // namespace

std::mutex& TextIndexSlot::Mutex() const {
  static StripedMutexes<64> locks;
  return locks.For(this);
}

TextIndexSlot& ServedRepo::text_index_slot() const {
  return text_index_slot_.Get(
      [this] {
        auto slot = std::make_unique<TextIndexSlot>();
        // One string for every repository keeping the same store: a search compares their
        // addresses, not their bytes.
        slot->store_folder = &Intern(TextStoreFolder(settings().index_folder));
        return slot.release();
      },
      [](TextIndexSlot* slot) { delete slot; });
}

const std::string& TextStoreFolderOf(const ServedRepo& repo) {
  return *repo.text_index_slot().store_folder;
}

std::string TextIndexFile(const ServedRepo& repo) {
  const std::string& folder = repo.settings().index_folder;
  return folder.empty() ? std::string() : folder + "/text.list";
}

uint64_t PolicyDigest(const PathPolicy& policy) { return Fnv64(policy.Describe()); }

uint64_t TextPartKey(const git_oid& tree, const std::string& folder, uint64_t policy) {
  std::string bytes(reinterpret_cast<const char*>(tree.id), GIT_OID_RAWSZ);
  bytes += folder;
  bytes.push_back('\0');
  bytes.append(reinterpret_cast<const char*>(&policy), sizeof policy);
  return Fnv64(bytes);
}

std::shared_ptr<const TextIndex> CurrentTextIndex(const ServedRepo& repo) {
  if (repo.settings().index_folder.empty()) return nullptr;
  RefsWatch::Shared().Catch();  // every change of the list made before this call is seen
  return CurrentTextIndex(repo, CurrentTextStore(TextStoreFolderOf(repo)));
}

namespace {
std::shared_ptr<const TextIndex> OpenTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store,
    std::shared_ptr<const RefsWatch::Ticket>* watched);
}  // namespace

std::shared_ptr<const TextIndex> CurrentTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store, bool* vouched) {
  if (vouched) *vouched = false;
  if (repo.settings().index_folder.empty() || !store) return nullptr;
  // What this repository kept answers while its list is unchanged and the store is the same:
  // no file name made, no table searched.
  TextIndexSlot& slot = repo.text_index_slot();
  {
    std::lock_guard<std::mutex> lock(slot.Mutex());
    const TextIndexSlot::Opened& o = slot.opened;
    // (An index of other paths than those served answers null, unvouched, by the way below.)
    if (o.index && o.serves && o.watched && &o.index->store() == store.get() &&
        RefsWatch::Shared().Unchanged(*o.watched)) {
      if (vouched) *vouched = true;
      return o.index;
    }
  }
  std::shared_ptr<const RefsWatch::Ticket> watched;
  auto index = OpenTextIndex(repo, store, &watched);
  if (index && watched && vouched) *vouched = true;
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
  using Opened = TextIndexSlot::Opened;
  auto kept = [&](const Opened& o) -> std::optional<std::shared_ptr<const TextIndex>> {
    if (!o.index) return std::shared_ptr<const TextIndex>();
    if (&o.index->store() != store.get()) return std::nullopt;
    return o.serves ? o.index : nullptr;
  };
  // Kept in the repository's slot (20,000 repositories kept it in a map by the list's file
  // name: 5 MB).
  TextIndexSlot& slot = repo.text_index_slot();
  {
    std::lock_guard<std::mutex> lock(slot.Mutex());
    const Opened& o = slot.opened;
    if (o.file != 0 && o.watched && RefsWatch::Shared().Unchanged(*o.watched)) {
      if (auto answer = kept(o)) {
        *watched = o.watched;  // taken before that list was read
        return *answer;
      }
    }
  }
  Opened now;
  now.watched = RefsWatch::Shared().WatchFile(repo.settings().index_folder, "text.list");
  now.file = FileStamp::Of(file).Mark();
  if (now.file == 0) return nullptr;
  // A list refused (logged, and kept so until its file changes): the repository is read.
  auto refuse = [&](const std::string& why) -> std::shared_ptr<const TextIndex> {
    LogLine("repo-reader: the text index of `" + repo.name() +
            "` is not used (the repository is read instead): " + why);
    std::lock_guard<std::mutex> lock(slot.Mutex());
    slot.opened = std::move(now);
    return nullptr;
  };
  std::shared_ptr<const TextIndex> previous;  // the same list over the store as it was
  {
    std::lock_guard<std::mutex> lock(slot.Mutex());
    Opened& o = slot.opened;
    if (o.file != 0 && o.file == now.file) {
      if (auto answer = kept(o)) {
        // The ticket taken before the list was found the same vouches for it from now on.
        o.watched = now.watched;
        *watched = now.watched;
        return *answer;
      }
      previous = o.index;
    }
  }
  // Each of its blobs found in the store, once for this list and this store; when the store
  // changed (a shard added by a commit indexed anywhere, say), only what moved is looked up.
  auto made = [&]() -> Result<std::shared_ptr<const TextIndex>> {
    if (previous) return TextIndex::Make(*previous, store);
    auto opened = IndexFile::Open(file);
    if (!opened) return Error{opened.error()};
    return TextIndex::Make(opened.take(), store);
  }();
  // The list damaged, or a part it names missing or damaged: not used until it is written again
  // (the indexer builds the index anew, the list with it).
  if (!made) return refuse(made.error());
  now.index = made.take();
  now.serves = now.index->policy() == PolicyDigest(repo.policy());
  std::shared_ptr<const TextIndex> index = now.index;
  const bool serves = now.serves;
  *watched = now.watched;  // taken before the list was read
  {
    std::lock_guard<std::mutex> lock(slot.Mutex());
    slot.opened = std::move(now);
  }
  return serves ? index : nullptr;
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
  // What this build read itself (contents the store did not hold): kind and size.
  std::unordered_map<std::string, std::pair<BlobKind, uint32_t>> read_now;
  // A content's kind and size: as the store holds it, else read (once).
  auto judge = [&](const Node& node, BlobKind* kind, uint32_t* size) {
    *kind = BlobKind::kUnread;
    *size = 0;
    if (held(node.oid, kind, size)) return;
    const std::string raw(reinterpret_cast<const char*>(node.oid.id), GIT_OID_RAWSZ);
    if (auto it = read_now.find(raw); it != read_now.end()) {
      *kind = it->second.first;
      *size = it->second.second;
      return;
    }
    // Never fetched: what the local copy lacks is read by the search, as without an index (and
    // tried again at the next build).
    const auto bytes = reader->Size(node);
    if (bytes && *bytes <= RepoReader::kMaxFileBytes) {
      auto data = reader->Read(node);
      if (data && data->kind == FileData::Kind::kBinary) {
        *kind = BlobKind::kBinary;
        fresh.AddBlob(node.oid, *kind, {});
      } else if (data) {
        *kind = BlobKind::kText;
        *size = static_cast<uint32_t>(data->bytes().size());
        fresh.AddBlob(node.oid, *kind, data->bytes());
        out.text_bytes += *size;
      }
      out.blobs++;
      if (data) read_now.emplace(raw, std::make_pair(*kind, *size));
    }
  };
  auto add = [&](IndexFileWriter& w, const Node& node) {
    size_t blob = w.Known(node.oid);
    if (blob == SIZE_MAX) {
      BlobKind kind = BlobKind::kUnread;
      uint32_t size = 0;
      judge(node, &kind, &size);
      blob = w.AddSized(node.oid, kind, size);
    }
    w.AddPath(node.path.str(), blob, node.executable);
  };
  // The root's folders are listed in parts of the store (TextPartFile), shared by every list
  // that names them: a folder of at least kMinPartPaths served files in a part of its own, keyed
  // by its tree, its path and the policy; the smaller ones together in one part, keyed by all of
  // their paths and trees and the policy. A part already there (written for this repository
  // before, or for a fork or a copy of it) is named without walking its folders again; a part
  // holding a content the store could not read is made again. Files at the root stay in the list.
  std::vector<std::pair<std::string, git_oid>> folders;  // the root's, in tree order
  if (auto listing = reader->List(*root, stop)) {
    for (const Node& f : listing->folders) folders.emplace_back(f.path.str(), f.oid);
  }
  auto tree_of = [&](const std::string& name) -> const git_oid* {
    for (const auto& [n, oid] : folders) {
      if (n == name) return &oid;
    }
    return nullptr;
  };
  // A part in the store that can be named as it is: its paths, else null.
  auto usable = [&](const git_oid& id, uint64_t key) -> std::shared_ptr<const IndexFile> {
    auto part = IndexFile::Open(TextPartFile(store_folder, key));
    if (!part || !TextPartAgrees(**part, id, policy, 0) || (*part)->unread_paths() != 0) {
      return nullptr;
    }
    return part.take();
  };
  std::map<std::string, std::pair<uint64_t, size_t>> own_parts;  // folder -> key, paths
  std::vector<std::pair<std::string, git_oid>> small;            // the others, in tree order
  for (const auto& [name, tree] : folders) {
    const uint64_t key = TextPartKey(tree, name, policy);
    if (auto part = usable(tree, key)) {
      own_parts[name] = {key, part->paths()};
    } else {
      small.emplace_back(name, tree);
    }
  }
  // The small folders' part, when the store holds it for exactly these folders: where each
  // folder's files are in it.
  git_oid small_id{};
  uint64_t small_key = 0;
  std::map<std::string, std::pair<size_t, size_t>> small_runs;  // folder -> first, paths
  bool small_found = false;
  auto name_small = [&](const std::vector<std::pair<std::string, git_oid>>& set) {
    std::string bytes;
    for (const auto& [name, tree] : set) {
      bytes += name;
      bytes.push_back('\0');
      bytes.append(reinterpret_cast<const char*>(tree.id), GIT_OID_RAWSZ);
    }
    git_odb_hash(&small_id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB);
    small_key = TextPartKey(small_id, "", policy);
  };
  if (!small.empty()) {
    name_small(small);
    if (auto part = usable(small_id, small_key)) {
      small_found = true;
      for (size_t i = 0; i < part->paths(); ++i) {
        const std::string_view path = part->Path(i).path;
        const std::string folder(path.substr(0, path.find('/')));
        auto [it, added] = small_runs.emplace(folder, std::make_pair(i, size_t{0}));
        it->second.second++;
      }
    }
  }
  struct OpenPart {
    std::string name, prefix;  // "folder", "folder/"
    git_oid tree{};
    std::vector<Node> files;
  };
  std::optional<OpenPart> walking;
  std::vector<std::pair<uint64_t, std::unique_ptr<IndexFileWriter>>> new_parts;
  auto small_writer = std::make_unique<IndexFileWriter>();    // the small folders' part, walked
  std::vector<size_t> small_named;                            // the list's runs of it
  std::vector<std::pair<std::string, git_oid>> walked_small;  // its folders
  auto close_part = [&] {
    if (!walking) return;
    OpenPart p = std::move(*walking);
    walking.reset();
    if (p.files.size() >= kMinPartPaths) {
      const uint64_t key = TextPartKey(p.tree, p.name, policy);
      auto writer = std::make_unique<IndexFileWriter>();
      for (const Node& n : p.files) add(*writer, n);
      writer->SetTree(p.tree);
      list.AddPart(p.tree, key, 0, p.files.size());
      new_parts.emplace_back(key, std::move(writer));
      return;
    }
    walked_small.emplace_back(p.name, p.tree);
    if (p.files.empty()) return;
    small_named.push_back(list.AddPart(git_oid{}, 0, small_writer->paths(), p.files.size()));
    for (const Node& n : p.files) add(*small_writer, n);
  };
  size_t too_deep = 0;
  Status walked = reader->Walk(
      *root, stop,
      [&](const Node& node) {
        if (node.kind != EntryKind::kFile) return true;
        const std::string& path = node.path.str();
        if (walking && path.compare(0, walking->prefix.size(), walking->prefix) == 0) {
          walking->files.push_back(node);
        } else {
          close_part();
          add(list, node);
        }
        out.files++;
        return !stop.stopped();
      },
      &too_deep,
      [&](const RepoPath& folder) {
        const std::string& path = folder.str();
        if (path.find('/') != std::string::npos) return true;  // below a root folder
        close_part();
        const git_oid* tree = tree_of(path);
        if (!tree) return true;  // not listed: its files stay in the list
        if (auto own = own_parts.find(path); own != own_parts.end()) {
          list.AddPart(*tree, own->second.first, 0, own->second.second);
          out.files += own->second.second;
          out.reused_parts++;
          return false;
        }
        if (small_found) {
          if (auto run = small_runs.find(path); run != small_runs.end()) {
            list.AddPart(small_id, small_key, run->second.first, run->second.second);
            out.files += run->second.second;
          }
          return false;
        }
        walking = OpenPart{path, path + "/", *tree, {}};
        return true;
      });
  close_part();
  if (small_found) {
    out.reused_parts++;
  } else if (!walked_small.empty()) {
    // Named by the folders that turned out small (the same set a later build finds without its
    // big folders' parts).
    name_small(walked_small);
    for (const size_t run : small_named) list.NamePart(run, small_id, small_key);
    if (small_writer->paths() > 0) {
      small_writer->SetTree(small_id);
      new_parts.emplace_back(small_key, std::move(small_writer));
    }
  }
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
  if (!new_parts.empty()) {
    Status parts = MakePrivateFolder(store_folder + "/parts", "the text index folder");
    if (!parts) return Error{parts.error()};
  }
  for (const auto& [key, writer] : new_parts) {
    const std::string part = TextPartFile(store_folder, key);
    Status wrote = writer->Write(part, writer->tree(), policy);
    if (!wrote) return Error{wrote.error()};
    struct stat ps {};
    if (stat(part.c_str(), &ps) == 0) out.part_bytes += static_cast<uint64_t>(ps.st_size);
  }
  Status made = MakePrivateFolder(folder, "the text index folder");
  if (!made) return Error{made.error()};
  Status written = list.Write(file, at->commit.id.oid(), policy);
  if (!written) return Error{written.error()};
  // The same list over what the commit shares with its parent, when other copies share it: then
  // it names that base alone. A folder's part this build wrote is left for the garbage pass
  // (CompactTextStore, which reads every list under the lock) even when no list names it now:
  // another build may have found it in the store and be about to name it.
  if (auto based = ListOverBase(reader.value(), *at, store_folder, policy, file, stop); !based) {
    if (!stop.stopped()) {
      LogLine("repo-reader: text index of `" + repo.name() +
              "`: kept as its folders' parts (the parent's base: " + based.error() + ")");
    }
  } else {
    out.part_bytes += based->base_bytes;  // written, named or not
    if (based->used) out.reused_parts = based->base_written ? 0 : 1;
  }
  AddTextPartBytes(store_folder, out.part_bytes);
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
    if (c->parts_dropped) {
      LogLine("repo-reader: text index store: " + std::to_string(c->parts_dropped) +
              " parts dropped (folders no repository's default branch holds any more)");
    }
  }
}

namespace {
std::atomic<uint64_t> used_targets{0}, used_passed{0}, used_other{0}, used_unopened{0},
    used_added_up{0}, used_listed{0};
}  // namespace

void CountTextIndexUse(const TextIndexUse& use) {
  if (use.targets) used_targets.fetch_add(use.targets, std::memory_order_relaxed);
  if (use.files_passed_over) {
    used_passed.fetch_add(use.files_passed_over, std::memory_order_relaxed);
  }
  if (use.files_added_up) used_added_up.fetch_add(use.files_added_up, std::memory_order_relaxed);
  if (use.other_commit) used_other.fetch_add(use.other_commit, std::memory_order_relaxed);
  if (use.unopened) used_unopened.fetch_add(use.unopened, std::memory_order_relaxed);
  if (use.paths_listed) used_listed.fetch_add(use.paths_listed, std::memory_order_relaxed);
}

std::shared_ptr<const KnownPath> ListedDefault(const std::shared_ptr<const ServedRepo>& repo,
                                               const RepoPath& path, TextStoresLookedAt* stores) {
  bool root_watched = false;
  auto root = KnownDefault(repo, RepoPath::Root(), &root_watched);
  if (!root || !root->found || !root_watched || repo->settings().index_folder.empty()) {
    return nullptr;
  }
  bool vouched = false;
  auto index = CurrentTextIndex(*repo, stores->Of(*repo), &vouched);
  if (!index || !vouched || git_oid_equal(&index->commit(), &root->commit.oid()) == 0) {
    return nullptr;
  }
  size_t begin = 0, end = 0;
  bool file = false;
  index->PathsUnder(path.str(), &begin, &end, &file);
  auto found = std::make_shared<KnownPath>();
  found->label = root->label;
  found->commit = root->commit;
  found->time = root->time;
  found->offset = root->offset;
  if (file) {
    const TextIndex::PathEntry e = index->Path(begin);
    found->node = Node{path, EntryKind::kFile, index->Oid(e.blob), e.executable};
    found->found = true;
  } else if (begin < end) {
    found->node = Node{path, EntryKind::kFolder, git_oid{}, false};
    found->found = true;
  } else {
    found->error = std::string("no file is served there");
  }
  used_listed.fetch_add(1, std::memory_order_relaxed);
  return found;
}

const std::shared_ptr<const TextStoreSnapshot>& TextStoresLookedAt::Of(const ServedRepo& repo) {
  const std::string& folder = TextStoreFolderOf(repo);
  auto it = by_folder_.find(folder);
  if (it == by_folder_.end()) it = by_folder_.emplace(folder, CurrentTextStore(folder)).first;
  return it->second;
}

TextIndexUse CurrentTextIndexUse() {
  return {
      used_targets.load(std::memory_order_relaxed),  used_passed.load(std::memory_order_relaxed),
      used_other.load(std::memory_order_relaxed),    used_unopened.load(std::memory_order_relaxed),
      used_added_up.load(std::memory_order_relaxed), used_listed.load(std::memory_order_relaxed)};
}

}  // namespace rr
