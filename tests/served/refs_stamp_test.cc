// RefsStamp on repositories the tests build: every way git moves a ref changes the stamp (a
// commit on the default branch, git pack-refs, a branch deleted from packed-refs only, a tag, a
// branch in a new folder, HEAD switched, a worktree's commit), nothing else does, and a stamp
// taken just after a change is racy (never trusted) while one taken later is not.
#include "core/served/refs_stamp.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/ref_moves.h"

namespace rr::testing {
namespace refs_stamp_test {
namespace {

namespace fs = std::filesystem;

// Sets the modification time of HEAD, packed-refs and everything under refs/ to long ago, so
// that what git does next leaves a time of its own, and a stamp taken now is not racy.
void Backdate(const std::string& git_dir) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  for (const char* f : {"HEAD", "packed-refs"}) {
    if (fs::exists(git_dir + "/" + f)) fs::last_write_time(git_dir + "/" + f, old);
  }
  if (!fs::exists(git_dir + "/refs")) return;
  fs::last_write_time(git_dir + "/refs", old);
  for (const auto& e : fs::recursive_directory_iterator(git_dir + "/refs")) {
    fs::last_write_time(e.path(), old);
  }
}

class RefsStampTest : public ::testing::Test {
 protected:
  RefsStampTest() {
    repo_.Write("a.txt", "a\n");
    first_ = repo_.Commit("First");
    repo_.Git({"branch", "feature"});
    repo_.Git({"tag", "v1"});
    Backdate(place_.git_dir);
  }
  RefsStamp Take() const {
    return of_head_ ? RefsStamp::TakeOfHead(place_) : RefsStamp::Take(place_);
  }
  // What `change` does must change the stamp.
  template <typename F>
  void ExpectSeen(const char* what, F change) {
    Backdate(place_.git_dir);
    const RefsStamp before = Take();
    ASSERT_FALSE(before.racy()) << what;
    change();
    EXPECT_NE(before.digest(), Take().digest()) << what << " was not seen";
    EXPECT_FALSE(before.Unchanged(Take())) << what;
  }
  // What `change` does must leave the stamp as it was.
  template <typename F>
  void ExpectUnseen(const char* what, F change) {
    Backdate(place_.git_dir);
    const RefsStamp before = Take();
    ASSERT_FALSE(before.racy()) << what;
    change();
    EXPECT_TRUE(before.Unchanged(Take())) << what << " was seen";
  }

  bool of_head_ = false;  // TakeOfHead, not Take

