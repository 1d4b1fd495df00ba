#include "core/config/config.h"

#include <Poco/SHA1Engine.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/answer/host_links.h"
#include "core/git/git_repo.h"
#include "core/util/text.h"
#include "core/util/yaml_load.h"

namespace rr {
namespace {

const char* const kRepoKeys[] = {"name",    "path",   "description", "include",
                                 "exclude", "listed", "own",         "serve_credential_files",
                                 "guidance"};
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void Add(const YAML::Mark& m, const std::string& what) { list_.push_back(Format(m, what)); }
  // A place in the list for a problem that a check made later may find, so that the list keeps
  // the order of the file; a place never filled holds no problem.
  size_t Reserve() {
    list_.emplace_back();
    return list_.size() - 1;
  }
  void Fill(size_t slot, const YAML::Mark& m, const std::string& what) {
    list_[slot] = Format(m, what);
  }
  void Add(const YAML::Node& n, const std::string& what) { Add(n.Mark(), what); }
  std::string Where(const YAML::Mark& m) const {
    return m.is_null()
               ? file_
               : file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  bool empty() const {
    return std::all_of(list_.begin(), list_.end(), [](const std::string& p) { return p.empty(); });
  }
  std::string Text() const {
    std::string t;
    for (const auto& p : list_) {
      if (!p.empty()) t += (t.empty() ? "" : "\n") + p;
    }
    return t;
  }

 private:
  std::string Format(const YAML::Mark& m, const std::string& what) const {
    std::ostringstream s;
    s << file_;
    if (!m.is_null()) s << ":" << m.line + 1 << ":" << m.column + 1;
    s << ": " << what;
    return s.str();
  }

  std::string file_;
  std::vector<std::string> list_;
};

std::string Join(const char* const* begin, const char* const* end) {
  std::string s;
  for (auto it = begin; it != end; ++it) s += (s.empty() ? "" : ", ") + std::string(*it);
  return s;
}

// Keys of a mapping, refusing duplicates.
bool CheckKeys(const YAML::Node& map, const char* const* begin, const char* const* end,
               const std::string& where, Problems& p) {
  bool ok = true;
  std::vector<const std::string*> seen;  // a mapping has a few keys: no set needed
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) {
      p.Add(kv.first, where + ": a key must be a plain word");
      ok = false;
      continue;
    }
    const std::string& key = kv.first.Scalar();
    if (std::any_of(seen.begin(), seen.end(), [&](const std::string* k) { return *k == key; })) {
      p.Add(kv.first, where + ": `" + key + "` is given twice; keep one");
      ok = false;
      continue;
    }
    seen.push_back(&key);
    bool known = false;
    for (auto it = begin; it != end; ++it) known = known || key == *it;
    if (!known) {
      p.Add(kv.first, where + ": unknown key `" + DisplayName(key) +
                          "`; expected one of: " + Join(begin, end));
      ok = false;
    }
  }
  return ok;
}

bool GetString(const YAML::Node& n, const std::string& what, Problems& p, std::string* out) {
  if (!n.IsScalar()) {
    p.Add(n, what + " must be text");
    return false;
  }
  *out = n.Scalar();
  return true;
}

bool GetBool(const YAML::Node& n, const std::string& what, Problems& p, bool* out) {
  if (n.IsScalar()) {
    const std::string s = n.Scalar();
    if (s == "true") return *out = true, true;
    if (s == "false") return *out = false, true;
  }
  p.Add(n, what + " must be true or false");
  return false;
}

void GetPatterns(const YAML::Node& n, const std::string& what, Problems& p,
                 std::vector<std::string>* out) {
  if (n.IsScalar()) {
    out->push_back(n.Scalar());
  } else if (n.IsSequence()) {
    for (const auto& item : n) {
      std::string s;
      if (GetString(item, what + " entry", p, &s)) out->push_back(s);
    }
  } else {
    p.Add(n, what + " must be a pattern or a list of patterns, e.g. [\"src/**\", \"*.md\"]");
    return;
  }
  for (const auto& s : *out) {
    auto g = Glob::Compile(s);
    if (!g) p.Add(n, what + ": " + g.error());
  }
}

