// MirrorSyncer while it runs: mirrors added (a group's new repositories) are synced, mirrors
// removed are synced no more, and a removed mirror's sync under way is stopped at once.
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "core/sync/syncer.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace syncer_changes_test {
namespace {

struct Logged {
  std::mutex mu;
  std::string text;
  std::function<void(const std::string&)> Sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu);
      text += line + "\n";
    };
  }
  std::string Get() {
    std::lock_guard<std::mutex> lock(mu);
    return text;
  }
};

void WaitFinished(const MirrorSyncer& s, size_t n) {
  for (int i = 0; i < 1200 && s.finished() < n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(SyncerChanges, AMirrorAddedIsSyncedAndOneRemovedIsNotKept) {
  TempDir root;
  TestRepo shop(root / "shop");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Shop");
  GitHttpServer server({root.path()});
  TempDir folder;
  Config c = MirrorConfigFor("  - name: a\n    url: " + server.Url("shop") +
                                 "\n  - name: b\n    url: " + server.Url("shop") +
                                 "\n    exclude: [docs]\n",
                             folder.path());
  ASSERT_EQ(c.mirrors.size(), 2u);
  Logged log;
  MirrorSyncer::Options o;
  o.log = log.Sink();
  MirrorSyncer syncer(SyncGit(c), {c.mirrors[0]}, o);
  syncer.Start();
  WaitFinished(syncer, 1);
  ASSERT_EQ(syncer.finished(), 1u) << log.Get();

  MirrorConfig added = c.mirrors[1];
  added.group = "127.0.0.1/acme";
  syncer.Add(added);
  syncer.Add(added);  // the same folder once
  EXPECT_EQ(syncer.size(), 2u);
  WaitFinished(syncer, 2);
  ASSERT_EQ(syncer.finished(), 2u) << log.Get();
  EXPECT_TRUE(c.mirrors[1].state->Mirrored()) << log.Get();
  EXPECT_TRUE(Has(log.Get(), "(group 127.0.0.1/acme, first sync: repository 1 of 1)")) << log.Get();

  EXPECT_TRUE(syncer.Remove(c.mirrors[1].dir));
  EXPECT_FALSE(syncer.Remove(c.mirrors[1].dir));
  EXPECT_EQ(syncer.size(), 1u);
  syncer.Stop();
}

TEST(SyncerChanges, RemovingAMirrorStopsItsSyncUnderWay) {
  // A host that takes the connection and never answers: only a stop ends the sync.
  Poco::Net::ServerSocket silent(Poco::Net::SocketAddress("127.0.0.1", 0));
  const std::string url =
      "http://127.0.0.1:" + std::to_string(silent.address().port()) + "/acme/hang.git";
  TempDir folder;
  Config c = MirrorConfigFor("  - name: hang\n    url: " + url + "\n", folder.path());
  ASSERT_EQ(c.mirrors.size(), 1u);
  Logged log;
  MirrorSyncer::Options o;
  o.log = log.Sink();
  MirrorSyncer syncer(SyncGit(c), c.mirrors, o);
  syncer.Start();
  for (int i = 0; i < 600 && !c.mirrors[0].state->Get().syncing; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(c.mirrors[0].state->Get().syncing);
  EXPECT_TRUE(syncer.Remove(c.mirrors[0].dir));
  WaitFinished(syncer, 1);
  ASSERT_EQ(syncer.finished(), 1u) << log.Get();
  EXPECT_TRUE(Has(log.Get(), "its sync was stopped")) << log.Get();
  EXPECT_FALSE(c.mirrors[0].state->Mirrored());
  syncer.Stop();
}

}  // namespace
}  // namespace syncer_changes_test
}  // namespace rr::testing
