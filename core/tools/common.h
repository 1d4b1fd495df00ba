// What the reading tools share: the repo / ref / path arguments, and resolving them into the
// call's target before the tool runs. Everything here goes through the Catalog and RepoReader,
// so the policy applies.
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

// The `repos` argument of the tools across repositories: a list of names (["shop", "billing"]),
// or one string of names separated by commas ("shop, billing"). `more` ends its description.
ArgSpec ReposArg(const std::string& more = "");

// The call's target (core/served/call_target.h), resolved once from arguments checked against
// `spec`, before the tool runs; the first error, in this order:
//   1. spec.traits.check_first (the tool's own arguments);
//   2. `path`: it must parse (RepoPath::Parse), and not name the root when the traits refuse it;
//      `paths`: each item parsed, an item that does not parse kept with its error;
//   3. `repo`: the repository it names; without it, the only one served (an error naming the
//      choice when there are several). A tool that also takes `repos` reads one repository only
//      when `repo` or `ref` is given; otherwise `repos`: each named once, in the order given, or
//      every one list_repos shows (an error names an unknown repository);
//   4. for one repository: opened, when the traits name refs or ask for it;
//   5. `path` judged by the path policy, when the traits say so before any ref;
//   6. each of the traits' refs resolved (RepoReader::At; its default branch when left out).
Result<CallTarget> ResolveTarget(const ToolSpec& spec, const Args& args, const Catalog& catalog);

// What a finished call read, for its answer's host link (Draft::read): the page its spec's
// `link` trait names, at the target's repository, commit(s) and path. Empty (no link) for a
// repository that is not a mirror of a host with links.
ReadSpot LinkOf(const ToolSpec& spec, const CallTarget& target);

// The target's repository, opened at its ref: for a tool whose traits resolve `ref`.
struct Opened {
  std::shared_ptr<const ServedRepo> repo;
  RepoReader& reader;
  const ReadPoint& at;
};
Opened OpenedOf(const CallContext& ctx);

}  // namespace rr
