// ServedRepo and RepoReader: everything a tool may read of a repository, with include / exclude
// and the credential-file rule applied. This is the only way tools reach git (a test checks that
// no tool includes core/git), so a tool cannot forget the policy:
//   - a path the policy keeps out is answered as "outside what this server serves", judged by
//     the path alone, whether or not it exists;
//   - a folder holding nothing served answers as a folder that is not there;
//   - tree entries with names that are not plain path parts (".", "..", ".git", holding '/')
//     are never listed or read.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/git/commit_graph.h"
#include "core/git/git_repo.h"
#include "core/git/history_index.h"
#include "core/policy/path_policy.h"
#include "core/policy/repo_path.h"
#include "core/served/content_fetcher.h"
#include "core/served/entry_cache.h"
#include "core/served/mirror_state.h"
#include "core/served/refs_stamp.h"
#include "core/util/compact_folder.h"
#include "core/util/made_on_first_use.h"
#include "core/util/rare_text.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

class ServedRepo;
class GuidanceCache;
class TextIndexSlot;
struct KnownDefaultEntry;

struct RepoSettings {
  std::string name;
  RareText description;  // empty for most
  std::string path;      // where libgit2 opens it
  PathPolicy policy = PathPolicy::Default();
  bool listed = true;
  bool own = true;
  // Where the server keeps its history index of this repository (in its cache folder, never
  // inside the repository); empty: none is kept. Compact: every repository keeps one
  // (core/util/compact_folder.h).
  CompactFolder index_folder;
  // For a mirror the server keeps (core/sync): where it comes from and its last sync. A mirror
  // is opened only once a sync has succeeded. Null for a local repository.
  std::shared_ptr<const MirrorState> mirror;
  // For a mirror: fetches an older version's missing contents when a tool is about to read it
  // (content_fetcher.h). Null for a local repository: nothing is ever fetched for it.
  RareShared<ContentFetcher> fetcher;
  // The operator's guidance for this repository (core/guidance/guidance.h): the served repository
  // that holds it, and the folder there; null when the configuration names none.
  RareShared<const ServedRepo> guidance_repo;
  RareText guidance_folder;  // empty: the repository's name
};

// A resolved ref: the commit every read of a call uses.
struct ReadPoint {
  std::string label;  // the ref as asked, or the default branch's name
  CommitSummary commit;
  // "shop · main @ 14a4c0422ae3 (2026-03-01)"
  std::string Where(const std::string& repo) const;
};

// A served path found at a commit.
struct Node {
  RepoPath path;
  EntryKind kind;
  git_oid oid;
  bool executable = false;
};

// The id of a file's blob, for what the secret filter keeps by it (ScanCache): its object id
// in hex, or "" when the node has none.
std::string BlobIdOf(const Node& file);

// A file's contents as read.
struct FileData {
  enum class Kind { kText, kBinary };
  Kind kind = Kind::kText;
  size_t size = 0;
  BlobPtr blob;        // owns the bytes, when read through libgit2
  std::string packed;  // or these, when read from the packs directly (GitRepo::PackedBlob)
  std::string_view bytes() const;
};

class RepoReader;
class ChangeReader;
struct BlameSubject;
struct BlameResult;

class ServedRepo {
 public:
  explicit ServedRepo(RepoSettings s);

  const std::string& name() const { return settings_.name; }
  const std::string& description() const { return settings_.description.str(); }
  const PathPolicy& policy() const { return settings_.policy; }
  bool listed() const { return settings_.listed; }
  const RepoSettings& settings() const { return settings_; }

  // A reader on a handle of this thread's own (the repository is opened on first use).
  // A mirror not mirrored yet (its first sync has not finished) is not opened: the error says
  // so. Neither error names the mirror's folder (HideStorage).
  Result<RepoReader> Open() const;
  // A reader on a handle opened for it and closed when it ends, never kept among the idle
  // handles: for work that reads many repositories once each (list_repos' entries), so that
  // it does not crowd out the handles of the repositories agents are reading. As Open, a
  // mirror not mirrored yet is not opened.
  Result<RepoReader> OpenOnce() const;

  // `text` with the folder of a mirror (the server's own storage, which no agent is shown)
  // written as "its local copy"; a repository the operator named by its path is shown as is.
  std::string HideStorage(std::string text) const;

  // list_repos' entry for this repository, kept between calls (entry_cache.h).
  EntryCache& entry_cache() const { return entry_cache_; }

  // The commit-graph to walk this repository's history with: the repository's own when it has
  // changed-path Bloom filters, else the server's history index when one is built, else the
  // repository's own without filters, else nullptr. Cheap enough for every call: the files are
  // looked at (stat) each time and read again only when one changed (size, time or inode).
  // A graph covers the whole repository, whatever include / exclude say -- tools still apply
  // them to what they show -- and may not hold the newest commits yet: a commit it does not
  // hold is read from the repository. Thread-safe.
  std::shared_ptr<const CommitGraph> Graph() const;

