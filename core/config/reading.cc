#include "core/config/reading.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "core/config/path_probe.h"
#include "core/policy/glob.h"
#include "core/util/text.h"

namespace rr::cfg {
namespace {

std::string Join(const char* const* begin, const char* const* end) {
  std::string s;
  for (auto it = begin; it != end; ++it) s += (s.empty() ? "" : ", ") + std::string(*it);
  return s;
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

}  // namespace

std::string Problems::Where(const YAML::Mark& m) const {
  return m.is_null()
             ? file_
             : file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

bool Problems::empty() const {
  return std::all_of(list_.begin(), list_.end(), [](const std::string& p) { return p.empty(); });
}

std::string Problems::Text() const {
  std::string t;
  for (const auto& p : list_) {
    if (!p.empty()) t += (t.empty() ? "" : "\n") + p;
  }
  return t;
}

std::string Problems::Format(const YAML::Mark& m, const std::string& what) const {
  std::ostringstream s;
  s << file_;
  if (!m.is_null()) s << ":" << m.line + 1 << ":" << m.column + 1;
  s << ": " << what;
  return s.str();
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

std::string ResolvePath(const std::string& raw, const std::string& base_dir) {
  const std::string path = AbsolutePath(raw, base_dir);
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf)) return buf;
  return path;
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

std::string KindOfHost(const std::string& host) {
  if (host == "github.com") return "github";
  if (host == "gitlab.com") return "gitlab";
  if (host == "bitbucket.org") return "bitbucket";
  return "";
}

void NeedHostPlugin(const std::string& kind, PluginsConfig* plugins) {
  if (kind != "github" && kind != "gitlab" && kind != "bitbucket") return;
  auto& kinds = plugins->builtin_hosts;
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
}

}  // namespace rr::cfg
