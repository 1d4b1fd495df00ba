// The plugin loader: the shared objects the configuration names, loaded over the C boundary
// (repo_reader/plugin_abi.h) with the SDK's host side (repo_reader/plugin_host.h, which the
// SDK's test kit uses too) and checked before any of their code is trusted with an answer.
//
// A plugin is named by name (a file `<name>.so` in the plugin folder) or by path. It is
// refused, with a sentence an operator understands, when: the file is missing or not a regular
// file; it, or its folder (or the folder it is named in, reached through a link), can be written
// by anyone but its owner (group or others), or its owner is neither root nor the server's user; it
// cannot be loaded; it exports no `repo_reader_plugin_entry` entry; it was built against an SDK
// ABI version newer than the server's or older than its minimum; its entry is malformed (a bad
// name, no kind, a kind without its factory); its name is taken by a plugin loaded before it; a
// factory fails or throws; it gives a host whose kind is not 1 to 64 of a-z, 0-9 and '-', or whose
// kind another plugin serves already (a kind is how the configuration names a host). Every problem
// is reported, not only the first.
//
// The built-in secret detectors (plugin `repo-reader-secrets`, in the plugin folder) are loaded
// first unless the configuration turns them off; a server that cannot load them refuses to
// start rather than serve unfiltered. The built-in host plugins (`repo-reader-github`, -gitlab,
// -bitbucket) are loaded the same way when a mirror names their host
// (PluginsConfig::builtin_hosts).
//
// Lifetime: every object a plugin made holds a reference to its library, which stays loaded
// while any of them lives. Loading is not thread-safe; do it once, at start.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/plugins/plugins_config.h"
#include "core/secrets/secret_filter.h"
#include "core/util/result.h"
#include "repo_reader/host.h"
#include "repo_reader/plugin.h"

namespace rr {

inline constexpr const char* kBuiltinSecretsPlugin = "repo-reader-secrets";

// The configuration's settings are handed to plugins as they are.
static_assert(std::is_same_v<decltype(PluginSpec::settings), repo_reader::PluginSettings>);

// What was loaded, for --check, `about` and the start line.
struct LoadedPluginInfo {
  std::string name, version, description, path;
  uint32_t kinds = 0;
  size_t detectors = 0;  // secret detectors it gave
  size_t hosts = 0;      // host kinds it gave
};

struct Plugins {
  std::vector<LoadedPluginInfo> loaded;
  // Never null: with the built-in detectors off and no detector plugin, it has no detector.
  std::shared_ptr<const SecretFilter> secrets;
  std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts;
  bool builtin_detectors = true;
  std::string folder;  // the plugin folder used
};

// The plugin folder of this installation: `<prefix>/lib/repo-reader/plugins` when the binary
// is `<prefix>/bin/repo-reader`; `plugins/` beside the binary in a build tree.
std::string DefaultPluginFolder();

// Whether the file at `path` may be loaded (see the rules above); the error says why not.
Status CheckPluginFile(const std::string& path);

// Loads the built-in detectors (unless turned off) and every configured plugin. The error
// lists every problem, one a line.
Result<Plugins> LoadPlugins(const PluginsConfig& config);

// The secret filter for the problem lines written before LoadPlugins has succeeded (a
// configuration that cannot be read, a plugin refused, a command line not taken): the built-in
// detectors from `folder` (empty: the installation's plugin folder), else from the
// installation's, else the core's last-resort detectors (core/secrets/problem_filter.h).
// Never null.
std::shared_ptr<const SecretFilter> ProblemLineFilter(const std::string& folder);

// A sentence for `about`, --check and the start line: which detectors are in force.
std::string DescribeSecretFilter(const Plugins& plugins);

}  // namespace rr
