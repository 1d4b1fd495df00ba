#include "core/git/git_repo.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace git_repo_test {
namespace {

TEST(GitRepo, BareRepositoryIsReadLikeAWorkTree) {
  TempDir tmp;
  TestRepo work(tmp / "work");
  work.Write("README.md", "hello from a bare repository\n");
  work.Commit("first");
  rr::testing::Run({"git", "clone", "-q", "--bare", work.path(), tmp / "shop.git"}, tmp.path(),
                   work.Env());
  ToolHarness h({Served("shop", tmp / "shop.git")});
  auto a = h.Call("read_file", R"({"repo":"shop","path":"README.md"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_NE(a.text.find("hello from a bare repository"), std::string::npos) << a.text;
  EXPECT_EQ(a.text.rfind("shop · main @ ", 0), 0u) << a.text;
}

TEST(GitRepo, DefaultBranchIsTheBranchTheCheckoutIsOn) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "on main\n");
  repo.Commit("main");
  repo.Git({"checkout", "-q", "-b", "develop"});
  repo.Write("a.txt", "on develop\n");
  repo.Commit("develop");
  ToolHarness h({Served("shop", repo.path())});
  auto a = h.Call("read_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_NE(a.text.find("on develop"), std::string::npos) << a.text;
  EXPECT_EQ(a.text.rfind("shop · develop @ ", 0), 0u) << a.text;
}

// libgit2 refuses a repository owned by another user unless owner validation is off; nothing
// in a repository is ever executed here, so such repositories are served.
TEST(GitRepo, RepositoryOwnedByAnotherUserOpens) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give the repository to another user";
  TempDir tmp;
  TestRepo repo(tmp / "theirs");
  repo.Write("a.txt", "theirs\n");
  repo.Commit("first");
  ASSERT_EQ(rr::testing::Run({"chown", "-R", "65534:65534", repo.path()}, tmp.path()).status, 0);
  ToolHarness h({Served("theirs", repo.path())});
  auto a = h.Call("read_file", R"({"repo":"theirs","path":"a.txt"})");
  EXPECT_FALSE(a.is_error) << a.text;
  EXPECT_NE(a.text.find("theirs"), std::string::npos) << a.text;
}

// The user's global git configuration (HOME/.gitconfig) is never read: a broken one cannot
// stop the server from reading (libgit2 refuses to open any repository if it reads this file).
TEST(GitRepo, GlobalGitConfigurationIsNotRead) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "read despite the broken global configuration\n");
  repo.Commit("first");
  const std::string home = tmp / "home";
  std::filesystem::create_directories(home + "/.config/git");
  for (const std::string f : {"/.gitconfig", "/.config/git/config"}) {
    std::ofstream(home + f) << "[core\n\tbroken = = =\n";
  }
  McpProcess server({RR_BINARY}, repo.path(),
                    {{"HOME", home}, {"XDG_CONFIG_HOME", home + "/.config"}});
  server.Initialize();
  bool is_error = true;
  const std::string text = server.Call("read_file", R"({"repo":"shop","path":"a.txt"})", &is_error);
  EXPECT_FALSE(is_error) << text;
  EXPECT_NE(text.find("despite the broken"), std::string::npos) << text;
}

}  // namespace
}  // namespace git_repo_test
}  // namespace rr::testing
