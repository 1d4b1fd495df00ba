// What one tool call reads: the repository, the commit(s) and the path(s) its `repo`, `ref`,
// `path` and `paths` arguments name, checked and resolved once, before the tool runs
// (core/tools/common.h: ResolveTarget, by the tool's spec). The tool reads this target and never
// parses those arguments again; the guidance join (core/guidance/guidance_join.h) and the host
// link (core/tools/common.h: LinkOf) read the same target, so one call can never name two
// repositories or see one ref at two commits.
//
// Immutable once resolved, except that the reader is the call's handle to the repository
// (reading through it changes no resolution); the server releases it when the tool returns.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/policy/repo_path.h"
#include "core/served/served_repo.h"
#include "core/util/result.h"

namespace rr {

struct CallTarget {
  // The one repository the call reads: named by `repo`, or the only one served when a tool that
  // takes `repo` is called without it. Null for a call about no repository or about several.
  std::shared_ptr<const ServedRepo> repo;
  // Whether `repo` named it (rather than its being the only repository served).
  bool repo_named = false;
  // A call across repositories (`repos`): the repositories named, each once in the order given,
  // or every listed one. Empty otherwise.
  std::vector<std::shared_ptr<const ServedRepo>> repos;

  // `repo` opened, once, when the tool's spec asks for it (ToolTraits::open, or a ref to
  // resolve). Null otherwise.
  std::shared_ptr<RepoReader> reader;
  // The ref argument resolved (ToolTraits::refs: `ref`, show_commit's `commit`, diff's `head`),
  // or the default branch when it was left out.
  std::optional<ReadPoint> at;
  // Whether `at` is the default branch because its ref was left out (so `at` is where HEAD is).
  bool at_default = false;
  // With two refs (diff's `base` and `head`): the first, resolved the same way.
  std::optional<ReadPoint> base;

  // `path`, normalised (RepoPath::Parse); the root when it is absent or the tool takes none.
  RepoPath path = RepoPath::Root();
  // `paths` as given, and each parsed (a path that does not parse is kept with its error, for
  // the tool to report in its place).
  std::vector<std::string> paths_asked;
  std::vector<Result<RepoPath>> paths;

  // The paths the call names that are not the root: `path`, then each parsed item of `paths`,
  // each once, at most `max` of them.
  std::vector<RepoPath> NamedPaths(size_t max) const;
};

}  // namespace rr
