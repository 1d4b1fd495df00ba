// The background text indexer keeps each repository's index at its default branch, and catches up
// with a move between its passes: a commit in a local repository at the next glance (a look at
// the refs' stamps every few seconds), a repository it is nudged about (a mirror's sync) at once
// -- never waiting for the next pass. Scheduled on a ManualClock with an hour between passes, so
// anything that happens before the clock reaches an hour is the catch-up's doing; the test waits
// for the indexer's rounds, never sleeps.
#include "core/index/text_indexer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/runtime/clock.h"
#include "core/served/known_default.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace text_indexer_test {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

// The commit `repo`'s index holds now, in hex; "" when it has none.
std::string IndexedCommit(const ServedRepo& repo) {
  auto index = CurrentTextIndex(repo);
  if (!index) return "";
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &index->commit());
  return hex;
}

class TextIndexerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    InitGitLibrary();
    shop_ = std::make_unique<TestRepo>(tmp_ / "shop");
    shop_->Write("README.md", "# Shop\nfirsttoken-1001\n");
    shop_->Write("src/cart.c", "int cart(void) { return 0; }\n");
    shop_->Commit("shop");
    web_ = std::make_unique<TestRepo>(tmp_ / "web");
    web_->Write("index.html", "<p>web</p>\n");
    web_->Commit("web");
    Config config;
    config.source = "test";
    config.repos.push_back(Served("shop", shop_->path()));
    config.repos.push_back(Served("web", web_->path()));
    config.cache_folder = tmp_ / "cache";
    auto catalog = BuildCatalog(config);
    ASSERT_TRUE(catalog) << catalog.error();
    live_ = std::make_shared<LiveCatalog>(catalog.take());
  }

  const ServedRepo& Repo(const std::string& name) { return **live_->Get()->Find(name); }

  // An indexer on `clock_`: a pass an hour, glances every `glance` (zero: none).
  std::unique_ptr<TextIndexer> Indexer(milliseconds glance) {
    TextIndexer::Options o;
    o.recheck = hours(1);
    o.glance = glance;
    o.clock = &clock_;
    return std::make_unique<TextIndexer>(live_, o);
  }

  // The indexer's first pass has ended: both indexes are at their default branch.
  void FirstPass(const TextIndexer& indexer) {
    ASSERT_EQ(clock_.Waiting(1).size(), 1u);
    ASSERT_EQ(indexer.passes(), 1u);
    ASSERT_EQ(IndexedCommit(Repo("shop")), shop_->Rev("HEAD"));
    ASSERT_EQ(IndexedCommit(Repo("web")), web_->Rev("HEAD"));
  }

  TempDir tmp_;
  ManualClock clock_;
  std::unique_ptr<TestRepo> shop_, web_;
  std::shared_ptr<LiveCatalog> live_;
};

TEST_F(TextIndexerTest, ACommitInALocalRepositoryIsIndexedAtTheNextGlance) {
  auto indexer = Indexer(seconds(2));
  indexer->Start();
  FirstPass(*indexer);
  const std::string before = shop_->Rev("HEAD");
  shop_->Write("fresh.txt", "freshtoken-2002\n");
  const std::string after = shop_->Commit("fresh");
  EXPECT_EQ(IndexedCommit(Repo("shop")), before) << "nothing moves it before the glance";
  // The glances until the commit is indexed: the first one that looks after the commit.
  for (int i = 0; i < 5 && IndexedCommit(Repo("shop")) != after; ++i) {
    const uint64_t rounds = indexer->rounds();
    clock_.Advance(seconds(2));
    ASSERT_TRUE(indexer->WaitRounds(rounds + 1, milliseconds(60000)));
  }
  EXPECT_EQ(IndexedCommit(Repo("shop")), after);
  EXPECT_EQ(IndexedCommit(Repo("web")), web_->Rev("HEAD"));
  EXPECT_EQ(indexer->passes(), 1u) << "caught up without a pass";
  EXPECT_EQ(CurrentTextIndexStats().indexed, 2u);
}

