// Blame of a served file: the blame tool's only way to the blame engine (core/git/blame.h), with
// include / exclude and the credential-file rule applied as every other read applies them.
//   - The path is judged by the policy first: an excluded path (or a credential file) is
//     answered as outside what this server serves, whether or not it exists.
//   - Only a text file is blamed: a folder, a symbolic link, a submodule, a binary file (a NUL in
//     its first 8,000 bytes, as read_file decides) and a file over 10 MB are refused, each with a
//     sentence saying what to do instead.
//   - The file's history is followed through renames only from served paths. Where it may have
//     come from a path this server does not serve, blame stops at that commit
//     (BlameStop::kNotFollowed): nothing of such a file is read, and its path is never named.
//   - In a mirror, an older version the walk needs and the local copy lacks is fetched
//     (RepoReader::FetchMissing, which judges its path again); one that cannot be fetched stops
//     the blame there, as a version missing from a local partial clone does.
#pragma once

#include <cstdint>
#include <functional>

#include "core/git/blame.h"
#include "core/policy/repo_path.h"
#include "core/served/served_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// A served text file at a read point, read: its bytes are what the answer shows.
struct BlameSubject {
  Node file;
  FileData data;
  uint32_t total_lines = 0;
};

// The file at `path` when it can be blamed; otherwise an error naming what it is and what to do.
Result<BlameSubject> FindBlameSubject(RepoReader& reader, const ReadPoint& at, const RepoPath& path,
                                      const StopToken& stop);

// Who last changed lines first_line.. of the subject, at most max_lines of them (0: to the end).
// A walk the StopToken cut short, or one that met a rename from a path not served, an older
// version over 10 MB or a commit missing from the local copy, is no error: its lines say where
// it stopped and why.
Result<BlameResult> BlameServed(
    RepoReader& reader, const ReadPoint& at, const BlameSubject& subject, uint32_t first_line,
    uint32_t max_lines, const StopToken& stop,
    std::function<void(uint32_t settled, uint32_t total)> progress = nullptr);

}  // namespace rr
