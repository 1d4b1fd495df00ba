// End to end: an operator configures a GitHub organisation (its API faked on loopback, its git
// served by a real smart-HTTP server); the server lists it, syncs each repository it brings, and
// an agent lists them, reads each and gets the link to the host's page of what it read.
#include <gtest/gtest.h>

#include <string>

#include "core/hosts/groups.h"
#include "tests/hosts/fake_host.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace group_e2e_test {
namespace {

TEST(GroupEndToEnd, AnOrganisationIsListedSyncedReadAndLinked) {
  TempDir root;
  TestRepo shop(root / "acme/shop.git");
  shop.Write("README.md", "# Shop\n");
  const std::string shop_commit = shop.Commit("Shop");
  TestRepo infra(root / "acme/infra.git");
  infra.Write("main.tf", "# infra\n");
  const std::string infra_commit = infra.Commit("Infra");
  GitHttpServer git({root.path()});

  FakeHost api([](const std::string&) {
    FakeHost::Reply r;
    r.body = R"([{"full_name":"acme/shop","description":"The shop","default_branch":"main"},
                 {"full_name":"acme/infra","default_branch":"main"}])";
    return r;
  });
  TempDir folder;
  auto config = ParseConfig(
      "mirror_folder: " + folder.path() + "\ngroups:\n  - host: " + git.Base() +
          "\n    host_kind: github\n    owner: acme\n" + "    api: " + api.base() + "/api\n",
      "c.yaml", folder.path());
  ASSERT_TRUE(config) << config.error();
  auto outcomes = ExpandGroups(config.operator->(), BuiltinHostPlugins(), nullptr);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_TRUE(outcomes[0].error.empty()) << outcomes[0].error;
  ASSERT_EQ(config->mirrors.size(), 2u);
  for (size_t i = 0; i < config->mirrors.size(); ++i) {
    auto report = SyncNow(*config, i);
    ASSERT_TRUE(report) << config->mirrors[i].name << ": " << report.error();
    config->mirrors[i].state->Succeeded(1);  // as the Syncer records a sync that succeeded
  }

  ToolHarness h(ToolHarness::FromConfig{}, *config);
  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "## acme/shop")) << repos.text;
  EXPECT_TRUE(Has(repos.text, "## acme/infra")) << repos.text;
  EXPECT_TRUE(Has(repos.text, "(group 127.0.0.1/acme)")) << repos.text;
  EXPECT_TRUE(Has(repos.text, "\nOn GitHub: " + git.Base() + "/acme/infra\n")) << repos.text;

  auto read = h.Call("read_file", R"({"repo":"acme/shop","path":"README.md"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "# Shop")) << read.text;
  EXPECT_TRUE(Has(read.text, "\nOn GitHub: " + git.Base() + "/acme/shop/blob/" + shop_commit +
                                 "/README.md#L1\n"))
      << read.text;
  auto other = h.Call("read_file", R"({"repo":"acme/infra","path":"main.tf"})");
  EXPECT_TRUE(Has(other.text, "\nOn GitHub: " + git.Base() + "/acme/infra/blob/" + infra_commit +
                                  "/main.tf#L1\n"))
      << other.text;
}

}  // namespace
}  // namespace group_e2e_test
}  // namespace rr::testing
