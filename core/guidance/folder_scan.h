// Finding AGENTS.md and CLAUDE.md in every folder below a tree, for the guidance of
// core/guidance/guidance.h: each distinct tree is read once, and what it holds is kept by its id
// for every repository the server serves, so the forks and copies of a codebase read only the
// folders they do not share.
#pragma once

#include <git2.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/policy/repo_path.h"
#include "core/served/served_repo.h"
#include "core/util/stop.h"

namespace rr {

// At most this many pieces of guidance a source (and files found by one walk).
inline constexpr size_t kMaxGuidancePieces = 2000;

// The AGENTS.md and CLAUDE.md files below one tree, at any depth: paths relative to it.
struct TreeFinds {
  std::vector<std::pair<std::string, git_oid>> files;
  bool incomplete = false;  // not every folder below was looked at
};

// The AGENTS.md and CLAUDE.md files below `folder` (whose tree is `tree`) of `reader`'s
// repository, as its policy serves them: names that are not plain path parts and folders the
// policy keeps out are never entered (the caller checks each file found with ServesFile).
// Incomplete when `stop` fired or the walk passed its bound of trees.
std::shared_ptr<const TreeFinds> FindAgentsFiles(RepoReader& reader, const RepoPath& folder,
                                                 const git_oid& tree, const StopToken& stop);

// What the walks keep and do, for the whole server: the trees whose finds are kept, and the
// trees read since start.
size_t GuidanceTreesKept();
uint64_t GuidanceTreesRead();

}  // namespace rr
