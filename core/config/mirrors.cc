// mirrors: and mirror_folder: (docs/mirrors.md): the repositories on a host that the server keeps
// a mirror of, and what is checked of their addresses.
#include <Poco/SHA1Engine.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <set>
#include <string>

#include "core/config/sections.h"
#include "core/served/mirror_state.h"
#include "core/util/text.h"

namespace rr {
namespace cfg {
namespace {

const char* const kMirrorKeys[] = {
    "name",      "url",       "description", "refs",   "include", "exclude",
    "token_env", "host_kind", "sync_every",  "listed", "own",     "serve_credential_files"};

}  // namespace

void SettleMirrorFolder(const YAML::Node& root, Problems& p, Config* c) {
  const YAML::Node given = root["mirror_folder"];
  // Where a problem with the default folder is reported: at `mirrors:`, or at no line when only
  // groups: need the folder (the file's name alone).
  const YAML::Node mirrors = root["mirrors"];
  const YAML::Mark place = given     ? given.Mark()
                           : mirrors ? mirrors.Mark()
                                     : YAML::Mark::null_mark();
  std::string path;
  if (given) {
    std::string raw;
    if (!GetString(given, "mirror_folder", p, &raw)) return;
    path = raw;
    if (path == "~" || path.rfind("~/", 0) == 0) {
      const char* home = std::getenv("HOME");
      if (home) path = std::string(home) + path.substr(1);
    }
    if (path.empty() || path[0] != '/') {
      p.Add(given,
            "mirror_folder `" + DisplayName(raw) +
                "` must be an absolute path, e.g. mirror_folder: /var/lib/repo-reader/mirrors");
      return;
    }
  } else {
    path = DefaultMirrorFolder();
    if (path.empty()) {
      p.Add(place,
            "mirrors need a folder to be kept in and none is known (neither XDG_STATE_HOME nor "
            "HOME is set); set mirror_folder: /var/lib/repo-reader/mirrors");
      return;
    }
  }
  path = PlainPath(path);
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    p.Add(place, "mirror_folder " + DisplayName(path) + " is not a folder");
    return;
  }
  if (const RepoConfig* r = RepoHolding(path, c->repos)) {
    p.Add(place,
          "mirror_folder " + DisplayName(path) + " lies inside repository `" + r->name +
              "`; the server never writes inside a repository: choose a folder outside every "
              "served one");
    return;
  }
  c->mirror_folder = path;
}

void ReadMirrors(const YAML::Node& root, Problems& p, Config* c) {
  const YAML::Node mirrors = root["mirrors"];
  if (!mirrors) {
    if (root["mirror_folder"]) SettleMirrorFolder(root, p, c);
    return;
  }
  if (!mirrors.IsSequence() || mirrors.size() == 0) {
    p.Add(mirrors,
          "`mirrors` must be a list with at least one mirror, e.g.\n  mirrors:\n    - name: shop\n"
          "      url: https://github.com/acme/shop.git");
    return;
  }
  SettleMirrorFolder(root, p, c);
  std::set<std::string> names;
  for (const auto& r : c->repos) names.insert(r.name);
  size_t index = 0;
  for (const auto& m : mirrors) {
    const std::string where = "mirrors[" + std::to_string(index++) + "]";
    if (!m.IsMap()) {
      p.Add(m, where + " must be a mapping with name and url");
      continue;
    }
    CheckKeys(m, std::begin(kMirrorKeys), std::end(kMirrorKeys), where, p);
    MirrorConfig mc;
    if (!m["name"]) {
      p.Add(m, where + ": `name` is missing; give the name agents will use, e.g. name: shop");
    } else if (GetString(m["name"], where + ".name", p, &mc.name)) {
      if (!IsValidRepoName(mc.name)) {
        p.Add(m["name"], where + ".name `" + DisplayName(mc.name) +
                             "` is not a valid name; use letters, digits, '.', '_' and '-' "
                             "(owner/name allowed), starting with a letter or digit");
      } else if (!names.insert(mc.name).second) {
        p.Add(m["name"], where + ".name `" + mc.name +
                             "` is used twice (by a repository or a mirror); names must differ");
      }
    }
    if (!m["url"]) {
      p.Add(m, where +
                   ": `url` is missing; give the repository's address, e.g. url: "
                   "https://github.com/acme/shop.git");
    } else if (GetString(m["url"], where + ".url", p, &mc.url)) {
      // The URL itself is never repeated in an error: it is what was refused.
      if (Status ok = CheckMirrorUrl(mc.url); !ok) p.Add(m["url"], where + ".url " + ok.error());
    }
    if (m["description"]) GetString(m["description"], where + ".description", p, &mc.description);
    if (m["refs"]) {
      GetPatterns(m["refs"], where + ".refs", p, &mc.refs);
      for (const auto& g : mc.refs) {
        if (g.empty() || g[0] == '-' || g.find_first_of(" :\t\\") != std::string::npos) {
          p.Add(m["refs"], where + ".refs `" + DisplayName(g) +
                               "` is not a branch or tag glob (main, release/*, v*)");
        }
      }
    }
    if (m["include"]) GetPatterns(m["include"], where + ".include", p, &mc.include);
    if (m["exclude"]) GetPatterns(m["exclude"], where + ".exclude", p, &mc.exclude);
    if (m["token_env"]) GetEnvName(m["token_env"], where + ".token_env", p, &mc.token_env);
    if (m["host_kind"] && GetString(m["host_kind"], where + ".host_kind", p, &mc.host_kind)) {
      if (mc.host_kind.empty() ||
          mc.host_kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
              std::string::npos) {
        p.Add(m["host_kind"], where +
                                  ".host_kind must be a host plugin's kind: github, gitlab, "
                                  "bitbucket");
      }
    } else if (!m["host_kind"]) {
      mc.host_kind = KindOfHost(UrlHost(mc.url));
    }
    if (m["sync_every"]) GetInterval(m["sync_every"], where + ".sync_every", p, &mc.sync_every);
    if (m["listed"]) GetBool(m["listed"], where + ".listed", p, &mc.listed);
    if (m["own"]) GetBool(m["own"], where + ".own", p, &mc.own);
    if (m["serve_credential_files"]) {
      GetBool(m["serve_credential_files"], where + ".serve_credential_files", p,
              &mc.serve_credential_files);
    }
    if (!c->mirror_folder.empty()) {
      mc.dir = c->mirror_folder + "/" + MirrorDigest(mc) + ".git";
      mc.state = std::make_shared<MirrorState>(mc.url, mc.group, mc.dir + ".status");
      mc.state->set_host_kind(mc.host_kind);
    }
    NeedHostPlugin(mc.host_kind, &c->plugins);
    c->mirrors.push_back(std::move(mc));
  }
}

}  // namespace cfg