// `raw` with ~ and `base_dir` applied: absolute, not resolved.
std::string Absolute(const std::string& raw, const std::string& base_dir) {
  std::string path = raw;
  if (path == "~" || path.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    if (home) path = std::string(home) + path.substr(1);
  }
  if (!path.empty() && path[0] != '/') path = base_dir + "/" + path;
  return path;
}

std::string ResolvePath(const std::string& raw, const std::string& base_dir) {
  const std::string path = Absolute(raw, base_dir);
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf)) return buf;
  return path;
}

// The repositories' paths, resolved and checked: a configuration may name 20,000, so each costs
// a few stat calls, and they are made on several threads at once (Check). The folder holding a
// repository is resolved once (realpath) for all the repositories in it, as the file is read
// (Prepare); the repository's own name is then resolved by lstat alone (realpath only when it
// is a link). A repository is recognised as libgit2 recognises one when opening it without
// searching upwards -- a .git folder or `gitdir:` file holding one, or the folder itself: HEAD
// a file, objects/ and refs/ folders (in the folder `commondir` names, if any) -- without
// opening it.
class RepoPaths {
 public:
  struct Pending {
    std::string path;         // absolute, as written
    std::string real_folder;  // its folder resolved; "" when that could not be
    std::string base;         // its last part; "" when the whole path is resolved by realpath
    // Filled by Check:
    std::string resolved;
    bool is_repository = false;
  };

  Pending Prepare(const std::string& raw, const std::string& base_dir) {
    Pending p;
    p.path = Absolute(raw, base_dir);
    const size_t slash = p.path.rfind('/');
    const std::string base = p.path.substr(slash + 1);
    if (slash == std::string::npos || slash == 0 || base.empty() || base == "." || base == "..") {
      return p;
    }
    const std::string folder = p.path.substr(0, slash);
    auto it = folders_.find(folder);
    if (it == folders_.end()) {
      char buf[PATH_MAX];
      it = folders_.emplace(folder, realpath(folder.c_str(), buf) ? buf : "").first;
    }
    p.real_folder = it->second;
    p.base = base;
    return p;
  }

  // Resolves and checks the paths on threads of their own while the file's entries are still
  // being read: Add each as it is prepared (at most `expected`), then Finish, after which `all`
  // holds them in the order added. Until then `all` keeps its size: each element is written by
  // one thread at a time.
  class Checker {
   public:
    Checker(std::vector<Pending>* all, size_t expected, size_t threads) : all_(all) {
      all_->assign(expected, Pending());
      if (expected < 1024) return;  // too few to be worth a thread
      for (size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { Work(); });
    }
    ~Checker() { Finish(); }
    void Add(Pending p) {
      (*all_)[added_++] = std::move(p);
      std::lock_guard<std::mutex> lock(mu_);
      published_ = added_;
      if (published_ % 256 == 0) cv_.notify_all();
    }
    // Checks what no thread has taken, on this one, and waits for the rest.
    void Finish() {
      if (finished_) return;
      finished_ = true;
      {
        std::lock_guard<std::mutex> lock(mu_);
        done_ = true;
        published_ = added_;
      }
      cv_.notify_all();
      Work();
      for (auto& t : threads_) t.join();
      threads_.clear();
      all_->resize(added_);
    }

   private:
    void Work() {
      while (true) {
        size_t i;
        {
          std::unique_lock<std::mutex> lock(mu_);
          cv_.wait(lock, [this] { return next_ < published_ || done_; });
          if (next_ >= published_) return;  // done, and nothing left
          i = next_++;
        }
        Pending& p = (*all_)[i];
        p.resolved = Resolve(p);
        p.is_repository = IsRepository(p.resolved);
      }
    }

    std::vector<Pending>* all_;
    size_t added_ = 0;  // by the thread that adds
    bool finished_ = false;
    std::mutex mu_;
    std::condition_variable cv_;
    size_t published_ = 0, next_ = 0;
    bool done_ = false;
    std::vector<std::thread> threads_;
  };

 private:
  static std::string Resolve(const Pending& p) {
    if (p.base.empty()) return Real(p.path);
    if (p.real_folder.empty()) return p.path;  // as realpath: a path that cannot be resolved stays
    std::string resolved = p.real_folder == "/" ? "/" + p.base : p.real_folder + "/" + p.base;
    struct stat st;
    if (lstat(resolved.c_str(), &st) != 0) return p.path;
    if (S_ISLNK(st.st_mode)) return Real(p.path);
    return resolved;
  }

