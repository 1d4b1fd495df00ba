// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// tests/e2e/sdk/package-lock.json) against the real binary over HTTP: every scenario of
// tests/e2e/conformance/scenarios.txt at its revision, with the checks of
// conformance/expected-failures.yaml allowed to fail (and no other). Which scenarios run and why
// the others do not: tests/e2e/conformance/README.md. Skipped, saying why, when Node.js or the
// suite is not installed (npm ci --prefix tests/e2e/sdk; scripts/test.sh does).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"
#include "tests/testkit/node.h"

namespace rr::testing {
namespace conformance_test {
namespace {

const std::string kSdkDir = std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk";
const std::string kDir = std::string(RR_SOURCE_DIR) + "/tests/e2e/conformance";

// scenarios.txt's lines whose revision is (`modern`) or is not 2026-07-28 (an extension's
// scenario, "extension", runs at 2026-07-28: the suite's default for one).
std::vector<std::pair<std::string, std::string>> Scenarios(bool modern) {
  std::ifstream in(kDir + "/scenarios.txt");
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string scenario, revision;
    words >> scenario >> revision;
    if ((revision == "2026-07-28" || revision == "extension") == modern) {
      out.emplace_back(scenario, revision);
    }
  }
  return out;
}

void RunScenarios(bool modern) {
  const std::string why = WhyNoNode(kSdkDir, "@modelcontextprotocol/conformance");
  if (!why.empty()) GTEST_SKIP() << why;
  const auto scenarios = Scenarios(modern);
  ASSERT_GE(scenarios.size(), 5u) << "tests/e2e/conformance/scenarios.txt lists too few";

  TempDir tmp;
  TestRepo shop(tmp / "shop");
  shop.Write("README.md", "# Shop\n");
  // A skill, for the Skills extension's scenarios (they read what skills/list offers).
  shop.Write(
      ".claude/skills/refund-flow/SKILL.md",
      "---\nname: refund-flow\ndescription: Issue a refund for one order.\n---\n# Refunds\n");
  shop.Write(".claude/skills/refund-flow/reference.md", "POST /refunds\n");
  shop.Commit("Add the shop");
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "repos:\n  - name: shop\n    path: " << shop.path() << "\n";
  // On loopback without a token, as the DNS rebinding scenario requires.
  HttpServerProcess server({RR_BINARY, "--config", config, "--http", "127.0.0.1:0"}, tmp.path());
  ASSERT_TRUE(server.ok()) << server.Stderr();

  const std::string cli = kSdkDir + "/node_modules/@modelcontextprotocol/conformance/dist/index.js";
  for (const auto& [scenario, revision] : scenarios) {
    std::vector<std::string> command = {FindNode(kSdkDir), cli,          "server", "--url",
                                        server.url(),      "--scenario", scenario};
    if (revision != "extension") command.insert(command.end(), {"--spec-version", revision});
    command.insert(command.end(), {"--expected-failures", kDir + "/expected-failures.yaml",
                                   "--timeout", "20000", "-o", tmp / "results"});
    const CommandResult r = Run(command, tmp.path(), {{"HOME", tmp.path()}, {"NO_COLOR", "1"}});
    EXPECT_EQ(r.status, 0) << scenario << " at " << revision << " failed:\n"
                           << r.out << "\n"
                           << r.err;
    // It ran (a scenario not applicable at the revision is skipped with status 0).
    EXPECT_EQ(r.out.find("SKIPPED: scenario"), std::string::npos)
        << scenario << " at " << revision << "\n"
        << r.out;
    EXPECT_NE(r.out.find("Passed: "), std::string::npos) << scenario << " at " << revision << "\n"
                                                         << r.out << r.err;
  }
}

TEST(Conformance, ScenariosOfThe2025RevisionsPass) { RunScenarios(false); }

TEST(Conformance, ScenariosOf20260728Pass) { RunScenarios(true); }

}  // namespace
}  // namespace conformance_test
}  // namespace rr::testing
