// The plugin loader with real plugins, loaded for real (tests/plugins/*.cc, built only against
// the SDK): every refusal core/plugins/loader.h promises, each with a sentence an operator can
// act on; every problem reported at once; the built-in detectors' rules; what a good plugin
// hands the secret filter; and that a library stays loaded while anything it made lives.
#include "core/plugins/loader.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing::loader {
namespace {

namespace fs = std::filesystem;

// A test plugin's file, as tests/plugins/CMakeLists.txt builds it.
std::string TestPlugin(const std::string& name) {
  return std::string(RR_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

std::string RealPath(const std::string& path) { return fs::canonical(path).string(); }

PluginSpec ByPath(const std::string& path) {
  PluginSpec spec;
  spec.path = path;
  return spec;
}

// A configuration that loads only the plugins at `paths`: the built-in detectors are off, so
// each test sees its own plugins' doing alone. The plugin folder is the build's, as the server
// uses it (the test plugins' folder is another).
PluginsConfig Only(std::initializer_list<std::string> paths) {
  PluginsConfig config;
  config.builtin_detectors = false;
  config.folder = RR_PLUGIN_DIR;
  for (const auto& p : paths) config.plugins.push_back(ByPath(p));
  return config;
}

// The loader's refusal of `config`; a load that succeeds fails the test.
std::string Refusal(const PluginsConfig& config) {
  auto loaded = LoadPlugins(config);
  if (loaded) {
    ADD_FAILURE() << "the plugins were loaded; a refusal was expected";
    return std::string();
  }
  return loaded.error();
}

// `plugin` copied into a new folder of the test's (mode 0700, ours), with `mode`.
struct Copied {
  TempDir dir;
  std::string path;
  Copied(const std::string& plugin, const std::string& as, mode_t mode = 0644) {
    path = dir / as;
    fs::copy_file(TestPlugin(plugin), path);
    EXPECT_EQ(chmod(path.c_str(), mode), 0);
  }
};

// Whether the shared object at `path` is mapped into this process now.
bool IsLoaded(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle) dlclose(handle);
  return handle != nullptr;
}

// ---------------------------------------------------------------------------------------------
// Refusals: what the plugin is

TEST(PluginLoader, APluginBuiltAgainstANewerAbiIsRefusedWithBothVersions) {
  const std::string error = Refusal(Only({TestPlugin("wrong-abi")}));
  EXPECT_TRUE(Has(error, "plugin `" + TestPlugin("wrong-abi") +
                             "`: " + RealPath(TestPlugin("wrong-abi")) +
                             " was built against the plugin SDK's ABI version " +
                             std::to_string(repo_reader::kAbiVersion + 1) +
                             ", newer than this server knows (it loads versions " +
                             std::to_string(repo_reader::kAbiMinVersion) + " to " +
                             std::to_string(repo_reader::kAbiVersion) + ")"))
      << error;
  EXPECT_TRUE(Has(error,
                  "Use a server of its version or later, or rebuild the plugin against "
                  "this server's SDK (find_package(repo_reader_sdk))"));
}

TEST(PluginLoader, APluginBuiltAgainstAnAbiOlderThanTheMinimumIsRefusedWithBothVersions) {
  const std::string error = Refusal(Only({TestPlugin("c-older-abi")}));
  EXPECT_TRUE(Has(error, "plugin `" + TestPlugin("c-older-abi") +
                             "`: " + RealPath(TestPlugin("c-older-abi")) +
                             " was built against the plugin SDK's ABI version 1, older than the "
                             "oldest this server loads, " +
                             std::to_string(repo_reader::kAbiMinVersion) + " (it loads versions " +
                             std::to_string(repo_reader::kAbiMinVersion) + " to " +
                             std::to_string(repo_reader::kAbiVersion) + ")"))
      << error;
  EXPECT_TRUE(Has(error, "Rebuild the plugin against this server's SDK"));
}

// A plugin of the C++ boundary (ABI version 1) exported a Boost.DLL alias `repo_reader_plugin`
// and handed over C++ objects; it is refused by its version, and nothing in it is called.
TEST(PluginLoader, APluginOfTheOldCxxBoundaryIsRefusedAsVersionOne) {
  const std::string error = Refusal(Only({TestPlugin("cxx-boundary")}));
  EXPECT_TRUE(Has(error, RealPath(TestPlugin("cxx-boundary")) +
                             " was built against the plugin SDK's ABI version 1 (a C++ "
                             "boundary), older than the oldest this server loads"))
      << error;
  EXPECT_TRUE(Has(error, "Rebuild the plugin against this server's SDK"));
}

TEST(PluginLoader, ASharedObjectWithoutTheEntryIsRefused) {
  const std::string error = Refusal(Only({TestPlugin("no-entry")}));
  EXPECT_TRUE(Has(error, RealPath(TestPlugin("no-entry")) + " is not a repo-reader plugin"));
  EXPECT_TRUE(Has(error, "it exports no `repo_reader_plugin_entry` entry"));
  EXPECT_TRUE(Has(error, "REPO_READER_PLUGIN in <repo_reader/plugin.h>"));
}

TEST(PluginLoader, AFileThatIsNoSharedObjectIsRefused) {
  TempDir dir;
  const std::string path = dir / "notes.so";
  std::ofstream(path) << "not a shared object\n";
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  const std::string error = Refusal(Only({path}));
  EXPECT_TRUE(Has(error, "plugin `" + path + "`: " + path + " cannot be loaded: "));
}

TEST(PluginLoader, AMissingFileIsRefused) {
  TempDir dir;
  EXPECT_TRUE(Has(Refusal(Only({dir / "absent.so"})), dir / "absent.so" + " does not exist"));

  PluginsConfig by_name = Only({});
  by_name.folder = dir.path();
  by_name.plugins.push_back(PluginSpec{"absent", "", {}, ""});
  const std::string error = Refusal(by_name);
  EXPECT_TRUE(Has(error, "plugin `absent`: " + dir / "absent.so" + " does not exist"));
  EXPECT_TRUE(
      Has(error, "plugins named without a path are looked for in the plugin folder " + dir.path()));
}

TEST(PluginLoader, AFolderIsNoPlugin) {
  TempDir dir;
  fs::create_directory(dir / "folder.so");
  EXPECT_TRUE(Has(Refusal(Only({dir / "folder.so"})), "folder.so is not a regular file"));
}

TEST(PluginLoader, AnInvalidNameIsRefused) {
  const std::string error = Refusal(Only({TestPlugin("bad-name")}));
  EXPECT_TRUE(Has(error, "its entry gives no valid name (1 to 64 of a-z, 0-9, '.', '_', '-')"));
}

TEST(PluginLoader, MalformedEntriesAreRefused) {
  const struct {
    const char* plugin;
    std::vector<std::string> says;
  } cases[] = {
      {"null-entry", {"its entry answered nothing"}},
      {"throws-in-entry", {"its entry failed: the entry broke"}},
      // The C++ layer refuses its own entry, and says so through the C entry's error.
      {"wrong-size",
       {"its entry failed: its C++ entry is malformed (entry_size " +
        std::to_string(sizeof(repo_reader::PluginEntry) - 8) + ", expected " +
        std::to_string(sizeof(repo_reader::PluginEntry)) + ")"}},
      // The C entry itself (a plugin written in C).
      {"c-wrong-size",
       {"its entry is malformed (size " + std::to_string(sizeof(rr_plugin) - 8) + ", expected " +
            std::to_string(sizeof(rr_plugin)) + ")",
        "rebuild it against this server's SDK"}},
      {"no-kind", {"its entry is malformed: it names no kind this server knows"}},
      {"unknown-kind", {"its entry is malformed: it names no kind this server knows"}},
      {"no-factory", {"its entry is malformed", "or a kind without its factory"}},
      {"no-host-factory", {"its entry is malformed", "or a kind without its factory"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.plugin);
    const std::string error = Refusal(Only({TestPlugin(c.plugin)}));
    EXPECT_TRUE(Has(error, "plugin `" + TestPlugin(c.plugin) + "`: "));
    for (const auto& part : c.says) EXPECT_TRUE(Has(error, part));
  }
}

TEST(PluginLoader, ASecondPluginOfTheSameNameIsRefused) {
  // duplicate.so is planted.cc built a second time: another file, the same plugin name.
  std::string error = Refusal(Only({TestPlugin("planted"), TestPlugin("duplicate")}));
  EXPECT_EQ(Lines(error).size(), 1u) << error;
  EXPECT_TRUE(Has(error, "plugin `" + TestPlugin("duplicate") +
                             "`: a plugin named `planted` is already loaded; each plugin is "
                             "loaded once (remove one entry)"));

  error = Refusal(Only({TestPlugin("planted"), TestPlugin("planted")}));
  EXPECT_TRUE(Has(error, "a plugin named `planted` is already loaded")) << error;
}

TEST(PluginLoader, AHostKindIsServedByOnePlugin) {
  auto one = LoadPlugins(Only({TestPlugin("host-one")}));
  ASSERT_TRUE(one) << one.error();
  ASSERT_EQ(one->hosts.size(), 1u);
  EXPECT_STREQ(one->hosts[0]->kind(), "acmehub");
  const std::string error = Refusal(Only({TestPlugin("host-one"), TestPlugin("host-two")}));
  EXPECT_EQ(Lines(error).size(), 1u) << error;
  EXPECT_TRUE(Has(error, "plugin `" + TestPlugin("host-two") +
                             "`: host kind `acmehub` is served by plugin `host-one` already; "
                             "each host kind is served by one plugin (remove one)"))
      << error;
}

TEST(PluginLoader, AHostKindTheConfigurationCouldNotNameIsRefused) {
  const std::string error = Refusal(Only({TestPlugin("host-bad-kind")}));
  EXPECT_TRUE(Has(error,
                  "it gives a host whose kind `Acme Hub` is not 1 to 64 of a-z, 0-9 and "
                  "'-'"))
      << error;
}

TEST(PluginLoader, ANameKeptForTheServerIsRefusedOutsideItsPluginFolder) {
  const std::string error = Refusal(Only({TestPlugin("reserved-name")}));
  EXPECT_TRUE(Has(error, "the name `repo-reader-foo` is kept for the server's own plugins"));
  EXPECT_TRUE(Has(error, "give your plugin another name"));
}

TEST(PluginLoader, TheServersOwnNamesLoadFromThePluginFolder) {
  Copied own("reserved-name", "repo-reader-foo.so");
  PluginsConfig config = Only({});
  config.folder = own.dir.path();
  config.plugins.push_back(PluginSpec{"repo-reader-foo", "", {}, ""});
  auto loaded = LoadPlugins(config);
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_EQ(loaded->loaded.size(), 1u);
  EXPECT_EQ(loaded->loaded[0].name, "repo-reader-foo");
}

TEST(PluginLoader, ASecretDetectorPluginThatGivesNoDetectorIsRefused) {
  EXPECT_TRUE(Has(Refusal(Only({TestPlugin("no-detectors")})),
                  "it is a secret-detector plugin but gave no detector"));
}

TEST(PluginLoader, AFactoryThatThrowsIsRefusedWithWhatItThrew) {
  EXPECT_TRUE(Has(Refusal(Only({TestPlugin("throws-in-factory")})),
                  "plugin `" + TestPlugin("throws-in-factory") +
                      "`: make_secret_detectors threw: the factory broke"));
}

TEST(PluginLoader, AFactoryThatFailsIsRefusedWithItsSentence) {
  EXPECT_TRUE(Has(Refusal(Only({TestPlugin("factory-error")})),
                  "make_secret_detectors failed: the setting `region` is missing"));
}

// A keyword problem names the configuration entry's file:line:column, as every other problem
// of a configured plugin does (docs/plugins.md).
TEST(PluginLoader, ADetectorThatThrowsWhenAskedForItsKeywordsIsRefused) {
  PluginsConfig config = Only({TestPlugin("planted"), TestPlugin("throws-in-keywords")});
  config.plugins[1].where = "repo-reader.yaml:7:5";
  EXPECT_TRUE(Has(Refusal(config),
                  "repo-reader.yaml:7:5: a secret detector of plugin `throws-in-keywords` failed "
                  "to say its keywords: no keywords today"));
}

TEST(PluginLoader, AKeywordTheFilterCannotUseIsRefused) {
  PluginsConfig config = Only({TestPlugin("short-keyword")});
  config.plugins[0].where = "repo-reader.yaml:4:5";
  EXPECT_TRUE(Has(Refusal(config),
                  "repo-reader.yaml:4:5: secret detector `planted-token` of plugin "
                  "`short-keyword`: keyword `x` is not usable: keywords are ASCII, at least 2 "
                  "characters"));
}

// ---------------------------------------------------------------------------------------------
// Refusals: who could have changed the file

TEST(PluginLoader, AFileOthersCanWriteIsRefused) {
  Copied anyone("planted", "planted.so", 0666);
  std::string error = Refusal(Only({anyone.path}));
  EXPECT_TRUE(Has(error, "the file " + anyone.path + " can be written by anyone (mode 0666)"));
  EXPECT_TRUE(Has(error, "make it writable by its owner only (chmod go-w)"));

  Copied group("planted", "planted.so", 0664);
  error = Refusal(Only({group.path}));
  EXPECT_TRUE(Has(error, "the file " + group.path + " can be written by its group (mode 0664)"));
  EXPECT_TRUE(Has(error, "chmod go-w"));
}

TEST(PluginLoader, AFileInAFolderOthersCanWriteIsRefused) {
  for (const mode_t mode : {0777, 0770}) {
    SCOPED_TRACE(mode);
    Copied plugin("planted", "planted.so");
    ASSERT_EQ(chmod(plugin.dir.path().c_str(), mode), 0);
    const std::string error = Refusal(Only({plugin.path}));
    EXPECT_TRUE(Has(error, "its folder " + plugin.dir.path() + " can be written by " +
                               (mode == 0777 ? "anyone (mode 0777)" : "its group (mode 0770)")));
    EXPECT_TRUE(Has(error, "chmod go-w"));
  }
}

TEST(PluginLoader, AFileOrFolderOfAnotherUserIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a file to another user takes root";
  constexpr uid_t kStranger = 4242;
  Copied file("planted", "planted.so");
  ASSERT_EQ(chown(file.path.c_str(), kStranger, kStranger), 0);
  std::string error = Refusal(Only({file.path}));
  EXPECT_TRUE(Has(error, "the file " + file.path + " belongs to user id 4242"));
  EXPECT_TRUE(Has(error, "neither root nor the user the server runs as; chown it"));

  Copied folder("planted", "planted.so");
  ASSERT_EQ(chown(folder.dir.path().c_str(), kStranger, kStranger), 0);
  error = Refusal(Only({folder.path}));
  EXPECT_TRUE(Has(error, "its folder " + folder.dir.path() + " belongs to user id 4242"));
}

TEST(PluginLoader, APluginOwnedByItsUserInAPrivateFolderLoads) {
  Copied plugin("planted", "planted.so", 0755);
  auto loaded = LoadPlugins(Only({plugin.path}));
  EXPECT_TRUE(loaded) << loaded.error();
}

// ---------------------------------------------------------------------------------------------
// Every problem, at once

TEST(PluginLoader, EveryProblemIsReportedNotOnlyTheFirst) {
  PluginsConfig config =
      Only({TestPlugin("wrong-abi"), TestPlugin("planted"), TestPlugin("no-entry")});
  config.plugins[0].where = "repo-reader.yaml:4:5";
  config.plugins[2].where = "repo-reader.yaml:6:5";
  const std::vector<std::string> lines = Lines(Refusal(config));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(Has(lines[0], "repo-reader.yaml:4:5: plugin `" + TestPlugin("wrong-abi") + "`: "));
  EXPECT_TRUE(Has(lines[0], "ABI version"));
  EXPECT_TRUE(Has(lines[1], "repo-reader.yaml:6:5: plugin `" + TestPlugin("no-entry") + "`: "));
  EXPECT_TRUE(Has(lines[1], "exports no `repo_reader_plugin_entry` entry"));
}

// ---------------------------------------------------------------------------------------------
// The built-in detectors

TEST(PluginLoader, WithoutTheBuiltInDetectorsInstalledTheServerRefusesToStart) {
  TempDir empty;
  PluginsConfig config;  // the built-in detectors on, as by default
  config.folder = empty.path();
  const std::string error = Refusal(config);
  EXPECT_TRUE(Has(error,
                  "plugin `repo-reader-secrets`: the built-in secret detectors are not "
                  "installed: " +
                      empty / "repo-reader-secrets.so" + " is missing"));
  EXPECT_TRUE(Has(error, "values that look like secrets would be shown"));
  EXPECT_TRUE(Has(error, "turn them off explicitly (secrets: {builtin_detectors: false})"));
}

TEST(PluginLoader, APluginInTheBuiltInDetectorsPlaceIsRefused) {
  Copied impostor("planted", "repo-reader-secrets.so");
  PluginsConfig config;
  config.folder = impostor.dir.path();
  const std::string error = Refusal(config);
  EXPECT_TRUE(Has(error, impostor.path + " calls itself `planted`, not `repo-reader-secrets`"));
  EXPECT_TRUE(Has(error, "reinstall repo-reader"));
}

TEST(PluginLoader, TurningTheBuiltInDetectorsOffLoadsNoneAndSaysTheFilterIsOff) {
  TempDir empty;  // not even looked at
  PluginsConfig config;
  config.builtin_detectors = false;
  config.folder = empty.path();
  auto loaded = LoadPlugins(config);
  ASSERT_TRUE(loaded) << loaded.error();
  EXPECT_TRUE(loaded->loaded.empty());
  ASSERT_NE(loaded->secrets, nullptr);
  EXPECT_EQ(loaded->secrets->detector_count(), 0u);
  EXPECT_TRUE(loaded->secrets->Scan("PLANTED-0123456789abcdef", TextKind::kFile).spans.empty());
  const std::string said = DescribeSecretFilter(*loaded);
  EXPECT_TRUE(Has(said, "secret filter OFF"));
  EXPECT_TRUE(Has(said, "secrets: {builtin_detectors: false}"));
  EXPECT_TRUE(Has(said, "values that look like secrets are shown as they are"));
}

TEST(PluginLoader, TheBuiltInDetectorsLoadFirstAndAPluginJoinsThem) {
  PluginsConfig config;
  config.folder = RR_PLUGIN_DIR;
  config.plugins.push_back(ByPath(TestPlugin("planted")));
  auto loaded = LoadPlugins(config);
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_EQ(loaded->loaded.size(), 2u);
  EXPECT_EQ(loaded->loaded[0].name, kBuiltinSecretsPlugin);
  EXPECT_EQ(loaded->loaded[1].name, "planted");
  EXPECT_EQ(loaded->secrets->plugins(),
            (std::vector<std::string>{kBuiltinSecretsPlugin, "planted"}));
  const std::string said = DescribeSecretFilter(*loaded);
  EXPECT_TRUE(Has(said, "secret filter: repo-reader-secrets "));
  EXPECT_TRUE(Has(said, ", planted 1.0.0 (2 detectors)"));
}

// ---------------------------------------------------------------------------------------------
// A good plugin

TEST(PluginLoader, AGoodPluginLoadsAndItsDetectorsJoinTheSecretFilter) {
  auto loaded = LoadPlugins(Only({TestPlugin("planted")}));
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_EQ(loaded->loaded.size(), 1u);
  const LoadedPluginInfo& info = loaded->loaded[0];
  EXPECT_EQ(info.name, "planted");
  EXPECT_EQ(info.version, "1.0.0");
  EXPECT_EQ(info.description, "a test plugin of the loader's tests");
  EXPECT_EQ(info.path, RealPath(TestPlugin("planted")));
  EXPECT_EQ(info.kinds, repo_reader::kSecretDetectorPlugin);
  EXPECT_EQ(info.detectors, 2u);

  const SecretFilter& filter = *loaded->secrets;
  EXPECT_EQ(filter.detector_count(), 2u);
  EXPECT_EQ(filter.plugins(), std::vector<std::string>{"planted"});
  const std::string text =
      "stamp: PLANTED-0123456789abcdef\nSECRET-LINE open sesame\nplanted-0123 is too short\n";
  const ScanResult r = filter.Scan(text, TextKind::kFile, "notes.txt");
  ASSERT_TRUE(r.ok()) << r.failure;
  EXPECT_EQ(SecretFilter::Redact(text, r.spans),
            "stamp: [hidden: planted token]\n[hidden: secret line]\nplanted-0123 is too short\n");
  EXPECT_TRUE(Has(DescribeSecretFilter(*loaded), "planted 1.0.0 (2 detectors)"));
}

// The boundary is C: a plugin written in C, against plugin_abi.h alone, loads and works.
TEST(PluginLoader, APluginWrittenInCLoadsAndItsDetectorJoinsTheSecretFilter) {
  auto loaded = LoadPlugins(Only({TestPlugin("c-planted")}));
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_EQ(loaded->loaded.size(), 1u);
  EXPECT_EQ(loaded->loaded[0].name, "c-planted");
  EXPECT_EQ(loaded->loaded[0].description, "a test plugin written in C");
  EXPECT_EQ(loaded->loaded[0].detectors, 1u);
  const std::string text = "stamp: planted-0123456789abcdef and Planted-0123456789ABCDEF\n";
  const ScanResult r = loaded->secrets->Scan(text, TextKind::kFile);
  ASSERT_TRUE(r.ok()) << r.failure;
  EXPECT_EQ(SecretFilter::Redact(text, r.spans),
            "stamp: [hidden: planted token] and Planted-0123456789ABCDEF\n");
}

TEST(PluginLoader, AFactoryOfACPluginThatFailsIsRefusedWithItsSentence) {
  PluginsConfig config = Only({TestPlugin("c-planted")});
  config.plugins[0].settings = {{"colour", "blue"}};
  EXPECT_TRUE(Has(Refusal(config), "plugin `" + TestPlugin("c-planted") +
                                       "`: make_secret_detectors failed: c-planted reads no "
                                       "settings"));
}

TEST(PluginLoader, APluginNamedWithoutAPathLoadsFromThePluginFolder) {
  Copied plugin("planted", "planted.so");
  PluginsConfig config = Only({});
  config.folder = plugin.dir.path();
  config.plugins.push_back(PluginSpec{"planted", "", {}, ""});
  auto loaded = LoadPlugins(config);
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_EQ(loaded->loaded.size(), 1u);
  EXPECT_EQ(loaded->loaded[0].path, RealPath(plugin.path));
}

// ---------------------------------------------------------------------------------------------
// Lifetime

TEST(PluginLoader, TheLibraryStaysLoadedWhileADetectorItMadeLives) {
  // A copy of its own: no other test's load of planted.so can keep this one mapped.
  Copied plugin("planted", "planted.so");
  ASSERT_FALSE(IsLoaded(plugin.path));
  std::shared_ptr<const SecretFilter> filter;
  {
    auto loaded = LoadPlugins(Only({plugin.path}));
    ASSERT_TRUE(loaded) << loaded.error();
    filter = loaded->secrets;
  }  // the Plugins, and with them every handle the loader kept, are gone
  ASSERT_TRUE(IsLoaded(plugin.path)) << "the library was unloaded under a live detector";
  const ScanResult r = filter->Scan("stamp: PLANTED-0123456789abcdef", TextKind::kFile);
  ASSERT_TRUE(r.ok()) << r.failure;
  ASSERT_EQ(r.spans.size(), 1u);
  EXPECT_EQ(r.spans[0].what, "planted token");

  filter.reset();  // the last object the plugin made
  EXPECT_FALSE(IsLoaded(plugin.path)) << "the library outlived everything it made";
}

}  // namespace
}  // namespace rr::testing::loader
