// RefsWatch on repositories the tests build: every way git moves what HEAD points at is reported
// once caught (a commit on the default branch, git pack-refs, a packed branch moved, packed-refs
// replaced, HEAD switched, the branch's file rewritten in place, a branch in a folder made after
// the ticket, a linked worktree's commit), what does not move it is not (another branch, a tag,
// the index), and no ticket is given where a move could go unreported (a detached HEAD, a
// branch file that is a link or names another ref, a repository reached through a link).
#include "core/served/refs_watch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/ref_moves.h"

namespace rr::testing {
namespace refs_watch_test {
namespace {

namespace fs = std::filesystem;

class RefsWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!RefsWatch::Shared().works()) GTEST_SKIP() << "no inotify here";
    repo_.Write("a.txt", "a\n");
    first_ = repo_.Commit("First");
    repo_.Git({"branch", "feature"});
  }

  // What `change` does must make a ticket taken before it stale, once caught.
  template <typename F>
  void ExpectSeen(const char* what, F change, const RefsPlace* place = nullptr) {
    RefsWatch& w = RefsWatch::Shared();
    w.Catch();
    auto ticket = w.Watch(place ? *place : place_);
    ASSERT_TRUE(ticket) << what;
    w.Catch();
    ASSERT_TRUE(w.Unchanged(*ticket)) << what;
    change();
    EXPECT_TRUE(w.Unchanged(*ticket)) << what << ": seen before it was caught";
    w.Catch();
    EXPECT_FALSE(w.Unchanged(*ticket)) << what << " was not seen";
  }
  // What `change` does must leave a ticket as it was.
  template <typename F>
  void ExpectUnseen(const char* what, F change) {
    RefsWatch& w = RefsWatch::Shared();
    w.Catch();
    auto ticket = w.Watch(place_);
    ASSERT_TRUE(ticket) << what;
    change();
    w.Catch();
    EXPECT_TRUE(w.Unchanged(*ticket)) << what << " was seen";
  }

  // `take_away` renames or removes the repository's git folder, and another repository is made
  // at its path: a ticket taken before is stale, and one taken afterwards sees the new
  // repository's commits.
  void ExpectAnotherRepositoryWatchedAnew(const std::function<void()>& take_away) {
    RefsWatch& w = RefsWatch::Shared();
    w.Catch();
    auto before = w.Watch(place_);
    ASSERT_TRUE(before);
    take_away();
    TestRepo fresh(repo_.path());
    fresh.Write("b.txt", "b\n");
    fresh.Commit("Another first");
    w.Catch();
    EXPECT_FALSE(w.Unchanged(*before));
    ExpectSeen("a commit in the repository now at the path", [&] {
      fresh.Write("b.txt", "b2\n");
      fresh.Commit("Second");
    });
  }

  TempDir tmp_;
  TestRepo repo_{tmp_ / "shop"};
  RefsPlace place_{repo_.path() + "/.git", ""};
  std::string first_;
};

TEST_F(RefsWatchTest, EveryMoveOfTheDefaultBranchIsSeen) {
  EachMoveOfMain(repo_, first_, [&](const char* what, const std::function<void()>& change) {
    ExpectSeen(what, change);
  });
  ExpectSeen("HEAD switched back", [&] { repo_.Git({"symbolic-ref", "HEAD", "refs/heads/main"}); });
  ExpectSeen("main removed", [&] { fs::remove(place_.git_dir + "/refs/heads/main"); });
}

TEST_F(RefsWatchTest, ABranchInAFolderMadeAfterTheTicketIsSeen) {
  repo_.Git({"symbolic-ref", "HEAD", "refs/heads/team/x"});  // no such branch, no such folder
  ExpectSeen("team/x made", [&] { repo_.Git({"update-ref", "refs/heads/team/x", first_}); });
  ExpectSeen("team/x moved", [&] {
    repo_.Write("a.txt", "a3\n");
    repo_.Commit("On team/x");
  });
  ExpectSeen("refs/heads/team removed with it",
             [&] { fs::remove_all(place_.git_dir + "/refs/heads/team"); });
}