// What the indexer resolved is kept for searches (core/served/known_default.h): the first search
// after a start need not open each repository to know where its default branch is. A move after
// it is seen as every move is (the kernel's report), and the kept answer is dropped.
TEST_F(TextIndexerTest, TheDefaultBranchItIndexedIsKeptForSearches) {
  if (!RefsWatch::Shared().works()) GTEST_SKIP() << "no inotify here";
  auto shop = *live_->Get()->Find("shop");
  RefsWatch::Shared().Catch();
  EXPECT_FALSE(KnownDefault(shop, RepoPath::Root())) << "nothing kept before the indexer";
  auto indexer = Indexer(milliseconds(0));
  indexer->Start();
  FirstPass(*indexer);
  RefsWatch::Shared().Catch();
  auto kept = KnownDefault(shop, RepoPath::Root());
  ASSERT_TRUE(kept);
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &kept->commit.oid());
  EXPECT_EQ(hex, shop_->Rev("HEAD"));
  ASSERT_TRUE(kept->found);
  EXPECT_EQ(kept->node.kind, EntryKind::kFolder);
  shop_->Write("later.txt", "later\n");
  shop_->Commit("later");
  RefsWatch::Shared().Catch();
  EXPECT_FALSE(KnownDefault(shop, RepoPath::Root())) << "kept past a move";
}

// A pass ends with every repository's index made over the store as the pass leaves it (a shard
// added by each repository with new contents): the first search after it finds them made, and
// `about` tells every repository indexed only then.
TEST_F(TextIndexerTest, APassEndsWithEveryIndexMadeOverTheStoreAsItLeavesIt) {
  auto indexer = Indexer(milliseconds(0));
  indexer->Start();
  ASSERT_EQ(clock_.Waiting(1).size(), 1u);
  ASSERT_EQ(indexer->passes(), 1u);
  EXPECT_EQ(CurrentTextIndexStats().indexed, 2u);
  for (const char* name : {"shop", "web"}) {
    const ServedRepo& repo = Repo(name);
    TextIndexSlot& slot = repo.text_index_slot();
    std::shared_ptr<const TextIndex> made;
    {
      std::lock_guard<std::mutex> lock(slot.Mutex());
      made = slot.opened.index;
    }
    ASSERT_TRUE(made) << name;
    const auto store = CurrentTextStore(TextStoreFolderOf(repo));
    EXPECT_EQ(&made->store(), store.get()) << name;
    EXPECT_EQ(store->shards.size(), 2u);
  }
}

// The resident pages of the mapping of `file` in this process, from /proc/self/smaps; -1 when
// the file is not mapped.
long ResidentKbOf(const std::string& file) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  long kb = -1;
  bool in_file = false;
  while (std::getline(smaps, line)) {
    const size_t dash = line.find('-');
    const size_t space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find(':') > space) {  // a mapping's first line: its range, then its file
      in_file = line.size() >= file.size() &&
                line.compare(line.size() - file.size(), file.size(), file) == 0;
      if (in_file && kb < 0) kb = 0;
    } else if (in_file && line.rfind("Rss:", 0) == 0) {
      kb += std::stol(line.substr(4));
    }
  }
  return kb;
}

// Making every index at the end of a pass looks each content up in the shards, which brings
// their pages into the process; the pass lets them go: an idle server holds none of them.
TEST_F(TextIndexerTest, APassLeavesNoPageOfTheShardsResident) {
  // A shard large enough to be mapped rather than read (IndexFile::kCopiedBelow): letters at
  // random hold most of the 17,576 trigrams.
  std::mt19937 random(7);
  std::string text;
  for (int i = 0; i < 200000; ++i) {
    text += static_cast<char>(i % 60 == 59 ? '\n' : 'a' + random() % 26);
  }
  shop_->Write("data/letters.txt", text);
  shop_->Commit("letters");
  auto indexer = Indexer(milliseconds(0));
  indexer->Start();
  ASSERT_EQ(clock_.Waiting(1).size(), 1u);
  ASSERT_EQ(indexer->passes(), 1u);
  const auto store = CurrentTextStore(TextStoreFolderOf(Repo("shop")));
  size_t mapped = 0;
  for (size_t i = 0; i < store->shards.size(); ++i) {
    const long kb = ResidentKbOf(store->folder + "/" + store->names[i]);
    if (kb < 0) continue;  // a small shard, read into memory
    ++mapped;
    EXPECT_EQ(kb, 0) << store->names[i];
  }
  EXPECT_GE(mapped, 1u);
}

