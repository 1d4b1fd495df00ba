// What the walks for AGENTS.md and CLAUDE.md keep for every repository of the server
// (core/guidance/folder_scan.h): a copy of a codebase reads only the trees it does not share, and
// no repository -- partial, damaged, or holding a tree where it is read differently -- can make
// another lose its guidance.
#include "core/guidance/folder_scan.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/guidance/guidance.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace folder_scan_test {
namespace {

// Writes, into `repo`, folders of a codebase that no other test shares (`salt` in each), with
// AGENTS.md in two of them.
void WriteCodebase(const TestRepo& repo, const std::string& salt) {
  for (int i = 0; i < 12; ++i) {
    const std::string folder = "lib/m" + std::to_string(i) + "/part";
    repo.Write(folder + "/code.c", "int m" + std::to_string(i) + "; /* " + salt + " */\n");
  }
  repo.Write("lib/m3/AGENTS.md", "Module three is frozen.\n");
  repo.Write("lib/m7/part/AGENTS.md", "Part seven is generated.\n");
}

std::vector<std::string> PieceNames(const rr::Guidance& g) {
  std::vector<std::string> names;
  for (const GuidancePiece* p : g.pieces) names.push_back(p->name);
  return names;
}

RepoSettings SettingsOf(const std::string& name, const TestRepo& repo) {
  RepoSettings s;
  s.name = name;
  s.path = repo.path();
  return s;
}

// The names of the guidance found in `repo` now ({"(error) …"} when it cannot be read).
std::vector<std::string> NamesFound(const ServedRepo& repo) {
  StopToken stop;
  auto g = GuidanceOf(repo, stop);
  if (!g) return {"(error) " + g.error()};
  return PieceNames(**g);
}

// What a folder's tree holds is kept for every repository: a copy of a codebase already walked
// (here with a root of its own, as a fork with one commit more) reads its root and nothing else,
// and finds the same guidance.
TEST(GuidanceCache, ACopyOfACodebaseReadsOnlyTheTreesItDoesNotShare) {
  TempDir tmp;
  const std::string salt = "copies " + std::to_string(::getpid()) + " " + tmp.path();
  TestRepo first(tmp / "first"), copy(tmp / "copy");
  WriteCodebase(first, salt);
  first.Commit("Codebase");
  WriteCodebase(copy, salt);
  copy.Write("OWN.txt", "this copy's own file\n");
  copy.Commit("Codebase, and a file of its own");
  const ServedRepo one(SettingsOf("first", first)), two(SettingsOf("copy", copy));
  StopToken stop;
  const uint64_t before = GuidanceTreesRead();
  auto g1 = GuidanceOf(one, stop);
  ASSERT_TRUE(g1) << g1.error();
  const uint64_t walked = GuidanceTreesRead() - before;
  EXPECT_GE(walked, 26u);  // the root, lib, and two folders a module
  auto g2 = GuidanceOf(two, stop);
  ASSERT_TRUE(g2) << g2.error();
  EXPECT_EQ(GuidanceTreesRead() - before - walked, 1u);  // its root alone
  const std::vector<std::string> want = {"lib/m3/AGENTS.md", "lib/m7/part/AGENTS.md"};
  EXPECT_EQ(PieceNames(**g1), want);
  EXPECT_EQ(PieceNames(**g2), want);
  EXPECT_GE(GuidanceTreesKept(), 26u);
}

// A copy that lacks a folder's tree (a partial or damaged copy) finds nothing below it, and
// keeps nothing for the trees above it: another repository holding the same trees whole still
// finds its guidance there, walked after the copy.
TEST(GuidanceCache, ACopyMissingAFolderDoesNotHideTheGuidanceOfOthers) {
  TempDir tmp;
  const std::string salt = "missing " + std::to_string(::getpid()) + " " + tmp.path();
  TestRepo whole(tmp / "whole"), damaged(tmp / "damaged");
  WriteCodebase(whole, salt);
  whole.Commit("Codebase");
  WriteCodebase(damaged, salt);
  damaged.Commit("Codebase");
  // The tree of lib/m7 (it holds part/AGENTS.md) taken out of the damaged copy.
  std::string tree = damaged.Git({"rev-parse", "HEAD:lib/m7"});
  while (!tree.empty() && (tree.back() == '\n' || tree.back() == ' ')) tree.pop_back();
  ASSERT_EQ(tree.size(), 40u) << tree;
  const std::string object =
      damaged.path() + "/.git/objects/" + tree.substr(0, 2) + "/" + tree.substr(2);
  ASSERT_EQ(std::remove(object.c_str()), 0) << object;
  const ServedRepo bad(SettingsOf("damaged", damaged)), good(SettingsOf("whole", whole));
  EXPECT_EQ(NamesFound(bad), std::vector<std::string>{"lib/m3/AGENTS.md"});
  EXPECT_EQ(NamesFound(good),
            (std::vector<std::string>{"lib/m3/AGENTS.md", "lib/m7/part/AGENTS.md"}));
}

// What a tree holds is kept only when it holds it wherever it is: a repository that puts a tree
// so deep that its AGENTS.md would pass the longest path served finds nothing there, and keeps
// nothing for that tree, so another repository holding it at a short path still finds it.
TEST(GuidanceCache, ATreeTooDeepInOneRepositoryIsReadAgainInAnother) {
  TempDir tmp;
  TestRepo deep(tmp / "deep"), shallow(tmp / "shallow");
  const std::string salt = "deep " + std::to_string(::getpid()) + " " + tmp.path();
  auto shared = [&](const TestRepo& repo) {
    return repo.RawTree({{"100644", "AGENTS.md", repo.Blob("Deep rule. " + salt + "\n")},
                         {"100644", "code.c", repo.Blob("int x;\n")}});
  };
  // Fifteen folders of 255 bytes, then the shared tree under a name of 250: its path is 4,090
  // bytes long, so its AGENTS.md (4,100) is past the 4,096 served.
  std::string tree = deep.RawTree({{"40000", std::string(250, 'e'), shared(deep)}});
  for (int level = 0; level < 15; ++level) {
    tree = deep.RawTree({{"40000", std::string(254, 'd') + static_cast<char>('a' + level), tree}});
  }
  deep.Git({"update-ref", "refs/heads/main", deep.CommitTree(tree, "Deep")});
  shallow.Git({"update-ref", "refs/heads/main",
               shallow.CommitTree(shallow.RawTree({{"40000", "lib", shared(shallow)}}), "Short")});
  const ServedRepo far(SettingsOf("deep", deep)), near(SettingsOf("shallow", shallow));
  EXPECT_EQ(NamesFound(far), std::vector<std::string>{});
  EXPECT_EQ(NamesFound(near), std::vector<std::string>{"lib/AGENTS.md"});
}

// The same for a folder kept out by the name of the folder holding it (.aws/credentials is a
// credential file's place): the tree holding it is read again where it is served.
TEST(GuidanceCache, AFolderKeptOutByWhereItIsIsNotKeptOutElsewhere) {
  TempDir tmp;
  TestRepo aws(tmp / "aws"), plain(tmp / "plain");
  const std::string salt = "credentials " + std::to_string(::getpid()) + " " + tmp.path();
  auto shared = [&](const TestRepo& repo) {
    const std::string inner =
        repo.RawTree({{"100644", "AGENTS.md", repo.Blob("Rule. " + salt + "\n")}});
    return repo.RawTree({{"40000", "credentials", inner}});
  };
  aws.Git({"update-ref", "refs/heads/main",
           aws.CommitTree(aws.RawTree({{"40000", ".aws", shared(aws)}}), "Aws")});
  plain.Git({"update-ref", "refs/heads/main",
             plain.CommitTree(plain.RawTree({{"40000", "lib", shared(plain)}}), "Lib")});
  const ServedRepo kept_out(SettingsOf("aws", aws)), served(SettingsOf("plain", plain));
  EXPECT_EQ(NamesFound(kept_out), std::vector<std::string>{});
  EXPECT_EQ(NamesFound(served), std::vector<std::string>{"lib/credentials/AGENTS.md"});
}

}  // namespace
}  // namespace folder_scan_test
}  // namespace rr::testing
