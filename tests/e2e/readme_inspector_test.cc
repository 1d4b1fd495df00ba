// The README's MCP Inspector command-line examples, run as written: each `npx
// @modelcontextprotocol/inspector --cli ...` line of README.md (continuation lines joined) is
// handed to bash in a git repository whose folder has a name of its own, with the built
// repo-reader on PATH. Only `npx`'s download is replaced: `npx @modelcontextprotocol/inspector`
// runs the Inspector pinned in tests/e2e/inspector (npm ci --prefix tests/e2e/inspector), on the
// Node.js 22 of tests/e2e/sdk (the Inspector wants Node.js 22.19 or later).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/node.h"

namespace rr::testing {
namespace readme_inspector_test {
namespace {

const std::string kSource = RR_SOURCE_DIR;

// The README's Inspector CLI command lines, each with its continuation lines joined.
std::vector<std::string> ReadmeInspectorCliLines() {
  std::ifstream in(kSource + "/README.md");
  std::vector<std::string> found;
  std::string line, joined;
  bool open = false;
  while (std::getline(in, line)) {
    if (!open && line.rfind("npx @modelcontextprotocol/inspector --cli", 0) != 0) continue;
    const bool more = !line.empty() && line.back() == '\\';
    joined += more ? line.substr(0, line.size() - 1) : line;
    open = more;
    if (!open) {
      found.push_back(joined);
      joined.clear();
    }
  }
  return found;
}

TEST(ReadmeInspector, TheReadmeCliExamplesWorkAsWritten) {
  const std::string sdk = kSource + "/tests/e2e/sdk";
  const std::string inspector =
      kSource + "/tests/e2e/inspector/node_modules/@modelcontextprotocol/inspector";
  const std::string node = FindNode(sdk);
  if (node.empty()) GTEST_SKIP() << "Node.js (node) is not on PATH; this test needs it";
  if (!std::filesystem::is_directory(inspector)) {
    GTEST_SKIP() << "the MCP Inspector is not installed; run `npm ci --prefix tests/e2e/inspector` "
                    "from the source folder (scripts/test.sh does)";
  }
  const std::vector<std::string> lines = ReadmeInspectorCliLines();
  ASSERT_GE(lines.size(), 2u) << "README.md has lost its Inspector CLI examples";

  TempDir tmp;
  // A folder name the README cannot know: the examples must name the repository the way the
  // server's default start does (after its folder).
  TestRepo repo(tmp / "orders-service");
  repo.Write("README.md", "# Orders\nThe orders service, read by the Inspector.\n");
  repo.Commit("first");
  std::filesystem::create_directories(tmp / "bin");
  std::filesystem::create_symlink(RR_BINARY, tmp / "bin/repo-reader");
  std::filesystem::create_directories(tmp / "home");

  const std::string node_dir = std::filesystem::path(node).parent_path().string();
  const std::string npx =
      "npx() { if [ \"$1\" != @modelcontextprotocol/inspector ]; then echo \"npx $1?\" >&2; "
      "return 2; fi; shift; node '" +
      inspector + "/clients/launcher/build/index.js' \"$@\"; }\n";
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    const CommandResult r = rr::testing::Run(
        {"/bin/bash", "-c", npx + line}, repo.path(),
        {{"PATH", node_dir + ":" + (tmp / "bin") + ":/usr/bin:/bin"}, {"HOME", tmp / "home"}});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    if (line.find("tools/list") != std::string::npos) {
      EXPECT_NE(r.out.find("\"name\": \"read_file\""), std::string::npos) << r.out;
    }
    if (line.find("--tool-name read_file") != std::string::npos) {
      EXPECT_NE(r.out.find("The orders service, read by the Inspector."), std::string::npos)
          << r.out << r.err;
      EXPECT_NE(r.out.find("\"isError\": false"), std::string::npos) << r.out;
    }
  }
}

// The README's client examples start the server the way Inspector 2.x and today's clients
// expect: the server's own options after `--`, never as the Inspector's.
TEST(ReadmeInspector, NoExampleHandsTheServersOptionsToTheInspector) {
  std::ifstream in(kSource + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  std::istringstream lines(ss.str());
  std::string line;
  int seen = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("npx @modelcontextprotocol/inspector", 0) != 0) continue;
    ++seen;
    const size_t dashes = line.find(" -- ");
    const size_t config = line.find("--config");
    if (config != std::string::npos) {
      EXPECT_TRUE(dashes != std::string::npos && dashes < config) << line;
    }
  }
  EXPECT_GE(seen, 3);
}

}  // namespace
}  // namespace readme_inspector_test
}  // namespace rr::testing
