// A reading call is bounded in time, and a folder's visibility check in work, even on a tree
// whose folders share subtrees: few objects, a hundred million paths.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace call_limits_test {
namespace {

// 100^4 files: each level's 100 folders are one shared tree, so git stores a few objects.
std::string HundredMillionFiles(TestRepo& repo) {
  const std::string blob = repo.Blob("x\n");
  std::vector<TestRepo::RawEntry> entries;
  for (int i = 0; i < 100; ++i) entries.push_back({"100644", "f" + std::to_string(100 + i), blob});
  std::string tree = repo.RawTree(entries);
  for (int level = 0; level < 3; ++level) {
    entries.clear();
    for (int i = 0; i < 100; ++i) entries.push_back({"40000", "d" + std::to_string(100 + i), tree});
    tree = repo.RawTree(entries);
  }
  const std::string commit = repo.CommitTree(tree, "A hundred million files");
  repo.Git({"update-ref", "refs/heads/main", commit});
  return commit;
}

TEST(CallLimits, ACallIsStoppedWhenItsTimeIsUpAndSaysSo) {
  TempDir tmp;
  TestRepo repo(tmp / "huge");
  HundredMillionFiles(repo);
  McpServer::Options options;
  options.call_budget = std::chrono::seconds(1);
  ToolHarness h({Served("huge", repo.path())}, 40000, {}, options);
  const auto start = std::chrono::steady_clock::now();
  auto a = h.Call("list_files", R"({"repo":"huge","recursive":true})");
  const auto spent = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(a.is_error) << a.text.substr(0, 300);
  EXPECT_EQ(a.text,
            "the call was stopped after 1 second, its time limit; narrow it (a path, a pattern) "
            "and call again");
  // Liveness only: stopped at its limit, not after walking a hundred million paths.
  EXPECT_LT(spent, std::chrono::seconds(20));
}

TEST(CallLimits, VisibilityOfAFolderWithNothingServedIsBoundedWork) {
  TempDir tmp;
  TestRepo repo(tmp / "huge");
  HundredMillionFiles(repo);
  RepoConfig rc = Served("huge", repo.path());
  rc.exclude = {"f*"};  // every file excluded: no folder holds anything served
  ToolHarness h({rc});
  auto a = h.Call("list_files", R"({"repo":"huge"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_NE(a.text.find("— 0 folders, 0 files\n(nothing served here)\n[100 subfolders were not "
                        "shown: checking whether they hold anything served took more work than "
                        "one call may spend — list them by path]"),
            std::string::npos)
      << a.text;
}

}  // namespace
}  // namespace call_limits_test
}  // namespace rr::testing
