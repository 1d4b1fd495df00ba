// Reading one commit whole (who wrote and committed it, its parents, its message). Private to core,
// like the rest of core/git: tools reach these through core/history/served_changes.h.
//
// Names and messages are returned as the commit records them: no mailmap is applied (libgit2
// reads none unless asked, and nothing here asks), and nothing is decoded or escaped — showing
// them safely is the caller's (DisplayName, DisplayText).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/git/git_repo.h"
#include "core/util/result.h"

namespace rr {

struct Signature {
  std::string name, email;  // raw bytes
  int64_t time = 0;         // seconds since the epoch
  int offset = 0;           // minutes east of UTC
};

struct CommitDetails {
  CommitId id;
  Signature author, committer;
  std::vector<CommitId> parents;  // in order: the first parent first
  std::string message;            // the whole message, raw bytes (leading blank lines dropped)
  git_oid tree{};
};

// The commit `id`. Errors: it cannot be read (not in the local copy, or not a commit).
Result<CommitDetails> ReadCommit(GitRepo& git, const CommitId& id);

}  // namespace rr
