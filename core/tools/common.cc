#include "core/tools/common.h"

#include <algorithm>

namespace rr {

ArgSpec RepoArg() {
  return {"repo", ArgType::kString,
          "The repository's name, as list_repos shows it. May be left out when the server "
          "serves exactly one repository.",
          false};
}

Result<std::shared_ptr<const ServedRepo>> RepoOf(const CallContext& ctx, const Args& args) {
  if (auto name = args.String("repo")) return ctx.catalog->Find(*name);
  const auto& all = ctx.catalog->all();
  if (all.size() == 1) return all.front();
  return Error{"argument `repo` is needed: this server serves " + std::to_string(all.size()) +
               " repositories; name one (list_repos lists them)"};
}

ArgSpec ReposArg(const std::string& more) {
  ArgSpec a{"repos", ArgType::kStrings,
            "Only these repositories, by name: [\"shop\", \"billing\"] (a string of names "
            "separated by commas, \"shop, billing\", is read the same). Default: every one "
            "list_repos shows." +
                (more.empty() ? std::string() : " " + more),
            false};
  a.comma_separated = true;
  return a;
}

Result<std::vector<std::shared_ptr<const ServedRepo>>> ReposOf(const CallContext& ctx,
                                                               const Args& args) {
  std::vector<std::shared_ptr<const ServedRepo>> repos;
  const auto names = args.Strings("repos");
  if (!names) {
    for (const auto& r : ctx.catalog->all()) {
      if (r->listed()) repos.push_back(r);
    }
    return repos;
  }
  for (const auto& raw : *names) {
    const size_t b = raw.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    const size_t e = raw.find_last_not_of(' ');
    auto r = ctx.catalog->Find(raw.substr(b, e - b + 1));
    if (!r) return Error{r.error()};
    if (std::find(repos.begin(), repos.end(), *r) == repos.end()) repos.push_back(r.take());
  }
  if (repos.empty()) return Error{"argument `repos` names no repository; leave it out for all"};
  return repos;
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

ArgSpec StartLineArg() {
  return {"start_line", ArgType::kInteger, "The first line to show. Default 1.", false, 1,
          std::nullopt};
}

ArgSpec MaxLinesArg() {
  return {"max_lines",
          ArgType::kInteger,
          "At most this many lines. Default: as many as fit in the answer.",
          false,
          1,
          std::nullopt};
}

Result<Opened> OpenAt(const CallContext& ctx, const Args& args) {
  auto repo = RepoOf(ctx, args);
  if (!repo) return Error{repo.error()};
  auto reader = (*repo)->Open();
  if (!reader) return Error{reader.error()};
  auto at = reader->At(args.String("ref"));
  if (!at) return Error{at.error()};
  const auto path = PathOf(args);
  NoteRead(ctx, **repo, at->commit.id.Hex(), "", path ? path->str() : std::string());
  return Opened{repo.take(), reader.take(), at.take()};
}

void NoteRead(const CallContext& ctx, const ServedRepo& repo, const std::string& commit,
              const std::string& base_commit, const std::string& path) {
  const auto& mirror = repo.settings().mirror;
  if (!ctx.read || !mirror || mirror->host_kind().empty()) return;
  ReadSpot& spot = *ctx.read;
  spot.host_kind = mirror->host_kind();
  spot.url = mirror->Get().url;
  spot.commit = commit;
  spot.base_commit = base_commit;
  spot.path = path;
}

ReadSpot ReadOf(const std::string& tool, const CallContext& ctx) {
  if (!ctx.read || ctx.read->host_kind.empty()) return {};
  ReadSpot spot = *ctx.read;
  spot.kind = LinkKindOf(tool);
  return spot;
}

Result<RepoPath> PathOf(const Args& args) {
  auto text = args.String("path");
  if (!text) return RepoPath::Root();
  return RepoPath::Parse(*text);
}

}  // namespace rr
