// ChangeReader: what changed between two commits of a served repository, as this server serves
// it — the policy side of show_commit and diff. Tools reach commits, their changes and merge
// bases only through it, so include / exclude and the credential-file rule apply as they do to
// every other read (served_repo.h):
//   - a path to narrow to is judged first, by the path alone: one outside what this server
//     serves is refused with the same words whether or not it exists or changed (CheckPath);
//   - a folder this server doesn't serve is never opened (its changes are counted as one
//     folder's, NotServed::folders), and a changed file it doesn't serve is counted, never named
//     (NotServed::files); tree entries whose names are not plain path parts are counted likewise;
//   - a served file replaced by a folder holding nothing served, or such a folder replaced by a
//     served file, is listed with beside_unserved_folder set: its lines are never compared or
//     shown (the folder's own files are counted as not served);
//   - contents are read with RepoReader's bounds: at most 10 MB a side. In a mirror, the
//     served versions a comparison reads are fetched first when the local copy lacks them
//     (RepoReader::FetchMissing, one batch for the whole comparison); a local repository's
//     missing contents are never fetched.
//
// Same thread rule as RepoReader: one call's thread at a time.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/git/commits.h"
#include "core/git/tree_diff.h"
#include "core/secrets/block_source.h"
#include "core/served/served_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// One changed path this server serves: a file, a link or a submodule.
struct FileChange {
  ChangeKind kind = ChangeKind::kModified;
  RepoPath path;
  std::optional<Node> before, after;  // before is absent when added, after when deleted
  // A served file replaced by a folder holding nothing this server serves (or the reverse):
  // listed, its diff never shown.
  bool beside_unserved_folder = false;
};

// Changes under the path asked about that this server doesn't serve: counted, never named.
struct NotServed {
  size_t files = 0;    // changed files, links and submodules
  size_t folders = 0;  // changed folders, never opened
};

// How one pair of versions compared.
struct FileDiff {
  enum class Kind { kText, kBinary, kNotRead };
  Kind kind = Kind::kText;
  LineCounts counts;         // kText
  std::string why_not_read;  // kNotRead: a short reason ("over the 10 MB this server reads")
};

class ChangeReader {
 public:
  explicit ChangeReader(RepoReader& reader) : reader_(reader) {}

  // The commit whole: author, committer, parents, message (no mailmap).
  Result<CommitDetails> Details(const CommitId& id);

  // The merge base of two commits, as `git merge-base` gives it (MergeBases,
  // core/history/history.h), with its date; nullopt when they share no history.
  Result<std::optional<CommitSummary>> MergeBase(const CommitId& a, const CommitId& b,
                                                 const StopToken& stop);

  // Refuses a path to narrow to that is outside what this server serves, judged by the path
  // alone, with the words every tool uses for it.
  Status CheckPath(const RepoPath& path) const;

  // Compares commit `before` (nullopt: nothing, as for a root commit) with commit `after`, calling
  // `visit` with each served change at or below `under` (the root: everything), in path order;
  // `visit` returns false to stop. Changes there that are not served are counted in
  // *not_served. Call CheckPath(under) first. Errors: a commit or root tree cannot be read; the
  // stop token fired.
  Status Compare(const std::optional<CommitId>& before, const CommitId& after,
                 const RepoPath& under, const StopToken& stop,
                 const std::function<bool(const FileChange&)>& visit, NotServed* not_served);

  // The line diff of two versions of a served path (either may be null: added, deleted), into
  // `emit` (may be empty: counting only). A submodule is compared as git shows it ("Subproject
  // commit <id>"), a link as its target. Binary by git's rule (a NUL in the first 8,000 bytes
  // of either side); a side over 10 MB, or missing from a partial clone (and, in a mirror, not
  // fetched: why_not_read says why), is not read (kNotRead).
  // `hunks`, when given, receives each hunk's source before its header is emitted: the side's
  // text around the hunk (core/secrets/block_source.h), for the secret filter. The lines just
  // before and after a hunk are the same on both sides (a hunk begins and ends with the lines
  // both share, or at a side's start or end); they are read from the new side, or from the old
  // one when the new has no line there.
  // Errors: the stop token fired, or libgit2 failed.
  Result<FileDiff> Diff(const Node* before, const Node* after,
                        const std::function<void(const DiffLine&)>& emit, const StopToken& stop,
                        std::vector<BlockSource>* hunks = nullptr);

 private:
  RepoReader& reader_;
};

}  // namespace rr
