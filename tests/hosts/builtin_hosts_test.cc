// The built-in host plugins load when a mirror names their host, from the plugin folder, as
// the built-in secret detectors do; an operator's own plugin for the kind wins; a missing one
// stops the server with the reason.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "core/config/config.h"
#include "core/plugins/loader.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace builtin_hosts_test {
namespace {

TEST(BuiltinHosts, TheMirrorsHostsAreLoadedAndNoOthers) {
  TempDir dir;
  auto c = ParseConfig("mirror_folder: " + dir.path() +
                           "\nmirrors:\n"
                           "  - name: shop\n    url: https://github.com/acme/shop.git\n"
                           "  - name: api\n    url: https://gitlab.example.com/p/api.git\n"
                           "    host_kind: gitlab\n"
                           "  - name: other\n    url: https://github.com/acme/other.git\n"
                           "  - name: plain\n    url: https://git.example.com/x.git\n",
                       "c.yaml", dir.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->plugins.builtin_hosts, (std::vector<std::string>{"github", "gitlab"}));
  c->plugins.folder = RR_PLUGIN_DIR;
  auto plugins = LoadPlugins(c->plugins);
  ASSERT_TRUE(plugins) << plugins.error();
  std::vector<std::string> kinds;
  for (const auto& h : plugins->hosts) kinds.push_back(h->kind());
  EXPECT_EQ(kinds, (std::vector<std::string>{"github", "gitlab"}));
  ASSERT_EQ(plugins->loaded.size(), 3u);  // the detectors, then the two hosts
  EXPECT_EQ(plugins->loaded[1].name, "repo-reader-github");
  EXPECT_EQ(plugins->loaded[2].name, "repo-reader-gitlab");
}

TEST(BuiltinHosts, WithoutAMirrorNoneIsLoaded) {
  PluginsConfig pc;
  pc.folder = RR_PLUGIN_DIR;
  auto plugins = LoadPlugins(pc);
  ASSERT_TRUE(plugins) << plugins.error();
  EXPECT_TRUE(plugins->hosts.empty());
}

TEST(BuiltinHosts, AMissingOneStopsTheServerSayingWhy) {
  TempDir dir;  // a plugin folder holding only the detectors
  const std::string folder = dir / "plugins";
  std::filesystem::create_directory(folder);
  chmod(folder.c_str(), 0755);
  std::filesystem::copy_file(std::string(RR_PLUGIN_DIR) + "/repo-reader-secrets.so",
                             folder + "/repo-reader-secrets.so");
  PluginsConfig pc;
  pc.folder = folder;
  pc.builtin_hosts = {"bitbucket"};
  auto plugins = LoadPlugins(pc);
  ASSERT_FALSE(plugins);
  EXPECT_TRUE(Has(plugins.error(), "the built-in host plugin is not installed")) << plugins.error();
  EXPECT_TRUE(Has(plugins.error(), "repo-reader-bitbucket.so")) << plugins.error();
}

TEST(BuiltinHosts, AConfiguredPluginForTheKindWins) {
  PluginsConfig pc;
  pc.folder = RR_PLUGIN_DIR;
  PluginSpec own;
  own.path = std::string(RR_PLUGIN_DIR) + "/repo-reader-github.so";
  pc.plugins.push_back(own);
  pc.builtin_hosts = {"github"};
  // The same file named by path is the operator's: the built-in one is then not loaded again
  // (which would be refused as a second plugin of one name).
  auto plugins = LoadPlugins(pc);
  ASSERT_TRUE(plugins) << plugins.error();
  EXPECT_EQ(plugins->hosts.size(), 1u);
}

}  // namespace
}  // namespace builtin_hosts_test
}  // namespace rr::testing