Result<MirrorConfig> GroupMirror(const Config& config, const GroupConfig& group,
                                 const std::string& path, const std::string& description) {
  if (!IsValidRepoName(path)) {
    return Error{"`" + DisplayName(path) +
                 "` cannot be a repository's name here (letters, digits, "
                 "'.', '_', '-', each part starting with a letter or digit, at most 100)"};
  }
  MirrorConfig mc;
  mc.name = path;
  mc.url = group.host + "/" + path + ".git";
  if (Status ok = CheckMirrorUrl(mc.url); !ok) return Error{ok.error()};
  // The configuration's description, then the host's.
  mc.description = group.description;
  if (!description.empty()) mc.description += (mc.description.empty() ? "" : " — ") + description;
  mc.refs = group.refs;
  mc.include = group.include;
  mc.exclude = group.exclude;
  mc.token_env = group.token_env;
  mc.host_kind = group.host_kind;
  mc.sync_every = group.sync_every;
  mc.group = group.label;
  if (!config.mirror_folder.empty()) {
    mc.dir = config.mirror_folder + "/" + MirrorDigest(mc) + ".git";
    mc.state = std::make_shared<MirrorState>(mc.url, mc.group, mc.dir + ".status");
    mc.state->set_host_kind(mc.host_kind);
  }
  return mc;
}

