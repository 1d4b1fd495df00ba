#include "core/app/wiring.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/policy/path_policy.h"
#include "core/served/mirror_state.h"
#include "core/sync/content_fetch.h"

namespace rr {
namespace {

// The order repositories are built in: the guidance repositories first (the others point at
// them), then the others, each in configuration order.
std::vector<size_t> GuidanceOrder(const std::vector<RepoConfig>& repos) {
  std::set<std::string> guides;
  for (const auto& r : repos) {
    if (!r.guidance_repo.empty()) guides.insert(r.guidance_repo);
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < repos.size(); ++i) {
    if (guides.count(repos[i].name)) order.push_back(i);
  }
  for (size_t i = 0; i < repos.size(); ++i) {
    if (!guides.count(repos[i].name)) order.push_back(i);
  }
  return order;
}

}  // namespace

Result<std::shared_ptr<const Catalog>> BuildCatalog(const Config& config) {
  std::vector<std::shared_ptr<const ServedRepo>> repos(config.repos.size());
  std::map<std::string, std::shared_ptr<const ServedRepo>> guidance;  // guidance repositories
  for (size_t i : GuidanceOrder(config.repos)) {
    const RepoConfig& rc = config.repos[i];
    auto policy = PathPolicy::Make(rc.include, rc.exclude, rc.serve_credential_files);
    if (!policy) return Error{"repository `" + rc.name + "`: " + policy.error()};
    RepoSettings s;
    s.name = rc.name;
    s.description = rc.description;
    s.path = rc.path;
    s.policy = policy.take();
    s.listed = rc.listed;
    s.own = rc.own;
    s.index_folder = HistoryIndexFolder(config, rc.path);
    if (!rc.guidance_repo.empty()) {
      auto g = guidance.find(rc.guidance_repo);
      if (g == guidance.end()) {
        return Error{"repository `" + rc.name + "`: its guidance repository `" + rc.guidance_repo +
                     "` is not served"};
      }
      s.guidance_repo = g->second;
      s.guidance_folder = rc.guidance_folder;
    }
    repos[i] = std::make_shared<const ServedRepo>(std::move(s));
    guidance[rc.name] = repos[i];
  }
  std::shared_ptr<const ServedRepo> operator_guidance;
  if (!config.guidance_repo.empty()) {  // the operator's guidance reaches mirrors too
    auto g = guidance.find(config.guidance_repo);
    if (g != guidance.end()) operator_guidance = g->second;
  }
  for (const auto& m : config.mirrors) {
    auto repo = ServeMirror(config, m, operator_guidance);
    if (!repo) return Error{repo.error()};
    repos.push_back(repo.take());
  }
  return std::make_shared<const Catalog>(std::move(repos));
}

Result<std::shared_ptr<const ServedRepo>> ServeMirror(
    const Config& config, const MirrorConfig& m,
    const std::shared_ptr<const ServedRepo>& guidance) {
  auto policy = PathPolicy::Make(m.include, m.exclude, m.serve_credential_files);
  if (!policy) return Error{"mirror `" + m.name + "`: " + policy.error()};
  RepoSettings s;
  s.name = m.name;
  s.description = m.description;
  s.path = m.dir;
  s.policy = policy.take();
  s.listed = m.listed;
  s.own = m.own;
  s.index_folder = HistoryIndexFolder(config, m.dir);
  s.mirror = m.state;
  // Older versions' contents, fetched when a tool reads them (core/sync/content_fetch.h).
  s.fetcher = MakeContentFetcher(config, m);
  s.guidance_repo = guidance;
  return std::shared_ptr<const ServedRepo>(std::make_shared<const ServedRepo>(std::move(s)));
}

void LinkRepositories(const Config& config, const HostLinks& links) {
  for (const auto& m : config.mirrors) {
    if (m.state) m.state->set_repo_link(links.RepoLine(m.host_kind, m.url));
  }
}

}  // namespace rr