  static bool IsRepository(const std::string& path) {
    // The folder itself first: a bare repository (the usual kind on a server) takes three stat
    // calls. Which of the two libgit2 would find does not matter here, only whether one is.
    if (IsGitDir(path)) return true;
    const std::string dot_git = path + "/.git";
    struct stat st;
    if (stat(dot_git.c_str(), &st) != 0) return false;
    if (S_ISDIR(st.st_mode)) return IsGitDir(dot_git);
    if (!S_ISREG(st.st_mode)) return false;
    const std::string linked = GitFileTarget(dot_git, path);
    return !linked.empty() && IsGitDir(linked);
  }

  static std::string Real(const std::string& path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? buf : path;
  }
  static bool Is(const std::string& path, bool folder) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && (folder ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
  }
  static std::string FirstLine(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
  }
  // What a `.git` file names ("gitdir: PATH", relative to the folder holding it), or "".
  static std::string GitFileTarget(const std::string& file, const std::string& folder) {
    std::string line = FirstLine(file);
    if (line.rfind("gitdir:", 0) != 0) return "";
    line.erase(0, line.find_first_not_of(' ', 7));
    if (line.empty()) return "";
    return line[0] == '/' ? line : folder + "/" + line;
  }
  // HEAD a file; objects/ and refs/ folders, its own or (a linked worktree's) in the folder its
  // `commondir` file names.
  static bool IsGitDir(const std::string& dir) {
    if (!Is(dir + "/HEAD", false)) return false;
    if (Is(dir + "/objects", true) && Is(dir + "/refs", true)) return true;
    if (!Is(dir + "/commondir", false)) return false;
    const std::string link = FirstLine(dir + "/commondir");
    const std::string common = !link.empty() && link[0] == '/' ? link : dir + "/" + link;
    return Is(common + "/objects", true) && Is(common + "/refs", true);
  }

  std::unordered_map<std::string, std::string> folders_;  // as written -> realpath, or ""
};

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

