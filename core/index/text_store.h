// The text index's store, shared by every repository a server serves (docs/performance.md, "The
// text index"): the trigrams of each unique content (blob), kept once however many repositories,
// forks and copies hold it, keyed by its content id; and for each repository a small list of the
// files of the commit it indexed.
//
//   <cache_folder>/text/shard-<16 hex digits>.tri   immutable shards (core/index/text_index.h,
//                                                   blobs and trigrams, no paths), each written
//                                                   once to a temporary name and renamed; a
//                                                   shard is never changed, only replaced
//   <cache_folder>/text/lock                        held while shards are added or replaced
//   <repository's index folder>/text.list           its list (the same format: paths and blobs,
//                                                   no trigrams), the commit and policy digest
//
// Readers map the shards of the folder as it is (TextStoreSnapshot, looked at again when the
// folder changes); a blob a list names that no shard holds (not indexed yet, in a shard found
// damaged, or dropped as garbage) is read by the search, as without an index. So nothing a
// writer does at any moment can make an answer wrong, only slower.
//
// Garbage: a shard whose blobs no list names any more (a branch that moved, a repository no
// longer served) is rewritten without them by CompactTextStore once fewer than half its text's
// bytes are named, and dropped when none are; small shards are merged so that a store keeps few.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/index/text_index.h"
#include "core/util/result.h"
#include "core/util/stop.h"
#include "core/util/two_arrays.h"

namespace rr {

// The store's folder for a repository's index folder (`<cache>/history/<digest>` ->
// `<cache>/text`; another folder `<parent>/<name>` -> `<parent>/text`); "" for "".
std::string TextStoreFolder(const std::string& index_folder);

// The shards of a store as they were when looked at: each mapped and checked.
struct TextStoreSnapshot {
  std::string folder;
  std::vector<std::string> names;  // file names, sorted
  std::vector<std::shared_ptr<const IndexFile>> shards;
  uint64_t bytes = 0;       // the shards' files
  uint64_t text_bytes = 0;  // the text their blobs hold (unique within a shard)
};
// The store at `folder` now (an empty one when the folder does not exist). Shards already mapped
// are kept; a shard that fails its checks is logged once and left out.
std::shared_ptr<const TextStoreSnapshot> CurrentTextStore(const std::string& folder);
// Every store looked at by this process (for `about` and /metrics).
std::vector<std::shared_ptr<const TextStoreSnapshot>> KnownTextStores();
// The bytes of the parts of the store at `folder` (its `parts/` folder), as the last compaction
// counted them and the parts written since added (AddTextPartBytes).
uint64_t TextPartBytes(const std::string& folder);
void AddTextPartBytes(const std::string& folder, uint64_t bytes);

// One file of a repository's text index (its list, or a part the list names), with each blob it
// names found in the store.
class TextList {
 public:
  using PathEntry = IndexFile::PathEntry;
  TextList(std::shared_ptr<const IndexFile> list, std::shared_ptr<const TextStoreSnapshot> store);
  // `before`'s list over another snapshot of the same store: the places of its contents in the
  // shards both snapshots hold are kept (moved with their shards), and only the contents held by
  // no shard then, or by a shard gone since (merged, compacted), are looked up -- so a new shard
  // (a commit indexed anywhere) does not make every repository's index look all its contents up
  // again. The same as made from the list anew.
  TextList(const TextList& before, std::shared_ptr<const TextStoreSnapshot> store);

  const IndexFile& file() const { return *list_; }
  const git_oid& commit() const { return list_->commit(); }
  uint64_t policy() const { return list_->policy(); }
  size_t blobs() const { return list_->blobs(); }
  size_t paths() const { return list_->paths(); }
  size_t bytes() const { return list_->bytes(); }  // the list's file
  uint64_t text_bytes() const { return list_->text_bytes(); }
  // Blobs the list names as indexed that no shard holds (they are read by a search).
  size_t missing() const { return missing_; }
  const TextStoreSnapshot& store() const { return *store_; }
  const std::shared_ptr<const TextStoreSnapshot>& store_ptr() const { return store_; }

