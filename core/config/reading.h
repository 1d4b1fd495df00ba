// What every section reader of the configuration shares (core/config/sections.h): the list of
// problems, each with its file, line and column, and the checks of a value's type that word
// their problems alike in every section. Not for use outside core/config and its tests.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config.h"

namespace rr::cfg {

// The problems found so far, in the order of the file.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void Add(const YAML::Mark& m, const std::string& what) { list_.push_back(Format(m, what)); }
  void Add(const YAML::Node& n, const std::string& what) { Add(n.Mark(), what); }
  // A place in the list for a problem that a check made later may find, so that the list keeps
  // the order of the file; a place never filled holds no problem.
  size_t Reserve() {
    list_.emplace_back();
    return list_.size() - 1;
  }
  void Fill(size_t slot, const YAML::Mark& m, const std::string& what) {
    list_[slot] = Format(m, what);
  }
  // "file:line:column", or the file alone for a place unknown.
  std::string Where(const YAML::Mark& m) const;
  bool empty() const;
  // Every problem, one a line.
  std::string Text() const;

 private:
  std::string Format(const YAML::Mark& m, const std::string& what) const;

  std::string file_;
  std::vector<std::string> list_;
};

// The keys of a mapping: each known (one of [begin, end)), a plain word, and given once.
bool CheckKeys(const YAML::Node& map, const char* const* begin, const char* const* end,
               const std::string& where, Problems& p);

// A value of a type, or a problem naming `what` and the type it must be (*out untouched).
bool GetString(const YAML::Node& n, const std::string& what, Problems& p, std::string* out);
bool GetBool(const YAML::Node& n, const std::string& what, Problems& p, bool* out);
// A glob or a list of globs, each compiled (core/policy/glob.h) so a bad one is refused here.
void GetPatterns(const YAML::Node& n, const std::string& what, Problems& p,
                 std::vector<std::string>* out);
// A whole number from `least` to `most`.
void GetCount(const YAML::Node& n, const std::string& what, size_t least, size_t most, Problems& p,
              size_t* out);
// A `token_env` value: the NAME of the environment variable holding a token. Anything else
// (most often the token itself) is refused with a problem that never repeats it, and *out is
// left empty so that nothing shows it later.
void GetEnvName(const YAML::Node& n, const std::string& what, Problems& p, std::string* out);
// A time of at least a minute: a number and a unit (s, m, h, d), in seconds.
bool GetInterval(const YAML::Node& n, const std::string& what, Problems& p, int64_t* out);

// `raw` (~ for the home folder, relative to `base_dir`) resolved by realpath when it exists.
std::string ResolvePath(const std::string& raw, const std::string& base_dir);
// An absolute path made plain: `.` and `..` resolved, links in the part that exists followed.
std::string PlainPath(const std::string& path);
// The configured repository whose folder holds `folder`, or null.
const RepoConfig* RepoHolding(const std::string& folder, const std::vector<RepoConfig>& repos);

// The kind of a well-known host ("github" for github.com), "" for any other.
std::string KindOfHost(const std::string& host);
// A built-in host plugin is loaded when a mirror or a group names its host (links, listings).
void NeedHostPlugin(const std::string& kind, PluginsConfig* plugins);

}  // namespace rr::cfg
