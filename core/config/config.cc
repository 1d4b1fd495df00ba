// The configuration's top level: the file read, its keys checked, each section handed to its
// reader (core/config/sections.h) in the order that lets a later one read what an earlier one
// settled; limits:, history_index: and cache_folder:; and the default configuration without a
// file.
#include "core/config/config.h"

#include <Poco/SHA1Engine.h>
#include <git2.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "core/config/sections.h"
#include "core/git/git_repo.h"
#include "core/util/text.h"
#include "core/util/yaml_load.h"

namespace rr {
namespace cfg {
namespace {

// cache_folder: and history_index:, read after the repositories: the folder may lie in none.
void SettleCacheFolder(const YAML::Node* given, Problems* p, Config* c) {
  if (given) {
    std::string raw;
    if (!GetString(*given, "cache_folder", *p, &raw)) return;
    std::string path = raw;
    if (path == "~" || path.rfind("~/", 0) == 0) {
      const char* home = std::getenv("HOME");
      if (home) path = std::string(home) + path.substr(1);
    }
    if (path.empty() || path[0] != '/') {
      p->Add(*given, "cache_folder `" + DisplayName(raw) +
                         "` must be an absolute path, e.g. cache_folder: /var/cache/repo-reader");
      return;
    }
    path = PlainPath(path);
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
      p->Add(*given, "cache_folder `" + DisplayName(raw) + "` is not a folder");
      return;
    }
    if (const RepoConfig* r = RepoHolding(path, c->repos)) {
      p->Add(*given, "cache_folder `" + DisplayName(raw) + "` lies inside repository `" + r->name +
                         "` (" + DisplayName(r->path) +
                         "); the server never writes inside a repository: choose a folder "
                         "outside every served one");
      return;
    }
    c->cache_folder = path;
  } else {
    const std::string path = DefaultCacheFolder();
    if (path.empty()) {
      c->history_index_off =
          "no cache folder: neither XDG_CACHE_HOME nor HOME is set; set cache_folder";
    } else if (const RepoConfig* r = RepoHolding(PlainPath(path), c->repos)) {
      c->history_index_off = "the default cache folder " + path + " lies inside repository `" +
                             r->name + "`; set cache_folder to a folder outside it";
    } else {
      c->cache_folder = PlainPath(path);
    }
  }
}

}  // namespace

void ReadLimits(const YAML::Node& root, Problems& p, size_t* answer_characters) {
  const YAML::Node limits = root["limits"];
  if (limits) {
    if (!limits.IsMap()) {
      p.Add(limits, "`limits` must be a mapping, e.g. limits: {answer_characters: 40000}");
    } else {
      static const char* const kLimitKeys[] = {"answer_characters"};
      CheckKeys(limits, std::begin(kLimitKeys), std::end(kLimitKeys), "limits", p);
      const YAML::Node ac = limits["answer_characters"];
      if (ac) {
        long long v = -1;
        bool ok = ac.IsScalar();
        if (ok) {
          try {
            size_t used = 0;
            v = std::stoll(ac.Scalar(), &used);
            ok = used == ac.Scalar().size();
          } catch (...) {
            ok = false;
          }
        }
        if (!ok || v < static_cast<long long>(kMinAnswerCharacters) ||
            v > static_cast<long long>(kMaxAnswerCharacters)) {
          p.Add(ac, "limits.answer_characters must be a whole number from " +
                        WithCommas(kMinAnswerCharacters) + " to " +
                        WithCommas(kMaxAnswerCharacters));
        } else {
          *answer_characters = static_cast<size_t>(v);
        }
      }
    }
  }
}

void ReadCache(const YAML::Node& root, Problems& p, Config* c) {
  if (const YAML::Node h = root["history_index"]) {
    GetBool(h, "history_index", p, &c->history_index);
  }
  const YAML::Node folder = root["cache_folder"];
  SettleCacheFolder(folder ? &folder : nullptr, &p, c);
}

}  // namespace cfg

std::string DefaultCacheFolder() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/repo-reader";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/repo-reader";
  return "";
}

std::string HistoryIndexFolder(const Config& config, const std::string& path) {
  if (!config.history_index || config.cache_folder.empty()) return "";
  Poco::SHA1Engine sha1;
  sha1.update(path);
  return config.cache_folder + "/history/" + Poco::DigestEngine::digestToHex(sha1.digest());
}

std::string DescribeHistoryIndex(const Config& config) {
  if (!config.history_index) return "off (history_index: false)";
  if (config.cache_folder.empty()) return "off (" + config.history_index_off + ")";
  return "kept in " + config.cache_folder + "/history";
}

