// End-to-end with real MCP clients: tests/e2e/sdk/sdk_client.mjs drives the repo-reader binary
// through the official TypeScript SDK v1 (the 2025 revisions), sdk_client_v2.mjs through the v2
// client pinned to 2026-07-28. Node.js is the one npm installs there (the package node@22),
// else the one on PATH. Skipped, saying why, when neither Node.js nor the SDKs' node_modules are
// installed (npm ci --prefix tests/e2e/sdk installs them; scripts/test.sh does).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"
#include "tests/testkit/node.h"

namespace rr::testing {
namespace sdk_client_test {
namespace {

std::string FindNode() {
  return rr::testing::FindNode(std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk");
}

TEST(SdkClient, TheOfficialTypeScriptSdkClientListsAndCallsTools) {
  const std::string sdk_dir = std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk";
  const std::string node = FindNode();
  if (node.empty()) GTEST_SKIP() << "Node.js (node) is not on PATH; this test needs it";
  if (!std::filesystem::is_directory(sdk_dir + "/node_modules/@modelcontextprotocol/sdk")) {
    GTEST_SKIP() << "the MCP SDK is not installed in tests/e2e/sdk/node_modules; run "
                    "`npm ci --prefix tests/e2e/sdk` from the source folder";
  }
  const CommandResult r = rr::testing::Run({node, sdk_dir + "/sdk_client.mjs", RR_BINARY}, sdk_dir);
  EXPECT_EQ(r.status, 0) << "sdk_client.mjs failed\nstdout:\n" << r.out << "\nstderr:\n" << r.err;
  EXPECT_NE(r.out.find("sdk_client: OK"), std::string::npos) << r.out << r.err;
}

TEST(SdkClient, TheOfficialV2ClientPinnedTo20260728WorksOverStdio) {
  const std::string sdk_dir = std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk";
  const std::string node = FindNode();
  if (node.empty()) GTEST_SKIP() << "Node.js (node) is not on PATH; this test needs it";
  if (!std::filesystem::is_directory(sdk_dir + "/node_modules/@modelcontextprotocol/client")) {
    GTEST_SKIP() << "the MCP SDK v2 client is not installed in tests/e2e/sdk/node_modules; run "
                    "`npm ci --prefix tests/e2e/sdk` from the source folder";
  }
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("README.md", "# Shop\n");
  repo.Commit("Add the shop");
  const CommandResult r = rr::testing::Run(
      {node, sdk_dir + "/sdk_client_v2.mjs", "stdio", RR_BINARY, repo.path()}, sdk_dir);
  EXPECT_EQ(r.status, 0) << "sdk_client_v2.mjs failed\nstdout:\n"
                         << r.out << "\nstderr:\n"
                         << r.err;
  EXPECT_NE(r.out.find("sdk_client_v2: OK (stdio)"), std::string::npos) << r.out << r.err;
}

TEST(SdkClient, TheOfficialV2ClientWorksOverHttpWithAToken) {
  const std::string sdk_dir = std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk";
  const std::string node = FindNode();
  if (node.empty()) GTEST_SKIP() << "Node.js (node) is not on PATH; this test needs it";
  if (!std::filesystem::is_directory(sdk_dir + "/node_modules/@modelcontextprotocol/client")) {
    GTEST_SKIP() << "the MCP SDK v2 client is not installed in tests/e2e/sdk/node_modules; run "
                    "`npm ci --prefix tests/e2e/sdk` from the source folder";
  }
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("README.md", "# Shop\n");
  repo.Commit("Add the shop");
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "repos:\n  - name: shop\n    path: " << repo.path()
                        << "\nhttp:\n  token_env: RR_TEST_TOKEN\n";
  HttpServerProcess server({RR_BINARY, "--config", config, "--http", "127.0.0.1:0"}, tmp.path(),
                           {{"RR_TEST_TOKEN", "sdk-token"}});
  ASSERT_TRUE(server.ok()) << server.Stderr();
  const CommandResult r =
      rr::testing::Run({"/usr/bin/env", "RR_TEST_TOKEN=sdk-token", node,
                        sdk_dir + "/sdk_client_v2.mjs", "http", server.url(), "shop", "5"},
                       sdk_dir);
  EXPECT_EQ(r.status, 0) << "sdk_client_v2.mjs failed\nstdout:\n"
                         << r.out << "\nstderr:\n"
                         << r.err;
  EXPECT_NE(r.out.find("sdk_client_v2: OK (http)"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace sdk_client_test
}  // namespace rr::testing
