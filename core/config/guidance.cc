// guidance: (docs/configuration.md, `guidance`): the repository holding the operator's guidance
// for the others, at the top level and in each repository's entry.
#include <set>
#include <string>

#include "core/config/sections.h"
#include "core/policy/repo_path.h"
#include "core/util/text.h"

namespace rr::cfg {

void ReadRepoGuidance(const YAML::Node& g, const std::string& where, Problems& p, RepoConfig* rc) {
  if (!g.IsMap()) {
    p.Add(g,
          where + ".guidance must be a mapping, e.g. guidance: {repo: acme-rules, folder: shop}");
    return;
  }
  static const char* const kKeys[] = {"repo", "folder"};
  CheckKeys(g, std::begin(kKeys), std::end(kKeys), where + ".guidance", p);
  if (g["repo"]) GetString(g["repo"], where + ".guidance.repo", p, &rc->guidance_repo);
  if (g["folder"] && GetString(g["folder"], where + ".guidance.folder", p, &rc->guidance_folder)) {
    auto folder = RepoPath::Parse(rc->guidance_folder);
    if (!folder || folder->is_root()) {
      p.Add(g["folder"], where + ".guidance.folder `" + DisplayName(rc->guidance_folder) +
                             "` is not a folder's path; write one such as shop or teams/shop");
    } else {
      rc->guidance_folder = folder->str();
    }
  }
}

// A repository named as a guidance repository takes none itself.
void ReadGuidance(const YAML::Node& root, Problems& p, Config* c) {
  const YAML::Node g = root["guidance"];
  if (g) {
    if (!g.IsMap()) {
      p.Add(g, "`guidance` must be a mapping, e.g. guidance: {repo: acme-rules}");
    } else {
      static const char* const kKeys[] = {"repo"};
      CheckKeys(g, std::begin(kKeys), std::end(kKeys), "guidance", p);
      if (g["repo"]) GetString(g["repo"], "guidance.repo", p, &c->guidance_repo);
    }
  }
  std::set<std::string> names, guides;
  for (const auto& r : c->repos) names.insert(r.name);
  if (!c->guidance_repo.empty()) guides.insert(c->guidance_repo);
  for (const auto& r : c->repos) {
    if (!r.guidance_repo.empty()) guides.insert(r.guidance_repo);
  }
  for (const auto& name : guides) {
    if (!names.count(name)) {
      p.Add(g ? g : root, "guidance: `" + DisplayName(name) +
                              "` is not a repository of `repos`; list the guidance repository "
                              "there too (listed: false keeps it out of list_repos)");
    }
  }
  for (auto& r : c->repos) {
    if (guides.count(r.name)) {
      if (!r.guidance_repo.empty()) {
        p.Add(root, "repository `" + r.name +
                        "` holds guidance for others, so it takes none from a guidance "
                        "repository itself; remove its guidance.repo");
      }
      continue;
    }
    if (r.guidance_repo.empty()) r.guidance_repo = c->guidance_repo;
    if (r.guidance_repo.empty() && !r.guidance_folder.empty()) {
      p.Add(root, "repository `" + r.name +
                      "`: guidance.folder names a folder of no guidance repository; name one "
                      "with guidance: {repo: …} (for all) or in the entry's guidance");
    }
  }
}

}  // namespace rr::cfg