TEST_F(TextIndexerTest, WithoutGlancesACommitWaitsForTheNextPass) {
  auto indexer = Indexer(milliseconds(0));
  indexer->Start();
  FirstPass(*indexer);
  const std::string before = shop_->Rev("HEAD");
  shop_->Write("fresh.txt", "freshtoken-2002\n");
  const std::string after = shop_->Commit("fresh");
  const auto waiting = clock_.Waiting(1);
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_GE(waiting[0] - clock_.Now(), std::chrono::minutes(54));
  clock_.Advance(std::chrono::minutes(50));
  ASSERT_EQ(clock_.Waiting(1).size(), 1u);
  EXPECT_EQ(IndexedCommit(Repo("shop")), before);
  clock_.Advance(std::chrono::minutes(20));
  ASSERT_EQ(clock_.Waiting(1).size(), 1u);
  EXPECT_EQ(indexer->passes(), 2u);
  EXPECT_EQ(IndexedCommit(Repo("shop")), after);
}

// A mirror's sync nudges the indexer with its name (core/app/main.cc wires MirrorSyncer::OnSynced
// to it; tests/sync/sync_nudges_index_test.cc runs the two together): the repository is caught
// up at once, the others are not looked at.
TEST_F(TextIndexerTest, ARepositoryNudgedByNameIsCaughtUpAtOnce) {
  auto indexer = Indexer(milliseconds(0));
  indexer->Start();
  FirstPass(*indexer);
  shop_->Write("fresh.txt", "freshtoken-2002\n");
  const std::string shop_after = shop_->Commit("fresh");
  const std::string web_before = web_->Rev("HEAD");
  web_->Write("more.html", "<p>more</p>\n");
  web_->Commit("more");
  const uint64_t rounds = indexer->rounds();
  indexer->Nudge("shop");
  indexer->Nudge("no-such-repository");
  ASSERT_TRUE(indexer->WaitRounds(rounds + 1, milliseconds(60000)));
  ASSERT_TRUE(clock_.Waiting(1).size() == 1u);
  EXPECT_EQ(IndexedCommit(Repo("shop")), shop_after);
  EXPECT_EQ(IndexedCommit(Repo("web")), web_before) << "not nudged: left to the next pass";
  EXPECT_EQ(indexer->passes(), 1u);
}

// A repository whose index cannot be built is logged once, not on every pass (core/runtime/
// logged_errors.h), and the others are indexed as ever. Its index folder is made a file, so the
// list cannot be written.
TEST_F(TextIndexerTest, ABuildThatFailsIsLoggedOnceNotEveryPass) {
  const std::string folder = Repo("shop").settings().index_folder.str();
  ASSERT_FALSE(folder.empty());
  std::filesystem::create_directories(std::filesystem::path(folder).parent_path());
  std::filesystem::remove_all(folder);
  { std::ofstream(folder) << "not a folder\n"; }
  auto indexer = Indexer(milliseconds(0));
  ::testing::internal::CaptureStderr();
  indexer->Start();
  const bool first = clock_.Waiting(1).size() == 1 && indexer->passes() == 1;
  clock_.Advance(std::chrono::minutes(70));
  const bool second = clock_.Waiting(1).size() == 1 && indexer->passes() == 2;
  clock_.Advance(std::chrono::minutes(70));
  const bool third = clock_.Waiting(1).size() == 1 && indexer->passes() == 3;
  indexer->Stop();
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(first && second && third) << log;
  const std::string line = "the text index of `shop` could not be built: ";
  const size_t at = log.find(line);
  ASSERT_NE(at, std::string::npos) << log;
  EXPECT_EQ(log.find(line, at + 1), std::string::npos) << "logged on every pass:\n" << log;
  EXPECT_EQ(IndexedCommit(Repo("shop")), "");
  EXPECT_EQ(IndexedCommit(Repo("web")), web_->Rev("HEAD"));
}

TEST_F(TextIndexerTest, StopReturnsPromptlyWhileItWaits) {
  auto indexer = Indexer(seconds(2));
  indexer->Start();
  FirstPass(*indexer);
  const auto begin = std::chrono::steady_clock::now();
  indexer->Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, seconds(5));
  EXPECT_EQ(indexer->passes(), 1u);
}

}  // namespace
}  // namespace text_indexer_test
}  // namespace rr::testing
