// plugins:, secrets: and plugin_folder: (docs/plugins.md): which plugins to load and how.
#include <sys/stat.h>

#include "core/config/sections.h"
#include "core/util/text.h"

namespace rr::cfg {

void ReadPlugins(const YAML::Node& root, const std::string& base_dir, Problems& p,
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

}  // namespace rr::cfg
