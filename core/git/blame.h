// The blame engine: for each line of a file at a commit, the commit that last changed it, the
// line's number in that commit's version and the file's path there -- git blame's default
// answer (renames followed; no move or copy detection, no ignored revisions, no mailmap),
// computed in-process on libgit2's objects. Private to core: tools reach it through
// core/history/served_blame.h, which decides what may be blamed and which paths may be followed.
//
// The algorithm is git's. Commits wait in a queue, newest commit date first; each holds, per
// path, the line ranges it is suspected for. A suspect offers its lines to its parents in order:
// a parent whose tree holds the same blob at the path takes every line without a diff; otherwise
// the two versions are diffed (xdiff, no context, git's indent heuristic) and the lines the
// parent already had move to it. Where a parent has no file at the path, the file's earlier path
// is found as git's default rename detection finds it: an identical deleted file first, then a
// deleted file of the same name at least 75% similar, then the most similar deleted file at
// least 50% similar (git's measure). What no parent takes was last changed by the suspect; a
// root commit keeps all it holds.
//
// Nothing here reads a repository's configuration, attributes, diff drivers or mailmap, starts a
// process or reaches the network: blobs are diffed through git_diff_buffers, which sees bytes
// only.
//
// Policy-free: `may_follow` decides which earlier paths may be followed, and is asked before any
// older file's contents are read to measure similarity. Where it refuses a path that could be
// the file's earlier one, blame stops at that commit: the lines left there are marked as last
// changed there or earlier (BlameStop::kNotFollowed), never passed on, and the refused path is
// not named in the result.
//
// Bounded: the StopToken is checked before every commit is examined and in every loop over a
// tree; a version over max_blob_bytes, or an object missing from the local copy (a partial
// clone) and not brought by `fetch_missing`, stops the blame where it was needed, and the
// lines it held say why. Not thread-safe:
// one GitRepo, one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/git/commit_graph.h"
#include "core/git/git_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// Why a line's commit is where blame stopped rather than the commit that last changed it. For
// every value but kNone, the line was last changed in that commit or in an older one.
enum class BlameStop : uint8_t {
  kNone,         // settled: the commit last changed the line
  kNotFollowed,  // the file may have come here from a path `may_follow` refused
  kTooLarge,     // an older version of the file is over max_blob_bytes
  kMissing,      // an older commit, tree or version is not in the local copy
  kStopped,      // the StopToken stopped the walk before it went further
};

struct BlameCommit {
  CommitId id;
  std::string author;  // the author's name as written (raw bytes; no mailmap)
  int64_t author_time = 0;
  int author_offset = 0;  // the author's offset from UTC, minutes
  std::string subject;    // first line of the message, raw bytes
};

struct BlameLine {
  uint32_t commit = 0;  // index into BlameResult::commits
  uint32_t path = 0;    // index into BlameResult::paths: the file's path in that commit
  uint32_t line = 0;    // the line's number (from 1) in that commit's version of the file
  BlameStop stop = BlameStop::kNone;
};

struct BlameResult {
  uint32_t total_lines = 0;  // lines of the file at the start commit
  uint32_t first_line = 1;   // lines[i] is line first_line + i of the file at the start commit
  std::vector<BlameLine> lines;
  std::vector<BlameCommit> commits;  // the commits `lines` name, in order of first appearance
  std::vector<std::string> paths;    // raw bytes, in order of first appearance
};

struct BlameOptions {
  // The lines to blame: from first_line (from 1), at most max_lines of them (0: to the end).
  // A window past the end blames nothing.
  uint32_t first_line = 1;
  uint32_t max_lines = 0;
  // The largest version of the file that is read (the one at the start commit included).
  size_t max_blob_bytes = 10 * 1024 * 1024;
  // Whether the file may be followed to an earlier path (raw bytes, from the root). Empty: every
  // path may.
  std::function<bool(std::string_view path)> may_follow;
  // The repository's commit-graph (or the server's history index), when there is one: commits
  // it holds are read from it, and its changed-path Bloom filters spare reading the trees of a
  // commit that left the file as its first parent had it. May be null.
  std::shared_ptr<const CommitGraph> graph;
  // Asked with the versions (id, path: raw bytes from the root) the walk needs and the local
  // copy lacks, before it gives up on them (a mirror fetches them; core/policy decides what may
  // be). Only paths the walk is on, or that `may_follow` allowed, are named. Empty: nothing
  // is asked, a missing version stops the blame there (BlameStop::kMissing).
  std::function<void(const std::vector<std::pair<git_oid, std::string>>& versions)> fetch_missing;
  // Told how many of the lines asked for have their commit so far, of how many, each time more
  // do. Empty: nobody asked.
  std::function<void(uint32_t settled, uint32_t total)> progress;
};

// Lines are counted as git counts them: each ends at '\n'; a last line without one counts.
uint32_t CountLines(std::string_view text);

// Blames `path` (raw bytes, from the root: "src/app.py") at `start`. Errors: the commit cannot be
// read, or the path is not a regular file there, or that file is over max_blob_bytes or not in
// the local copy. A walk cut short is no error: the lines it did not settle say why.
Result<BlameResult> BlameFile(GitRepo& repo, const CommitId& start, std::string_view path,
                              const BlameOptions& options, const StopToken& stop);

}  // namespace rr
