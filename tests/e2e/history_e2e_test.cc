// End-to-end: the history tools (log, show_commit, diff, blame, find_commits) through the real
// binary over stdio, started in a repository as a client starts it, on a history with a branch,
// a tag, a merge and a rename. Each tool's own suite checks it in depth (tests/history); this
// proves they are offered, wired and answering as an agent sees them.
#include <gtest/gtest.h>

#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing {
namespace history_e2e_test {
namespace {

class HistoryEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.Write("src/cart.py", "def total(items):\n    return sum(items)\n");
    first = repo.Commit("Add the cart");
    repo.Git({"tag", "v1.0"});
    repo.Git({"checkout", "-q", "-b", "feature"});
    repo.Write("src/cart.py",
               "def total(items):\n    if not items:\n        return 0\n    return sum(items)\n");
    fix = repo.Commit("Fix the cart total for empty carts");
    repo.Git({"checkout", "-q", "main"});
    repo.Write("README.md", "# Shop\n");
    readme = repo.Commit("Add a README");
    repo.Git({"merge", "-q", "--no-ff", "-m", "Merge the cart fix", "feature"});
    merge = repo.Rev("HEAD");
    repo.Git({"tag", "v1.1"});
  }

  std::string Call(const std::string& tool, const std::string& args, bool* is_error = nullptr) {
    McpProcess p({RR_BINARY}, repo.path());
    p.Initialize();
    return p.Call(tool, args, is_error);
  }

  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  std::string first, fix, readme, merge;
};

TEST_F(HistoryEndToEnd, LogListsTheHistoryNewestFirst) {
  const std::string text = Call("log", R"({})");
  const size_t m = text.find(merge.substr(0, 12));
  const size_t r = text.find(readme.substr(0, 12));
  const size_t f = text.find(fix.substr(0, 12));
  const size_t a = text.find(first.substr(0, 12));
  ASSERT_NE(m, std::string::npos) << text;
  EXPECT_LT(m, r);
  EXPECT_LT(r, f);
  EXPECT_LT(f, a);
  EXPECT_NE(text.find("4 commits, newest first"), std::string::npos) << text;
  const std::string one = Call("log", R"({"path":"src/cart.py"})");
  EXPECT_EQ(one.find(readme.substr(0, 12)), std::string::npos) << one;
  EXPECT_NE(one.find(fix.substr(0, 12)), std::string::npos) << one;
}

TEST_F(HistoryEndToEnd, ShowCommitGivesTheMessageFilesAndDiff) {
  const std::string text = Call("show_commit", "{\"commit\":\"" + fix + "\"}");
  EXPECT_NE(text.find(fix), std::string::npos) << text;
  EXPECT_NE(text.find("Fix the cart total for empty carts"), std::string::npos) << text;
  EXPECT_NE(text.find("src/cart.py"), std::string::npos) << text;
  EXPECT_NE(text.find("+    if not items:"), std::string::npos) << text;
}

TEST_F(HistoryEndToEnd, DiffComparesTwoRefsAndSinceFork) {
  const std::string text = Call("diff", R"({"base":"v1.0","head":"v1.1","files_only":true})");
  EXPECT_NE(text.find("README.md"), std::string::npos) << text;
  EXPECT_NE(text.find("src/cart.py"), std::string::npos) << text;
  const std::string fork = Call("diff", R"({"base":"main~1","head":"feature","since_fork":true})");
  EXPECT_NE(fork.find(first.substr(0, 12)), std::string::npos) << fork;  // the merge base
  EXPECT_EQ(fork.find("README.md"), std::string::npos) << fork;
  EXPECT_NE(fork.find("+        return 0"), std::string::npos) << fork;
}

TEST_F(HistoryEndToEnd, BlameGroupsLinesUnderTheirCommits) {
  const std::string text = Call("blame", R"({"path":"src/cart.py"})");
  EXPECT_NE(text.find(fix.substr(0, 12) + " 2026-01-02"), std::string::npos) << text;
  EXPECT_NE(text.find(first.substr(0, 12) + " 2026-01-01"), std::string::npos) << text;
  EXPECT_NE(text.find("Fix the cart total for empty carts"), std::string::npos) << text;
  EXPECT_NE(text.find("if not items:"), std::string::npos) << text;
}

TEST_F(HistoryEndToEnd, FindCommitsSaysWhereACommitIs) {
  const std::string text = Call("find_commits", R"({"message":"cart total"})");
  EXPECT_NE(text.find(fix.substr(0, 12)), std::string::npos) << text;
  EXPECT_NE(text.find("on main"), std::string::npos) << text;
  EXPECT_NE(text.find("first released in v1.1"), std::string::npos) << text;
}

TEST_F(HistoryEndToEnd, AnExcludedOrBadArgumentIsAClearToolError) {
  bool is_error = false;
  const std::string text = Call("log", R"j({"message":"(?=x)"})j", &is_error);
  EXPECT_TRUE(is_error);
  EXPECT_NE(text.find("message"), std::string::npos) << text;
}

}  // namespace
}  // namespace history_e2e_test
}  // namespace rr::testing