TEST_F(RefsWatchTest, WhatDoesNotMoveTheDefaultBranchIsNotSeen) {
  ExpectUnseen("another branch moved", [&] {
    repo_.Git({"update-ref", "refs/heads/feature", repo_.Rev("HEAD")});
  });
  ExpectUnseen("a tag", [&] { repo_.Git({"tag", "v1"}); });
  ExpectUnseen("the index", [&] {
    repo_.Write("b.txt", "b\n");
    repo_.Git({"add", "b.txt"});
  });
}

TEST_F(RefsWatchTest, ALinkedWorktreesCommitIsSeen) {
  repo_.Git({"worktree", "add", "-q", tmp_ / "wt", "feature"});
  const RefsPlace wt{repo_.path() + "/.git/worktrees/wt", repo_.path() + "/.git"};
  ExpectSeen(
      "a commit in the worktree",
      [&] {
        CommandResult r = rr::testing::Run({"git", "commit", "-q", "--allow-empty", "-m", "In it"},
                                           tmp_ / "wt", repo_.Env());
        ASSERT_EQ(r.status, 0) << r.err;
      },
      &wt);
}

// A repository's git folder renamed away and another made at its path (a mirror replaced whole,
// say): the watch follows the old folders to their new name, and a ticket taken at the path
// afterwards watches the new repository's folders (refs/heads too), not the old ones.
TEST_F(RefsWatchTest, ARepositoryReplacedAtItsPathIsWatchedAnew) {
  const std::string old = tmp_ / "old.git";
  ExpectAnotherRepositoryWatchedAnew([&] { fs::rename(place_.git_dir, old); });
  // And in the old one, wherever it is now: nothing the new tickets watch.
  ExpectUnseen("main moved in the renamed repository",
               [&] { std::ofstream(old + "/refs/heads/main", std::ios::trunc) << first_ << "\n"; });
}

// A repository's git folder removed and another made at its path (a mirror cloned again, say):
// the kernel drops the old folders' watches, the tickets on them are stale, and a ticket taken
// afterwards watches the new repository's folders.
TEST_F(RefsWatchTest, ARepositoryRemovedAndMadeAgainAtItsPathIsWatchedAnew) {
  ExpectAnotherRepositoryWatchedAnew([&] { fs::remove_all(place_.git_dir); });
}

// The folders of a repository removed are no longer counted as watched (the kernel dropped
// their watches), and a repository watched afterwards, its folders taking the names the removed
// ones let go, has every move seen and nothing else.
TEST_F(RefsWatchTest, TheFoldersOfARepositoryRemovedAreLetGo) {
  RefsWatch& w = RefsWatch::Shared();
  w.Catch();
  ASSERT_TRUE(w.Watch(place_));
  const size_t watched = w.folders();
  fs::remove_all(place_.git_dir);
  w.Catch();
  EXPECT_EQ(w.folders(), watched - 3) << ".git, refs and refs/heads";
  TestRepo other(tmp_ / "other");
  other.Write("c.txt", "c\n");
  other.Commit("Other first");
  other.Git({"branch", "side"});
  const RefsPlace at{other.path() + "/.git", ""};
  ExpectSeen(
      "a commit in the other repository",
      [&] {
        other.Write("c.txt", "c2\n");
        other.Commit("Other second");
      },
      &at);
  EXPECT_EQ(w.folders(), watched);
  w.Catch();
  auto ticket = w.Watch(at);
  ASSERT_TRUE(ticket);
  other.Git({"update-ref", "refs/heads/side", other.Rev("HEAD")});
  w.Catch();
  EXPECT_TRUE(w.Unchanged(*ticket)) << "another branch was seen";
}

