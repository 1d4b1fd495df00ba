// The ways git moves a repository's default branch, for the tests of what must see every one of
// them: the refs' stamp a search trusts (RefsStamp::TakeOfHead) and the kernel's watch
// (RefsWatch).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {

// packed-refs replaced the way git replaces it (a lock file renamed over it), main's line moved
// from `from` to `to`, nothing under refs/ touched.
inline void PackedMainTo(const std::string& git_dir, const std::string& from,
                         const std::string& to) {
  const std::string file = git_dir + "/packed-refs";
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(from + " refs/heads/main");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, from.size(), to);
  std::ofstream(file + ".lock") << text;
  std::filesystem::rename(file + ".lock", file);
}

// Each way git moves `repo`'s main, checked out at `first` with a branch `feature` beside it,
// handed in turn to `seen` with what it is: a commit, git pack-refs, a packed branch moved,
// packed-refs replaced, main's loose file made again, rewritten in place, HEAD switched to
// feature. Returns the commit main is left at (the one made first).
using MoveCheck = std::function<void(const char* what, const std::function<void()>& change)>;
inline std::string EachMoveOfMain(TestRepo& repo, const std::string& first, const MoveCheck& seen) {
  const std::string git_dir = repo.path() + "/.git";
  seen("a commit on main", [&] {
    repo.Write("a.txt", "a2\n");
    repo.Commit("Second");
  });
  const std::string second = repo.Rev("main");
  seen("git pack-refs --all", [&] { repo.Git({"pack-refs", "--all"}); });
  seen("a packed branch moved", [&] {
    repo.Git({"update-ref", "refs/heads/main", first});
    repo.Git({"pack-refs", "--all"});
  });
  seen("packed-refs replaced", [&] { PackedMainTo(git_dir, first, second); });
  EXPECT_EQ(repo.Rev("main"), second);
  seen("main's loose file made again", [&] { repo.Git({"update-ref", "refs/heads/main", first}); });
  seen("main's file rewritten in place",
       [&] { std::ofstream(git_dir + "/refs/heads/main", std::ios::trunc) << second << "\n"; });
  EXPECT_EQ(repo.Rev("main"), second);
  seen("HEAD switched", [&] { repo.Git({"symbolic-ref", "HEAD", "refs/heads/feature"}); });
  return second;
}

}  // namespace rr::testing
