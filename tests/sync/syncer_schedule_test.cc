// MirrorSyncer's schedule on a ManualClock (core/runtime/clock.h): the syncs themselves are real
// (git against a local git server, or a port nobody listens on), but when each comes is read
// from the clock, so the test moves the clock to where the next sync is due instead of sleeping
// -- and proves that nothing is synced a second before.
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <gtest/gtest.h>

#include <future>

#include "core/runtime/clock.h"
#include "core/sync/syncer.h"
#include "tests/sync/sync_kit.h"

namespace rr::testing {
namespace syncer_schedule_test {
namespace {

using std::chrono::seconds;

// Where the syncer's one worker waits now, from the clock's time (it must be waiting).
Clock::Duration NextWait(const ManualClock& clock) {
  auto waiting = clock.Waiting(1);
  EXPECT_EQ(waiting.size(), 1u);
  return waiting.empty() ? Clock::Duration::zero() : waiting[0] - clock.Now();
}

MirrorSyncer::Options Quiet(const ManualClock& clock) {
  MirrorSyncer::Options o;
  o.clock = &clock;
  o.log = [](const std::string&) {};
  return o;
}

// A good sync is followed by the next one sync_every later (15 minutes), give or take a tenth;
// a second short of it nothing is synced, at it one sync runs.
TEST(SyncerSchedule, TheNextSyncComesAtItsIntervalAndNotBefore) {
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  GitHttpServer server({root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  ManualClock clock;
  MirrorSyncer syncer(SyncGit(c), c.mirrors, Quiet(clock));
  syncer.Start();
  const Clock::Duration first = NextWait(clock);
  EXPECT_LT(first, std::chrono::milliseconds(200)) << "the first sync comes at once";
  clock.Advance(first);
  const Clock::Duration every = seconds(900);
  for (size_t round = 1; round <= 3; ++round) {
    const Clock::Duration wait = NextWait(clock);
    ASSERT_EQ(syncer.finished(), round);
    EXPECT_TRUE(c.mirrors[0].state->Mirrored());
    EXPECT_GE(wait, every - every / 10) << round;
    EXPECT_LT(wait, every + every / 10) << round;
    clock.Advance(wait - seconds(1));
    EXPECT_EQ(NextWait(clock), seconds(1)) << "it still waits for the same time";
    EXPECT_EQ(syncer.finished(), round) << "synced before its time";
    clock.Advance(seconds(1));
  }
  NextWait(clock);
  EXPECT_EQ(syncer.finished(), 4u);
  syncer.Stop();
}

// A mirror whose host cannot be reached: each failed sync is tried again after first_retry
// (30 s), then twice as long each time, give or take a tenth, up to sync_every.
TEST(SyncerSchedule, AFailedSyncIsTriedAgainAfterADoublingWaitUpToTheInterval) {
  std::string url;
  {
    Poco::Net::ServerSocket closed(Poco::Net::SocketAddress("127.0.0.1", 0));
    url = "http://127.0.0.1:" + std::to_string(closed.address().port()) + "/acme/gone.git";
  }  // nobody listens there now: each sync fails at once
  TempDir folder;
  Config c = MirrorConfigFor("  - name: gone\n    url: " + url + "\n", folder.path());
  ManualClock clock;
  MirrorSyncer syncer(SyncGit(c), c.mirrors, Quiet(clock));
  syncer.Start();
  clock.Advance(NextWait(clock));  // the first sync
  size_t synced = 1;
  for (int64_t expect : {30, 60, 120, 240, 480, 900, 900}) {
    const Clock::Duration wait = NextWait(clock);
    ASSERT_EQ(syncer.finished(), synced);
    EXPECT_FALSE(c.mirrors[0].state->Get().error.empty());
    const Clock::Duration e = seconds(expect);
    EXPECT_GE(wait, e - e / 10) << expect;
    EXPECT_LT(wait, e + e / 10) << expect;
    clock.Advance(wait);
    ++synced;
  }
  NextWait(clock);
  EXPECT_EQ(syncer.finished(), synced);
  syncer.Stop();
}

// Stop ends the wait for the next sync at once, however far it is; the wall time of the last
// sync is the clock's.
TEST(SyncerSchedule, StopReturnsPromptlyWhileItWaitsForTheNextSync) {
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  GitHttpServer server({root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  ManualClock clock(1900000000);
  MirrorSyncer syncer(SyncGit(c), c.mirrors, Quiet(clock));
  syncer.Start();
  clock.Advance(NextWait(clock));
  ASSERT_GT(NextWait(clock), seconds(60));
  EXPECT_EQ(c.mirrors[0].state->Get().last_synced, clock.Wall());
  auto stopped = std::async(std::launch::async, [&] { syncer.Stop(); });
  const bool prompt = stopped.wait_for(seconds(5)) == std::future_status::ready;
  EXPECT_TRUE(prompt) << "Stop waited for the clock";
  if (!prompt) clock.Advance(std::chrono::hours(24));  // lets the worker end all the same
  stopped.wait();
  EXPECT_EQ(syncer.finished(), 1u);
}

}  // namespace
}  // namespace syncer_schedule_test
}  // namespace rr::testing