std::string RepositoryUrlKey(const std::string& url) {
  std::string u = url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  if (u.size() > 4 && u.compare(u.size() - 4, 4, ".git") == 0) u.resize(u.size() - 4);
  // The host in any case; the path in any case too (GitHub, GitLab and Bitbucket treat owner
  // and repository names so).
  for (auto& ch : u) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return u;
}

bool SameRepositoryUrl(const std::string& a, const std::string& b) {
  return RepositoryUrlKey(a) == RepositoryUrlKey(b);
}

std::string DefaultMirrorFolder() {
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/repo-reader/mirrors";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.local/state/repo-reader/mirrors";
  return "";
}

Status CheckMirrorUrl(const std::string& url) {
  for (unsigned char ch : url) {
    if (ch <= ' ' || ch == 0x7f) {
      return Error{"holds a space or a control character; write the address as the host shows it"};
    }
  }
  const bool https = url.rfind("https://", 0) == 0;
  const bool http = url.rfind("http://", 0) == 0;
  if (!https && !http) {
    return Error{
        "must start with https:// (or http:// to this machine); other protocols "
        "(ssh, git, file, ext) are not mirrored"};
  }
  if (url.find('?') != std::string::npos || url.find('#') != std::string::npos) {
    return Error{"holds a query (?) or a fragment (#); give the repository's plain address"};
  }
  const size_t start = url.find("://") + 3;
  const size_t slash = url.find('/', start);
  const std::string authority =
      url.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
  if (authority.find('@') != std::string::npos) {
    return Error{
        "holds credentials (user@ or user:password@); remove them and name the token's "
        "environment variable with token_env"};
  }
  if (authority.empty() || slash == std::string::npos || slash + 1 >= url.size()) {
    return Error{"must name a host and a repository's path, e.g. https://github.com/acme/shop.git"};
  }
  size_t i = slash + 1;
  while (i <= url.size()) {
    size_t j = url.find('/', i);
    if (j == std::string::npos) j = url.size();
    const std::string part = url.substr(i, j - i);
    if (part == "." || part == ".." || (part.empty() && j != url.size())) {
      return Error{
          "has an empty, `.` or `..` part in its path; give the repository's plain "
          "address"};
    }
    i = j + 1;
  }
  if (http) {
    const std::string host = UrlHost(url);
    if (host != "127.0.0.1" && host != "localhost" && host != "[::1]") {
      return Error{
          "uses plain http to another machine, where what it carries (a token, the "
          "files) shows on the way; use https:// (plain http is for this machine only: "
          "127.0.0.1, localhost, [::1])"};
    }
  }
  return Status::Ok();
}

std::string UrlHost(const std::string& url) {
  const size_t sep = url.find("://");
  if (sep == std::string::npos) return "";
  const size_t start = sep + 3;
  std::string authority = url.substr(start, url.find('/', start) - start);
  if (const size_t at = authority.rfind('@'); at != std::string::npos) {
    authority = authority.substr(at + 1);
  }
  std::string host = authority;
  if (!host.empty() && host[0] == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else if (const size_t colon = host.find(':'); colon != std::string::npos) {
    host = host.substr(0, colon);
  }
  for (char& ch : host) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return host;
}

std::string MirrorDigest(const MirrorConfig& m) {
  Poco::SHA1Engine sha1;
  auto field = [&](const std::string& s) {
    sha1.update(std::to_string(s.size()) + ":");
    sha1.update(s);
  };
  auto list = [&](const std::vector<std::string>& v) {
    field(std::to_string(v.size()));
    for (const auto& s : v) field(s);
  };
  field(m.url);
  list(m.refs);
  list(m.include);
  list(m.exclude);
  field(m.serve_credential_files ? "credential files served" : "");
  field(m.token_env);
  return Poco::DigestEngine::digestToHex(sha1.digest());
}

}  // namespace rr
