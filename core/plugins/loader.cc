#include "core/plugins/loader.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "core/secrets/problem_filter.h"
#include "core/util/crash_note.h"
#include "core/util/text.h"
#include "repo_reader/plugin_host.h"

namespace rr {
namespace {

using repo_reader::HostPlugin;
using repo_reader::SecretDetector;

using Library = std::shared_ptr<repo_reader::host::Library>;

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool IsValidHostKind(const std::string& kind) {
  if (kind.empty() || kind.size() > 64) return false;
  for (char c : kind) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

std::string Text(const char* s, size_t max) {
  if (!s) return std::string();
  return DisplayName(std::string_view(s, strnlen(s, max)));
}

// Whether a file or folder may be trusted: owned by root or by us, writable by its owner only.
std::string Untrusted(const struct stat& st, const std::string& what, const std::string& path) {
  if (st.st_uid != 0 && st.st_uid != geteuid()) {
    return what + " " + path + " belongs to user id " + std::to_string(st.st_uid) +
           ", neither root nor the user the server runs as; chown it";
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return what + " " + path + " can be written by " +
           ((st.st_mode & S_IWOTH) ? std::string("anyone") : std::string("its group")) + " (mode " +
           mode + "), so anyone who can write it could run code in the server; " +
           "make it writable by its owner only (chmod go-w)";
  }
  return std::string();
}

class Loader {
 public:
  explicit Loader(const PluginsConfig& config) : config_(config) {
    out_.builtin_detectors = config.builtin_detectors;
    out_.folder = config.folder.empty() ? DefaultPluginFolder() : config.folder;
  }

  Result<Plugins> Run() {
    if (config_.builtin_detectors) {
      PluginSpec builtin;
      builtin.name = kBuiltinSecretsPlugin;
      Load(builtin, /*builtin=*/true);
    }
    for (const auto& spec : config_.plugins) Load(spec, false);
    // The built-in host plugins the configuration's mirrors need, unless a configured plugin
    // serves their kind already (an operator's own GitHub plugin wins).
    for (const auto& kind : config_.builtin_hosts) {
      if (host_kinds_.count(kind)) continue;
      PluginSpec builtin;
      builtin.name = "repo-reader-" + kind;
      Load(builtin, /*builtin=*/true);
    }
    std::string error;
    out_.secrets = SecretFilter::Make(std::move(detectors_), &error);
    if (!out_.secrets) problems_.push_back(error);
    if (!problems_.empty()) {
      std::string text;
      for (const auto& p : problems_) text += (text.empty() ? "" : "\n") + p;
      return Error{text};
    }
    return std::move(out_);
  }

 private:
  void Problem(const PluginSpec& spec, const std::string& what) {
    std::string where = spec.where.empty() ? std::string() : spec.where + ": ";
    problems_.push_back(where + "plugin `" +
                        DisplayName(spec.name.empty() ? spec.path : spec.name) + "`: " + what);
  }

  void Load(const PluginSpec& spec, bool builtin) {
    std::string path = spec.path;
    if (path.empty()) path = out_.folder + "/" + spec.name + ".so";
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      if (builtin && spec.name != kBuiltinSecretsPlugin) {
        Problem(spec, "the built-in host plugin is not installed: " + path +
                          " is missing, and a mirror names its host; reinstall repo-reader, or "
                          "with your own plugin_folder: copy it there");
      } else if (builtin) {
        Problem(spec,
                "the built-in secret detectors are not installed: " + path +
                    " is missing. Without them values that look like secrets would be shown; "
                    "reinstall repo-reader, or name the plugin folder (plugin_folder:), or turn "
                    "them off explicitly (secrets: {builtin_detectors: false})");
      } else {
        Problem(spec, path + " does not exist" +
                          (spec.path.empty() ? " (plugins named without a path are looked for in "
                                               "the plugin folder " +
                                                   out_.folder + ")"
                                             : std::string()));
      }
      return;
    }
    char real[PATH_MAX];
    if (!realpath(path.c_str(), real)) {
      Problem(spec, path + " cannot be resolved: " + std::strerror(errno));
      return;
    }
    if (const Status s = CheckPluginFile(real); !s) {
      Problem(spec, s.error());
      return;
    }
    // The folder it is named in, too, when that is not the file's own (a link): anyone who can
    // write that folder could point the link at another library.
    if (const std::string named = FolderOf(path); named != FolderOf(real)) {
      struct stat fst;
      if (stat(named.c_str(), &fst) != 0) {
        Problem(spec, "the folder " + named + " cannot be read: " + std::strerror(errno));
        return;
      }
      if (std::string why = Untrusted(fst, "its folder", named); !why.empty()) {
        Problem(spec, why);
        return;
      }
    }

    std::string why;
    const Library lib = repo_reader::host::Library::Open(real, &why);
    if (!lib) {
      Problem(spec, std::string(real) + " cannot be loaded: " + DisplayName(why));
      return;
    }
    const repo_reader::host::Opened opened = repo_reader::host::OpenPlugin(*lib, real);
    if (!opened.entry) {
      Problem(spec, DisplayName(opened.error));
      return;
    }
    const rr_plugin* entry = opened.entry;
    const std::string name = entry->name;
    if (builtin && name != spec.name) {
      Problem(spec, std::string(real) + " calls itself `" + name + "`, not `" + spec.name +
                        "`; reinstall repo-reader");
      return;
    }
    if (!builtin && name.rfind("repo-reader", 0) == 0 &&
        FolderOf(real) != FolderOf(RealOr(out_.folder + "/x"))) {
      Problem(spec, "the name `" + name +
                        "` is kept for the server's own plugins, which load from the plugin "
                        "folder " +
                        out_.folder + "; give your plugin another name");
      return;
    }
    if (!names_.insert(name).second) {
      Problem(spec, "a plugin named `" + name +
                        "` is already loaded; each plugin is loaded once (remove one entry)");
      return;
    }

    LoadedPluginInfo info;
    info.name = name;
    info.version = Text(entry->version, 64);
    info.description = Text(entry->description, 300);
    info.path = real;
    info.kinds = entry->kinds;
    if (entry->kinds & RR_KIND_SECRET_DETECTOR) {
      auto made = Call(spec, "make_secret_detectors", [&] {
        return repo_reader::host::MakeDetectors(*entry, spec.settings, lib);
      });
      if (!made) return;
      for (auto& d : made->made) {
        detectors_.push_back(
            {std::shared_ptr<const SecretDetector>(std::move(d)), name, spec.where});
        ++info.detectors;
      }
      if (info.detectors == 0) {
        Problem(spec, "it is a secret-detector plugin but gave no detector");
        return;
      }
    }
    if (entry->kinds & RR_KIND_HOST) {
      auto made = Call(spec, "make_hosts",
                       [&] { return repo_reader::host::MakeHosts(*entry, spec.settings, lib); });
      if (!made) return;
      for (auto& h : made->made) {
        // A host kind is how the configuration names a host: one plugin serves each.
        const std::string kind = Text(h->kind(), 65);
        if (!IsValidHostKind(kind)) {
          Problem(spec, "it gives a host whose kind `" + kind +
                            "` is not 1 to 64 of a-z, 0-9 and '-'; the configuration could not "
                            "name it (host_kind:)");
          return;
        }
        if (auto [it, fresh] = host_kinds_.emplace(kind, name); !fresh) {
          Problem(spec, "host kind `" + kind + "` is served by plugin `" + it->second +
                            "` already; each host kind is served by one plugin (remove one)");
          return;
        }
        out_.hosts.push_back(std::shared_ptr<const HostPlugin>(std::move(h)));
        ++info.hosts;
      }
    }
    out_.loaded.push_back(std::move(info));
  }

  // Runs a factory, containing what it throws; a factory's own error is a problem too.
  template <class F>
  auto Call(const PluginSpec& spec, const char* what, F&& f) -> std::optional<decltype(f())> {
    const std::string running = std::string(what) + " of plugin `" +
                                DisplayName(spec.name.empty() ? spec.path : spec.name) + "`";
    try {
      PluginCallNote note(running.c_str());
      auto made = f();
      if (!made.error.empty()) {
        Problem(spec, DisplayName(made.error));
        return std::nullopt;
      }
      return made;
    } catch (const std::exception& e) {
      Problem(spec, std::string(what) + " threw: " + DisplayName(e.what()));
    } catch (...) {
      Problem(spec, std::string(what) + " threw");
    }
    return std::nullopt;
  }

  static std::string RealOr(const std::string& path) {
    char real[PATH_MAX];
    if (realpath(FolderOf(path).c_str(), real)) return std::string(real) + "/x";
    return path;
  }

  const PluginsConfig& config_;
  Plugins out_;
  std::vector<SecretFilter::Detector> detectors_;
  std::set<std::string> names_;
  std::map<std::string, std::string> host_kinds_;  // kind -> the plugin serving it
  std::vector<std::string> problems_;
};

}  // namespace

std::string DefaultPluginFolder() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "plugins";
  exe[n] = '\0';
  const std::string bin = FolderOf(exe);
  const std::string installed = FolderOf(bin) + "/lib/repo-reader/plugins";
  struct stat st;
  if (stat(installed.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return installed;
  return bin + "/plugins";
}

Status CheckPluginFile(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return Error{path + " cannot be read: " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{path + " is not a regular file"};
  if (std::string why = Untrusted(st, "the file", path); !why.empty()) return Error{why};
  const std::string folder = FolderOf(path);
  struct stat fst;
  if (stat(folder.c_str(), &fst) != 0) {
    return Error{"the folder " + folder + " cannot be read: " + std::strerror(errno)};
  }
  if (std::string why = Untrusted(fst, "its folder", folder); !why.empty()) return Error{why};
  return Status::Ok();
}

Result<Plugins> LoadPlugins(const PluginsConfig& config) { return Loader(config).Run(); }

std::shared_ptr<const SecretFilter> ProblemLineFilter(const std::string& folder) {
  std::vector<std::string> folders = {folder.empty() ? DefaultPluginFolder() : folder};
  if (!folder.empty()) folders.push_back(DefaultPluginFolder());
  for (const auto& f : folders) {
    PluginsConfig only_builtin;
    only_builtin.folder = f;
    auto loaded = LoadPlugins(only_builtin);
    if (loaded) return loaded->secrets;
  }
  std::string error;
  auto last = SecretFilter::Make(LastResortDetectors(), &error);
  return last;
}

std::string DescribeSecretFilter(const Plugins& p) {
  std::string from;
  for (const auto& info : p.loaded) {
    if (info.detectors == 0) continue;
    from += (from.empty() ? "" : ", ") + info.name + " " + info.version + " (" +
            Plural(info.detectors, "detector", "detectors") + ")";
  }
  if (!p.builtin_detectors) {
    if (from.empty()) {
      return "secret filter OFF: the built-in detectors are turned off (secrets: "
             "{builtin_detectors: false}) and no detector plugin is configured, so values that "
             "look like secrets are shown as they are";
    }
    return "secret filter: the built-in detectors are turned off (secrets: {builtin_detectors: "
           "false}); in force: " +
           from;
  }
  return "secret filter: " + from;
}

}  // namespace rr
