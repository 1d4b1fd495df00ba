// diff on repositories the tests build: both refs named with their commits, the changed files
// compared with `git diff --numstat`, the hunks with git's own patch, since_fork against
// `git merge-base` (a criss-cross history included), the default head, and errors.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/history/history_support.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace diff_test {
namespace {

using history::CountsOf;
using history::DiffPart;
using history::HunksOf;
using history::KindsOf;
using history::NameStatus;
using history::Numstat;

std::string Lines10(const std::string& tag) {
  std::string s;
  for (int i = 1; i <= 10; ++i) s += tag + " " + std::to_string(i) + "\n";
  return s;
}

// main and a feature branch that forked off it, each with commits of its own since.
struct Forked {
  TempDir tmp;
  TestRepo r{tmp / "shop"};
  std::string fork, main_tip, feature_tip;

  Forked() {
    r.Write("src/cart.py", Lines10("cart"));
    r.Write("src/shared.py", Lines10("shared"));
    r.Write("README.md", "shop\n");
    fork = r.Commit("First");
    r.Git({"checkout", "-q", "-b", "feature"});
    r.Write("src/cart.py", Lines10("cart") + "feature line\n");
    r.Write("src/feature.py", "new\n");
    feature_tip = r.Commit("Feature work");
    r.Git({"checkout", "-q", "main"});
    r.Write("src/shared.py", "main line\n" + Lines10("shared"));
    r.Write("README.md", "shop, changed on main\n");
    main_tip = r.Commit("Main work");
  }
};

std::string DiffOf(ToolHarness& h, const std::string& args) {
  auto a = h.Call("diff", R"({"repo":"shop",)" + args + "}");
  EXPECT_FALSE(a.is_error) << a.text;
  return a.text;
}

TEST(Diff, NamesBothRefsWithTheirCommitsAndMatchesGitDiff) {
  Forked f;
  ToolHarness h({Served("shop", f.r.path())});
  const std::string a = DiffOf(h, R"("base":"main","head":"feature")");
  EXPECT_EQ(Lines(a)[0], "shop · main @ " + Short(f.main_tip) + " (2026-01-03) → feature @ " +
                             Short(f.feature_tip) + " (2026-01-02) — 4 changed files");
  // The two refs as they are: main's own changes show too, reversed.
  EXPECT_EQ(CountsOf(a), Numstat(f.r.Git({"diff", "--numstat", "main", "feature"})));
  EXPECT_EQ(KindsOf(a), NameStatus(f.r.Git({"diff", "--name-status", "main", "feature"})));
  const std::string patch =
      f.r.Git({"diff", "--no-ext-diff", "--no-textconv", "-U3", "main", "feature"});
  for (const std::string p : {"README.md", "src/cart.py", "src/feature.py", "src/shared.py"}) {
    EXPECT_EQ(HunksOf(DiffPart(a), p), HunksOf(patch, p)) << p << "\n" << a;
  }
  // Refs of every kind, and ids.
  EXPECT_TRUE(Has(DiffOf(h, "\"base\":\"" + f.fork.substr(0, 9) + "\",\"head\":\"feature~0\""),
                  "— 2 changed files"));
}

TEST(Diff, HeadDefaultsToTheDefaultBranch) {
  Forked f;
  ToolHarness h({Served("shop", f.r.path())});
  const std::string a = DiffOf(h, R"("base":"feature")");
  EXPECT_EQ(Lines(a)[0], "shop · feature @ " + Short(f.feature_tip) + " (2026-01-02) → main @ " +
                             Short(f.main_tip) + " (2026-01-03) — 4 changed files");
  EXPECT_EQ(CountsOf(a), Numstat(f.r.Git({"diff", "--numstat", "feature", "main"})));
  EXPECT_TRUE(Has(DiffOf(h, R"("base":"main")"), "— 0 changed files\n(no files changed)"));
}

TEST(Diff, SinceForkComparesFromTheMergeBaseGitFinds) {
  Forked f;
  ToolHarness h({Served("shop", f.r.path())});
  const std::string a = DiffOf(h, R"("base":"main","head":"feature","since_fork":true)");
  const std::string base = f.r.Git({"merge-base", "main", "feature"});
  ASSERT_EQ(base, f.fork);
  EXPECT_EQ(Lines(a)[1], "merge base: " + Short(base) +
                             " (2026-01-01) — shown: what head changed since it forked off base");
  // Only what the feature changed: what a pull request shows, as git's three-dot diff does.
  EXPECT_EQ(CountsOf(a), Numstat(f.r.Git({"diff", "--numstat", "main...feature"})));
  EXPECT_EQ(KindsOf(a),
            (std::map<std::string, char>{{"src/cart.py", 'M'}, {"src/feature.py", 'A'}}));
  EXPECT_EQ(HunksOf(DiffPart(a), "src/cart.py"),
            HunksOf(f.r.Git({"diff", "main...feature"}), "src/cart.py"));
  // Without since_fork there is no merge base line.
  EXPECT_TRUE(HasNot(DiffOf(h, R"("base":"main","head":"feature")"), "merge base"));
}

TEST(Diff, WithSeveralBestCommonAncestorsTheMergeBaseIsTheOneGitPrints) {
  // A criss-cross history: x and y each merge the other side's first commit, so both of those
  // are best common ancestors of x and y. git prints one; which one depends on their dates, so
  // the history is built both ways round.
  for (const bool left_first : {true, false}) {
    TempDir tmp;
    TestRepo r(tmp / "shop");
    r.Write("a.txt", "base\n");
    r.Commit("Base");
    for (const std::string& side : left_first ? std::vector<std::string>{"left", "right"}
                                              : std::vector<std::string>{"right", "left"}) {
      r.Git({"checkout", "-q", "-b", side, "main"});
      r.Write(side + ".txt", side + "\n");
      r.Commit(side);
    }
    r.Git({"checkout", "-q", "-b", "x", "left"});
    r.Git({"merge", "-q", "--no-ff", "-m", "x", "right"});
    r.Write("x.txt", "x\n");
    r.Commit("On x");
    r.Git({"checkout", "-q", "-b", "y", "right"});
    r.Git({"merge", "-q", "--no-ff", "-m", "y", "left"});
    r.Write("y.txt", "y\n");
    r.Commit("On y");
    ASSERT_NE(r.Git({"merge-base", "--all", "x", "y"}).find('\n'), std::string::npos)
        << "the history must have two best common ancestors";
    ToolHarness h({Served("shop", r.path())});
    for (const auto& [base, head] : {std::pair<std::string, std::string>{"x", "y"}, {"y", "x"}}) {
      const std::string git_base = r.Git({"merge-base", base, head});
      const std::string a =
          DiffOf(h, "\"base\":\"" + base + "\",\"head\":\"" + head + "\",\"since_fork\":true");
      EXPECT_TRUE(Has(a, "\nmerge base: " + Short(git_base) + " "))
          << (left_first ? "left first: " : "right first: ") << base << " " << head << "\n"
          << a;
      EXPECT_EQ(CountsOf(a), Numstat(r.Git({"diff", "--numstat", git_base, head}))) << a;
    }
  }
}

TEST(Diff, UnrelatedHistoriesHaveNoMergeBaseAndSaySo) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  r.Commit("First");
  r.Git({"checkout", "-q", "--orphan", "pages"});
  r.Git({"rm", "-q", "-rf", "."});
  r.Write("index.html", "<p>pages</p>\n");
  r.Commit("Pages");
  r.Git({"checkout", "-q", "main"});
  ToolHarness h({Served("shop", r.path())});
  auto a = h.Call("diff", R"({"repo":"shop","base":"main","head":"pages","since_fork":true})");
  EXPECT_TRUE(a.is_error);
  EXPECT_TRUE(Has(a.text, "`main` and `pages` share no history: they have no merge base"))
      << a.text;
  EXPECT_TRUE(Has(a.text, "leave since_fork out"));
  // As they are, they compare.
  EXPECT_EQ(CountsOf(DiffOf(h, R"("base":"main","head":"pages")")),
            Numstat(r.Git({"diff", "--numstat", "main", "pages"})));
}