Result<Config> ParseConfig(const std::string& text, const std::string& file,
                           const std::string& base_dir) {
  cfg::Problems p(file);
  YAML::Node root;
  // Declared before every other node of the tree, so that it runs after they are gone.
  struct FreeTree {
    YAML::Node& tree;
    size_t bytes;
    ~FreeTree() { FreeYaml(tree, bytes); }
  } free_tree{root, text.size()};
  try {
    root = LoadYaml(text);
  } catch (const YAML::ParserException& e) {
    p.Add(e.mark, "not valid YAML: " + e.msg +
                      "; indent with spaces (not tabs), and close every bracket and quote");
    return Error{p.Text()};
  } catch (const std::exception& e) {
    return Error{file + ": cannot be read as YAML: " + e.what()};
  }
  Config c;
  c.source = file;
  if (root.IsNull()) {
    p.Add(root, "the configuration is empty; it needs `repos:` with at least one repository");
    return Error{p.Text()};
  }
  if (!root.IsMap()) {
    p.Add(root, "the configuration must be a mapping with `repos:` (and optionally `limits:`)");
    return Error{p.Text()};
  }
  // Top-level keys; the later ones are reserved for what is to come.
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (!seen.insert(key).second) {
      p.Add(kv.first, "`" + key + "` is given twice; keep one");
      continue;
    }
    if (key == "repos" || key == "limits" || key == "plugins" || key == "secrets" ||
        key == "plugin_folder" || key == "cache_folder" || key == "history_index" ||
        key == "http" || key == "mirrors" || key == "mirror_folder" || key == "guidance" ||
        key == "groups") {
      continue;
    }
    p.Add(kv.first, "unknown key `" + DisplayName(key) +
                        "`; expected: repos, limits, plugins, secrets, plugin_folder, "
                        "cache_folder, history_index, http, mirrors, mirror_folder, groups, "
                        "guidance");
  }

  cfg::ReadLimits(root, p, &c.answer_characters);
  cfg::ReadPlugins(root, base_dir, p, &c.plugins);
  cfg::ReadRepos(root, base_dir, p, &c.repos);
  cfg::ReadCache(root, p, &c);
  cfg::ReadHttp(root, p, &c.http);
  cfg::ReadMirrors(root, p, &c);
  cfg::ReadGuidance(root, p, &c);
  cfg::ReadGroups(root, file, p, &c);
  if (!p.empty()) return Error{p.Text()};
  return c;
}

Result<Config> LoadConfigFile(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{file + ": cannot be read (no such file, or no permission)"};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (ss.str().size() > 16 * 1024 * 1024) return Error{file + ": larger than 16 MB"};
  std::string dir = ".";
  const size_t slash = file.rfind('/');
  if (slash != std::string::npos) dir = slash == 0 ? "/" : file.substr(0, slash);
  char buf[PATH_MAX];
  if (realpath(dir.c_str(), buf)) dir = buf;
  return ParseConfig(ss.str(), file, dir);
}

Result<Config> DefaultConfig(const std::string& folder) {
  auto gitdir = GitRepo::Discover(folder);
  if (!gitdir) {
    return Error{"`" + folder +
                 "` is not inside a git repository, and no configuration was given.\n"
                 "Start repo-reader inside a repository, or name the repositories to serve in a "
                 "file:\n  repos:\n    - name: shop\n      path: /srv/git/shop\nand run "
                 "repo-reader --config that-file.yaml (docs/configuration.md)."};
  }
  auto repo = GitRepo::Open(*gitdir);
  if (!repo) return Error{repo.error()};
  const char* workdir = git_repository_workdir((*repo)->raw());
  std::string top = workdir ? workdir : *gitdir;
  while (top.size() > 1 && top.back() == '/') top.pop_back();
  std::string base = top.substr(top.rfind('/') + 1);
  if (!workdir && base.size() > 4 && base.compare(base.size() - 4, 4, ".git") == 0) {
    base.resize(base.size() - 4);
  }
  std::string name;
  for (char c : base) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    name.push_back(ok ? c : '-');
  }
  while (!name.empty() && !IsValidRepoName(name.substr(0, 1))) name.erase(0, 1);
  if (name.size() > 100) name.resize(100);
  if (name.empty()) name = "repo";
  Config c;
  c.source = "the git repository of the current folder (" + top + ")";
  RepoConfig rc;
  rc.name = name;
  rc.path = top;
  c.repos.push_back(std::move(rc));
  cfg::Problems none(c.source);
  cfg::SettleCacheFolder(nullptr, &none, &c);
  return c;
}

}  // namespace rr