// plugins:, secrets: and plugin_folder:.
void ParsePlugins(const YAML::Node& root, const std::string& base_dir, Problems& p,
                  PluginsConfig* out) {
  if (const YAML::Node folder = root["plugin_folder"]) {
    std::string raw;
    if (GetString(folder, "plugin_folder", p, &raw)) {
      out->folder = ResolvePath(raw, base_dir);
      struct stat st;
      if (stat(out->folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        p.Add(folder, "plugin_folder `" + DisplayName(raw) + "` is not a folder (resolved to " +
                          DisplayName(out->folder) + ")");
      }
    }
  }
  if (const YAML::Node secrets = root["secrets"]) {
    if (!secrets.IsMap()) {
      p.Add(secrets, "`secrets` must be a mapping, e.g. secrets: {builtin_detectors: true}");
    } else {
      static const char* const kSecretKeys[] = {"builtin_detectors"};
      CheckKeys(secrets, std::begin(kSecretKeys), std::end(kSecretKeys), "secrets", p);
      if (secrets["builtin_detectors"]) {
        GetBool(secrets["builtin_detectors"], "secrets.builtin_detectors", p,
                &out->builtin_detectors);
      }
    }
  }
  const YAML::Node plugins = root["plugins"];
  if (!plugins) return;
  if (!plugins.IsSequence()) {
    p.Add(plugins,
          "`plugins` must be a list, e.g.\n  plugins:\n    - name: acme-tokens\n    - path: "
          "/opt/acme/acme-tokens.so");
    return;
  }
  static const char* const kPluginKeys[] = {"name", "path", "settings"};
  size_t index = 0;
  for (const auto& entry : plugins) {
    const std::string where = "plugins[" + std::to_string(index++) + "]";
    if (!entry.IsMap()) {
      p.Add(entry, where + " must be a mapping with name (a plugin in the plugin folder) or path");
      continue;
    }
    CheckKeys(entry, std::begin(kPluginKeys), std::end(kPluginKeys), where, p);
    PluginSpec spec;
    const YAML::Mark m = entry.Mark();
    spec.where = p.Where(m);
    const bool has_name = static_cast<bool>(entry["name"]);
    const bool has_path = static_cast<bool>(entry["path"]);
    if (has_name == has_path) {
      p.Add(entry, where +
                       ": give exactly one of `name` (a plugin in the plugin folder, e.g. "
                       "name: acme-tokens) and `path` (its file, e.g. path: "
                       "/opt/acme/acme-tokens.so)");
      continue;
    }
    if (has_name && GetString(entry["name"], where + ".name", p, &spec.name)) {
      if (!IsValidRepoName(spec.name) || spec.name.find('/') != std::string::npos) {
        p.Add(entry["name"], where + ".name `" + DisplayName(spec.name) +
                                 "` is not a plugin's name; use letters, digits, '.', '_' and "
                                 "'-', or give its file with path:");
        continue;
      }
    }
    if (has_path) {
      std::string raw;
      if (!GetString(entry["path"], where + ".path", p, &raw)) continue;
      spec.path = ResolvePath(raw, base_dir);
    }
    if (const YAML::Node settings = entry["settings"]) {
      if (!settings.IsMap()) {
        p.Add(settings, where + ".settings must be a mapping of names to values");
      } else {
        for (const auto& kv : settings) {
          if (!kv.first.IsScalar() || !kv.second.IsScalar()) {
            p.Add(kv.first, where + ".settings: each setting is a name and a plain value");
            continue;
          }
          spec.settings[kv.first.Scalar()] = kv.second.Scalar();
        }
      }
    }
    out->plugins.push_back(std::move(spec));
  }
}

// An absolute path made plain: `.` and `..` resolved, links in the part that exists followed.
std::string PlainPath(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(path).lexically_normal();
  fs::path rest;
  while (!p.empty() && p != p.root_path()) {
    char buf[PATH_MAX];
    if (realpath(p.c_str(), buf)) {
      p = fs::path(buf);
      break;
    }
    rest = p.filename() / rest;
    p = p.parent_path();
  }
  std::string out = (p / rest).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The served repository whose folder holds `folder`, or null.
const RepoConfig* RepoHolding(const std::string& folder, const std::vector<RepoConfig>& repos) {
  for (const auto& r : repos) {
    if (r.path.empty()) continue;
    if (folder == r.path || folder.rfind(r.path + "/", 0) == 0) return &r;
  }
  return nullptr;
}

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

void ParseCache(const YAML::Node& root, Problems& p, Config* c) {
  if (const YAML::Node h = root["history_index"]) {
    GetBool(h, "history_index", p, &c->history_index);
  }
  const YAML::Node folder = root["cache_folder"];
  SettleCacheFolder(folder ? &folder : nullptr, &p, c);
}

// A whole number from `least` to `most` for http.<name>.
void GetCount(const YAML::Node& n, const std::string& what, size_t least, size_t most, Problems& p,
              size_t* out) {
  long long v = -1;
  bool ok = n.IsScalar();
  if (ok) {
    try {
      size_t used = 0;
      v = std::stoll(n.Scalar(), &used);
      ok = used == n.Scalar().size();
    } catch (...) {
      ok = false;
    }
  }
  if (!ok || v < static_cast<long long>(least) || v > static_cast<long long>(most)) {
    p.Add(n,
          what + " must be a whole number from " + WithCommas(least) + " to " + WithCommas(most));
    return;
  }
  *out = static_cast<size_t>(v);
}

// An environment variable's name, as token_env takes it: [A-Z_][A-Z0-9_]*, at most 100
// characters. A token pasted where its name belongs is refused so, whatever its format.
bool IsEnvName(const std::string& s) {
  if (s.empty() || s.size() > 100 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// A `token_env` value: the NAME of the environment variable holding a token. Anything else
// (most often the token itself) is refused with a problem that never repeats it, and *out is
// left empty so that nothing shows it later.
void GetEnvName(const YAML::Node& n, const std::string& what, Problems& p, std::string* out) {
  if (!n.IsScalar()) {
    p.Add(n, what + " must be the NAME of an environment variable holding the token, as text");
    out->clear();
    return;
  }
  if (IsEnvName(n.Scalar())) {
    *out = n.Scalar();
    return;
  }
  out->clear();
  p.Add(n, what +
               " must be the NAME of an environment variable holding the token (capital "
               "letters, digits and _, not starting with a digit: token_env: GITHUB_TOKEN), "
               "never the token itself; the value given is not repeated here");
}

// sync_every: a number and a unit (s, m, h, d), at least a minute.
bool GetInterval(const YAML::Node& n, const std::string& what, Problems& p, int64_t* out) {
  std::string text;
  if (!GetString(n, what, p, &text)) return false;
  int64_t unit = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
    }
  }
  const std::string digits = unit ? text.substr(0, text.size() - 1) : std::string();
  bool ok = unit && !digits.empty() && digits.size() <= 6 &&
            digits.find_first_not_of("0123456789") == std::string::npos;
  if (ok) *out = std::stoll(digits) * unit;
  if (!ok || *out < 60) {
    p.Add(n, what + " `" + DisplayName(text) +
                 "` must be a time of at least a minute: a number and s, m, h or d (15m, 1h)");
    return false;
  }
  return true;
}

void ParseHttp(const YAML::Node& root, Problems& p, HttpConfig* h) {
  const YAML::Node http = root["http"];
  if (!http) return;
  if (!http.IsMap()) {
    p.Add(http, "`http` must be a mapping, e.g. http: {listen: \"127.0.0.1:8080\"}");
    return;
  }
  static const char* const kHttpKeys[] = {"listen",          "token_env",
                                          "tokens",          "behind_gateway",
                                          "allowed_origins", "max_body_bytes",
                                          "idle_seconds",    "call_seconds",
                                          "max_calls",       "max_connections",
                                          "drain_seconds",   "metrics",
                                          "request_seconds", "max_connections_per_address"};
  CheckKeys(http, std::begin(kHttpKeys), std::end(kHttpKeys), "http", p);
  if (http["listen"] && GetString(http["listen"], "http.listen", p, &h->listen)) {
    const std::string& l = h->listen;
    const size_t colon = l.rfind(':');
    const std::string port = colon == std::string::npos ? l : l.substr(colon + 1);
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits || std::stoul(port) > 65535) {
      p.Add(http["listen"], "http.listen must be [ADDRESS:]PORT, e.g. \"127.0.0.1:8080\" or 8080");
    }
  }
  if (http["token_env"]) GetEnvName(http["token_env"], "http.token_env", p, &h->token_env);
  if (const YAML::Node tokens = http["tokens"]) {
    if (!tokens.IsSequence()) {
      p.Add(tokens,
            "http.tokens must be a list, e.g.\n  tokens:\n    - token_env: TEAM_A_TOKEN\n      "
            "repos: [shop, \"web/*\"]");
    } else {
      size_t index = 0;
      for (const auto& t : tokens) {
        const std::string where = "http.tokens[" + std::to_string(index++) + "]";
        if (!t.IsMap()) {
          p.Add(t, where + " must be a mapping with token_env and repos");
          continue;
        }
        static const char* const kTokenKeys[] = {"token_env", "repos"};
        CheckKeys(t, std::begin(kTokenKeys), std::end(kTokenKeys), where, p);
        HttpTokenConfig tc;
        if (!t["token_env"]) {
          p.Add(t, where + ": `token_env` is missing; name the variable holding the token");
        } else {
          GetEnvName(t["token_env"], where + ".token_env", p, &tc.token_env);
        }
        if (!t["repos"]) {
          p.Add(t, where +
                       ": `repos` is missing; list the repositories (names or globs) the "
                       "token may read, e.g. repos: [shop, \"web/*\"]");
        } else {
          GetPatterns(t["repos"], where + ".repos", p, &tc.repos);
        }
        h->tokens.push_back(std::move(tc));
      }
    }
  }
  if (http["behind_gateway"]) {
    GetBool(http["behind_gateway"], "http.behind_gateway", p, &h->behind_gateway);
  }
  if (const YAML::Node origins = http["allowed_origins"]) {
    if (!origins.IsSequence()) {
      p.Add(origins, "http.allowed_origins must be a list, e.g. [\"https://tools.example.com\"]");
    } else {
      for (const auto& o : origins) {
        std::string s;
        if (GetString(o, "http.allowed_origins entry", p, &s)) h->allowed_origins.push_back(s);
      }
    }
  }
  if (http["max_body_bytes"]) {
    GetCount(http["max_body_bytes"], "http.max_body_bytes", 1024, 64 << 20, p, &h->max_body_bytes);
  }
  if (http["idle_seconds"]) {
    GetCount(http["idle_seconds"], "http.idle_seconds", 1, 3600, p, &h->idle_seconds);
  }
  if (http["call_seconds"]) {
    GetCount(http["call_seconds"], "http.call_seconds", 1, 3600, p, &h->call_seconds);
  }
  if (http["max_calls"]) GetCount(http["max_calls"], "http.max_calls", 1, 4096, p, &h->max_calls);
  if (http["max_connections"]) {
    GetCount(http["max_connections"], "http.max_connections", 1, 65536, p, &h->max_connections);
  }
  if (http["max_connections_per_address"]) {
    GetCount(http["max_connections_per_address"], "http.max_connections_per_address", 1, 65536, p,
             &h->max_connections_per_address);
  }
  if (http["request_seconds"]) {
    GetCount(http["request_seconds"], "http.request_seconds", 1, 3600, p, &h->request_seconds);
  }
  if (http["drain_seconds"]) {
    GetCount(http["drain_seconds"], "http.drain_seconds", 0, 3600, p, &h->drain_seconds);
  }
  if (const YAML::Node metrics = http["metrics"]) {
    if (metrics.IsMap()) {
      static const char* const kMetricsKeys[] = {"token_env"};
      CheckKeys(metrics, std::begin(kMetricsKeys), std::end(kMetricsKeys), "http.metrics", p);
      if (!metrics["token_env"]) {
        p.Add(metrics,
              "http.metrics: `token_env` is missing; name the variable holding the token that "
              "reads /metrics, e.g. metrics: {token_env: RR_METRICS_TOKEN}");
      } else {
        GetEnvName(metrics["token_env"], "http.metrics.token_env", p, &h->metrics_token_env);
      }
      h->metrics = true;
    } else if (metrics.IsScalar() && (metrics.Scalar() == "true" || metrics.Scalar() == "false")) {
      h->metrics = metrics.Scalar() == "true";
    } else {
      p.Add(metrics,
            "http.metrics must be true, false, or /metrics' own token: metrics: {token_env: "
            "RR_METRICS_TOKEN}");
    }
    const bool agents_need_token = !h->token_env.empty() || !h->tokens.empty();
    if (h->metrics && metrics.IsScalar() && agents_need_token) {
      p.Add(metrics,
            "http.metrics: true would let every caller's token read /metrics (every token's "
            "calls, every repository counted); give /metrics a token of its own: metrics: "
            "{token_env: RR_METRICS_TOKEN}");
    }
    if (!h->metrics_token_env.empty()) {
      bool shared = h->metrics_token_env == h->token_env;
      for (const auto& t : h->tokens) shared = shared || t.token_env == h->metrics_token_env;
      if (shared) {
        p.Add(metrics["token_env"],
              "http.metrics.token_env names a variable a caller's token is read from too; "
              "/metrics needs a token of its own, in a variable of its own");
      }
    }
  }
}

std::string KindOfHost(const std::string& host) {
  if (host == "github.com") return "github";
  if (host == "gitlab.com") return "gitlab";
  if (host == "bitbucket.org") return "bitbucket";
  return "";
}

// A built-in host plugin is loaded when a mirror or a group names its host (links, listings).
void NeedHostPlugin(const std::string& kind, Config* c) {
  if (kind != "github" && kind != "gitlab" && kind != "bitbucket") return;
  auto& kinds = c->plugins.builtin_hosts;
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
}

// mirror_folder:, or its default; never inside a served repository.
void SettleMirrorFolder(const YAML::Node& root, Problems& p, Config* c) {
  const YAML::Node given = root["mirror_folder"];
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
      p.Add(root["mirrors"],
            "mirrors need a folder to be kept in and none is known (neither XDG_STATE_HOME nor "
            "HOME is set); set mirror_folder: /var/lib/repo-reader/mirrors");
      return;
    }
  }
  path = PlainPath(path);
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    p.Add(given ? given : root["mirrors"],
          "mirror_folder " + DisplayName(path) + " is not a folder");
    return;
  }
  if (const RepoConfig* r = RepoHolding(path, c->repos)) {
    p.Add(given ? given : root["mirrors"],
          "mirror_folder " + DisplayName(path) + " lies inside repository `" + r->name +
              "`; the server never writes inside a repository: choose a folder outside every "
              "served one");
    return;
  }
  c->mirror_folder = path;
}

