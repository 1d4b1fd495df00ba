// repos: (docs/configuration.md): the local repositories to serve, each by name and path.
#include <string>
#include <unordered_set>

#include "core/config/path_probe.h"
#include "core/config/sections.h"
#include "core/util/text.h"

namespace rr {
namespace cfg {
namespace {

const char* const kRepoKeys[] = {"name",    "path",   "description", "include",
                                 "exclude", "listed", "own",         "serve_credential_files",
                                 "guidance"};

// A mapping's values by key, read in one pass. YAML::Node's own lookup turns every key it passes
// into text again; with 20,000 repositories, each asked for its eight keys, that was most of the
// time spent reading them. The first of a key given twice (CheckKeys reports the second).
class Fields {
 public:
  explicit Fields(const YAML::Node& map) {
    for (const auto& kv : map) {
      if (kv.first.IsScalar()) kv_.emplace_back(kv.first.Scalar(), kv.second);
    }
  }
  // The value, or an undefined node (false) when the key is not there.
  YAML::Node operator[](std::string_view key) const {
    for (const auto& [k, v] : kv_) {
      if (k == key) return v;
    }
    return YAML::Node(YAML::NodeType::Undefined);
  }

 private:
  std::vector<std::pair<std::string, YAML::Node>> kv_;
};

}  // namespace

void ReadRepos(const YAML::Node& root, const std::string& base_dir, Problems& p,
               std::vector<RepoConfig>* out) {
  const YAML::Node repos = root["repos"];
  if (!repos && (root["mirrors"] || root["groups"])) {
    // Mirrors (or groups) alone are a configuration too.
  } else if (!repos) {
    p.Add(root,
          "`repos:` is missing; list the repositories to serve, e.g.\n  repos:\n    - name: "
          "shop\n      path: /srv/git/shop");
  } else if (!repos.IsSequence() || repos.size() == 0) {
    p.Add(repos, "`repos` must be a list with at least one repository (- name: …, path: …)");
  } else {
    std::unordered_set<std::string> names;
    RepoPaths paths;
    std::vector<RepoPaths::Pending> pending;
    RepoPaths::Checker checker(&pending, repos.size(), 4);
    struct PathProblem {  // where a path that is no repository is reported
      size_t repo, slot;
      YAML::Mark mark;
      std::string where, raw;
    };
    std::vector<PathProblem> path_problems;
    size_t index = 0;
    for (const auto& entry : repos) {
      const std::string where = "repos[" + std::to_string(index++) + "]";
      if (!entry.IsMap()) {
        p.Add(entry, where + " must be a mapping with name and path");
        continue;
      }
      CheckKeys(entry, std::begin(kRepoKeys), std::end(kRepoKeys), where, p);
      const Fields r(entry);
      RepoConfig rc;
      if (!r["name"]) {
        p.Add(entry, where + ": `name` is missing; give the name agents will use, e.g. name: shop");
      } else if (GetString(r["name"], where + ".name", p, &rc.name)) {
        if (!IsValidRepoName(rc.name)) {
          p.Add(r["name"], where + ".name `" + DisplayName(rc.name) +
                               "` is not a valid name; use letters, digits, '.', '_' and '-' "
                               "(owner/name allowed), starting with a letter or digit");
        } else if (!names.insert(rc.name).second) {
          p.Add(r["name"], where + ".name `" + rc.name + "` is used twice; names must differ");
        }
      }
      std::string raw_path;
      if (!r["path"]) {
        p.Add(entry, where +
                         ": `path` is missing; give the repository's folder, e.g. path: "
                         "/srv/git/shop");
      } else if (GetString(r["path"], where + ".path", p, &raw_path)) {
        // Resolved and checked below, all at once; its problem, if any, keeps this place.
        checker.Add(paths.Prepare(raw_path, base_dir));
        path_problems.push_back(
            {out->size(), p.Reserve(), r["path"].Mark(), where, std::move(raw_path)});
      }
      if (r["description"]) GetString(r["description"], where + ".description", p, &rc.description);
      if (r["include"]) GetPatterns(r["include"], where + ".include", p, &rc.include);
      if (r["exclude"]) GetPatterns(r["exclude"], where + ".exclude", p, &rc.exclude);
      if (r["listed"]) GetBool(r["listed"], where + ".listed", p, &rc.listed);
      if (r["own"]) GetBool(r["own"], where + ".own", p, &rc.own);
      if (r["serve_credential_files"]) {
        GetBool(r["serve_credential_files"], where + ".serve_credential_files", p,
                &rc.serve_credential_files);
      }
      if (r["guidance"]) ReadRepoGuidance(r["guidance"], where, p, &rc);
      out->push_back(std::move(rc));
    }
    checker.Finish();
    for (size_t i = 0; i < pending.size(); ++i) {
      const PathProblem& pp = path_problems[i];
      (*out)[pp.repo].path = std::move(pending[i].resolved);
      if (!pending[i].is_repository) {
        p.Fill(pp.slot, pp.mark,
               pp.where + ".path `" + DisplayName(pp.raw) +
                   "` is not a git repository (resolved to " + DisplayName((*out)[pp.repo].path) +
                   "); give a repository's folder, bare or with a work tree");
      }
    }
  }
}

}  // namespace cfg

bool IsValidRepoName(const std::string& name) {
  if (name.empty() || name.size() > 100) return false;
  bool segment_start = true;
  for (char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (segment_start) {
      if (!alnum) return false;
      segment_start = false;
      continue;
    }
    if (c == '/') {
      segment_start = true;
      continue;
    }
    if (!alnum && c != '.' && c != '_' && c != '-') return false;
  }
  return !segment_start;
}

}  // namespace rr