  // Whether the server should keep a history index of this repository: it keeps one
  // (settings().index_folder) and the repository has no graph with Bloom filters of its own.
  bool NeedsHistoryIndex() const;
  // Brings the history index up to date (HistoryIndex::Update), reading the repository on a
  // handle of its own and writing only in settings().index_folder. When no ref has moved
  // (RefsStamp) and the index is as the last update left it, nothing is opened or read and the
  // answer is that update's, with no new commit: a pass over 20,000 repositories then costs a
  // few stat calls each.
  Result<HistoryIndexUpdate> UpdateHistoryIndex(
      const StopToken& stop, const HistoryIndex::ProgressFn& progress = nullptr) const;

  // Where core/guidance/guidance.cc keeps what it found on this repository's default branch:
  // made on first use, kept as long as the repository is served. Thread-safe.
  GuidanceCache& guidance_cache() const;
  // Where core/index/repo_text_index.cc keeps this repository's text index as last opened, so
  // that a search over many repositories finds each one's without a look-up by file name:
  // made on first use. Thread-safe.
  TextIndexSlot& text_index_slot() const;
  // Where core/served/known_default.cc keeps the default branch a search last resolved here, so
  // that a search over many repositories finds it without a table's look-up or lock. Read and
  // written only with std::atomic_load / std::atomic_store / std::atomic_compare_exchange_strong
  // (no mutex of its own: a slot with one, made apart, was about 80 bytes by sizeof). Thread-safe
  // so.
  std::shared_ptr<const KnownDefaultEntry>& known_default_kept() const { return known_default_; }

 private:
  // The last update of the history index that went through: the refs as they were before it
  // read them, its index's chain file after (FilesDigest), what it left (counts in 32 bits:
  // kept for every repository).
  struct Indexed {
    RefsStamp refs;
    uint64_t chain = 0;
    uint32_t commits = 0;
    uint32_t layers = 0;
  };
  // Where the repository keeps HEAD and its refs, kept small: most repositories are their
  // configured folder itself (bare) or its .git; only the others keep their folders.
  enum class PlaceKind : uint8_t { kUnknown, kNone, kPath, kPathGit, kOther };
  // What the history's graphs and index need, made on first use: with 20,000 repositories
  // configured, most are never asked, and each ServedRepo stays small. Kept small too: the
  // history indexer makes one for every repository (its flags together at the end, one digest
  // of the own graph's files for the graph and for whether it has Bloom filters: 96 bytes, where
  // the same fields each with its own flag took 152).
  struct GraphState {
    std::unique_ptr<RefsPlace> other_place;  // the place, when place_kind is kOther
    // The graphs as last opened (own_opened, index_opened); null: none there. The own graph is
    // kept only once a tool asked for it (NeedsHistoryIndex keeps only whether it has Bloom
    // filters).
    std::shared_ptr<const CommitGraph> own_graph, index_graph;
    // What the own graph's files looked like (FilesDigest) when own_graph was opened or
    // own_bloom_has found, and the index's when index_graph was opened.
    uint64_t own_files = 0, index_files = 0;
    Indexed indexed;                             // when has_indexed
    PlaceKind place_kind = PlaceKind::kUnknown;  // found on first use; kNone: won't open
    bool own_opened = false, index_opened = false;
    // Whether the own graph has Bloom filters, as last found, for own_files.
    bool own_bloom_known = false, own_bloom_has = false;
    bool has_indexed = false;
  };
  GraphState& GraphsLocked() const;  // GraphMutex() held
  // The last update of the index, kept beside it (index_folder/refs-stamp) so that a server
  // started again need not open every repository to find that nothing moved. Only a speed-up:
  // a file that is missing, wrong or stale makes the update read the repository, and an index
  // lacking commits is still right (those are read from the repository).
  struct KeptStamp {
    RefsPlace place;
    Indexed indexed;
  };
  static std::string IndexedStampFile(const std::string& index_folder);
  static std::optional<KeptStamp> ReadIndexedStamp(const std::string& file);
  static void WriteIndexedStamp(const std::string& file, const RefsPlace& place,
                                const Indexed& indexed);
  // Where the repository is (opened once to find out, on a handle of its own); empty when it
  // does not open.
  RefsPlace PlaceLocked() const;
  void KeepPlaceLocked(const RefsPlace& place) const;
  // The repository's objects folder; "" when the repository does not open.
  std::string ObjectsDirLocked() const;
  std::shared_ptr<const CommitGraph> OwnGraphLocked() const;
  std::shared_ptr<const CommitGraph> IndexLocked() const;

  // The lock on graphs_: one of a few the process shares among all repositories, by address
  // (core/util/striped_mutex.h; a mutex of its own was 40 bytes of each of 20,000
  // repositories). Held while a graph, the history index or their stamps are opened or read
  // (the history indexer's thread, and history tools' first call), never while a lock of
  // another pool is taken.
  std::mutex& GraphMutex() const;

  RepoSettings settings_;
  mutable RepoHandles handles_;
  mutable std::unique_ptr<GraphState> graphs_;
  MadeOnFirstUse<GuidanceCache> guidance_cache_;                    // see guidance_cache()
  MadeOnFirstUse<TextIndexSlot> text_index_slot_;                   // see text_index_slot()
  mutable std::shared_ptr<const KnownDefaultEntry> known_default_;  // see known_default_kept()
  mutable EntryCache entry_cache_;
};