  TempDir tmp_;
  TestRepo repo_{tmp_ / "shop"};
  RefsPlace place_{repo_.path() + "/.git", repo_.path() + "/.git"};
  std::string first_;
};

TEST_F(RefsStampTest, NothingChangedIsUnchanged) {
  const RefsStamp a = Take();
  EXPECT_FALSE(a.racy());
  const RefsStamp b = Take();
  EXPECT_EQ(a.digest(), b.digest());
  EXPECT_TRUE(a.Unchanged(b));
  // Files beside the refs are not part of it.
  repo_.Write("b.txt", "b\n");
  repo_.Git({"add", "b.txt"});
  EXPECT_TRUE(a.Unchanged(Take()));
}

TEST_F(RefsStampTest, ACommitOnTheDefaultBranchIsSeen) {
  ExpectSeen("a commit on main", [&] {
    repo_.Write("a.txt", "a2\n");
    repo_.Commit("Second");
  });
}

TEST_F(RefsStampTest, PackingTheRefsIsSeen) {
  ExpectSeen("git pack-refs --all", [&] { repo_.Git({"pack-refs", "--all"}); });
}

TEST_F(RefsStampTest, RefsMovedWhileTheyArePackedAreSeen) {
  repo_.Write("a.txt", "a2\n");
  const std::string second = repo_.Commit("Second");
  repo_.Git({"pack-refs", "--all"});
  // A branch that lives only in packed-refs is deleted: packed-refs is rewritten, nothing else.
  ExpectSeen("a packed branch deleted", [&] { repo_.Git({"branch", "-D", "feature"}); });
  // The default branch moved back and packed again: its loose file comes and goes.
  ExpectSeen("a packed branch moved", [&] {
    repo_.Git({"update-ref", "refs/heads/main", first_});
    repo_.Git({"pack-refs", "--all"});
  });
  EXPECT_EQ(repo_.Rev("main"), first_);
  EXPECT_NE(second, first_);
  // packed-refs replaced the way git replaces it (a lock file renamed over it), with nothing
  // under refs/ touched: main moves forward again.
  ExpectSeen("packed-refs replaced", [&] { PackedMainTo(place_.git_dir, first_, second); });
  EXPECT_EQ(repo_.Rev("main"), second);
}

TEST_F(RefsStampTest, TagsBranchesInNewFoldersAndHeadAreSeen) {
  ExpectSeen("a new tag", [&] { repo_.Git({"tag", "v2"}); });
  ExpectSeen("a branch in a new folder", [&] { repo_.Git({"branch", "team/x"}); });
  ExpectSeen("a branch deleted", [&] { repo_.Git({"branch", "-D", "team/x"}); });
  ExpectSeen("HEAD switched", [&] { repo_.Git({"symbolic-ref", "HEAD", "refs/heads/feature"}); });
  ExpectSeen("a remote-tracking branch", [&] {
    repo_.Git({"update-ref", "refs/remotes/origin/main", first_});
  });
}

TEST_F(RefsStampTest, TheDefaultBranchRewrittenInPlaceIsSeen) {
  repo_.Write("a.txt", "a2\n");
  const std::string second = repo_.Commit("Second");
  // Not as git writes it (a lock file renamed into place) but over the same file: the folder's
  // time does not change; the branch's own file does.
  ExpectSeen("main's file rewritten", [&] {
    std::ofstream(place_.git_dir + "/refs/heads/main", std::ios::trunc) << first_ << "\n";
  });
  EXPECT_EQ(repo_.Rev("main"), first_);
  EXPECT_NE(second, first_);
}

TEST_F(RefsStampTest, ALinkedWorktreesCommitIsSeenInTheCommonFolder) {
  repo_.Git({"worktree", "add", "-q", tmp_ / "wt", "feature"});
  const RefsPlace wt{repo_.path() + "/.git/worktrees/wt", repo_.path() + "/.git"};
  Backdate(place_.git_dir);
  Backdate(wt.git_dir);
  const RefsStamp before = RefsStamp::Take(wt);
  ASSERT_FALSE(before.racy());
  CommandResult r = rr::testing::Run(
      {"git", "commit", "-q", "--allow-empty", "-m", "In the worktree"}, tmp_ / "wt", repo_.Env());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(before.Unchanged(RefsStamp::Take(wt)));
}

TEST_F(RefsStampTest, AStampTakenJustAfterAChangeIsNotTrusted) {
  repo_.Git({"tag", "v3"});
  const RefsStamp just_after = Take();
  EXPECT_TRUE(just_after.racy());
  EXPECT_FALSE(just_after.Unchanged(Take()));  // even though nothing changed since
  Backdate(place_.git_dir);
  const RefsStamp later = Take();
  EXPECT_FALSE(later.racy());
  EXPECT_TRUE(later.Unchanged(Take()));
}

TEST_F(RefsStampTest, NoPlaceIsNeverTrusted) {
  const RefsStamp none = RefsStamp::Take(RefsPlace{});
  EXPECT_TRUE(none.racy());
  EXPECT_FALSE(none.Unchanged(RefsStamp::Take(RefsPlace{})));
}

// TakeOfHead: only what decides where HEAD points. A search keeps each repository's default
// branch by it (known_default.h), so every way that moves must be seen.
TEST_F(RefsStampTest, OfHeadSeesEveryMoveOfTheDefaultBranch) {
  of_head_ = true;
  EXPECT_NE(RefsStamp::Take(place_).digest(), Take().digest());
  const std::string second = EachMoveOfMain(
      repo_, first_,
      [&](const char* what, const std::function<void()>& change) { ExpectSeen(what, change); });
  ExpectSeen("HEAD detached", [&] { repo_.Git({"update-ref", "--no-deref", "HEAD", second}); });
}

TEST_F(RefsStampTest, OfHeadDoesNotSeeTheOtherRefs) {
  of_head_ = true;
  ExpectUnseen("a new tag", [&] { repo_.Git({"tag", "v2"}); });
  ExpectUnseen("a branch in a new folder", [&] { repo_.Git({"branch", "team/x"}); });
  ExpectUnseen("another branch moved", [&] {
    const std::string next =
        repo_.Git({"commit-tree", first_ + "^{tree}", "-p", first_, "-m", "x"});
    repo_.Git({"update-ref", "refs/heads/feature", next});
  });
  ExpectUnseen("a remote-tracking branch", [&] {
    repo_.Git({"update-ref", "refs/remotes/origin/main", first_});
  });
}

// A default branch whose loose file names another ref, or is a link: that ref's moves would not
// show, so the stamp is never trusted.
TEST_F(RefsStampTest, OfHeadIsNeverTrustedWhenTheBranchLeadsElsewhere) {
  of_head_ = true;
  std::ofstream(place_.git_dir + "/refs/heads/main", std::ios::trunc)
      << "ref: refs/heads/feature\n";
  Backdate(place_.git_dir);
  EXPECT_EQ(repo_.Rev("HEAD"), repo_.Rev("feature"));
  EXPECT_TRUE(Take().racy());
  EXPECT_FALSE(RefsStamp::Take(place_).racy());  // the whole stamp sees the folders
  fs::remove(place_.git_dir + "/refs/heads/main");
  fs::create_symlink("feature", place_.git_dir + "/refs/heads/main");
  Backdate(place_.git_dir);
  EXPECT_TRUE(Take().racy());
  // HEAD unreadable (a link): never trusted.
  fs::remove(place_.git_dir + "/refs/heads/main");
  repo_.Git({"update-ref", "refs/heads/main", first_});
  fs::rename(place_.git_dir + "/HEAD", place_.git_dir + "/HEAD.real");
  fs::create_symlink("HEAD.real", place_.git_dir + "/HEAD");
  Backdate(place_.git_dir);
  EXPECT_TRUE(Take().racy());
}

}  // namespace
}  // namespace refs_stamp_test
}  // namespace rr::testing
