// A mirror's sync that lands new commits has its indexes caught up at once: the syncer tells the
// text indexer and the history indexer (MirrorSyncer::OnSynced -> Nudge, as core/app/main.cc
// wires them), and each, an hour from its next pass, indexes what the sync landed. They run on
// one ManualClock against a real git server on loopback; nothing sleeps.
#include <gtest/gtest.h>

#include <chrono>

#include "core/app/wiring.h"
#include "core/history/history_indexer.h"
#include "core/index/text_indexer.h"
#include "core/runtime/clock.h"
#include "core/runtime/periodic.h"
#include "core/sync/syncer.h"
#include "tests/sync/sync_kit.h"

namespace rr::testing {
namespace sync_nudges_index_test {
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

// The catalog of `yaml` (a configuration with a mirror_folder), live as the app keeps it.
std::shared_ptr<LiveCatalog> LiveCatalogOf(const std::string& yaml, const std::string& folder,
                                           Config* config) {
  auto parsed = ParseConfig(yaml, "test.yaml", folder);
  if (!parsed) {
    ADD_FAILURE() << parsed.error();
    return nullptr;
  }
  *config = parsed.take();
  auto catalog = BuildCatalog(*config);
  if (!catalog) {
    ADD_FAILURE() << catalog.error();
    return nullptr;
  }
  return std::make_shared<LiveCatalog>(catalog.take());
}

MirrorSyncer::Options QuietSyncerOn(const ManualClock& clock) {
  MirrorSyncer::Options o;
  o.clock = &clock;
  o.log = [](const std::string&) {};
  return o;
}

// Moves the clock on to the next sync (due before the indexer's next pass, an hour away) and
// waits until the indexer has acted on the sync's nudge.
void SyncAndWaitForTheIndexer(ManualClock& clock, const PeriodicService& indexer) {
  const auto waiting = clock.Waiting(2);
  ASSERT_EQ(waiting.size(), 2u) << "the syncer and the indexer both wait";
  EXPECT_LT(waiting[0] - clock.Now(), hours(1)) << "the sync is due first";
  const uint64_t rounds = indexer.rounds();
  clock.Advance(waiting[0] - clock.Now());
  ASSERT_TRUE(indexer.WaitRounds(rounds + 1, milliseconds(60000)));
}

TEST(SyncNudgesIndex, ASyncThatLandsCommitsHasTheMirrorsIndexCaughtUpAtOnce) {
  InitGitLibrary();
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  GitHttpServer server({root.path()});
  TempDir folder, cache;
  Config c;
  auto live = LiveCatalogOf("mirror_folder: " + folder.path() + "\ncache_folder: " + cache.path() +
                                "\nmirrors:\n  - name: shop\n    url: " + server.Url("shop") + "\n",
                            folder.path(), &c);
  ASSERT_TRUE(live);
  const ServedRepo& mirror = **live->Get()->Find("shop");
  ASSERT_FALSE(TextIndexFile(mirror).empty());

  ManualClock clock;
  TextIndexer::Options text;
  text.recheck = hours(1);
  text.glance = milliseconds(0);  // only the sync's nudge can bring it before the hour
  text.clock = &clock;
  TextIndexer indexer(live, text);
  MirrorSyncer syncer(SyncGit(c), c.mirrors, QuietSyncerOn(clock));
  syncer.OnSynced([&indexer](const std::string& name) { indexer.Nudge(name); });

  // The indexer's first pass comes before the first sync: nothing to index yet.
  indexer.Start();
  ASSERT_EQ(clock.Waiting(1).size(), 1u);
  ASSERT_EQ(indexer.passes(), 1u);
  EXPECT_EQ(IndexedCommit(mirror), "");
  syncer.Start();
  // The syncer's first sync, due at once; then its catch-up.
  ASSERT_NO_FATAL_FAILURE(SyncAndWaitForTheIndexer(clock, indexer));
  ASSERT_EQ(syncer.finished(), 1u);
  EXPECT_EQ(IndexedCommit(mirror), shop.Rev("HEAD"));

  // A commit pushed to the host: the next sync lands it, and the index follows at once.
  shop.Write("fresh.txt", "freshtoken-3003\n");
  const std::string pushed = shop.Commit("fresh");
  ASSERT_NO_FATAL_FAILURE(SyncAndWaitForTheIndexer(clock, indexer));
  EXPECT_EQ(syncer.finished(), 2u);
  EXPECT_EQ(IndexedCommit(mirror), pushed);
  EXPECT_EQ(indexer.passes(), 1u) << "caught up without a pass";
  syncer.Stop();
  indexer.Stop();
}

// The history indexer, told of the sync the same way: the commits a sync landed are in the
// mirror's history index at once, an hour before its next pass.
TEST(SyncNudgesIndex, ASyncThatLandsCommitsHasTheMirrorsHistoryIndexCaughtUpAtOnce) {
  InitGitLibrary();
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  shop.Write("a.txt", "a\n");
  shop.Commit("a");
  GitHttpServer server({root.path()});
  TempDir local;
  TestRepo other(local / "other");
  other.Write("README.md", "# Other\n");
  other.Commit("Other");
  TempDir folder, cache;
  Config c;
  auto live = LiveCatalogOf("mirror_folder: " + folder.path() + "\ncache_folder: " + cache.path() +
                                "\nrepos:\n  - name: other\n    path: " + other.path() +
                                "\nmirrors:\n  - name: shop\n    url: " + server.Url("shop") + "\n",
                            folder.path(), &c);
  ASSERT_TRUE(live);
  const ServedRepo& mirror = **live->Get()->Find("shop");
  const ServedRepo& local_repo = **live->Get()->Find("other");

  ManualClock clock;
  HistoryIndexer::Options index;
  index.recheck = hours(1);
  index.clock = &clock;
  HistoryIndexer indexer(live, index);
  MirrorSyncer syncer(SyncGit(c), c.mirrors, QuietSyncerOn(clock));
  syncer.OnSynced([&indexer](const std::string& name) { indexer.Nudge(name); });

  // The indexer's first pass comes before the first sync: nothing to index yet.
  indexer.Start();
  ASSERT_EQ(clock.Waiting(1).size(), 1u);
  ASSERT_EQ(indexer.passes(), 1u);
  EXPECT_EQ(mirror.Graph(), nullptr);
  ASSERT_TRUE(local_repo.Graph());
  EXPECT_EQ(local_repo.Graph()->size(), 1u);
  syncer.Start();
  ASSERT_NO_FATAL_FAILURE(SyncAndWaitForTheIndexer(clock, indexer));
  ASSERT_EQ(syncer.finished(), 1u);
  auto graph = mirror.Graph();
  ASSERT_TRUE(graph);
  EXPECT_EQ(graph->size(), 2u);

  // Two commits pushed to the host: the next sync lands them, and the index follows at once --
  // that repository's alone: a commit made meanwhile in the local one waits for the next pass.
  other.Write("later.txt", "later\n");
  other.Commit("later");
  shop.Write("b.txt", "b\n");
  shop.Commit("b");
  shop.Write("c.txt", "c\n");
  shop.Commit("c");
  ASSERT_NO_FATAL_FAILURE(SyncAndWaitForTheIndexer(clock, indexer));
  EXPECT_EQ(syncer.finished(), 2u);
  graph = mirror.Graph();
  ASSERT_TRUE(graph);
  EXPECT_EQ(graph->size(), 4u);
  // The server's own index, not a commit-graph the sync might have written in the mirror.
  EXPECT_EQ(graph->layers().at(0).file.rfind(cache.path() + "/", 0), 0u)
      << graph->layers().at(0).file;
  EXPECT_EQ(indexer.passes(), 1u) << "caught up without a pass";
  EXPECT_EQ(local_repo.Graph()->size(), 1u) << "only the synced mirror is caught up";
  syncer.Stop();
  indexer.Stop();
}

}  // namespace
}  // namespace sync_nudges_index_test
}  // namespace rr::testing