class RepoReader {
 public:
  static constexpr size_t kMaxFileBytes = 10 * 1024 * 1024;

  // Resolves what the agent wrote (checked by RefText) or, without it, the default branch.
  Result<ReadPoint> At(const std::optional<std::string>& ref);

  // The default branch (HEAD), as list_repos shows it.
  HeadState Head() { return (*lease_).Head(); }

  // A path at a read point, when this server serves it. Errors say "outside what this server
  // serves" (policy) or "no file or folder" (absent, or a folder holding nothing served).
  Result<Node> Find(const ReadPoint& at, const RepoPath& path, const StopToken& stop);

  struct Listing {
    std::vector<Node> folders;  // visible subfolders, in tree order
    std::vector<Node> files;    // files, links, submodules
    // Folders left out because checking whether they hold anything served took more work
    // than a call may spend (never shown unchecked: hiding is the safe side).
    size_t unchecked = 0;
  };
  // The direct content of a folder Node: what is served, folders that hold nothing served left out.
  Result<Listing> List(const Node& folder, const StopToken& stop);

  // Every served file below a folder, depth first in tree order. `visit` returns false to stop.
  // Bounded: paths longer than RepoPath::kMaxBytes are passed over and counted in *too_deep.
  // `enter`, when given, is asked before a served subfolder is read: false passes over it (a
  // caller that knows nothing below can interest it); it can only leave files out.
  Status Walk(const Node& folder, const StopToken& stop,
              const std::function<bool(const Node&)>& visit, size_t* too_deep,
              const std::function<bool(const RepoPath&)>& enter = nullptr);

  // A file's or link's contents (up to kMaxFileBytes). In a mirror, contents the local copy
  // lacks are fetched first (FetchMissing), within `stop`'s time; without `stop`, within
  // kFetchTime. Errors: over the size; not in the local copy (a local partial clone: never
  // fetched); could not be fetched (the reason, per file).
  static constexpr std::chrono::seconds kFetchTime{30};
  Result<FileData> Read(const Node& file);
  Result<FileData> Read(const Node& file, const StopToken& stop);
  // Size without reading, or nullopt when not in the local copy (never fetches).
  std::optional<size_t> Size(const Node& file);
  // Size, fetching the contents first in a mirror when they are missing (as Read does).
  std::optional<size_t> Size(const Node& file, const StopToken& stop);

  // For a mirror (a fetcher is set): fetches, in batches of at most
  // ContentFetcher::kMaxIdsPerFetch ids and within `stop`'s time, the contents of those
  // `files` (files and links) the local copy lacks. Each node's path is judged again by the
  // policy right here, before anything is asked: a node this server does not serve is passed
  // over, never fetched. Nothing for a local repository. A node whose contents could not be
  // fetched is remembered for this reader's life with the reason (FetchProblem), and is not
  // asked for again by it. Returns how many contents arrived.
  size_t FetchMissing(const std::vector<Node>& files, const StopToken& stop);
  // Why `oid`'s contents could not be fetched by this reader, or "" when no fetch was tried or
  // it went through.
  std::string FetchProblem(const git_oid& oid) const;

  // Branches, remote-tracking branches and tags, bounded by `limit`.
  Result<std::vector<RefEntry>> Refs(size_t limit, bool* truncated) {
    return (*lease_).Refs(limit, truncated);
  }

  // How many of each Refs would list, without reading their commits.
  Result<GitRepo::RefCounts> CountRefs() { return (*lease_).CountRefs(); }

  const ServedRepo& repo() const { return *repo_; }

  // Where the repository keeps HEAD and its refs (for RefsStamp).
  RefsPlace Place() { return RefsPlace::Of((*lease_).GitDir(), (*lease_).CommonDir()); }

 private:
  friend class ServedRepo;
  friend struct PolicyAccess;
  friend class ChangeReader;  // served_changes.h: commits and their changes, on this handle
  // Blame walks the history on this reader's handle (core/history/served_blame.h).
  friend Result<BlameResult> BlameServed(RepoReader& reader, const ReadPoint& at,
                                         const BlameSubject& subject, uint32_t first_line,
                                         uint32_t max_lines, const StopToken& stop,
                                         std::function<void(uint32_t, uint32_t)> progress);
  RepoReader(const ServedRepo* repo, RepoHandles::Lease lease)
      : repo_(repo), lease_(std::move(lease)) {}
  // True when some file below the folder is served.
  bool HoldsServed(const RepoPath& folder, const git_oid& tree, const StopToken& stop);

  const ServedRepo* repo_;
  RepoHandles::Lease lease_;
  std::map<std::string, std::string> fetch_problems_;  // content id (hex) -> why not fetched
  size_t visibility_left_ = 1000000;  // entries all visibility checks of the call may read
  bool visibility_exhausted_ = false;
};

// For core/policy's own readers (history, changes, blame), which apply the policy themselves:
// the git handle under a RepoReader. Tools never use it.
struct PolicyAccess {
  static GitRepo& Git(RepoReader& reader) { return *reader.lease_; }
};

}  // namespace rr
