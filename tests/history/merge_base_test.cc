// MergeBases (diff's since_fork) against `git merge-base --all`, with and without a
// commit-graph: forks, criss-cross merges (two best common ancestors), unrelated histories, a
// commit and its own ancestor.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/history/history.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace merge_base_test {
namespace {

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> GitBases(const TestRepo& repo, const std::string& a,
                                  const std::string& b) {
  auto r = repo.TryGit({"merge-base", "--all", a, b});
  std::vector<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::vector<std::string> OurBases(const TestRepo& repo, const std::string& a,
                                  const std::string& b) {
  RepoSettings s;
  s.name = "r";
  s.path = repo.path();
  ServedRepo served(s);
  auto reader = served.Open();
  EXPECT_TRUE(reader) << reader.error();
  auto at_a = reader.value().At(a);
  auto at_b = reader.value().At(b);
  EXPECT_TRUE(at_a && at_b);
  auto bases = MergeBases(reader.value(), at_a->commit.id, at_b->commit.id, StopToken());
  EXPECT_TRUE(bases) << bases.error();
  std::vector<std::string> out;
  for (const auto& id : *bases) out.push_back(id.Hex());
  return out;
}

// A history with a fork, a criss-cross and an unrelated root.
class MergeBaseTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    repo.Write("a.txt", "1\n");
    base = repo.Commit("base");
    repo.Git({"checkout", "-q", "-b", "side"});
    repo.Write("b.txt", "side 1\n");
    side1 = repo.Commit("side 1");
    repo.Git({"checkout", "-q", "main"});
    repo.Write("a.txt", "2\n");
    main1 = repo.Commit("main 1");
    // Criss-cross: each side merges the other's first commit.
    repo.Git({"checkout", "-q", "-b", "x", main1});
    repo.Git({"merge", "-q", "--no-edit", side1});
    x = repo.Rev("HEAD");
    repo.Git({"checkout", "-q", "-b", "y", side1});
    repo.Git({"merge", "-q", "--no-edit", main1});
    y = repo.Rev("HEAD");
    repo.Git({"checkout", "-q", "x"});
    repo.Write("c.txt", "x\n");
    x2 = repo.Commit("x 2");
    repo.Git({"checkout", "-q", "y"});
    repo.Write("d.txt", "y\n");
    y2 = repo.Commit("y 2");
    // An unrelated history.
    other = repo.CommitTree(repo.Git({"mktree"}, ""), "unrelated root");
    if (GetParam()) repo.Git({"commit-graph", "write", "--reachable", "--changed-paths"});
  }
  TempDir tmp;
  TestRepo repo{tmp / "r"};
  std::string base, side1, main1, x, y, x2, y2, other;
};

TEST_P(MergeBaseTest, EveryPairAgreesWithGit) {
  const std::vector<std::string> all = {base, side1, main1, x, y, x2, y2, other};
  for (const auto& a : all) {
    for (const auto& b : all) {
      EXPECT_EQ(Sorted(OurBases(repo, a, b)), Sorted(GitBases(repo, a, b)))
          << "merge-base " << a << " " << b;
    }
  }
}

TEST_P(MergeBaseTest, CrissCrossHasTwoBestCommonAncestors) {
  EXPECT_EQ(Sorted(OurBases(repo, x2, y2)), Sorted({main1, side1}));
  EXPECT_TRUE(OurBases(repo, x2, other).empty());
  EXPECT_EQ(OurBases(repo, base, x2), std::vector<std::string>{base});
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutCommitGraph, MergeBaseTest, ::testing::Bool());

}  // namespace
}  // namespace merge_base_test
}  // namespace rr::testing
