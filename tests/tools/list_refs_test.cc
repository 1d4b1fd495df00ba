// list_refs on a repository the tests build: kinds, patterns, newest first, the default branch,
// annotated tags by their commit, remote-tracking branches with the branches.
#include <gtest/gtest.h>

#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_refs_test {
namespace {

// main: c1 (2026-01-01) - c2 - c5; release/2.1 at c3, release/2.2 at c4 (from c2); hotfix at
// c1; origin/main at c2 (and origin/HEAD, a symbolic ref, naming it). Tags: v1.0 (lightweight)
// at c1, v1.1 (annotated) at c2, v10.0 (lightweight) at c4, v2.0 (annotated) at c5.
class ListRefs : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    TestRepo empty{tmp / "empty"};
    std::string c1, c2, c3, c4, c5;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("a.txt", "1\n");
    s_->c1 = r.Commit("One");
    r.Git({"tag", "v1.0"});
    r.Git({"branch", "hotfix"});
    r.Write("a.txt", "2\n");
    s_->c2 = r.Commit("Two");
    r.Git({"tag", "-a", "v1.1", "-m", "Release 1.1"});
    r.Git({"update-ref", "refs/remotes/origin/main", s_->c2});
    r.Git({"symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"});
    r.Git({"checkout", "-q", "-b", "release/2.1"});
    r.Write("a.txt", "3\n");
    s_->c3 = r.Commit("Three");
    r.Git({"checkout", "-q", "-b", "release/2.2"});
    r.Write("a.txt", "4\n");
    s_->c4 = r.Commit("Four");
    r.Git({"tag", "v10.0"});
    r.Git({"checkout", "-q", "main"});
    r.Write("a.txt", "5\n");
    s_->c5 = r.Commit("Five");
    r.Git({"tag", "-a", "v2.0", "-m", "Release 2.0"});
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::string At(const std::string& id, int day, const std::string& subject) {
    return "  " + Short(id) + " 2026-01-0" + std::to_string(day) + "  " + subject;
  }
  static std::string Main() { return "* main" + At(s_->c5, 5, "Five"); }
  static std::string V20() { return "  v2.0 (annotated tag)" + At(s_->c5, 5, "Five"); }
  static std::string Rel22() { return "  release/2.2" + At(s_->c4, 4, "Four"); }
  static std::string V100() { return "  v10.0 (tag)" + At(s_->c4, 4, "Four"); }
  static std::string Rel21() { return "  release/2.1" + At(s_->c3, 3, "Three"); }
  static std::string Origin() { return "  origin/main (remote-tracking)" + At(s_->c2, 2, "Two"); }
  static std::string V11() { return "  v1.1 (annotated tag)" + At(s_->c2, 2, "Two"); }
  static std::string Hotfix() { return "  hotfix" + At(s_->c1, 1, "One"); }
  static std::string V10() { return "  v1.0 (tag)" + At(s_->c1, 1, "One"); }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path()), Served("empty", s_->empty.path())}};
};
ListRefs::Shared* ListRefs::s_ = nullptr;

TEST_F(ListRefs, AllNewestFirstWithTheDefaultBranchMarked) {
  auto a = h_.Call("list_refs", R"({"repo":"shop"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · 5 branches, 4 tags, newest first — * marks the default branch, main\n" +
                        Main() + "\n" + V20() + "\n" + Rel22() + "\n" + V100() + "\n" + Rel21() +
                        "\n" + Origin() + "\n" + V11() + "\n" + Hotfix() + "\n" + V10());
  EXPECT_EQ(h_.Call("list_refs", R"({"repo":"shop","kind":"all"})").text, a.text);
}

