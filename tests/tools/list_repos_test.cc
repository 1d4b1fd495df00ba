// list_repos on repositories the tests build: name, description, default branch @ commit (date)
// — subject, counts, partial serving, guidance, listed: false, a repository with no commit yet.
#include <gtest/gtest.h>

#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_repos_test {
namespace {

class ListRepos : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo shop{tmp / "shop"};
    TestRepo docs{tmp / "docs"};
    TestRepo hidden{tmp / "hidden"};
    TestRepo empty{tmp / "empty"};
    std::string shop_head, docs_head, hidden_head;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    s_->shop.Write("AGENTS.md", "Run the tests before you commit.\n");
    s_->shop.Write("src/app.py", "app\n");
    s_->shop.Commit("Start the shop");
    s_->shop.Git({"tag", "v0.1"});
    s_->shop.Git({"branch", "release/1"});
    s_->shop.Write("src/app.py", "app 2\n");
    s_->shop_head = s_->shop.Commit("Add the catalog and assets; drop the legacy config");
    s_->shop.Git({"tag", "-a", "v0.2", "-m", "0.2"});
    s_->shop.Git({"update-ref", "refs/remotes/origin/main", s_->shop_head});

    // Guidance outside what is served is not announced.
    s_->docs.Write("AGENTS.md", "guidance\n");
    s_->docs.Write("src/guide.md", "guide\n");
    s_->docs_head = s_->docs.Commit("Write the guide");

    s_->hidden.Write("secret-plan.md", "the plan\n");
    s_->hidden_head = s_->hidden.Commit("Plan");
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::vector<RepoConfig> Repos() {
    RepoConfig shop = Served("shop", s_->shop.path());
    shop.description = "A made-up shop.";
    RepoConfig docs = Served("docs", s_->docs.path());
    docs.include = {"src/**"};
    RepoConfig hidden = Served("hidden", s_->hidden.path());
    hidden.listed = false;
    hidden.description = "Not listed.";
    return {shop, docs, hidden, Served("empty", s_->empty.path())};
  }

  static Shared* s_;
  ToolHarness h_{Repos()};
};
ListRepos::Shared* ListRepos::s_ = nullptr;

TEST_F(ListRepos, DescribesEveryListedRepository) {
  auto a = h_.Call("list_repos");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            "repo-reader · 3 repositories served\n"
            "## shop\n"
            "A made-up shop.\n"
            "Default branch: main @ " +
                Short(s_->shop_head) +
                " (2026-01-02) — Add the catalog and assets; drop the legacy config\n"
                "2 branches, 1 remote-tracking branch, 2 tags — list_refs lists them\n"
                "Carries guidance for agents: AGENTS.md.\n"
                "\n"
                "## docs\n"
                "Default branch: main @ " +
                Short(s_->docs_head) +
                " (2026-01-01) — Write the guide\n"
                "1 branch, 0 tags — list_refs lists them\n"
                "Only part of it is served (include / exclude in the configuration).\n"
                "\n"
                "## empty\n"
                "Default branch: main — no commit yet\n"
                "0 branches, 0 tags — list_refs lists them");
}

TEST_F(ListRepos, AnUnlistedRepositoryIsHiddenButReadableByName) {
  auto a = h_.Call("list_repos");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(HasNot(a.text, "hidden"));
  EXPECT_TRUE(HasNot(a.text, "Not listed."));

  auto r = h_.Call("read_file", R"({"repo":"hidden","path":"secret-plan.md"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text, "hidden · main @ " + Short(s_->hidden_head) +
                        " (2026-01-01) · secret-plan.md · lines 1–1 of 1\n1  the plan");

  // Nor is it named when an agent asks for a repository that is not there.
  auto unknown = h_.Call("list_files", R"({"repo":"nope"})");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.text,
            "no repository named `nope` is served; served: shop, docs, empty — list_repos lists "
            "them");
}

TEST_F(ListRepos, ARepositoryWithNoCommitYetCannotBeRead) {
  auto a = h_.Call("list_files", R"({"repo":"empty"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "repository `empty` has no commit yet on its default branch `main`; there is nothing "
            "to read");
}

TEST_F(ListRepos, NoRepositoryListed) {
  RepoConfig hidden = Served("hidden", s_->hidden.path());
  hidden.listed = false;
  ToolHarness h({hidden});
  auto a = h.Call("list_repos");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            "repo-reader · 0 repositories served\n"
            "No repository is listed (see the configuration's repos).");
}

}  // namespace
}  // namespace list_repos_test
}  // namespace rr::testing
