// SyncMirror: one sync of one mirror, start to end. Every git it runs goes through GitProcess
// (the fixed set of subcommands, the scrubbed environment, only in the server's mirror folder).
//
//   1. The mirror is a bare repository at mirror.dir (made on the first sync); its remote
//      `origin` is set to the configured URL again every time.
//   2. ls-remote: the host's default branch, its branches and tags. The kept refs are the
//      default branch and those matching `refs:` (without it: the default branch and every tag).
//   3. History without contents: fetch --filter=blob:none --no-tags --recurse-submodules=no of
//      exactly the kept refs (refspecs on standard input), into staging refs (refs/rr-sync/...)
//      that no tool reads.
//   4. The contents of the served files only: a walk of each kept tip's tree through the
//      policy layer (ServedRepo, so include / exclude and the credential-file rule decide)
//      lists the served files whose contents the mirror lacks, and one fetch asks for exactly
//      those objects by id. A ref naming a tree or a file's contents (not a commit) is not kept.
//   5. Only when every served file's contents are there, one update-ref transaction moves the
//      served refs (refs/heads, refs/tags) to the new tips, drops the ones no longer kept and
//      the staging refs; HEAD names the host's default branch. A sync that fails or is stopped
//      anywhere before leaves the last good state served.
//
// The token is read from the environment when the sync begins and handed to git only through
// GitProcess's configuration entries (HostToken::GitConfig); every error is scrubbed of it.
//
// Not yet: contents of an older version are not fetched on demand; reading one answers that it
// is not in the local copy (the kept tips' served files are all there).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "core/config/config.h"
#include "core/sync/git_process.h"
#include "core/util/result.h"

namespace rr {

struct SyncReport {
  std::string default_branch;
  size_t refs = 0;            // refs kept
  size_t contents = 0;        // served files' contents fetched this time
  std::string refs_left_out;  // a sentence when refs were not kept (a tag of a file), or ""
};

// Syncs `mirror` (a checked MirrorConfig with `dir` set). `stop`, when set, ends the sync early
// (the last good state stays). Errors are scrubbed of the token and say what to do.
Result<SyncReport> SyncMirror(const GitProcess& git, const MirrorConfig& mirror,
                              std::chrono::steady_clock::time_point deadline,
                              const std::shared_ptr<std::atomic<bool>>& stop);

}  // namespace rr
