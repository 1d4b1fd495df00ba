// repo-reader plugin SDK: the entry point every plugin exports.
//
// A plugin is a shared object that exports one symbol, `repo_reader_plugin`, through a
// Boost.DLL alias (REPO_READER_PLUGIN below). It is a function answering a PluginEntry: the
// ABI version the plugin was built against, its name, its own version, the kinds it provides
// and a factory for each kind. The server loads it from the configuration, reads `abi_version`
// first (its offset never changes) and refuses a plugin built against another ABI before it
// touches anything else in the entry.
//
// Contract for plugin authors:
//  - Include only headers under repo_reader/ (sdk.h includes them all). Build with hidden
//    visibility (-fvisibility=hidden): the alias is the only symbol the server looks for.
//  - Let no exception leave a call into the plugin. The server catches what escapes, reports
//    it and contains it (a failed detector withholds the answer rather than show it
//    unfiltered), but a plugin that throws is a broken plugin.
//  - Everything the factories return is owned by the server and destroyed before the library
//    is unloaded; the server keeps the library loaded while anything it made lives.
//  - The entry function may be called more than once and must answer the same entry each time
//    (a static object is the usual way). It runs no other code of consequence.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "repo_reader/abi.h"
#include "repo_reader/host.h"
#include "repo_reader/secret_detector.h"

namespace repo_reader {

// What a plugin provides; an entry's `kinds` is a bitwise or of these.
enum PluginKind : uint32_t {
  kSecretDetectorPlugin = 1u << 0,
  kHostPlugin = 1u << 1,
};

// Settings the operator gave the plugin in the configuration (`settings:` under its entry),
// as text. Keys and values are the operator's; a plugin says in its docs which it reads.
using PluginSettings = std::map<std::string, std::string>;

// A factory's answer: what it made, or why it could not (then `made` is empty and `error` is a
// sentence for the operator, shown at start and by --check).
template <class T>
struct Made {
  std::vector<std::unique_ptr<T>> made;
  std::string error;
};

struct PluginEntry {
  // kAbiVersion as the plugin saw it when built. Always the first member.
  uint32_t abi_version;
  // sizeof(PluginEntry) as the plugin saw it.
  uint32_t entry_size;
  // The plugin's name: 1 to 64 of [a-z0-9._-], starting with a letter or digit. Two plugins
  // of one name are refused. Names starting with "repo-reader" are the server's own.
  const char* name;
  // The plugin's own version, for people ("1.4.2").
  const char* version;
  // A line saying what it is, for --check and `about`.
  const char* description;
  // A bitwise or of PluginKind.
  uint32_t kinds;
  // With kSecretDetectorPlugin: the detectors. Called once, at load.
  Made<SecretDetector> (*make_secret_detectors)(const PluginSettings& settings);
  // With kHostPlugin: the host kinds it serves (one plugin may serve several). Called once.
  Made<HostPlugin> (*make_hosts)(const PluginSettings& settings);
};

// The exported entry's signature.
using PluginEntryFunction = const PluginEntry*();

// The name the server looks for.
inline constexpr const char* kEntrySymbol = "repo_reader_plugin";

}  // namespace repo_reader

// Exports `function` (a PluginEntryFunction) as the plugin's entry. Use once, at namespace
// scope, in one source file of the plugin.
#include <boost/dll/alias.hpp>
#define REPO_READER_PLUGIN(function) BOOST_DLL_ALIAS(function, repo_reader_plugin)
