// Where a repository's default branch was last found by a search, kept while its refs have not
// moved: search across many repositories used to open every one and resolve its default branch
// on every call, before reading anything. For each repository a search resolved, the default
// branch (commit and label) and the path found there (the root, and the last other path asked)
// are kept with the stamp of the files that decide where HEAD points (RefsStamp::TakeOfHead,
// core/served/refs_stamp.h) taken before they were read; while a new stamp equals it -- a few
// calls, no folder listed -- the kept answer is the one opening the repository would give. A racy
// stamp (a ref changed within the file system's clock tick) is never kept, so a move at any moment
// is resolved again. Where the kernel can watch them (core/served/refs_watch.h), the files are
// not looked at at all: the kept answer stands while no change of them was reported (RefsWatch::
// Catch, called once before a pass of KnownDefault calls, reads the reports) -- no system call a
// repository, and a ref changed within the clock's tick is kept too.
//
// Kept in the ServedRepo itself (ServedRepo::known_default_kept, one shared pointer read and
// written atomically), and gone with it: a catalog replaced starts with nothing kept.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/served/refs_watch.h"
#include "core/served/served_repo.h"
#include "core/util/rare_text.h"
#include "core/util/result.h"

namespace rr {

// The default branch, and `path` there. Kept lean: every repository a search or the text
// indexer resolved keeps one for its root, 20,000 of them (144 bytes by sizeof, a 160-byte
// block with its shared count; with a ReadPoint, an optional node and a string, 224): the
// branch without its commit's subject (no search shows it), the node with a flag.
struct KnownPath {
  std::string label;  // the default branch's name (ReadPoint::label)
  CommitId commit;
  int offset = 0;  // the committer's offset from UTC, minutes
  int64_t time = 0;
  Node node{};         // `path` at the default branch, when found (it is served there)
  bool found = false;  // else `error` says why not (RepoReader::Find's error)
  RareText error;

  // The default branch as a ReadPoint (its subject empty).
  ReadPoint At() const;
  // `at` (but its subject) as the default branch, and what Find said of the path there.
  static std::shared_ptr<KnownPath> Of(const ReadPoint& at, const Result<Node>& node);
};

// `path` at `repo`'s default branch as kept, when its refs have not moved since (as of the
// last RefsWatch::Shared().Catch(), for a repository whose refs are watched); else nullopt.
// *watched (when given): whether the watch vouched for it (else a stamp did, or none is kept).
std::shared_ptr<const KnownPath> KnownDefault(const std::shared_ptr<const ServedRepo>& repo,
                                              const RepoPath& path, bool* watched = nullptr);

// Keeps what a search resolved: where the refs are, the watch's ticket (null where they cannot
// be watched) and their stamp, both taken before reading them, the default branch, and `path`
// there (a node, or why not).
void KeepDefault(const std::shared_ptr<const ServedRepo>& repo, const RefsPlace& place,
                 std::shared_ptr<const RefsWatch::Ticket> watched, const RefsStamp& before,
                 const ReadPoint& at, const RepoPath& path, const Result<Node>& node);

// How kept answers were checked since the server started (tests): by the watch, or by a stamp.
struct KnownDefaultUse {
  uint64_t watched = 0;
  uint64_t stamped = 0;
};
KnownDefaultUse CurrentKnownDefaultUse();

}  // namespace rr
