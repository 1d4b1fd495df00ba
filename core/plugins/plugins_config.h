// What the configuration says of plugins (`plugins:`, `secrets:`, `plugin_folder:`), as plain
// values: read by core/config, loaded by core/plugins/loader.h. It holds no plugin code, so the
// configuration can name plugins without pulling in the loader.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rr {

// One entry of `plugins:` in the configuration.
struct PluginSpec {
  std::string name;                             // by name: <plugin folder>/<name>.so
  std::string path;                             // or by path (absolute)
  std::map<std::string, std::string> settings;  // repo_reader::PluginSettings
  std::string where;                            // "file:line:column", for messages
};

struct PluginsConfig {
  std::vector<PluginSpec> plugins;
  bool builtin_detectors = true;  // secrets.builtin_detectors
  std::string folder;             // plugin_folder; empty: DefaultPluginFolder()
  // The host kinds of the built-in host plugins (github, gitlab, bitbucket) that the
  // configuration's mirrors and groups name: each is loaded from the plugin folder as
  // `repo-reader-<kind>` after the configured plugins, unless one of those serves the kind.
  std::vector<std::string> builtin_hosts;
};

}  // namespace rr
