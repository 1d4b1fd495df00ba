// Configuration: what is served and the limits. Loaded from YAML (--config FILE) or, without a
// file, the git repository of the current folder. Every problem is reported with the file, line
// and column and what to write instead; a configuration with any problem serves nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/plugins/loader.h"
#include "core/policy/catalog.h"
#include "core/util/result.h"

namespace rr {

struct RepoConfig {
  std::string name;
  std::string path;  // as resolved: absolute
  std::string description;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool listed = true;
  bool own = true;
  bool serve_credential_files = false;
};

struct Config {
  std::string source;  // the file read, or a sentence saying where the default came from
  std::vector<RepoConfig> repos;
  size_t answer_characters = 40000;
  PluginsConfig plugins;  // plugins:, secrets:, plugin_folder:
};

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

// The served set for a checked configuration.
Result<std::shared_ptr<const Catalog>> BuildCatalog(const Config& config);

}  // namespace rr
