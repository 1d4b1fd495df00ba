// One reader a section of the configuration file, each turning its part of the top-level mapping
// into its plain values (core/config/config.h) and adding what is wrong to the problems, in the
// order of the file, worded as docs/configuration.md documents. ParseConfig (config.cc) calls
// them in this order; a later section reads what an earlier one settled (names of repositories,
// the mirror folder), so each says what it needs. A reader never reads outside its keys, and
// never writes anything but the values it is given; a configuration with any problem serves
// nothing.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/config/reading.h"

namespace rr::cfg {

// plugins:, secrets: and plugin_folder: (plugins.cc). Relative paths against `base_dir`.
void ReadPlugins(const YAML::Node& root, const std::string& base_dir, Problems& p,
                 PluginsConfig* out);

// repos: (repos.cc): each entry's name, path (checked by the prober, core/config/path_probe.h),
// patterns, flags and own guidance. When `repos:` is missing, mirrors: or groups: alone make a
// configuration too.
void ReadRepos(const YAML::Node& root, const std::string& base_dir, Problems& p,
               std::vector<RepoConfig>* out);

// http: (http.cc).
void ReadHttp(const YAML::Node& root, Problems& p, HttpConfig* out);

// mirrors: and mirror_folder: (mirrors.cc), after the repositories: names are shared with them
// and the mirror folder lies in none of them.
void ReadMirrors(const YAML::Node& root, Problems& p, Config* c);
// mirror_folder:, or its default; never inside a served repository (mirrors.cc). Groups need it
// too.
void SettleMirrorFolder(const YAML::Node& root, Problems& p, Config* c);

// A repository entry's `guidance: {repo: acme-rules, folder: shop}` (guidance.cc); `where` is
// the entry's place, repos[N].
void ReadRepoGuidance(const YAML::Node& g, const std::string& where, Problems& p, RepoConfig* rc);
// The top-level `guidance: {repo: acme-rules}` (guidance.cc), after the repositories: it names
// one of them and is the default of every other entry.
void ReadGuidance(const YAML::Node& root, Problems& p, Config* c);

// groups: (groups.cc), after mirrors: (it shares the mirror folder). `file` is the file's name
// for each group's place.
void ReadGroups(const YAML::Node& root, const std::string& file, Problems& p, Config* c);

// limits: (config.cc).
void ReadLimits(const YAML::Node& root, Problems& p, size_t* answer_characters);
// history_index: and cache_folder: (config.cc), after the repositories: the folder may lie in
// none of them.
void ReadCache(const YAML::Node& root, Problems& p, Config* c);

}  // namespace rr::cfg
