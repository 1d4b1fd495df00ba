// Where a repository's default branch was last found by a search, kept while its refs have not
// moved: search across many repositories used to open every one and resolve its default branch
// on every call, before reading anything. For each repository a search resolved, the default
// branch (commit and label) and the path found there (the root, and the last other path asked)
// are kept with the stamp of the files that decide where HEAD points (RefsStamp::TakeOfHead,
// core/served/refs_stamp.h) taken before they were read; while a new stamp equals it -- a few
// calls, no folder listed -- the kept answer is the one opening the repository would give. A racy
// stamp (a ref changed within the file system's clock tick) is never kept, so a move at any moment
// is resolved again.
//
// Kept per ServedRepo, by its address and a weak reference to it: an entry whose repository is
// gone (a catalog replaced) is never used, and is dropped when the table is pruned.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/served/served_repo.h"
#include "core/util/result.h"

namespace rr {

struct KnownPath {
  ReadPoint at;
  std::optional<Node> node;  // `path` at `at`, when it is served there
  std::string error;         // else why not (RepoReader::Find's error)
};

// `path` at `repo`'s default branch as kept, when its refs have not moved since; else nullopt.
std::optional<KnownPath> KnownDefault(const std::shared_ptr<const ServedRepo>& repo,
                                      const RepoPath& path);

// Keeps what a search resolved: where the refs are and their stamp taken before reading them,
// the default branch, and `path` there (a node, or why not).
void KeepDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                 const RefsStamp& before, const ReadPoint& at, const RepoPath& path,
                 const Result<Node>& node);

}  // namespace rr
