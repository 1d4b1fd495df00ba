#include <gtest/gtest.h>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace {

TEST(ReadFile, ReadsTheCommittedFileNotTheWorkTree) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("src/app.py", "print('committed')\n");
  repo.Commit("Add the app");
  repo.Write("src/app.py", "print('changed, not committed')\n");
  repo.Write("untracked.txt", "never added\n");
  ToolHarness h({Served("shop", repo.path())});

  auto a = h.Call("read_file", R"({"repo":"shop","path":"src/app.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_NE(a.text.find("print('committed')"), std::string::npos) << a.text;
  EXPECT_EQ(a.text.find("not committed"), std::string::npos) << a.text;
  EXPECT_EQ(a.text.rfind("shop · main @ ", 0), 0u) << a.text;
  EXPECT_NE(a.text.find("lines 1–1 of 1"), std::string::npos) << a.text;

  auto u = h.Call("read_file", R"({"repo":"shop","path":"untracked.txt"})");
  EXPECT_TRUE(u.is_error);
  EXPECT_NE(u.text.find("no file or folder"), std::string::npos) << u.text;
}

}  // namespace
}  // namespace rr::testing
