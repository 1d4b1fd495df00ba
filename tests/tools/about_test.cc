// about: the server's name, version, status, read_only: true and how many repositories it serves.
#include <Poco/JSON/Array.h>
#include <gtest/gtest.h>

#include <string>

#include "core/version.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace about_test {
namespace {

TEST(About, NameVersionStatusReadOnlyAndRepositoryCount) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  TestRepo docs(tmp / "docs");
  RepoConfig hidden = Served("hidden", docs.path());
  hidden.listed = false;
  ToolHarness h({Served("shop", shop.path()), Served("docs", docs.path()), hidden});

  auto a = h.Call("about");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], std::string("repo-reader ") + kServerVersion);
  EXPECT_TRUE(Has(a.text, "\nstatus: ok\n"));
  EXPECT_TRUE(Has(a.text, "\nread_only: true\n"));
  // As list_repos shows them: a repository configured listed: false is not counted.
  EXPECT_TRUE(Has(a.text, "\nrepositories: 2\n"));
  EXPECT_TRUE(Has(h.Call("list_repos").text, "repo-reader · 2 repositories served\n"));
}

TEST(About, NoRepository) {
  ToolHarness h({});
  auto a = h.Call("about", "{}");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "\nrepositories: 0\n"));
  EXPECT_TRUE(Has(a.text, "\nread_only: true\n"));
}

TEST(About, TakesNothing) {
  ToolHarness h({});
  auto a = h.Call("about", R"({"verbose":true})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "unknown argument `verbose`; about takes no arguments");
}

// Every tool says it is read-only to the client, and never destructive.
TEST(About, EveryToolIsAnnouncedReadOnly) {
  ToolHarness h({});
  auto list = h.Raw(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})", 7);
  ASSERT_TRUE(list);
  auto tools = list->getObject("result")->getArray("tools");
  ASSERT_GE(tools->size(), 5u);
  for (size_t i = 0; i < tools->size(); ++i) {
    auto tool = tools->getObject(static_cast<unsigned>(i));
    auto notes = tool->getObject("annotations");
    ASSERT_TRUE(notes) << tool->getValue<std::string>("name");
    EXPECT_TRUE(notes->getValue<bool>("readOnlyHint")) << tool->getValue<std::string>("name");
    EXPECT_FALSE(notes->getValue<bool>("destructiveHint")) << tool->getValue<std::string>("name");
  }
}

}  // namespace
}  // namespace about_test
}  // namespace rr::testing