const char* const kMirrorKeys[] = {
    "name",      "url",       "description", "refs",   "include", "exclude",
    "token_env", "host_kind", "sync_every",  "listed", "own",     "serve_credential_files"};

// mirrors: and mirror_folder:, read after the repositories (names are shared with them).
void ParseMirrors(const YAML::Node& root, Problems& p, Config* c) {
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
    NeedHostPlugin(mc.host_kind, c);
    c->mirrors.push_back(std::move(mc));
  }
}

// A repository entry's `guidance: {repo: acme-rules, folder: shop}`.
void ParseRepoGuidance(const YAML::Node& g, const std::string& where, Problems& p, RepoConfig* rc) {
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

// The top-level `guidance: {repo: acme-rules}`, read after the repositories: it names one of
// them, and is the default of every other entry. A repository named as a guidance repository
// takes none itself.
void ParseGuidance(const YAML::Node& root, Problems& p, Config* c) {
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

const char* const kGroupKeys[] = {
    "host", "owner",   "kind",    "host_kind", "api",        "names",      "archived",   "forks",
    "refs", "include", "exclude", "token_env", "sync_every", "list_every", "description"};

// A group's keys for listing it again while the server runs: list_every (a time of at least a
// minute, as sync_every) and description (said before the host's own of each repository).
void ParseGroupRelisting(const YAML::Node& g, const std::string& where, Problems& p,
                         GroupConfig* gc) {
  if (g["list_every"]) GetInterval(g["list_every"], where + ".list_every", p, &gc->list_every);
  if (g["description"]) GetString(g["description"], where + ".description", p, &gc->description);
}

// groups:, read after mirrors: (a group's mirrors are made once it is listed: core/hosts).
void ParseGroups(const YAML::Node& root, const std::string& file, Problems& p, Config* c) {
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
    ParseGroupRelisting(g, where, p, &gc);
    gc.label = host + "/" + gc.owner;
    NeedHostPlugin(gc.host_kind, c);
    c->groups.push_back(std::move(gc));
  }
}

}  // namespace

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