  size_t Find(const git_oid& oid) const { return list_->Find(oid); }
  // Unread when no shard holds it.
  BlobKind Kind(size_t blob) const;
  const git_oid& Oid(size_t blob) const { return list_->Oid(blob); }
  // Which blobs may hold a match of `query`: one flag a blob; every blob no shard holds may.
  // False when a posting list is found damaged (then use no index).
  bool Candidates(const TrigramQuery& query, std::vector<bool>* out) const;
  // False only when no file of the list can hold a match of `query`: every blob it names is held
  // by a shard, and none of them is among the shards' candidates. Answered by looking the
  // shards' candidates up among the list's blobs (kept in memory), without reading the list, when
  // they are few; true when they are many (or a posting list is damaged): then ask Candidates.
  // Over an organisation, most repositories hold none of a rare token's few candidates.
  // `asked` (when given): what this search already asked the store's shards of this same query.
  struct Asked;
  bool MayMatchAny(const TrigramQuery& query, Asked* asked = nullptr) const {
    return MayMatchAny(screen_, query, asked);
  }
  // What MayMatchAny reads of a list, in one place: a search over 20,000 repositories asks it of
  // each, and each line more it reads is a miss of the processor's cache. Kept first in the
  // list, which its index (TextIndex) keeps beside the commit it lists.
  struct Screen {
    const TextStoreSnapshot* store = nullptr;
    bool always = false;      // a blob no shard holds, or one unread: it may always match
    uint32_t held_count = 0;  // of `held`
    uint64_t shards = 0;      // the shards holding any of its blobs, a bit each
    uint64_t filter[4] = {};  // a bit for each held place's hash: a place whose bit is clear is
                              // not held (`held` is not read)
    const uint32_t* held = nullptr;  // the places held, sorted (in places_)
    static size_t Bit(uint32_t place) { return (place * 0x9E3779B1u) >> 24; }
  };
  const Screen& screen() const { return screen_; }
  // MayMatchAny by `screen` (this list's, or a copy of it): reads nothing else of the list while
  // `asked` holds what the shards told of the query.
  bool MayMatchAny(const Screen& screen, const TrigramQuery& query, Asked* asked) const;
  // The paths (numbers, increasing) whose blob may hold a match of `query`: Candidates' paths.
  // Null when a posting list is found damaged. `kept`: the answer is kept for the next few
  // queries (a part, which every repository naming it asks the same query).
  std::shared_ptr<const std::vector<uint32_t>> CandidatePaths(const TrigramQuery& query,
                                                              bool kept) const;
  // The paths whose blob is binary (as the list read them; a shard holding one agrees).
  size_t binary_paths() const { return list_->binary_paths(); }
  PathEntry Path(size_t i) const { return list_->Path(i); }

 private:
  // A blob's place in the store in 32 bits (20,000 repositories' lists keep hundreds of millions
  // of them): the shard in the top kShardBits, its number there below. A place that does not fit
  // (a shard past the 63rd, a number past 2^26) is kept as none: that content is read, as one
  // no shard holds.
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr unsigned kShardBits = 6;
  static constexpr uint32_t kNumberMask = (uint32_t{1} << (32 - kShardBits)) - 1;
  static uint32_t Place(size_t shard, size_t number) {
    if (shard >= (size_t{1} << kShardBits) - 1 || number > kNumberMask) return kNone;
    return static_cast<uint32_t>(shard << (32 - kShardBits)) | static_cast<uint32_t>(number);
  }
  static size_t ShardOf(uint32_t w) { return w >> (32 - kShardBits); }
  static size_t NumberOf(uint32_t w) { return w & kNumberMask; }
  // First: a repository's index (TextIndex) keeps its own list right after its commit, so that
  // what a search reads first of it is together (TextIndex::Prefetch).
  Screen screen_;
  std::shared_ptr<const IndexFile> list_;
  std::shared_ptr<const TextStoreSnapshot> store_;
  // One block (20,000 repositories keep theirs): per blob its Place, or kNone (list_->blobs()
  // of them); then the same places but kNone, sorted (screen_.held, held_count of them).
  std::unique_ptr<uint32_t[]> places_;
  // CandidatePaths kept (a part's; a repository's own list never keeps one).
  QueryMemo<std::vector<uint32_t>> memo_;
  // Where `b`'s content is in the store's shards (the first that holds it in a place that
  // fits); kNone when none does.
  uint32_t LookUp(size_t b, std::vector<bool>* used) const;
  // Keeps `where` (a place a blob) and the places held, sorted (`sorted`, when given, already
  // are); the shards used.
  void Finish(const std::vector<uint32_t>& where, const std::vector<bool>& used,
              const std::vector<uint32_t>* sorted);
  uint32_t missing_ = 0;
};

// What one search (one walker of it) asked for one query, so that it is asked once rather than
// once for each of the thousands of indexes that would ask the same: each part's answer to
// MayMatchAny (a part is one object for every index naming it; held, so that its address names
// it for as long as the answers are kept), and each shard's candidates (without the shard's
// lock and a count taken on them for every repository).
struct TextList::Asked {
  std::unordered_map<const TextList*, std::pair<std::shared_ptr<const TextList>, bool>> parts;
  std::shared_ptr<const TextStoreSnapshot> store;  // the store `shards` are of
  // By shard of that store: its candidates, once asked (null when damaged).
  std::vector<std::shared_ptr<const CandidateSet>> shards;
  std::vector<bool> shard_asked;
};

// One repository's text index as a search uses it: its list and the parts it names, each blob
// found in the store. Its paths are the list's and the parts' in walk order, its blobs numbered
// the list's first, then each part's (a content two parts hold has two numbers).
//
// A part holds the files below one folder of the repository's root (keyed by the folder's tree
// id, its path and the policy: core/index/repo_text_index.h), kept once in the store however
// many lists name it -- forks and copies across an organisation share them -- and found in the
// store once for every index that names it.
class TextIndex {
 public:
  using PathEntry = IndexFile::PathEntry;
  // The index of `list` over `store`, its parts opened from the store's folder (or kept from
  // the last index that named them); an error when a part is missing or does not agree with
  // the list (then the list is not used).
  static Result<std::shared_ptr<const TextIndex>> Make(
      std::shared_ptr<const IndexFile> list, std::shared_ptr<const TextStoreSnapshot> store);
  // `before` over another snapshot of the same store (TextList's second constructor).
  static Result<std::shared_ptr<const TextIndex>> Make(
      const TextIndex& before, std::shared_ptr<const TextStoreSnapshot> store);

