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
// An older version's contents are fetched on demand, when a tool reads them
// (core/sync/content_fetch.h), with the same network run (MirrorNetworkRun, MirrorFetchArgs);
// never while a sync of the same mirror runs (MirrorLock).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/sync/git_process.h"
#include "core/sync/token.h"
#include "core/util/result.h"

namespace rr {

struct SyncReport {
  std::string default_branch;
  size_t refs = 0;            // refs kept
  size_t contents = 0;        // served files' contents fetched this time
  std::string refs_left_out;  // a sentence when refs were not kept (a tag of a file), or ""
};

// The lock of the mirror kept at `dir`, one per folder in this process: a sync holds it from
// start to end, an on-demand fetch while it runs, so the two never run into each other.
std::shared_ptr<std::timed_mutex> MirrorLock(const std::string& dir);

// A run of `subcommand` that reaches `mirror`'s host: its URL's own protocol only, `token`'s
// entries when there is one (the header scoped to the URL, redirects off), no credential
// helper for the URL, no proxy for plain http (this machine).
GitRun MirrorNetworkRun(const MirrorConfig& mirror, const HostToken* token, std::string subcommand,
                        std::vector<std::string> args, std::string input,
                        std::chrono::steady_clock::time_point deadline);

// `git fetch`'s arguments for every fetch of a mirror: history without contents, no tags, no
// submodules, no ref or FETCH_HEAD written by the fetch itself, what to fetch on standard input.
std::vector<std::string> MirrorFetchArgs();

// Syncs `mirror` (a checked MirrorConfig with `dir` set). `stop`, when set, ends the sync early
// (the last good state stays). Errors are scrubbed of the token and say what to do.
Result<SyncReport> SyncMirror(const GitProcess& git, const MirrorConfig& mirror,
                              std::chrono::steady_clock::time_point deadline,
                              const std::shared_ptr<std::atomic<bool>>& stop);

}  // namespace rr
