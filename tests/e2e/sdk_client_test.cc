// End-to-end with a real MCP client: runs tests/e2e/sdk/sdk_client.mjs, which drives the
// repo-reader binary through the official TypeScript SDK (Client + StdioClientTransport).
// Skipped, saying why, when Node.js or the SDK's node_modules are not installed
// (npm ci --prefix tests/e2e/sdk installs them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace {

// `node` as found on this process's PATH, or "" when there is none.
std::string FindNode() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/node";
    if (access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
      return candidate;
    }
  }
  return "";
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

}  // namespace
}  // namespace rr::testing
