// groups: (docs/mirrors.md, "Groups"): every repository an owner holds on a host, each served
// as a mirror once listed.
#include <string>

#include "core/config/sections.h"
#include "core/util/text.h"

namespace rr::cfg {
namespace {

const char* const kGroupKeys[] = {
    "host", "owner",   "kind",    "host_kind", "api",        "names",      "archived",   "forks",
    "refs", "include", "exclude", "token_env", "sync_every", "list_every", "description"};

// A group's keys for listing it again while the server runs: list_every (a time of at least a
// minute, as sync_every) and description (said before the host's own of each repository).
void ReadGroupRelisting(const YAML::Node& g, const std::string& where, Problems& p,
                        GroupConfig* gc) {
  if (g["list_every"]) GetInterval(g["list_every"], where + ".list_every", p, &gc->list_every);
  if (g["description"]) GetString(g["description"], where + ".description", p, &gc->description);
}

}  // namespace

// A group's mirrors are made once it is listed (core/hosts, GroupMirror).
void ReadGroups(const YAML::Node& root, const std::string& file, Problems& p, Config* c) {
  const YAML::Node groups = root["groups"];
  if (!groups) return;
  if (!groups.IsSequence() || groups.size() == 0) {
    p.Add(groups,
          "`groups` must be a list with at least one group, e.g.\n  groups:\n    - host: "
          "https://github.com\n      owner: acme");
    return;
  }
  if (c->mirror_folder.empty()) SettleMirrorFolder(root, p, c);
  size_t index = 0;
  for (const auto& g : groups) {
    const std::string where = "groups[" + std::to_string(index++) + "]";
    if (!g.IsMap()) {
      p.Add(g, where + " must be a mapping with host and owner");
      continue;
    }
    CheckKeys(g, std::begin(kGroupKeys), std::end(kGroupKeys), where, p);
    GroupConfig gc;
    gc.where =
        file + ":" + std::to_string(g.Mark().line + 1) + ":" + std::to_string(g.Mark().column + 1);
    if (!g["host"]) {
      p.Add(g, where +
                   ": `host` is missing; give the host's web address, e.g. host: "
                   "https://github.com");
    } else if (GetString(g["host"], where + ".host", p, &gc.host)) {
      while (!gc.host.empty() && gc.host.back() == '/') gc.host.pop_back();
      const size_t scheme = gc.host.find("://");
      if (scheme == std::string::npos || gc.host.find('/', scheme + 3) != std::string::npos) {
        p.Add(g["host"], where +
                             ".host must be a web address without a path, e.g. "
                             "https://gitlab.example.com");
      } else if (Status ok = CheckMirrorUrl(gc.host + "/owner/repo.git"); !ok) {
        p.Add(g["host"], where + ".host " + ok.error());
      }
    }
    if (!g["owner"]) {
      p.Add(g, where +
                   ": `owner` is missing; give the organisation, user, group or workspace, "
                   "e.g. owner: acme");
    } else if (GetString(g["owner"], where + ".owner", p, &gc.owner)) {
      bool plain = !gc.owner.empty() && gc.owner.size() <= 255;
      size_t at = 0;
      while (plain) {
        const size_t slash = gc.owner.find('/', at);
        const std::string part =
            gc.owner.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
        plain = !part.empty() && part != "." && part != ".." &&
                part.find_first_not_of(
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789._-") == std::string::npos;
        if (slash == std::string::npos) break;
        at = slash + 1;
      }
      if (!plain) {
        p.Add(g["owner"], where + ".owner `" + DisplayName(gc.owner) +
                              "` is not an owner's name: letters, digits, '.', '_', '-', and '/' "
                              "between a GitLab group's parts");
      }
    }
    if (g["kind"]) {
      std::string kind;
      if (GetString(g["kind"], where + ".kind", p, &kind)) {
        if (kind == "user") {
          gc.user = true;
        } else if (kind != "organisation" && kind != "organization" && kind != "group" &&
                   kind != "workspace") {
          p.Add(g["kind"], where +
                               ".kind must be organisation (a GitHub organisation, GitLab "
                               "group, Bitbucket workspace) or user");
        }
      }
    }
    if (g["host_kind"]) {
      GetString(g["host_kind"], where + ".host_kind", p, &gc.host_kind);
    } else if (!gc.host.empty()) {
      gc.host_kind = KindOfHost(UrlHost(gc.host + "/x"));
    }
    if (gc.host_kind != "github" && gc.host_kind != "gitlab" && gc.host_kind != "bitbucket" &&
        !gc.host.empty()) {
      p.Add(g["host_kind"] ? g["host_kind"] : g["host"],
            where +
                ": a group needs the host's kind to be listed: host_kind: github, gitlab or "
                "bitbucket (guessed only for github.com, gitlab.com and bitbucket.org)");
    }
    const std::string host = gc.host.empty() ? std::string() : UrlHost(gc.host + "/x");
    if (g["api"]) {
      if (GetString(g["api"], where + ".api", p, &gc.api)) {
        while (!gc.api.empty() && gc.api.back() == '/') gc.api.pop_back();
        if (Status ok = CheckMirrorUrl(gc.api + "/x"); !ok) {
          p.Add(g["api"], where + ".api " + ok.error());
        }
      }
    } else if (gc.host_kind == "github") {
      gc.api = host == "github.com" ? "https://api.github.com" : gc.host + "/api/v3";
    } else if (gc.host_kind == "gitlab") {
      gc.api = gc.host + "/api/v4";
    } else if (gc.host_kind == "bitbucket") {
      if (host == "bitbucket.org") {
        gc.api = "https://api.bitbucket.org/2.0";
      } else if (!host.empty()) {
        p.Add(g["host"], where +
                             ": give the API's address (api:) for a Bitbucket other than "
                             "bitbucket.org");
      }
    }
    if (g["names"]) GetPatterns(g["names"], where + ".names", p, &gc.names);
    if (g["archived"]) GetBool(g["archived"], where + ".archived", p, &gc.archived);
    if (g["forks"]) GetBool(g["forks"], where + ".forks", p, &gc.forks);
    if (g["refs"]) GetPatterns(g["refs"], where + ".refs", p, &gc.refs);
    if (g["include"]) GetPatterns(g["include"], where + ".include", p, &gc.include);
    if (g["exclude"]) GetPatterns(g["exclude"], where + ".exclude", p, &gc.exclude);
    if (g["token_env"]) GetEnvName(g["token_env"], where + ".token_env", p, &gc.token_env);
    if (g["sync_every"]) GetInterval(g["sync_every"], where + ".sync_every", p, &gc.sync_every);
    ReadGroupRelisting(g, where, p, &gc);
    gc.label = host + "/" + gc.owner;
    NeedHostPlugin(gc.host_kind, &c->plugins);
    c->groups.push_back(std::move(gc));
  }
}

}  // namespace rr::cfg
