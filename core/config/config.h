// Configuration: what is served and the limits, as plain values. Loaded from YAML (--config
// FILE) or, without a file, the git repository of the current folder. Every problem is reported
// with the file, line and column and what to write instead; a configuration with any problem
// serves nothing.
//
// Each section has a reader of its own (core/config/sections.h: repos.cc, mirrors.cc,
// groups.cc, http.cc, plugins.cc, guidance.cc; config.cc reads the top level, limits and the
// cache folder); the repositories' paths are checked by the prober of core/config/path_probe.h.
// What is served is built from these values in the app (core/app/wiring.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/plugins/plugins_config.h"
#include "core/util/result.h"

namespace rr {

class MirrorState;  // core/served/mirror_state.h

struct RepoConfig {
  std::string name;
  std::string path;  // as resolved: absolute
  std::string description;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool listed = true;
  bool own = true;
  bool serve_credential_files = false;
  // The operator's guidance for this repository (docs/configuration.md, `guidance`): the name of
  // the served repository holding it ("" for none) and the folder there ("" for this
  // repository's name). Filled from the top-level `guidance` unless the entry names its own.
  std::string guidance_repo;
  std::string guidance_folder;
};

// One bearer token of http.tokens: the environment variable holding it, and the repositories
// its bearer may read (names or globs over names; empty: every repository).
struct HttpTokenConfig {
  std::string token_env;
  std::vector<std::string> repos;
};

// The `http:` section (docs/configuration.md, "Serving over HTTP"). Used with --http or
// http.listen; tokens are read from the environment when the server starts.
struct HttpConfig {
  std::string listen;     // [ADDR:]PORT; "" when not given (then only --http serves HTTP)
  std::string token_env;  // one token for every repository
  std::vector<HttpTokenConfig> tokens;
  bool behind_gateway = false;  // a gateway in front checks who may call
  std::vector<std::string> allowed_origins;
  size_t max_body_bytes = 1048576;
  size_t idle_seconds = 60;     // a kept-alive connection waits this long for its next request
  size_t request_seconds = 10;  // a request's head and body arrive within this, from its first byte
  size_t call_seconds = 30;
  size_t max_calls = 32;
  size_t max_connections = 1024;
  size_t max_connections_per_address = 256;
  size_t drain_seconds = 20;
  // /metrics: served when true. metrics_token_env names the environment variable holding its
  // own token (`metrics: {token_env: NAME}`), which no caller's token replaces; "" for none, which
  // is allowed only where callers need no token (loopback, or behind a gateway).
  bool metrics = false;
  std::string metrics_token_env;
};

// One entry of `mirrors:`: a repository on a host that the server keeps a mirror of.
struct MirrorConfig {
  std::string name;
  std::string url;  // checked: https (or http to this machine), no credentials, query, fragment
  std::string description;
  std::vector<std::string> refs;  // branch and tag globs; empty: the default branch and all tags
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  std::string token_env;         // the name of the token's environment variable; "" without a token
  std::string host_kind;         // github, gitlab, bitbucket, or what host_kind: says; "" for none
  int64_t sync_every = 15 * 60;  // seconds
  bool listed = true;
  bool own = true;
  bool serve_credential_files = false;
  std::string group;  // the group that listed it; "" when configured one by one
  // Where the mirror is kept: <mirror_folder>/<MirrorDigest>.git. Set once mirror_folder is.
  std::string dir;
  // Shared by the sync, which writes it, and the catalog's repository, which shows it.
  std::shared_ptr<MirrorState> state;
};

// One entry of `groups:`: every repository an owner holds on a host, each served as a mirror
// (docs/mirrors.md, "Groups"). The listing itself is core/hosts.
struct GroupConfig {
  std::string host;                // the web address: https://github.com (no path)
  std::string owner;               // acme; a GitLab group's path: platform/backend
  bool user = false;               // kind: user (else an organisation, group or workspace)
  std::string host_kind;           // github, gitlab, bitbucket: guessed from the host or given
  std::string api;                 // the API's base: given (api:) or the host kind's default
  std::vector<std::string> names;  // globs over the path below the owner; empty: all
  bool archived = false;
  bool forks = false;
  // What each of its mirrors takes, as in mirrors:.
  std::vector<std::string> refs, include, exclude;
  std::string token_env;
  int64_t sync_every = 15 * 60;
  // Listed again while the server runs (ParseGroupRelisting): every list_every seconds, 0 for
  // every sync_every. description: said of each of its repositories before the host's own.
  int64_t list_every = 0;
  std::string description;
  std::string where;  // "file:line:column" of the entry, for messages
  std::string label;  // how list_repos and the log name it: "github.com/acme"
};

struct Config {
  std::string source;  // the file read, or a sentence saying where the default came from
  std::vector<RepoConfig> repos;
  size_t answer_characters = 40000;
  PluginsConfig plugins;  // plugins:, secrets:, plugin_folder:
  // The server's own folder for what it keeps (the history index): absolute, never inside a
  // served repository. Empty: none, and no history index is kept. A configuration read from a
  // file or made by DefaultConfig has DefaultCacheFolder() unless it names one.
  std::string cache_folder;
  bool history_index = true;  // history_index: keep an index of repositories without a graph
  // When the history index is off although history_index is true: why (for --check and the log).
  std::string history_index_off;
  HttpConfig http;                    // http:
  std::vector<MirrorConfig> mirrors;  // mirrors: (and, once listed, each group's repositories)
  std::vector<GroupConfig> groups;    // groups:
  // The server's own folder for mirrors (mirror_folder:, absolute): set when there are mirrors.
  std::string mirror_folder;
  // guidance: {repo: …}: the repository holding the operator's guidance for the others ("" for
  // none); ParseConfig copies it into each RepoConfig that names none of its own.
  std::string guidance_repo;
};

// $XDG_STATE_HOME/repo-reader/mirrors, else $HOME/.local/state/repo-reader/mirrors, else "".
std::string DefaultMirrorFolder();

// Whether `url` may be mirrored: https://host/path, or http:// to this machine only (127.0.0.1,
// localhost, [::1]); no credentials, query or fragment; no `.` or `..` path part; no space or
// control character. The error says what is wrong and what to write.
Status CheckMirrorUrl(const std::string& url);

// The host of a checked URL, lowercase, without port: "github.com".
std::string UrlHost(const std::string& url);

// The name a mirror's folder gets: a digest of its URL, refs, include, exclude, the credential
// file rule and the token's variable name. Another configuration gets another folder.
std::string MirrorDigest(const MirrorConfig& mirror);

// The mirror for one repository a group listed (`path` on the group's host): named by its
// path, at the configured host's address, taking the group's refs, include, exclude and token.
// The error says why it cannot be served (a name no repository may have).
Result<MirrorConfig> GroupMirror(const Config& config, const GroupConfig& group,
                                 const std::string& path, const std::string& description);

// Whether two mirror URLs name one repository, however spelt (case of the host, `.git`, a
// trailing slash).
bool SameRepositoryUrl(const std::string& a, const std::string& b);
// The key SameRepositoryUrl compares: equal keys, one repository.
std::string RepositoryUrlKey(const std::string& url);

// $XDG_CACHE_HOME/repo-reader, else $HOME/.cache/repo-reader (when absolute), else "".
std::string DefaultCacheFolder();

// The folder the history index of a repository at `path` (resolved) is kept in, below the cache
// folder: named by a digest of the path. "" when the configuration keeps no index.
std::string HistoryIndexFolder(const Config& config, const std::string& path);

// Where the history index is kept ("kept in /var/cache/repo-reader/history"), or that it is off
// and why ("off (history_index: false)").
std::string DescribeHistoryIndex(const Config& config);

inline constexpr size_t kMinAnswerCharacters = 5000;
inline constexpr size_t kMaxAnswerCharacters = 1000000;

// Reads and checks a YAML configuration file. The error lists every problem, one a line,
// each as FILE:LINE:COLUMN: what is wrong; what to write instead.
Result<Config> LoadConfigFile(const std::string& file);
// Parses YAML text as if read from `file` (relative paths resolve against `base_dir`).
Result<Config> ParseConfig(const std::string& text, const std::string& file,
                           const std::string& base_dir);

// The git repository holding `folder` (it or a folder above it), served whole.
Result<Config> DefaultConfig(const std::string& folder);

// Whether a repository name is acceptable: letters, digits, '.', '_', '-', optionally in
// segments separated by '/', each beginning with a letter or digit; at most 100 characters.
bool IsValidRepoName(const std::string& name);

}  // namespace rr
