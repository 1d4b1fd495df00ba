// find_files: the served files whose paths match a glob, across every listed repository's
// default branch (or those named), or in one repository at any ref.
//
// The glob is the one include / exclude use (core/policy/glob.h), read as a file pattern:
//   *      any characters within one path part (never '/'); ?  one character; [a-z] a class
//   **     as a whole part: any number of folders, none included
//   a pattern with no '/' matches the file's name in any folder (`Dockerfile`, `*.proto`); a
//   pattern with a '/' (or a leading '/') is matched against the whole path from the root
//   (`src/**/test_*.py`, `/Makefile`)
//   a trailing `/**` means every file below the folders the rest matches (`docs/**`), as git's
//   `:(glob)` pathspec reads it: never a file named `docs` itself.
// A trailing '/' is refused (the tool lists files; `docs/**` lists a folder's). Case matters.
//
// Paths come from RepoReader::Walk, so only served files are ever listed: include / exclude and
// the credential-file rule hold by construction. Folders no match can lie below are not read.
// Repositories are read on several threads, each on a reader of its own; the answer lists them
// in the order asked (or the configuration's). A repository that cannot be read is reported in
// its place; the call's time limit (ctx.stop) ends the walk and the answer says it is partial.
// The paths are numbered across repositories for `skip`, which a cut answer gives.
#pragma once

#include "core/tools/tool.h"

namespace rr {

class FindFilesTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