TEST_F(ListRefs, AnAnnotatedTagIsShownByItsCommit) {
  const std::string tag_object = s_->repo.Rev("refs/tags/v2.0");
  ASSERT_NE(tag_object, s_->c5);
  auto a = h_.Call("list_refs", R"({"repo":"shop","kind":"tags"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(HasNot(a.text, Short(tag_object)));
  EXPECT_TRUE(Has(a.text, V20()));
}

TEST_F(ListRefs, BranchesIncludeRemoteTrackingOnes) {
  auto a = h_.Call("list_refs", R"({"repo":"shop","kind":"branches"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · 5 branches, newest first — * marks the default branch, main\n" +
                        Main() + "\n" + Rel22() + "\n" + Rel21() + "\n" + Origin() + "\n" +
                        Hotfix());
  // origin/HEAD, a symbolic ref, is not a branch of its own.
  EXPECT_TRUE(HasNot(a.text, "origin/HEAD"));
}

TEST_F(ListRefs, Tags) {
  auto a = h_.Call("list_refs", R"({"repo":"shop","kind":"tags"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · 4 tags, newest first — * marks the default branch, main\n" + V20() +
                        "\n" + V100() + "\n" + V11() + "\n" + V10());
}

TEST_F(ListRefs, PatternGlobs) {
  auto rel = h_.Call("list_refs", R"({"repo":"shop","pattern":"release/*"})");
  ASSERT_FALSE(rel.is_error) << rel.text;
  EXPECT_EQ(rel.text,
            "shop · 2 branches, 0 tags matching `release/*`, newest first — * marks the default "
            "branch, main\n" +
                Rel22() + "\n" + Rel21());

  auto v1 = h_.Call("list_refs", R"({"repo":"shop","pattern":"v1.*"})");
  ASSERT_FALSE(v1.is_error) << v1.text;
  EXPECT_EQ(v1.text,
            "shop · 0 branches, 2 tags matching `v1.*`, newest first — * marks the default "
            "branch, main\n" +
                V11() + "\n" + V10());

  auto tags = h_.Call("list_refs", R"({"repo":"shop","kind":"tags","pattern":"v?.?"})");
  ASSERT_FALSE(tags.is_error) << tags.text;
  EXPECT_EQ(tags.text,
            "shop · 3 tags matching `v?.?`, newest first — * marks the default branch, main\n" +
                V20() + "\n" + V11() + "\n" + V10());

  auto none = h_.Call("list_refs", R"({"repo":"shop","pattern":"nothing-*"})");
  ASSERT_FALSE(none.is_error) << none.text;
  EXPECT_EQ(none.text,
            "shop · 0 branches, 0 tags matching `nothing-*`, newest first — * marks the default "
            "branch, main\n"
            "No ref matches that pattern.");
}

// A pattern is matched against every ref's name, its cost the two lengths multiplied: at most
// 1,024 bytes, as every glob; a longer one is refused without being echoed.
TEST_F(ListRefs, APatternPastOneKilobyteIsRefusedAndNotEchoed) {
  const std::string longest = "v" + std::string(1023, '*');
  auto ok = h_.Call("list_refs", R"({"repo":"shop","pattern":")" + longest + R"("})");
  ASSERT_FALSE(ok.is_error) << ok.text;
  EXPECT_NE(ok.text.find("4 tags matching"), std::string::npos) << ok.text.substr(0, 300);

  auto refused = h_.Call("list_refs", R"({"repo":"shop","pattern":")" + longest + R"(*"})");
  ASSERT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("1,025 bytes long; a pattern is at most 1,024 bytes"),
            std::string::npos)
      << refused.text;
  EXPECT_LT(refused.text.size(), 300u) << refused.text;
}

TEST_F(ListRefs, EveryNameShownCanBeGivenAsRef) {
  for (const char* ref : {"main", "v2.0", "release/2.2", "v10.0", "release/2.1", "origin/main",
                          "v1.1", "hotfix", "v1.0"}) {
    auto a =
        h_.Call("read_file", std::string(R"({"repo":"shop","path":"a.txt","ref":")") + ref + "\"}");
    EXPECT_FALSE(a.is_error) << ref << ": " << a.text;
    EXPECT_EQ(a.text.rfind(std::string("shop · ") + ref + " @ ", 0), 0u) << a.text;
  }
}

TEST_F(ListRefs, ARepositoryWithNoCommitYet) {
  auto a = h_.Call("list_refs", R"({"repo":"empty"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            "empty · 0 branches, 0 tags, newest first — * marks the default branch, main\n"
            "No branches or tags.");
}

}  // namespace
}  // namespace list_refs_test
}  // namespace rr::testing
