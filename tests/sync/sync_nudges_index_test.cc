// A mirror's sync that lands new commits has its text index caught up at once: the syncer tells
// the text indexer (MirrorSyncer::OnSynced -> TextIndexer::Nudge, as core/app/main.cc wires
// them), and the indexer, an hour from its next pass, indexes the new default branch. Both run
// on one ManualClock against a real git server on loopback; nothing sleeps.
#include <gtest/gtest.h>

#include <chrono>

#include "core/app/wiring.h"
#include "core/index/repo_text_index.h"
#include "core/runtime/clock.h"
#include "core/sync/syncer.h"
#include "tests/sync/sync_kit.h"

namespace rr::testing {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::string IndexedCommit(const ServedRepo& repo) {
  auto index = CurrentTextIndex(repo);
  if (!index) return "";
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &index->commit());
  return hex;
}

TEST(SyncNudgesIndex, ASyncThatLandsCommitsHasTheMirrorsIndexCaughtUpAtOnce) {
  InitGitLibrary();
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  GitHttpServer server({root.path()});
  TempDir folder, cache;
  auto parsed = ParseConfig("mirror_folder: " + folder.path() + "\ncache_folder: " + cache.path() +
                                "\nmirrors:\n  - name: shop\n    url: " + server.Url("shop") + "\n",
                            "test.yaml", folder.path());
  ASSERT_TRUE(parsed) << parsed.error();
  Config c = parsed.take();
  auto catalog = BuildCatalog(c);
  ASSERT_TRUE(catalog) << catalog.error();
  auto live = std::make_shared<LiveCatalog>(catalog.take());
  const ServedRepo& mirror = **live->Get()->Find("shop");
  ASSERT_FALSE(TextIndexFile(mirror).empty());

  ManualClock clock;
  TextIndexer::Options text;
  text.recheck = hours(1);
  text.glance = milliseconds(0);  // only the sync's nudge can bring it before the hour
  text.clock = &clock;
  TextIndexer indexer(live, text);
  MirrorSyncer::Options o;
  o.clock = &clock;
  o.log = [](const std::string&) {};
  MirrorSyncer syncer(SyncGit(c), c.mirrors, o);
  syncer.OnSynced([&indexer](const std::string& name) { indexer.Nudge(name); });

  // The indexer's first pass comes before the first sync: nothing to index yet.
  indexer.Start();
  ASSERT_EQ(clock.Waiting(1).size(), 1u);
  ASSERT_EQ(indexer.passes(), 1u);
  EXPECT_EQ(IndexedCommit(mirror), "");
  syncer.Start();
  // The syncer's first sync, due at once; then its catch-up.
  auto waiting = clock.Waiting(2);
  ASSERT_EQ(waiting.size(), 2u);
  uint64_t rounds = indexer.rounds();
  clock.Advance(waiting[0] - clock.Now());
  ASSERT_TRUE(indexer.WaitRounds(rounds + 1, milliseconds(60000)));
  ASSERT_EQ(syncer.finished(), 1u);
  EXPECT_EQ(IndexedCommit(mirror), shop.Rev("HEAD"));

  // A commit pushed to the host: the next sync lands it, and the index follows at once.
  shop.Write("fresh.txt", "freshtoken-3003\n");
  const std::string pushed = shop.Commit("fresh");
  waiting = clock.Waiting(2);
  ASSERT_EQ(waiting.size(), 2u);
  EXPECT_LT(waiting[0] - clock.Now(), hours(1)) << "the sync is due first";
  rounds = indexer.rounds();
  clock.Advance(waiting[0] - clock.Now());
  ASSERT_TRUE(indexer.WaitRounds(rounds + 1, milliseconds(60000)));
  EXPECT_EQ(syncer.finished(), 2u);
  EXPECT_EQ(IndexedCommit(mirror), pushed);
  EXPECT_EQ(indexer.passes(), 1u) << "caught up without a pass";
  syncer.Stop();
  indexer.Stop();
}

}  // namespace
}  // namespace rr::testing