// A ticket holds a bounded number of counters (two for each folder down to the branch's file): a
// branch a few folders deep is watched whole, one nested deeper gets no ticket (it is stamped)
// rather than one that leaves its deepest folders unwatched.
TEST_F(RefsWatchTest, ABranchInFoldersIsWatchedWholeOrNotAtAll) {
  repo_.Git({"checkout", "-q", "-b", "team/a/b/topic"});
  ExpectSeen("a commit on a branch three folders down", [&] {
    repo_.Write("a.txt", "deep\n");
    repo_.Commit("Deep");
  });
  ExpectSeen("the branch's middle folder renamed away",
             [&] { fs::rename(place_.git_dir + "/refs/heads/team/a", place_.git_dir + "/x"); });
  fs::rename(place_.git_dir + "/x", place_.git_dir + "/refs/heads/team/a");
  repo_.Git({"checkout", "-q", "-b", "team/a/b/c/d/e/f/topic"});
  ASSERT_TRUE(fs::is_regular_file(place_.git_dir + "/refs/heads/team/a/b/c/d/e/f/topic"));
  EXPECT_FALSE(RefsWatch::Shared().Watch(place_));
}

TEST_F(RefsWatchTest, NoTicketWhereAMoveCouldGoUnreported) {
  RefsWatch& w = RefsWatch::Shared();
  EXPECT_TRUE(w.Watch(place_));
  EXPECT_FALSE(w.Watch(RefsPlace{}));
  // Reached through a link: the link re-pointed would report nothing.
  fs::create_directory_symlink(repo_.path(), tmp_ / "link");
  EXPECT_FALSE(w.Watch(RefsPlace{tmp_ / "link/.git", ""}));
  // The branch's file a link, or naming another ref: the other's moves would not show.
  const std::string main_file = place_.git_dir + "/refs/heads/main";
  fs::rename(main_file, place_.git_dir + "/refs/heads/real");
  fs::create_symlink("real", main_file);
  EXPECT_FALSE(w.Watch(place_));
  fs::remove(main_file);
  std::ofstream(main_file) << "ref: refs/heads/feature\n";
  EXPECT_FALSE(w.Watch(place_));
  std::ofstream(main_file, std::ios::trunc) << first_ << "\n";
  EXPECT_TRUE(w.Watch(place_));
  // HEAD names no branch (detached), or cannot be read.
  repo_.Git({"checkout", "-q", "--detach"});
  EXPECT_FALSE(w.Watch(place_));
  fs::remove(place_.git_dir + "/HEAD");
  EXPECT_FALSE(w.Watch(place_));
}

// A ticket keeps each counter's number in three bytes: a number past the first 65,536 (each
// name watched in a folder takes a counter of its own) must read back whole, or the ticket would
// look at another name's counter and miss its own file's change.
TEST_F(RefsWatchTest, ATicketPastTheFirst65536CountersSeesItsFile) {
  RefsWatch& w = RefsWatch::Shared();
  const fs::path root = tmp_ / "many";
  for (int f = 0; f < 700; ++f) {
    const std::string folder = (root / std::to_string(f)).string();
    fs::create_directories(folder);
    for (int n = 0; n < 100; ++n) ASSERT_TRUE(w.WatchFile(folder, "n" + std::to_string(n)));
  }
  const std::string folder = (root / "last").string();
  fs::create_directories(folder);
  w.Catch();
  auto ticket = w.WatchFile(folder, "text.list");
  ASSERT_TRUE(ticket);
  w.Catch();
  ASSERT_TRUE(w.Unchanged(*ticket));
  std::ofstream(folder + "/other") << "x\n";  // not its file
  w.Catch();
  EXPECT_TRUE(w.Unchanged(*ticket));
  std::ofstream(folder + "/text.list") << "x\n";
  w.Catch();
  EXPECT_FALSE(w.Unchanged(*ticket)) << "its own file's change was not seen";
}

}  // namespace
}  // namespace refs_watch_test
}  // namespace rr::testing