  // (A copy here: a search over 20,000 indexes compares each one's commit without reaching
  // into its list.)
  const git_oid& commit() const { return commit_; }
  // Asks the processor to bring what a search reads first of this index (its commit, its own
  // list's Screen, kept together) into its cache; nothing else. (What they point at is not asked
  // for: that would wait for them.)
  void Prefetch() const {
    const char* at = reinterpret_cast<const char*>(&commit_);
    const char* end = reinterpret_cast<const char*>(&own_.screen() + 1);
    for (; at < end; at += 64) __builtin_prefetch(at);
  }
  uint64_t policy() const { return own_.policy(); }
  size_t blobs() const { return blobs_; }
  size_t paths() const { return paths_; }
  size_t bytes() const { return own_.bytes(); }  // the list's file (parts are the store's)
  uint64_t text_bytes() const;                   // the list's and its parts' (added up when asked)
  size_t missing() const { return missing_; }
  size_t binary_paths() const { return binary_paths_; }
  const TextStoreSnapshot& store() const { return own_.store(); }
  const IndexFile& list() const { return own_.file(); }
  size_t parts() const { return part_array().size(); }

  size_t Find(const git_oid& oid) const;
  BlobKind Kind(size_t blob) const;
  const git_oid& Oid(size_t blob) const;
  // The kind (and, when text, the size) the list or part naming `blob` recorded for it when it
  // was written, whatever the store holds now.
  BlobKind ListedKind(size_t blob, uint32_t* size) const;
  bool Candidates(const TrigramQuery& query, std::vector<bool>* out) const;
  // `asked` (when given): what this search already asked of the parts and the store's shards
  // for this same query (TextList::Asked), looked up and added to.
  bool MayMatchAny(const TrigramQuery& query, TextList::Asked* asked = nullptr) const;
  // The paths (numbers, increasing) whose blob may hold a match of `query`, into *out: what
  // Candidates flags, found without a pass over every path (each part's are found once for all
  // the indexes naming it). False when a posting list is found damaged. `skip`, when given, has
  // a flag a run (RunAt): the paths of a run flagged are left out.
  bool CandidatePaths(const TrigramQuery& query, std::vector<size_t>* out,
                      const std::vector<bool>* skip = nullptr) const;
  PathEntry Path(size_t i) const;
  // The paths at or below `path` (a path of the tree, not the root): [*begin, *end) of the
  // paths, which are in walk order -- git's, each path's bytes in increasing order -- found by
  // halving, not a pass. *file: `path` itself is a listed file (then it is the one path).
  void PathsUnder(std::string_view path, size_t* begin, size_t* end, bool* file) const;