TEST(Diff, PathAndFilesOnlyNarrowTheAnswer) {
  Forked f;
  ToolHarness h({Served("shop", f.r.path())});
  const std::string a =
      DiffOf(h, R"("base":"main","head":"feature","path":"src","files_only":true)");
  EXPECT_EQ(Lines(a)[0], "shop · main @ " + Short(f.main_tip) + " (2026-01-03) → feature @ " +
                             Short(f.feature_tip) + " (2026-01-02) · src — 3 changed files");
  EXPECT_EQ(KindsOf(a),
            (std::map<std::string, char>{
                {"src/cart.py", 'M'}, {"src/feature.py", 'A'}, {"src/shared.py", 'M'}}));
  EXPECT_TRUE(HasNot(a, "diff --git"));
  EXPECT_EQ(CountsOf(a), Numstat(f.r.Git({"diff", "--numstat", "main", "feature", "--", "src"})));
}

TEST(Diff, ErrorsSayWhichRefWasWrongAndHowToAsk) {
  Forked f;
  ToolHarness h({Served("shop", f.r.path())});
  auto base = h.Call("diff", R"({"repo":"shop","base":"nope"})");
  EXPECT_TRUE(base.is_error);
  EXPECT_TRUE(Has(base.text, "base: ref `nope` is not a branch, tag or commit of `shop`"))
      << base.text;
  auto head = h.Call("diff", R"({"repo":"shop","base":"main","head":"nope"})");
  EXPECT_TRUE(head.is_error);
  EXPECT_TRUE(Has(head.text, "head: ref `nope` is not a branch")) << head.text;
  auto missing = h.Call("diff", R"({"repo":"shop","head":"main"})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(Has(missing.text, "argument `base` is required")) << missing.text;
  auto range = h.Call("diff", R"({"repo":"shop","base":"main..feature"})");
  EXPECT_TRUE(range.is_error);
  auto typed = h.Call("diff", R"({"repo":"shop","base":"main","since_fork":1})");
  EXPECT_TRUE(typed.is_error);
  EXPECT_TRUE(Has(typed.text, "argument `since_fork` must be true or false")) << typed.text;
}

}  // namespace
}  // namespace diff_test
}  // namespace rr::testing
