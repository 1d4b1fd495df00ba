// A served repository's text index (core/index/text_store.h): where it is kept, how it is built
// from the repository's default branch, and the copy a search uses.
//
// The repository's list is kept in its own folder of the server's cache (RepoSettings::
// index_folder, beside its history index), as `text.list`; the trigrams of its contents are kept
// once for every repository in the store beside (`<cache_folder>/text`). A repository without such
// a folder (no cache folder, history_index: false) has none, and is searched by reading it. An
// index is used only for what it was built from: its commit (the files it lists) and its content
// ids (any commit's files that share them), and only while the repository serves the same paths
// as when it was built (the policy's digest is in the list).
//
// The background thread that keeps them up to date is TextIndexer (core/index/text_indexer.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/index/file_stamp.h"
#include "core/index/text_index.h"
#include "core/index/text_store.h"
#include "core/served/catalog.h"
#include "core/served/known_default.h"
#include "core/served/refs_watch.h"
#include "core/served/served_repo.h"
#include "core/util/stop.h"

namespace rr {

// Where `repo`'s list is kept; "" when it has none.
std::string TextIndexFile(const ServedRepo& repo);
// The digest of the paths `policy` serves, as an index records it.
uint64_t PolicyDigest(const PathPolicy& policy);
// The key of the part listing the files below the root's folder `folder` (its tree `tree`) under
// the policy of digest `policy` (core/index/text_store.h, TextPartFile).
uint64_t TextPartKey(const git_oid& tree, const std::string& folder, uint64_t policy);
// A folder of the root with fewer served files is listed in the repository's list itself.
constexpr size_t kMinPartPaths = 32;

// The repository's index as on disk now, when its list opens, for the paths it serves now; else
// null. Opened once and kept while the list and the store stay the same: while the kernel reports
// no change of the list (core/served/refs_watch.h, as of the last RefsWatch::Catch) it is not
// looked at; where it cannot be watched, with stat on every call. A list that fails its checks is
// logged once and not used.
std::shared_ptr<const TextIndex> CurrentTextIndex(const ServedRepo& repo);
// The same, with the store as `store` shows it (CurrentTextStore of the repository's
// TextStoreFolder): a search over many repositories looks at their store once, not once each,
// and reads the kernel's reports once (RefsWatch::Catch) before asking for each repository's;
// the overload above reads them itself. *watched (when given): whether the index answered is
// vouched for by the watch (its list is watched, RefsWatch::WatchFile): it stays the answer
// while RefsWatch::Reported() does not move and the store is `store`.
std::shared_ptr<const TextIndex> CurrentTextIndex(
    const ServedRepo& repo, const std::shared_ptr<const TextStoreSnapshot>& store,
    bool* watched = nullptr);

// What a repository keeps of its text index as last opened (ServedRepo::text_index_slot): the
// list as last opened, whatever the store, with the index made of it over the store last
// searched, which answers while the kernel reports no change of the list (the ticket it was
// opened, or last found the same, under) and the store searched is that one; and the store's
// folder. Only the functions below read and write it.
class TextIndexSlot {
 public:
  // The lock on `opened`: one of a few the process shares among all slots, by the slot's
  // address (core/util/striped_mutex.h; a mutex of its own was 40 of each slot's bytes, with
  // 20,000 repositories). Held only to read or replace `opened`, one slot at a time, nothing
  // else taken while held.
  std::mutex& Mutex() const;
  // The watch the list was opened (or last found the same) under (null where it cannot be
  // watched), how its file looked then (FileStamp::Mark: 0 when nothing was there), the index
  // made of it over some store (null: the list failed its checks, or a part it names did, and
  // was logged; the index holds the list), and whether the paths served now are the ones it
  // lists (the policy's digest is the list's). 48 bytes, the slot 64 (with the whole stamp, 96).
  struct Opened {
    std::shared_ptr<const RefsWatch::Ticket> watched;
    std::shared_ptr<const TextIndex> index;
    uint64_t file = 0;
    bool serves = false;
  };
  Opened opened;
  // TextStoreFolder of the index folder, interned (core/util/intern.h): the same string object
  // for every repository keeping the same store.
  const std::string* store_folder = nullptr;
};
// The store's folder of `repo` (TextStoreFolder of its index folder), made once.
const std::string& TextStoreFolderOf(const ServedRepo& repo);

struct TextIndexBuild {
  bool built = false;  // false: the index already held the default branch's commit, whole
  size_t files = 0;
  size_t blobs = 0;          // read: those the store did not hold yet
  uint64_t text_bytes = 0;   // built: the new text read; else the text its commit holds
  uint64_t index_bytes = 0;  // its list (the store is counted once, in TextIndexStats)
  uint64_t shard_bytes = 0;  // the shard written with the new blobs, if any
  uint64_t part_bytes = 0;   // the parts written (folders no list named before)
  size_t reused_parts = 0;   // parts already in the store, named without walking their folders
  // Where the default branch was found, and its root there (for the searches' kept default
  // branch, core/served/known_default.h).
  std::optional<ReadPoint> at;
  std::optional<Result<Node>> root;
};
// Brings the repository's index to its default branch as it is now, reading only the contents
// the store does not hold yet.
Result<TextIndexBuild> BuildTextIndex(const ServedRepo& repo, const StopToken& stop);

// After a pass: compacts the store of every repository of `catalog` (CompactTextStore) when an
// index was written since it was last compacted; logs what it dropped.
void CompactTextStores(const Catalog& catalog, const StopToken& stop);

// What searches got from the indexes since the server started (for /metrics and tests): the
// repositories (search targets) answered with one, and the files it told them not to read; of
// those targets, the ones at another commit than their index's (a branch moved since it was
// built, or grep at another ref: the files changed since were read), and the ones the index
// answered without the repository being opened (no file of it could match); and the files a
// search counted from what the same files of a part came to in another repository of it,
// without looking at them one by one (core/search/text_search.cc, PartTally).
struct TextIndexUse {
  uint64_t targets = 0;
  uint64_t files_passed_over = 0;
  uint64_t other_commit = 0;
  uint64_t unopened = 0;
  uint64_t files_added_up = 0;
  uint64_t paths_listed = 0;  // ListedDefault's answers: a repository not opened to find a path
};
// Adds a search's counts (a walker's, added up over its targets: one update of the shared
// counters a walker, not one a repository).
void CountTextIndexUse(const TextIndexUse& use);
TextIndexUse CurrentTextIndexUse();

// `path` (not the root) at `repo`'s default branch as kept (KnownDefault, vouched for by the
// watch), found among the paths of its text index when that lists the very commit, without
// opening the repository (over 20,000 repositories, opening each one took seconds the first
// time a search asked a path): a file listed is the file (found again in the tree before it is
// read: SearchTarget::listed), a folder with files listed below it is the folder (its id left
// zero, for the tree to tell when it must be walked), and a path with no listed file at or below
// it is one where nothing is served -- as a search that reads the tree tells a folder of no
// served file (SearchTool::Call). Null when the root is not kept so, or the index is not
// vouched for by the watch or is of another commit: then open the repository. The answer stays
// while RefsWatch::Reported() does not move.
class TextStoresLookedAt;
std::shared_ptr<const KnownPath> ListedDefault(const std::shared_ptr<const ServedRepo>& repo,
                                               const RepoPath& path, TextStoresLookedAt* stores);

// The stores of the repositories one pass over many looks at: each store (CurrentTextStore) once,
// as it was when first asked, not once a repository (most organisations keep one store).
class TextStoresLookedAt {
 public:
  const std::shared_ptr<const TextStoreSnapshot>& Of(const ServedRepo& repo);

 private:
  std::map<std::string, std::shared_ptr<const TextStoreSnapshot>> by_folder_;
};

}  // namespace rr
