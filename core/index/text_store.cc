#include "core/index/text_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "core/index/file_stamp.h"
#include "core/secrets/server_log.h"
#include "core/util/private_folder.h"

namespace rr {
namespace {

constexpr char kShardPrefix[] = "shard-";
constexpr char kShardSuffix[] = ".tri";
constexpr uint32_t kNoBlob = UINT32_MAX;

bool IsShardName(const std::string& name) {
  const size_t p = sizeof kShardPrefix - 1, s = sizeof kShardSuffix - 1;
  return name.size() > p + s && name.compare(0, p, kShardPrefix) == 0 &&
         name.compare(name.size() - s, s, kShardSuffix) == 0;
}

std::vector<std::string> ListFolder(const std::string& folder) {
  std::vector<std::string> names;
  DIR* dir = opendir(folder.c_str());
  if (!dir) return names;
  while (const dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

// What a folder looked like (stat): a shard added or removed changes it.
// A shard as this process mapped it, by how its file looked (stat): a shard is never changed in
// place, but one put there under the same name (a copy from elsewhere) is opened again.
struct KnownShard {
  FileStamp file;
  std::shared_ptr<const IndexFile> shard;  // null: it failed its checks (logged once)
};
struct KnownStore {
  FileStamp stamp;
  std::shared_ptr<const TextStoreSnapshot> snapshot;
  std::map<std::string, KnownShard> shards;
};
std::mutex& StoresMutex() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, KnownStore>& Stores() {
  static auto* stores = new std::map<std::string, KnownStore>();
  return *stores;
}

std::mutex& WriteMutex() {
  static std::mutex mu;
  return mu;
}

uint64_t FileBytes(const std::string& file) {
  struct stat st {};
  return stat(file.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Writes the kept blobs of `shards` (all of a shard when its `keep` is empty) as one new shard,
// then removes the shards merged. The caller holds the lock.
Result<uint64_t> Merge(const TextStoreSnapshot& snap, const std::vector<size_t>& which,
                       const std::vector<std::vector<bool>>& keep, const StopToken& stop) {
  IndexFileWriter w;
  std::vector<uint32_t> remap, posting;
  for (size_t k = 0; k < which.size(); ++k) {
    const IndexFile& shard = *snap.shards[which[k]];
    remap.assign(shard.blobs(), kNoBlob);
    for (size_t b = 0; b < shard.blobs(); ++b) {
      if (!keep[k].empty() && !keep[k][b]) continue;
      remap[b] = static_cast<uint32_t>(w.AddSized(shard.Oid(b), shard.Kind(b), shard.Size(b)));
    }
    for (size_t i = 0; i < shard.trigrams(); ++i) {
      if ((i & 0xFFF) == 0 && stop.stopped()) return Error{"stopped"};
      if (!shard.PostingsAt(i, &posting)) return Error{"a shard's posting list is damaged"};
      const uint32_t t = shard.TrigramAt(i);
      for (uint32_t b : posting) {
        if (remap[b] != kNoBlob) w.AddPosting(t, remap[b]);
      }
    }
  }
  uint64_t bytes = 0;
  if (w.blobs() > 0) {
    auto written = WriteTextShard(snap.folder, w);
    if (!written) return Error{written.error()};
    bytes = *written;
  }
  for (size_t s : which) unlink((snap.folder + "/" + snap.names[s]).c_str());
  return bytes;
}

}  // namespace

std::string TextStoreFolder(const std::string& index_folder) {
  if (index_folder.empty()) return "";
  const size_t slash = index_folder.rfind('/');
  if (slash == std::string::npos || slash == 0) return "";
  const std::string parent = index_folder.substr(0, slash);
  const size_t up = parent.rfind('/');
  if (up != std::string::npos && up > 0 &&
      parent.compare(up + 1, std::string::npos, "history") == 0) {
    return parent.substr(0, up) + "/text";
  }
  return parent + "/text";
}

std::shared_ptr<const TextStoreSnapshot> CurrentTextStore(const std::string& folder) {
  const FileStamp now = FileStamp::Of(folder);
  std::lock_guard<std::mutex> lock(StoresMutex());
  KnownStore& known = Stores()[folder];
  if (known.snapshot && known.stamp == now) return known.snapshot;
  auto snap = std::make_shared<TextStoreSnapshot>();
  snap->folder = folder;
  std::map<std::string, KnownShard> kept;
  if (now.exists) {
    for (const std::string& name : ListFolder(folder)) {
      if (!IsShardName(name)) continue;
      const std::string file = folder + "/" + name;
      const FileStamp stamp = FileStamp::Of(file);
      if (!stamp.exists) continue;  // removed since it was listed
      KnownShard shard;
      if (auto it = known.shards.find(name); it != known.shards.end() && it->second.file == stamp) {
        shard = it->second;
      } else {
        shard.file = stamp;
        auto opened = IndexFile::Open(file);
        if (opened) {
          shard.shard = opened.take();
        } else if (FileStamp::Of(file).exists) {
          LogLine("repo-reader: a shard of the text index (" + name +
                  ") is not used (what it holds is read instead): " + opened.error());
        }
      }
      kept[name] = shard;
      if (!shard.shard) continue;
      snap->names.push_back(name);
      snap->bytes += shard.shard->bytes();
      snap->text_bytes += shard.shard->text_bytes();
      snap->shards.push_back(shard.shard);
    }
  }
  known.shards = std::move(kept);
  known.stamp = now;
  known.snapshot = snap;
  return snap;
}

std::vector<std::shared_ptr<const TextStoreSnapshot>> KnownTextStores() {
  std::vector<std::string> folders;
  {
    std::lock_guard<std::mutex> lock(StoresMutex());
    for (const auto& [folder, known] : Stores()) folders.push_back(folder);
  }
  std::vector<std::shared_ptr<const TextStoreSnapshot>> out;
  for (const auto& f : folders) out.push_back(CurrentTextStore(f));
  return out;
}

namespace {
std::mutex& PartBytesMutex() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, uint64_t>& PartBytes() {
  static auto* map = new std::map<std::string, uint64_t>();
  return *map;
}
}  // namespace

uint64_t TextPartBytes(const std::string& folder) {
  std::lock_guard<std::mutex> lock(PartBytesMutex());
  auto it = PartBytes().find(folder);
  return it == PartBytes().end() ? 0 : it->second;
}

void AddTextPartBytes(const std::string& folder, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(PartBytesMutex());
  PartBytes()[folder] += bytes;
}

// ---- a repository's index -------------------------------------------------------------------

TextList::TextList(std::shared_ptr<const IndexFile> list,
                   std::shared_ptr<const TextStoreSnapshot> store)
    : list_(std::move(list)), store_(std::move(store)) {
  const size_t n = list_->blobs();
  std::vector<uint32_t> where(n, kNone);
  std::vector<bool> used(store_->shards.size(), false);
  for (size_t b = 0; b < n; ++b) {
    // Unread: read by every search.
    if (list_->Kind(b) != BlobKind::kUnread && (where[b] = LookUp(b, &used)) == kNone) missing_++;
  }
  Finish(where, used, nullptr);
  // The content ids were read to find them; a search of the many repositories that hold no
  // candidate reads nothing of the list again.
  list_->LetGo();
}

TextList::TextList(const TextList& before, std::shared_ptr<const TextStoreSnapshot> store)
    : list_(before.list_), store_(std::move(store)) {
  // Where each shard of the store as it was is in the store now (the same mapped file), if
  // still there: in the same order, since both list the shards by name.
  const auto& was = before.store_->shards;
  std::vector<size_t> moved(was.size(), SIZE_MAX);
  for (size_t o = 0, s = 0; o < was.size(); ++o) {
    for (size_t k = s; k < store_->shards.size(); ++k) {
      if (store_->shards[k] == was[o]) {
        moved[o] = k;
        s = k + 1;
        break;
      }
    }
  }
  const size_t n = list_->blobs();
  std::vector<uint32_t> where(n, kNone);
  std::vector<bool> used(store_->shards.size(), false);
  bool looked_up = false;
  for (size_t b = 0; b < n; ++b) {
    if (list_->Kind(b) == BlobKind::kUnread) continue;
    const uint32_t w = before.places_[b];
    if (w != kNone && moved[ShardOf(w)] != SIZE_MAX) {
      const uint32_t now = Place(moved[ShardOf(w)], NumberOf(w));
      if (now != kNone) {
        where[b] = now;
        used[moved[ShardOf(w)]] = true;
        continue;
      }
    }
    // Held by no shard then, or its shard is gone (merged, compacted away): looked up.
    if ((where[b] = LookUp(b, &used)) == kNone) missing_++;
    looked_up = true;
  }
  if (looked_up) {
    Finish(where, used, nullptr);
    list_->LetGo();
    return;
  }
  // Every place moved with its shard, the shards in the same order: still sorted.
  const Screen& was_screen = before.screen_;
  std::vector<uint32_t> held;
  held.reserve(was_screen.held_count);
  for (const uint32_t* w = was_screen.held; w != was_screen.held + was_screen.held_count; ++w) {
    held.push_back(Place(moved[ShardOf(*w)], NumberOf(*w)));
  }
  Finish(where, used, &held);
}

uint32_t TextList::LookUp(size_t b, std::vector<bool>* used) const {
  const git_oid& oid = list_->Oid(b);
  for (size_t s = 0; s < store_->shards.size(); ++s) {
    const size_t at = store_->shards[s]->Find(oid);
    if (at == SIZE_MAX) continue;
    const uint32_t w = Place(s, at);
    if (w == kNone) continue;  // does not fit: another shard's copy, else read
    (*used)[s] = true;
    return w;
  }
  return kNone;
}

void TextList::Finish(const std::vector<uint32_t>& where, const std::vector<bool>& used,
                      const std::vector<uint32_t>* sorted) {
  for (size_t s = 0; s < used.size(); ++s) {
    if (used[s]) screen_.shards |= uint64_t{1} << s;  // (s < 63: Place)
  }
  const size_t n = where.size();
  const size_t held = sorted ? sorted->size() : n - std::count(where.begin(), where.end(), kNone);
  places_.reset(new uint32_t[n + held]);
  std::copy(where.begin(), where.end(), places_.get());
  uint32_t* out = places_.get() + n;
  if (sorted) {
    std::copy(sorted->begin(), sorted->end(), out);
  } else {
    std::copy_if(where.begin(), where.end(), out, [](uint32_t w) { return w != kNone; });
    std::sort(out, out + held);
  }
  screen_.store = store_.get();
  screen_.always = missing_ > 0 || list_->unread_paths() > 0;
  for (const uint32_t* w = out; w != out + held; ++w) {
    const size_t bit = Screen::Bit(*w);
    screen_.filter[bit / 64] |= uint64_t{1} << (bit % 64);
  }
  screen_.held = out;
  screen_.held_count = static_cast<uint32_t>(held);
}

BlobKind TextList::Kind(size_t blob) const {
  const uint32_t w = places_[blob];
  return w == kNone ? BlobKind::kUnread : store_->shards[ShardOf(w)]->Kind(NumberOf(w));
}

bool TextList::Candidates(const TrigramQuery& query, std::vector<bool>* out) const {
  const size_t n = list_->blobs();
  out->assign(n, true);
  if (query.all) return true;
  std::vector<std::shared_ptr<const std::vector<bool>>> maybe(store_->shards.size());
  for (uint64_t left = screen_.shards; left != 0; left &= left - 1) {
    const auto s = static_cast<size_t>(__builtin_ctzll(left));
    auto set = store_->shards[s]->CachedCandidates(query);
    if (!set) return false;
    maybe[s] = std::shared_ptr<const std::vector<bool>>(set, &set->maybe);
  }
  for (size_t b = 0; b < n; ++b) {
    const uint32_t w = places_[b];
    if (w != kNone) (*out)[b] = (*maybe[ShardOf(w)])[NumberOf(w)];
  }
  return true;
}

bool TextList::MayMatchAny(const Screen& screen, const TrigramQuery& query, Asked* asked) const {
  if (query.all || screen.always) return true;
  // The shards' candidates: asked of each shard now, or found among what this search asked.
  std::vector<std::shared_ptr<const CandidateSet>> own;
  if (asked && asked->store.get() != screen.store) {
    asked->store = store_;
    asked->shards.assign(store_->shards.size(), nullptr);
    asked->shard_asked.assign(store_->shards.size(), false);
  }
  if (!asked) own.resize(store_->shards.size());
  auto& sets = asked ? asked->shards : own;
  size_t lookups = 0;
  for (uint64_t left = screen.shards; left != 0; left &= left - 1) {
    const auto s = static_cast<size_t>(__builtin_ctzll(left));
    if (!asked || !asked->shard_asked[s]) {
      sets[s] = store_->shards[s]->CachedCandidates(query);
      if (asked) asked->shard_asked[s] = true;
    }
    if (!sets[s]) return true;  // damaged
    lookups += sets[s]->blobs.size();
  }
  // The shards' candidates looked up among the list's blobs when they are fewer (most need not
  // be: the filter says they are not held); else each of the list's blobs looked up among the
  // candidates (a flag each): a root folder's few files against a common identifier's thousands
  // of candidates.
  const uint32_t* held_end = screen.held + screen.held_count;
  if (lookups > screen.held_count) {
    for (const uint32_t* w = screen.held; w != held_end; ++w) {
      const CandidateSet* set = sets[ShardOf(*w)].get();
      if (!set || NumberOf(*w) >= set->maybe.size() || set->maybe[NumberOf(*w)]) return true;
    }
    return false;
  }
  for (uint64_t left = screen.shards; left != 0; left &= left - 1) {
    const auto s = static_cast<size_t>(__builtin_ctzll(left));
    for (const uint32_t b : sets[s]->blobs) {
      const uint32_t w = Place(s, b);
      if (w == kNone) continue;
      const size_t bit = Screen::Bit(w);
      if ((screen.filter[bit / 64] >> (bit % 64) & 1) == 0) continue;  // not held
      if (std::binary_search(screen.held, held_end, w)) return true;
    }
  }
  return false;
}

std::shared_ptr<const std::vector<uint32_t>> TextList::CandidatePaths(const TrigramQuery& query,
                                                                      bool kept) const {
  std::string key;
  if (kept) {
    key = query.key.empty() ? TrigramQueryKey(query) : query.key;
    if (auto answer = memo_.Find(key)) return answer;
  }
  std::vector<bool> maybe;
  if (!Candidates(query, &maybe)) return nullptr;
  auto paths = std::make_shared<std::vector<uint32_t>>();
  const size_t n = list_->paths();
  for (size_t i = 0; i < n; ++i) {
    if (maybe[list_->Path(i).blob]) paths->push_back(static_cast<uint32_t>(i));
  }
  if (kept) memo_.Keep(std::move(key), paths);
  return paths;
}

// ---- a repository's index: its list and its parts --------------------------------------------

std::string TextPartFile(const std::string& folder, uint64_t key) {
  char name[40];
  std::snprintf(name, sizeof name, "/parts/%016llx.list", static_cast<unsigned long long>(key));
  return folder + name;
}

bool TextPartAgrees(const IndexFile& part, const git_oid& id, uint64_t policy, size_t paths) {
  return git_oid_equal(&part.commit(), &id) != 0 && part.policy() == policy &&
         part.paths() >= paths && part.parts() == 0;
}

namespace {

// The parts found in a store, by file: the last made over some snapshot, and how its file
// looked then. Weak: a part no index uses any more is let go.
struct KnownPart {
  FileStamp file;
  std::weak_ptr<const TextList> list;
};
std::mutex& PartsMutex() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, KnownPart>& Parts() {
  static auto* map = new std::map<std::string, KnownPart>();
  return *map;
}

// The part `e` of a list of `policy` over `store`: shared with every index naming it.
Result<std::shared_ptr<const TextList>> PartOver(
    const IndexFile::PartEntry& e, uint64_t policy,
    const std::shared_ptr<const TextStoreSnapshot>& store) {
  const std::string file = TextPartFile(store->folder, e.key);
  std::shared_ptr<const TextList> before;
  FileStamp stamp;
  {
    std::lock_guard<std::mutex> lock(PartsMutex());
    auto it = Parts().find(file);
    if (it != Parts().end()) {
      before = it->second.list.lock();
      // Kept only while it is the part named: a base's key may be written again with other
      // paths (another copy's), and a list naming the new one must not meet the old.
      if (before && git_oid_equal(&before->commit(), &e.tree) == 0) before.reset();
      if (before && &before->store() == store.get()) return before;
      stamp = it->second.file;
    }
  }
  const FileStamp now = FileStamp::Of(file);
  if (!now.exists) return Error{"its part " + file.substr(file.rfind('/') + 1) + " is missing"};
  std::shared_ptr<const TextList> made;
  if (before && stamp == now) {
    made = std::make_shared<const TextList>(*before, store);
  } else {
    auto opened = IndexFile::Open(file);
    if (!opened)
      return Error{"its part " + file.substr(file.rfind('/') + 1) + ": " + opened.error()};
    if (!TextPartAgrees(**opened, e.tree, policy, e.first + e.paths)) {
      return Error{"its part " + file.substr(file.rfind('/') + 1) +
                   " does not hold the folder the list names"};
    }
    made = std::make_shared<const TextList>(opened.take(), store);
  }
  std::lock_guard<std::mutex> lock(PartsMutex());
  KnownPart& known = Parts()[file];
  if (auto other = known.list.lock();
      other && &other->store() == store.get() && known.file == now) {
    return other;  // made meanwhile by another
  }
  known.file = now;
  known.list = made;
  return made;
}

}  // namespace

Result<std::shared_ptr<const TextIndex>> TextIndex::Make(
    std::shared_ptr<const IndexFile> list, std::shared_ptr<const TextStoreSnapshot> store) {
  auto ix = std::make_shared<TextIndex>(Made(), std::move(list), std::move(store));
  Status made = ix->Assemble([](size_t) { return nullptr; });
  if (!made) return Error{made.error()};
  return std::shared_ptr<const TextIndex>(std::move(ix));
}

Result<std::shared_ptr<const TextIndex>> TextIndex::Make(
    const TextIndex& before, std::shared_ptr<const TextStoreSnapshot> store) {
  auto ix = std::make_shared<TextIndex>(Made(), before, std::move(store));
  Status made = ix->Assemble([&](size_t i) {
    return i < before.part_array().size() ? before.part_array()[i].list : nullptr;
  });
  if (!made) return Error{made.error()};
  return std::shared_ptr<const TextIndex>(std::move(ix));
}

Status TextIndex::Assemble(const std::function<std::shared_ptr<const TextList>(size_t)>& kept) {
  const IndexFile& list = own_.file();
  const auto& store = own_.store_ptr();
  commit_ = own_.commit();
  // Counted in 64 bits here, kept in 32 (a list's counts are 32 bits; many parts could pass).
  uint64_t blobs = own_.blobs(), paths = 0, missing = own_.missing();
  binary_paths_ = static_cast<uint32_t>(own_.binary_paths());
  std::vector<Part> parts;
  std::vector<Run> runs;
  size_t own_at = 0;  // the list's own paths placed so far
  auto own_run = [&](size_t to) {
    if (to > own_at)
      runs.push_back(Run{static_cast<uint32_t>(paths), -1, static_cast<uint32_t>(own_at)});
    paths += to - own_at;
    own_at = to;
  };
  std::vector<uint64_t> keys;  // of parts, in order: a part several runs take is one part here
  for (size_t i = 0; i < list.parts(); ++i) {
    const IndexFile::PartEntry e = list.Part(i);
    size_t p = static_cast<size_t>(std::find(keys.begin(), keys.end(), e.key) - keys.begin());
    if (p == keys.size()) {
      std::shared_ptr<const TextList> part = kept(p);
      if (!part || &part->store() != store.get()) {
        auto found = PartOver(e, list.policy(), store);
        if (!found) return Status(Error{found.error()});
        part = found.take();
      }
      if (git_oid_equal(&part->commit(), &e.tree) == 0) {
        return Status(Error{"a part it names does not hold what the list names"});
      }
      keys.push_back(e.key);
      if (blobs > UINT32_MAX) break;  // refused below
      const auto base = static_cast<uint32_t>(blobs);
      blobs += part->blobs();
      missing += part->missing();
      parts.push_back(Part{std::move(part), base});
    }
    if (e.first + e.paths > parts[p].list->paths()) {
      return Status(Error{"it takes more paths of a part than the part holds"});
    }
    own_run(e.position);
    if (paths > UINT32_MAX) break;  // refused below
    if (e.paths > 0) {
      runs.push_back(Run{static_cast<uint32_t>(paths), static_cast<int32_t>(p),
                         static_cast<uint32_t>(e.first)});
    }
    paths += e.paths;
  }
  own_run(list.paths());
  if (blobs > UINT32_MAX || paths > UINT32_MAX) {
    return Status(Error{"it names more than 2^32 contents or paths with its parts"});
  }
  blobs_ = static_cast<uint32_t>(blobs);
  paths_ = static_cast<uint32_t>(paths);
  missing_ = static_cast<uint32_t>(std::min<uint64_t>(missing, blobs));
  parts_and_runs_ = TwoArrays<Part, Run>(std::move(parts), std::move(runs));
  // The binary paths: a part's own count where a run takes all of it, else counted here.
  for (const Run& run : run_array()) {
    if (run.part < 0) continue;
    const TextList& part = *part_array()[static_cast<size_t>(run.part)].list;
    const size_t length = RunLength(run);
    if (run.first == 0 && length == part.paths()) {
      binary_paths_ += part.binary_paths();
      continue;
    }
    for (size_t i = run.first; i < run.first + length; ++i) {
      if (part.Kind(part.Path(i).blob) == BlobKind::kBinary) binary_paths_++;
    }
  }
  return Status{};
}

uint64_t TextIndex::text_bytes() const {
  uint64_t bytes = own_.text_bytes();
  for (const Part& part : part_array()) bytes += part.list->text_bytes();
  return bytes;
}

size_t TextIndex::RunLength(const Run& run) const {
  const size_t r = static_cast<size_t>(&run - run_array().data());
  return (r + 1 < run_array().size() ? run_array()[r + 1].begin : paths_) - run.begin;
}

const TextList& TextIndex::ListOf(size_t blob, size_t* number) const {
  if (blob < own_.blobs() || part_array().empty()) {
    *number = blob;
    return own_;
  }
  const size_t p = static_cast<size_t>(
                       std::upper_bound(part_array().begin(), part_array().end(), blob,
                                        [](size_t b, const Part& part) { return b < part.base; }) -
                       part_array().begin()) -
                   1;
  *number = blob - part_array()[p].base;
  return *part_array()[p].list;
}

size_t TextIndex::Find(const git_oid& oid) const {
  if (const size_t b = own_.Find(oid); b != SIZE_MAX) return b;
  for (const Part& part : part_array()) {
    if (const size_t b = part.list->Find(oid); b != SIZE_MAX) return part.base + b;
  }
  return SIZE_MAX;
}

BlobKind TextIndex::Kind(size_t blob) const {
  size_t n = 0;
  const TextList& l = ListOf(blob, &n);
  return l.Kind(n);
}

BlobKind TextIndex::ListedKind(size_t blob, uint32_t* size) const {
  size_t n = 0;
  const IndexFile& file = ListOf(blob, &n).file();
  *size = file.Size(n);
  return file.Kind(n);
}

const git_oid& TextIndex::Oid(size_t blob) const {
  size_t n = 0;
  const TextList& l = ListOf(blob, &n);
  return l.Oid(n);
}

bool TextIndex::Candidates(const TrigramQuery& query, std::vector<bool>* out) const {
  if (part_array().empty()) return own_.Candidates(query, out);
  out->assign(blobs_, true);
  if (query.all) return true;
  std::vector<bool> one;
  for (size_t p = 0; p <= part_array().size(); ++p) {
    const TextList& l = p == 0 ? own_ : *part_array()[p - 1].list;
    const size_t base = p == 0 ? 0 : part_array()[p - 1].base;
    if (!l.Candidates(query, &one)) return false;
    std::copy(one.begin(), one.end(), out->begin() + static_cast<std::ptrdiff_t>(base));
  }
  return true;
}

bool TextIndex::MayMatchAny(const TrigramQuery& query, TextList::Asked* asked) const {
  if (own_.MayMatchAny(query, asked)) return true;
  for (const Part& p : part_array()) {
    const std::shared_ptr<const TextList>& part = p.list;
    if (!asked) {
      if (part->MayMatchAny(query)) return true;
      continue;
    }
    auto it = asked->parts.find(part.get());
    if (it == asked->parts.end()) {
      const bool may = part->MayMatchAny(query, asked);
      it = asked->parts.emplace(part.get(), std::make_pair(part, may)).first;
    }
    if (it->second.second) return true;
  }
  return false;
}

bool TextIndex::CandidatePaths(const TrigramQuery& query, std::vector<size_t>* out,
                               const std::vector<bool>* skip) const {
  out->clear();
  if (query.all) {
    for (size_t r = 0; r < run_array().size(); ++r) {
      if (skip && (*skip)[r]) continue;
      const size_t end = run_array()[r].begin + RunLength(run_array()[r]);
      for (size_t i = run_array()[r].begin; i < end; ++i) out->push_back(i);
    }
    return true;
  }
  std::shared_ptr<const std::vector<uint32_t>> own;
  std::vector<std::shared_ptr<const std::vector<uint32_t>>> of_part(part_array().size());
  for (size_t r = 0; r < run_array().size(); ++r) {
    if (skip && (*skip)[r]) continue;
    const Run& run = run_array()[r];
    const std::vector<uint32_t>* in = nullptr;
    if (run.part < 0) {
      if (!own && !(own = own_.CandidatePaths(query, /*kept=*/false))) return false;
      in = own.get();
    } else {
      auto& p = of_part[static_cast<size_t>(run.part)];
      if (!p &&
          !(p = part_array()[static_cast<size_t>(run.part)].list->CandidatePaths(query, true))) {
        return false;
      }
      in = p.get();
    }
    const size_t end = run.first + RunLength(run);
    for (auto it = std::lower_bound(in->begin(), in->end(), run.first);
         it != in->end() && *it < end; ++it) {
      out->push_back(run.begin + (*it - run.first));
    }
  }
  return true;
}

void TextIndex::PathsUnder(std::string_view path, size_t* begin, size_t* end, bool* file) const {
  // The first path not before `key`.
  auto first_from = [&](std::string_view key) {
    size_t lo = 0, hi = paths_;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (Path(mid).path < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  *file = false;
  const size_t at = first_from(path);
  if (at < paths_ && Path(at).path == path) {
    *file = true;
    *begin = at;
    *end = at + 1;
    return;
  }
  // Below the folder: from "path/" up to "path0" ('0' follows '/').
  std::string key(path);
  key += '/';
  *begin = first_from(key);
  key.back() = '0';
  *end = std::max(*begin, first_from(key));
}

TextIndex::PathRun TextIndex::RunAt(size_t r) const {
  const Run& run = run_array()[r];
  return PathRun{run.begin, RunLength(run), run.first,
                 run.part < 0 ? nullptr : &part_array()[static_cast<size_t>(run.part)].list};
}

TextIndex::PathEntry TextIndex::Path(size_t i) const {
  const size_t r =
      static_cast<size_t>(std::upper_bound(run_array().begin(), run_array().end(), i,
                                           [](size_t v, const Run& run) { return v < run.begin; }) -
                          run_array().begin()) -
      1;
  const Run& run = run_array()[r];
  if (run.part < 0) return own_.Path(run.first + (i - run.begin));
  const Part& part = part_array()[static_cast<size_t>(run.part)];
  PathEntry e = part.list->Path(run.first + (i - run.begin));
  e.blob += part.base;
  return e;
}

// ---- writing --------------------------------------------------------------------------------

Result<uint64_t> WriteTextShard(const std::string& folder, const IndexFileWriter& writer) {
  Status made = MakePrivateFolder(folder, "the text index folder");
  if (!made) return Error{made.error()};
  static std::mt19937_64 random(
      std::random_device{}() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  char name[64];
  std::snprintf(name, sizeof name, "%s%016llx%s", kShardPrefix,
                static_cast<unsigned long long>(random()), kShardSuffix);
  const std::string file = folder + "/" + name;
  const git_oid none{};
  Status written = writer.Write(file, none, 0);
  if (!written) return Error{written.error()};
  return FileBytes(file);
}

Result<std::unique_ptr<TextStoreLock>> TextStoreLock::Take(const std::string& folder,
                                                           const StopToken& stop) {
  std::unique_ptr<TextStoreLock> lock(new TextStoreLock());
  while (!WriteMutex().try_lock()) {
    if (stop.stopped()) return Error{"stopped"};
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  lock->held_mu_ = true;
  Status made = MakePrivateFolder(folder, "the text index folder");
  if (!made) return Error{made.error()};
  lock->fd_ = ::open((folder + "/lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock->fd_ < 0) {
    return Error{"cannot open the text index's lock: " + std::string(std::strerror(errno))};
  }
  while (flock(lock->fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return Error{"cannot take the text index's lock: " + std::string(std::strerror(errno))};
    }
    if (stop.stopped()) return Error{"stopped"};
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return lock;
}

TextStoreLock::~TextStoreLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
  if (held_mu_) WriteMutex().unlock();
}

Result<size_t> MergeSmallTextShards(const std::string& folder, const StopToken& stop) {
  auto snap = CurrentTextStore(folder);
  if (snap->shards.size() <= kMaxTextShards) return size_t{0};
  // The smallest half, merged into one: each blob is written again about log(shards) times
  // over the store's life, as in a size-tiered log-structured store.
  std::vector<size_t> order(snap->shards.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return snap->shards[a]->bytes() < snap->shards[b]->bytes();
  });
  order.resize(snap->shards.size() - kMaxTextShards / 2 + 1);
  auto merged = Merge(*snap, order, std::vector<std::vector<bool>>(order.size()), stop);
  if (!merged) return Error{merged.error()};
  return order.size();
}

Result<TextStoreCompaction> CompactTextStore(const std::string& folder,
                                             const std::string& lists_parent,
                                             const StopToken& stop) {
  auto lock = TextStoreLock::Take(folder, stop);
  if (!lock) return Error{lock.error()};
  TextStoreCompaction out;
  auto snap = CurrentTextStore(folder);
  out.bytes_before = snap->bytes;
  // A shard left out as damaged is of no use to anyone: removed (its blobs are indexed again).
  for (const std::string& name : ListFolder(folder)) {
    if (IsShardName(name) &&
        std::find(snap->names.begin(), snap->names.end(), name) == snap->names.end()) {
      if (unlink((folder + "/" + name).c_str()) == 0) out.shards_dropped++;
    }
  }
  std::vector<std::vector<bool>> named(snap->shards.size());
  for (size_t s = 0; s < named.size(); ++s) named[s].assign(snap->shards[s]->blobs(), false);
  // Marks the contents a list (or a part) names.
  auto mark = [&](const IndexFile& l) {
    for (size_t b = 0; b < l.blobs(); ++b) {
      if (l.Kind(b) == BlobKind::kUnread) continue;
      // The shard a reader finds it in (the first): copies in later shards are garbage.
      for (size_t s = 0; s < snap->shards.size(); ++s) {
        const size_t at = snap->shards[s]->Find(l.Oid(b));
        if (at == SIZE_MAX) continue;
        named[s][at] = true;
        break;
      }
    }
  };
  std::set<uint64_t> parts;
  for (const std::string& entry : ListFolder(lists_parent)) {
    if (stop.stopped()) return Error{"stopped"};
    const std::string file = lists_parent + "/" + entry + "/text.list";
    struct stat st {};
    if (stat(file.c_str(), &st) != 0) continue;
    auto list = IndexFile::Open(file);
    if (!list) continue;  // names nothing: its repository is indexed again
    out.lists++;
    mark(**list);
    for (size_t i = 0; i < (*list)->parts(); ++i) parts.insert((*list)->Part(i).key);
  }
  // The parts some list names: their blobs are named; the others are dropped.
  for (const uint64_t key : parts) {
    if (stop.stopped()) return Error{"stopped"};
    auto part = IndexFile::Open(TextPartFile(folder, key));
    if (part) mark(**part);  // else: its lists are not used, and their repositories indexed again
  }
  const std::string parts_folder = folder + "/parts";
  uint64_t part_bytes = 0;
  for (const std::string& name : ListFolder(parts_folder)) {
    unsigned long long key = 0;
    char tail[8] = {0};
    const bool part_name = name.size() == 21 &&
                           std::sscanf(name.c_str(), "%16llx%7s", &key, tail) == 2 &&
                           std::string(tail) == ".list";
    // A part no list names, or a file left half written by a stopped server.
    if (part_name && parts.count(key)) {
      struct stat ps {};
      if (stat((parts_folder + "/" + name).c_str(), &ps) == 0) {
        part_bytes += static_cast<uint64_t>(ps.st_size);
      }
      continue;
    }
    if (unlink((parts_folder + "/" + name).c_str()) == 0 && part_name) out.parts_dropped++;
  }
  for (size_t s = 0; s < snap->shards.size(); ++s) {
    const IndexFile& shard = *snap->shards[s];
    uint64_t text = 0, named_text = 0;
    size_t count = 0;
    for (size_t b = 0; b < shard.blobs(); ++b) {
      text += shard.Size(b);
      if (named[s][b]) {
        named_text += shard.Size(b);
        count++;
      }
    }
    if (count == shard.blobs()) continue;
    // By the text's bytes, or by count for a shard of binary blobs only.
    const bool mostly_garbage =
        count == 0 || (text > 0 ? named_text * 2 < text : count * 2 < shard.blobs());
    if (!mostly_garbage) continue;
    auto rewritten = Merge(*snap, {s}, {named[s]}, stop);
    if (!rewritten) return Error{rewritten.error()};
    if (count == 0) {
      out.shards_dropped++;
    } else {
      out.shards_rewritten++;
    }
  }
  {
    std::lock_guard<std::mutex> parts_lock(PartBytesMutex());
    PartBytes()[folder] = part_bytes;
  }
  auto merged = MergeSmallTextShards(folder, stop);
  if (!merged) return Error{merged.error()};
  out.bytes_after = CurrentTextStore(folder)->bytes;
  return out;
}

}  // namespace rr
