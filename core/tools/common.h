// What the reading tools share: the repo / ref / path arguments and opening a repository at a
// ref. Everything here goes through the Catalog and RepoReader, so the policy applies.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/served/catalog.h"
#include "core/tools/tool.h"

namespace rr {

ArgSpec RepoArg();
ArgSpec RefArg();
ArgSpec PathArg(std::string description, bool required);
// The window into a file's lines (read_file, blame).
ArgSpec StartLineArg();
ArgSpec MaxLinesArg();

// The repository named by `repo`; without it, the only repository served (an error naming
// the choice when there are several).
Result<std::shared_ptr<const ServedRepo>> RepoOf(const CallContext& ctx, const Args& args);

// The `repos` argument of the tools across repositories: a list of names (["shop", "billing"]),
// or one string of names separated by commas ("shop, billing"). `more` ends its description.
ArgSpec ReposArg(const std::string& more = "");

// The repositories named by `repos` (each once, in the order given), or without it every
// repository list_repos shows. Errors name an unknown repository.
Result<std::vector<std::shared_ptr<const ServedRepo>>> ReposOf(const CallContext& ctx,
                                                               const Args& args);

struct Opened {
  std::shared_ptr<const ServedRepo> repo;
  RepoReader reader;
  ReadPoint at;
};

// The repository named by `repo`, opened at `ref` (its default branch without one).
Result<Opened> OpenAt(const CallContext& ctx, const Args& args);

// Notes what the call read, for the host link under its answer (core/answer/host_links.h):
// the repository, the commit read (for a comparison also its base), the path. A repository that
// is not a mirror of a host with links notes nothing. OpenAt notes the repository, the commit
// and the `path` argument itself.
void NoteRead(const CallContext& ctx, const ServedRepo& repo, const std::string& commit,
              const std::string& base_commit = "", const std::string& path = "");

// What a finished call of `tool` read, for its answer's host link (Draft::read).
ReadSpot ReadOf(const std::string& tool, const CallContext& ctx);

// The path argument, checked; the root when absent.
Result<RepoPath> PathOf(const Args& args);

}  // namespace rr