  // The paths in walk order come in runs, each from one list: paths [begin, begin + length) of
  // this index are the paths of `part` from `first` on (the list's own when `part` is null).
  // Every index naming a part over the same store has the same part here (one object), so a
  // run is known by its part, first and length across an organisation's indexes.
  struct PathRun {
    size_t begin = 0, length = 0, first = 0;
    const std::shared_ptr<const TextList>* part = nullptr;
  };
  size_t runs() const { return run_array().size(); }
  PathRun RunAt(size_t r) const;

 private:
  // Only Make makes one (the key of the constructors below, which make_shared needs public).
  class Made {
    friend class TextIndex;
    explicit Made() = default;
  };

 public:
  // `list` over `store`, or `before`'s list over `store`; then Assemble.
  TextIndex(Made, std::shared_ptr<const IndexFile> list,
            std::shared_ptr<const TextStoreSnapshot> store)
      : own_(std::move(list), std::move(store)) {}
  TextIndex(Made, const TextIndex& before, std::shared_ptr<const TextStoreSnapshot> store)
      : own_(before.own_, std::move(store)) {}

 private:
  // The list and its parts over `store`: `kept` gives a part already found (or null).
  Status Assemble(const std::function<std::shared_ptr<const TextList>(size_t)>& kept);
  // Which list a blob number is in, and its number there.
  const TextList& ListOf(size_t blob, size_t* number) const;
  // Kept for each of 20,000 repositories, in one block with the list's own TextList (its Screen
  // right after the commit), counts in 32 bits (Assemble refuses an index past them), the parts
  // and the runs in one block of their own: with its shared count, 192 bytes.
  git_oid commit_{};
  uint32_t paths_ = 0;
  TextList own_;
  struct Part {
    std::shared_ptr<const TextList> list;
    uint32_t base = 0;  // its first blob's number here
  };
  // The paths in walk order, as runs: where each begins here, whose (-1 the list's own, else a
  // part's number) and where in it.
  struct Run {
    uint32_t begin = 0;
    int32_t part = -1;
    uint32_t first = 0;
  };
  TwoArrays<Part, Run> parts_and_runs_;
  Slice<Part> part_array() const { return parts_and_runs_.first(); }
  Slice<Run> run_array() const { return parts_and_runs_.second(); }
  size_t RunLength(const Run& run) const;
  uint32_t blobs_ = 0, missing_ = 0, binary_paths_ = 0;
};

// Where the part `key` is kept in the store at `folder`.
std::string TextPartFile(const std::string& folder, uint64_t key);
// Whether `part` (a part's file, opened) is the one a list of policy digest `policy` names with
// id `id`, and holds at least `paths` paths.
bool TextPartAgrees(const IndexFile& part, const git_oid& id, uint64_t policy, size_t paths);

// Writes `writer`'s blobs as a new shard of the store at `folder` (made, 0700, when missing);
// returns the shard's size in bytes. The caller holds the store's lock.
Result<uint64_t> WriteTextShard(const std::string& folder, const IndexFileWriter& writer);

// The store's lock (flock on <folder>/lock, exclusive between servers sharing a cache folder,
// and between threads of this one): waits for it, giving up when `stop` is.
class TextStoreLock {
 public:
  static Result<std::unique_ptr<TextStoreLock>> Take(const std::string& folder,
                                                     const StopToken& stop);
  ~TextStoreLock();
  TextStoreLock(const TextStoreLock&) = delete;
  TextStoreLock& operator=(const TextStoreLock&) = delete;

 private:
  TextStoreLock() = default;
  int fd_ = -1;
  bool held_mu_ = false;
};

// Merges the smallest shards while the store holds more than kMaxShards (the caller holds the
// lock). Returns the shards merged away.
constexpr size_t kMaxTextShards = 16;
Result<size_t> MergeSmallTextShards(const std::string& folder, const StopToken& stop);

struct TextStoreCompaction {
  size_t lists = 0;             // lists read
  size_t shards_rewritten = 0;  // without their unnamed blobs
  size_t shards_dropped = 0;    // named no blob any more
  size_t parts_dropped = 0;     // parts no list names any more
  uint64_t bytes_before = 0, bytes_after = 0;
};
// Drops what no list names: reads every `text.list` in the folders beside `lists_parent`'s
// (each repository's index folder) and the parts they name, drops the parts none names, and
// rewrites each shard of which fewer than half the text's
// bytes are named (drops it when none are). Then merges small shards. Takes the lock.
Result<TextStoreCompaction> CompactTextStore(const std::string& folder,
                                             const std::string& lists_parent,
                                             const StopToken& stop);

}  // namespace rr
