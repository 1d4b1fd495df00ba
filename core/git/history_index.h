// HistoryIndex: the server's own commit-graph of a repository, for repositories that have none
// with changed-path Bloom filters. Written by our code from libgit2 reads, in git's split
// commit-graph format (a chain of layers), so CommitGraph reads it like a repository's own and
// git itself accepts it (`git commit-graph verify`).
//
// Where: a folder the caller gives -- the server's cache folder, NEVER inside the repository,
// which is only read. The folder holds what a repository's objects/info/commit-graphs/ would:
// commit-graph-chain and graph-<checksum>.graph layers, plus a lock file. Folders are made
// 0700 and files written 0600, each as a temporary file renamed into place, so a reader sees the
// old index or the new one, never half of one.
//
// What: every commit reachable from any ref (branches, tags, remote-tracking branches, any other
// ref naming a commit or a tag of one) and HEAD; generation numbers (topological levels and
// corrected commit dates); a Bloom filter per commit of the paths it changed against its first
// parent, by git's rules: compared by tree entry ids (no rename detection), each changed path's
// leading folders added, more than 512 changed paths giving git's one-byte "too large" filter.
// With the default settings a layer is byte for byte the layer git 2.39 would write.
//
// Incremental: an update adds a layer holding only the commits not yet indexed, merging the
// layers on top into it while they hold at most twice its commits (git's --split rule), so a
// chain stays a few layers long. A long first build is written in batches, parents first, each
// batch a layer: stopped midway, what was written stays and the next update carries on.
// An index that cannot be read, or was written with other settings, is rebuilt.
//
// Thread safety: one update per folder at a time (an exclusive lock on the folder's lock file;
// a second process's update is refused, not waited for). Readers may open the index meanwhile.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/git/commit_graph.h"
#include "core/git/git_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

struct HistoryIndexOptions {
  CommitGraph::BloomSettings bloom;  // version 1, 7 hashes, 10 bits a path: git 2.39's
  uint32_t max_changed_paths = 512;  // more: the "too large" filter
  uint32_t size_multiple = 2;        // git's --size-multiple
  // A first build writes a layer at least every this many commits.
  uint32_t batch_commits = 20000;
  // Tree entries one commit's filter may read; beyond (a hostile tree naming millions of empty
  // folders), the commit gets the "too large" filter, which readers take as "unknown".
  uint64_t max_entries_per_commit = 1000000;
};

struct HistoryIndexProgress {
  enum class Stage { kFindingCommits, kComputing, kWriting };
  Stage stage = Stage::kFindingCommits;
  uint64_t done = 0;
  uint64_t total = 0;  // 0 while unknown
};

struct HistoryIndexUpdate {
  uint64_t new_commits = 0;  // commits added to the index
  uint32_t layers_written = 0;
  uint32_t layers = 0;          // layers in the chain now
  uint64_t commits = 0;         // commits in the index now
  std::string rebuilt_because;  // non-empty when the old index was replaced
};

class HistoryIndex {
 public:
  using ProgressFn = std::function<void(const HistoryIndexProgress&)>;

  // The chain file of the index kept in `folder`.
  static std::string ChainFile(const std::string& folder);
  // The index kept in `folder`, or nullptr (*problem says why).
  static std::shared_ptr<const CommitGraph> Open(const std::string& folder,
                                                 std::string* problem = nullptr);

  // Brings the index in `folder` up to date with `repo`. Writes nothing but files in `folder`
  // (made, with its missing parents, 0700). Errors: the folder cannot be made or written,
  // another update holds it, the history is incomplete (a parent commit is missing: a shallow
  // clone), or `stop` stopped it (layers written before stay).
  static Result<HistoryIndexUpdate> Update(GitRepo& repo, const std::string& folder,
                                           const StopToken& stop,
                                           const ProgressFn& progress = nullptr,
                                           const HistoryIndexOptions& options = {});
};

}  // namespace rr