void LinkRepositories(const Config& config, const HostLinks& links) {
  for (const auto& m : config.mirrors) {
    if (m.state) m.state->set_repo_link(links.RepoLine(m.host_kind, m.url));
  }
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

Result<Config> ParseConfig(const std::string& text, const std::string& file,
                           const std::string& base_dir) {
  Problems p(file);
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
          c.answer_characters = static_cast<size_t>(v);
        }
      }
    }
  }

  ParsePlugins(root, base_dir, p, &c.plugins);

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
            {c.repos.size(), p.Reserve(), r["path"].Mark(), where, std::move(raw_path)});
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
      if (r["guidance"]) ParseRepoGuidance(r["guidance"], where, p, &rc);
      c.repos.push_back(std::move(rc));
    }
    checker.Finish();
    for (size_t i = 0; i < pending.size(); ++i) {
      const PathProblem& pp = path_problems[i];
      c.repos[pp.repo].path = std::move(pending[i].resolved);
      if (!pending[i].is_repository) {
        p.Fill(pp.slot, pp.mark,
               pp.where + ".path `" + DisplayName(pp.raw) +
                   "` is not a git repository (resolved to " + DisplayName(c.repos[pp.repo].path) +
                   "); give a repository's folder, bare or with a work tree");
      }
    }
  }
  ParseCache(root, p, &c);
  ParseHttp(root, p, &c.http);
  ParseMirrors(root, p, &c);
  ParseGuidance(root, p, &c);
  ParseGroups(root, file, p, &c);
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
  Problems none(c.source);
  SettleCacheFolder(nullptr, &none, &c);
  return c;
}

}  // namespace rr
