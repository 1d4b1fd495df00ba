#include "core/tools/common.h"

namespace rr {

ArgSpec RepoArg() {
  return {"repo", ArgType::kString, "The repository's name, as list_repos shows it.", true};
}

ArgSpec RefArg() {
  return {"ref", ArgType::kString,
          "A branch, tag or commit id: main, release/2.1, v1.2.0, a1b2c3d, main~3, origin/main. "
          "Default: the repository's default branch.",
          false};
}

ArgSpec PathArg(std::string description, bool required) {
  return {"path", ArgType::kString, std::move(description), required};
}

Result<Opened> OpenAt(const CallContext& ctx, const Args& args) {
  auto repo = ctx.catalog->Find(*args.String("repo"));
  if (!repo) return Error{repo.error()};
  auto reader = (*repo)->Open();
  if (!reader) return Error{reader.error()};
  auto at = reader->At(args.String("ref"));
  if (!at) return Error{at.error()};
  return Opened{repo.take(), reader.take(), at.take()};
}

Result<RepoPath> PathOf(const Args& args) {
  auto text = args.String("path");
  if (!text) return RepoPath::Root();
  return RepoPath::Parse(*text);
}

}  // namespace rr
