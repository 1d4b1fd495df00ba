#include "core/tools/common.h"

#include <algorithm>

namespace rr {

ArgSpec RepoArg() {
  return {"repo", ArgType::kString,
          "The repository's name, as list_repos shows it. May be left out when the server "
          "serves exactly one repository.",
          false};
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

namespace {

// The repository named by `repo`; without it, the only repository served (an error naming
// the choice when there are several).
Result<std::shared_ptr<const ServedRepo>> RepoOf(const Catalog& catalog, const Args& args) {
  if (auto name = args.String("repo")) return catalog.Find(*name);
  const auto& all = catalog.all();
  if (all.size() == 1) return all.front();
  return Error{"argument `repo` is needed: this server serves " + std::to_string(all.size()) +
               " repositories; name one (list_repos lists them)"};
}

// The repositories named by `repos` (each once, in the order given), or without it every
// repository list_repos shows. Errors name an unknown repository.
Result<std::vector<std::shared_ptr<const ServedRepo>>> ReposOf(const Catalog& catalog,
                                                               const Args& args) {
  std::vector<std::shared_ptr<const ServedRepo>> repos;
  const auto names = args.Strings("repos");
  if (!names) {
    for (const auto& r : catalog.all()) {
      if (r->listed()) repos.push_back(r);
    }
    return repos;
  }
  for (const auto& raw : *names) {
    const size_t b = raw.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    const size_t e = raw.find_last_not_of(' ');
    auto r = catalog.Find(raw.substr(b, e - b + 1));
    if (!r) return Error{r.error()};
    if (std::find(repos.begin(), repos.end(), *r) == repos.end()) repos.push_back(r.take());
  }
  if (repos.empty()) return Error{"argument `repos` names no repository; leave it out for all"};
  return repos;
}

}  // namespace

Result<CallTarget> ResolveTarget(const ToolSpec& spec, const Args& args, const Catalog& catalog) {
  const ToolTraits& traits = spec.traits;
  if (traits.check_first) {
    if (Status st = traits.check_first(args); !st) return Error{st.error()};
  }
  CallTarget t;
  if (auto text = args.String("path")) {
    auto path = RepoPath::Parse(*text);
    if (!path) return Error{path.error()};
    t.path = path.take();
  }
  if (!traits.root_refused.empty() && args.String("path") && t.path.is_root()) {
    return Error{traits.root_refused};
  }
  if (auto paths = args.Strings("paths")) {
    t.paths_asked = *paths;
    for (const auto& text : *paths) t.paths.push_back(RepoPath::Parse(text));
  }

  const bool takes_repo = spec.Takes("repo"), takes_repos = spec.Takes("repos");
  // A tool that takes both reads one repository when `repo` or `ref` names it.
  const bool one = takes_repo && (!takes_repos || args.String("repo") || args.String("ref"));
  if (one) {
    auto repo = RepoOf(catalog, args);
    if (!repo) return Error{repo.error()};
    t.repo = repo.take();
    t.repo_named = args.String("repo").has_value();
  } else if (takes_repos) {
    auto repos = ReposOf(catalog, args);
    if (!repos) return Error{repos.error()};
    t.repos = repos.take();
  }
  if (!t.repo) return t;

  if (!traits.refs.empty() || traits.open) {
    auto reader = t.repo->Open();
    if (!reader) return Error{reader.error()};
    t.reader = std::make_shared<RepoReader>(reader.take());
  }
  if (traits.path_outside_first && t.repo->policy().Outside(t.path)) {
    return Error{"path `" + t.path.Display() + "` is outside what this server serves in `" +
                 t.repo->name() + "`"};
  }
  const bool named = traits.refs.size() > 1;
  for (size_t i = 0; i < traits.refs.size(); ++i) {
    const std::string& name = traits.refs[i];
    const std::optional<std::string> ref = args.String(name);
    auto at = t.reader->At(ref);
    if (!at) return Error{(named ? name + ": " : std::string()) + at.error()};
    const bool is_base = named && i + 1 < traits.refs.size();
    (is_base ? t.base : t.at) = at.take();
    if (!is_base) t.at_default = !ref.has_value();
  }
  return t;
}

ReadSpot LinkOf(const ToolSpec& spec, const CallTarget& target) {
  if (spec.traits.link == LinkKind::kNone || !target.repo || !target.at) return {};
  const auto& mirror = target.repo->settings().mirror;
  if (!mirror || mirror->host_kind().empty()) return {};
  ReadSpot spot;
  spot.kind = spec.traits.link;
  spot.host_kind = mirror->host_kind();
  spot.url = mirror->Get().url;
  spot.commit = target.at->commit.id.Hex();
  if (target.base) spot.base_commit = target.base->commit.id.Hex();
  spot.path = target.path.str();
  return spot;
}

Opened OpenedOf(const CallContext& ctx) {
  const CallTarget& t = *ctx.target;
  return Opened{t.repo, *t.reader, *t.at};
}

}  // namespace rr
