// What a search keeps of a repository's default branch (core/served/known_default.h): the root
// and the last other path found there answer while the refs are unmoved, as the kernel's watch
// tells; an entry made anew at the same commit keeps what was found of the other path (it is a
// node at that commit, whatever vouches for the entry now); a move drops both, and an entry at
// another commit keeps nothing of the last; refs that cannot be watched and whose stamp is racy
// keep nothing.
#include "core/served/known_default.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/served/refs_watch.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace known_default_test {
namespace {

// Resolves `path` at `repo`'s default branch as a search does, and keeps it; `watch`: under a
// ticket of the kernel's watch taken before the refs are read (else by the stamp only).
void Resolve(const std::shared_ptr<const ServedRepo>& repo, const RepoPath& path, bool watch) {
  auto reader = repo->Open();
  ASSERT_TRUE(reader) << reader.error();
  const RefsPlace place = reader->Place();
  auto ticket = watch ? RefsWatch::Shared().Watch(place) : nullptr;
  ASSERT_TRUE(!watch || ticket);
  const RefsStamp before = RefsStamp::TakeOfHead(place);
  auto at = reader->At(std::nullopt);
  ASSERT_TRUE(at) << at.error();
  auto node = reader->Find(*at, path, StopToken());
  KeepDefault(repo, place, std::move(ticket), before, *at, path, node);
}

std::string Hex(const CommitId& id) { return id.Hex(); }

class KnownDefaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    InitGitLibrary();
    shop_ = std::make_unique<TestRepo>(tmp_ / "shop");
    shop_->Write("src/cart.c", "int cart(void) { return 0; }\n");
    shop_->Write("README.md", "# Shop\n");
    first_ = shop_->Commit("shop");
    RepoSettings s;
    s.name = "shop";
    s.path = shop_->path();
    repo_ = std::make_shared<const ServedRepo>(std::move(s));
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> shop_;
  std::string first_;
  std::shared_ptr<const ServedRepo> repo_;
};

TEST_F(KnownDefaultTest, AnEntryMadeAnewAtTheSameCommitKeepsTheOtherPath) {
  if (!RefsWatch::Shared().works()) GTEST_SKIP() << "no inotify here";
  const RepoPath src = *RepoPath::Parse("src");
  EXPECT_FALSE(KnownDefault(repo_, RepoPath::Root())) << "nothing kept yet";
  Resolve(repo_, RepoPath::Root(), true);
  Resolve(repo_, src, true);
  RefsWatch::Shared().Catch();
  bool watched = false;
  auto root = KnownDefault(repo_, RepoPath::Root(), &watched);
  ASSERT_TRUE(root);
  EXPECT_TRUE(watched);
  EXPECT_TRUE(root->found);
  EXPECT_EQ(root->node.kind, EntryKind::kFolder);
  EXPECT_EQ(root->label, "main");
  EXPECT_EQ(Hex(root->commit), first_);
  EXPECT_EQ(Hex(root->At().commit.id), first_);
  auto kept = KnownDefault(repo_, src);
  ASSERT_TRUE(kept) << "the other path is kept beside the root";
  EXPECT_TRUE(kept->found);
  EXPECT_EQ(kept->node.path.str(), "src");

  // The root resolved again (a new ticket, the same commit): the other path stays.
  Resolve(repo_, RepoPath::Root(), true);
  RefsWatch::Shared().Catch();
  ASSERT_TRUE(KnownDefault(repo_, RepoPath::Root()));
  auto still = KnownDefault(repo_, src);
  ASSERT_TRUE(still) << "an entry made anew at the same commit dropped the other path";
  EXPECT_EQ(still.get(), kept.get());

  // A path not there: kept as not found, with Find's reason.
  const RepoPath absent = *RepoPath::Parse("docs");
  Resolve(repo_, absent, true);
  RefsWatch::Shared().Catch();
  auto none = KnownDefault(repo_, absent);
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->found);
  EXPECT_FALSE(none->error.empty());

  // A move: nothing answers until resolved again, and then only the root, at the new commit.
  shop_->Write("src/pay.c", "int pay(void) { return 1; }\n");
  const std::string second = shop_->Commit("pay");
  RefsWatch::Shared().Catch();
  EXPECT_FALSE(KnownDefault(repo_, RepoPath::Root())) << "kept past a move";
  EXPECT_FALSE(KnownDefault(repo_, absent)) << "kept past a move";
  Resolve(repo_, RepoPath::Root(), true);
  RefsWatch::Shared().Catch();
  auto moved = KnownDefault(repo_, RepoPath::Root());
  ASSERT_TRUE(moved);
  EXPECT_EQ(Hex(moved->commit), second);
  EXPECT_FALSE(KnownDefault(repo_, absent)) << "an answer at the old commit kept at the new one";
}

TEST_F(KnownDefaultTest, RefsNotWatchedWithARacyStampKeepNothing) {
  // Just committed: the refs' files changed within the clock's tick, so their stamp is racy; no
  // ticket vouches either.
  auto reader = repo_->Open();
  ASSERT_TRUE(reader) << reader.error();
  const RefsStamp before = RefsStamp::TakeOfHead(reader->Place());
  if (!before.racy()) GTEST_SKIP() << "the stamp is not racy here";
  Resolve(repo_, RepoPath::Root(), false);
  EXPECT_FALSE(KnownDefault(repo_, RepoPath::Root()));
}

}  // namespace
}  // namespace known_default_test
}  // namespace rr::testing
