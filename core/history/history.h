// History as served: log and find_commits walk commits through here, so include / exclude and
// the credential-file rule hold for histories as they do for files (safety.md, "It serves only
// what it is told to"):
//   - without a path, a commit is listed when it changed something served, or nothing at all
//     (an empty commit); a commit that changed only files this server does not serve is left
//     out. Each commit is judged against its first parent (a merge: what it brought into the
//     branch); every parent is walked, as `git log` walks them.
//   - with a path (already judged not Outside by the caller), git's default history
//     simplification on that path (`git log -- path`): a commit is listed when its path differs
//     from every parent's; a merge whose path equals one parent's follows that parent alone.
//     Within the path only served files count. Renames are not followed.
// Trees are compared by entry ids: a subtree whose id is unchanged is never read, and a folder
// the policy keeps out is never read at all. Commits come newest first by commit date, the order
// `git log` uses; the walk is incremental: a first page never walks the whole history.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/secrets/secret_filter.h"
#include "core/served/served_repo.h"
#include "core/util/ere.h"
#include "core/util/stop.h"

namespace rr {

struct CommitLine {
  CommitId id;
  int64_t time = 0;  // committer time
  int offset = 0;
  std::string author;  // name as written (no mailmap)
  std::string email;
  std::string subject;  // first line, raw bytes
};

struct HistoryFilter {
  std::optional<RepoPath> path;  // log only
  std::optional<Ere> author;     // matched against "Name <email>"
  std::optional<Ere> message;    // matched against the whole message, line by line
  std::optional<int64_t> since;  // committer time >= since
  std::optional<int64_t> until;  // committer time <= until
  // With a message pattern: a commit whose message holds a value this filter hides is never
  // matched (a guessed secret cannot be confirmed). May be null.
  const SecretFilter* secrets = nullptr;
  // Without a message pattern too (find_commits): such a commit is never found.
  bool skip_hidden_messages = false;
  // Where a failure of the secret filter on a message is noted (such a commit is not matched
  // either): the tool then withholds its answer (Draft::withheld). May be null.
  std::shared_ptr<ScanFailures> failures;
};

// The commits an author or message pattern was too costly on (PCRE2 gave up on the name or on a
// line of the message: Ere::Matches): not known to match or not, so neither listed nor passed
// over as not matching. A commit whose message holds a value the secret filter hides is never
// named (it never matches a message pattern either). The first kNamed by id, and how many.
struct TooCostly {
  static constexpr size_t kNamed = 5;
  std::vector<CommitId> named;
  size_t count = 0;
};

struct LogPage {
  std::vector<CommitLine> commits;
  bool more = false;    // at least one more commit matches after these
  std::string stopped;  // non-empty: the walk stopped early (why); the page is partial
  TooCostly too_costly;
};

// Told how many commits a walk has looked at so far, every kWalkProgressEvery commits (and
// FindCommits, when its walk ends, the whole count); empty: nobody asked.
using WalkProgress = std::function<void(uint64_t walked)>;
constexpr uint64_t kWalkProgressEvery = 4096;

// Commits from `at`, newest first, after skipping `skip` listed ones; at most `max_count`.
Result<LogPage> Log(RepoReader& reader, const ReadPoint& at, const HistoryFilter& filter,
                    size_t skip, size_t max_count, const StopToken& stop,
                    const WalkProgress& progress = nullptr);

// --- find_commits: every branch and tag of a repository.
struct FoundCommit {
  CommitLine commit;
  bool on_default = false;            // reachable from the default branch
  std::vector<std::string> branches;  // when not on the default branch: branches holding it
  size_t more_branches = 0;           // beyond those named
  std::string first_tag;              // the oldest tag holding it (by its commit's date), or ""
};
struct FoundCommits {
  std::vector<FoundCommit> commits;
  bool more = false;
  std::string default_branch;  // "" when HEAD is detached or broken
  std::string stopped;
  TooCostly too_costly;
};
Result<FoundCommits> FindCommits(RepoReader& reader, const HistoryFilter& filter, size_t max_count,
                                 const StopToken& stop, const WalkProgress& progress = nullptr);

// --- diff's since_fork: the best common ancestors of two commits (git merge-base --all), newest
// first by commit date; `git merge-base` shows the first. Walked by generation numbers where the
// commit-graph has them. Empty when the two share no history.
Result<std::vector<CommitId>> MergeBases(RepoReader& reader, const CommitId& a, const CommitId& b,
                                         const StopToken& stop);

}  // namespace rr
