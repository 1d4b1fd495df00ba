// Groups listed again while the server runs (core/hosts/group_relister.h): the fake host's
// listing changes between two listings, and the served set follows — a repository added is
// synced and served, one removed is gone from list_repos and refused by read_file, while a call
// that began before the swap finishes on the set it began with. A listing that fails keeps the
// group's set and waits as long as the host's Retry-After says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include "core/answer/host_links.h"
#include "core/app/wiring.h"
#include "core/hosts/group_relister.h"
#include "core/runtime/clock.h"
#include "core/sync/syncer.h"
#include "core/tools/read_file.h"
#include "tests/hosts/fake_host.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace group_relist_test {
namespace {

using std::chrono::seconds;

// --- When the next listing comes: a function of what the last one got. ---

TEST(RetryAfter, SecondsOrAnHttpDateBoundedByADay) {
  const std::time_t now = 1792483200;  // 2026-10-20 08:00:00 UTC
  EXPECT_EQ(ParseRetryAfter("120", now), seconds(120));
  EXPECT_EQ(ParseRetryAfter(" 0 ", now), seconds(0));
  EXPECT_EQ(ParseRetryAfter("999999999999", now), kMaxRetryAfter);
  EXPECT_EQ(ParseRetryAfter("172800", now), kMaxRetryAfter);  // two days: a day
  // An HTTP date: an hour from now; in the other two forms HTTP allows.
  EXPECT_EQ(ParseRetryAfter("Tue, 20 Oct 2026 09:00:00 GMT", now), seconds(3600));
  EXPECT_EQ(ParseRetryAfter("Tuesday, 20-Oct-26 09:00:00 GMT", now), seconds(3600));
  EXPECT_EQ(ParseRetryAfter("Tue Oct 20 09:00:00 2026", now), seconds(3600));
  EXPECT_EQ(ParseRetryAfter("Mon, 19 Oct 2026 09:00:00 GMT", now), seconds(0));  // past
  EXPECT_EQ(ParseRetryAfter("Fri, 30 Oct 2026 08:00:00 GMT", now), kMaxRetryAfter);
  EXPECT_FALSE(ParseRetryAfter("soon", now));
  EXPECT_FALSE(ParseRetryAfter("-5", now));
  EXPECT_FALSE(ParseRetryAfter("", now));
}

TEST(NextListing, SuccessWaitsTheIntervalGiveOrTakeATenth) {
  const seconds every(3600), first(30);
  EXPECT_EQ(NextListingIn(true, 0, std::nullopt, every, first, 0.0), seconds(3240));
  EXPECT_EQ(NextListingIn(true, 0, std::nullopt, every, first, 0.5), seconds(3600));
  EXPECT_LE(NextListingIn(true, 0, std::nullopt, every, first, 0.9999), seconds(3960));
}

TEST(NextListing, FailuresBackOffUpToTheInterval) {
  const seconds every(900), first(30);
  EXPECT_EQ(NextListingIn(false, 1, std::nullopt, every, first, 0.5), seconds(30));
  EXPECT_EQ(NextListingIn(false, 2, std::nullopt, every, first, 0.5), seconds(60));
  EXPECT_EQ(NextListingIn(false, 3, std::nullopt, every, first, 0.5), seconds(120));
  EXPECT_EQ(NextListingIn(false, 30, std::nullopt, every, first, 0.5), every);
}

TEST(NextListing, NeverBeforeTheHostsRetryAfter) {
  const seconds every(900), first(30);
  // A first failure would wait 30 s; the host asked for two hours, longer than the interval.
  EXPECT_EQ(NextListingIn(false, 1, seconds(7200), every, first, 0.0), seconds(7200));
  EXPECT_EQ(NextListingIn(false, 1, seconds(7200), every, first, 0.9999), seconds(7200));
  // A short Retry-After does not shorten the backoff.
  EXPECT_EQ(NextListingIn(false, 3, seconds(5), every, first, 0.5), seconds(120));
  // Bounded: at most a day, whatever is passed in.
  EXPECT_EQ(NextListingIn(false, 1, seconds(10 * 86400), every, first, 0.5), kMaxRetryAfter);
}

// --- The whole: a fake GitHub organisation whose listing changes, real git behind it. ---

std::string Listed(const std::vector<std::string>& names) {
  std::string body = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    body += std::string(i ? "," : "") + R"({"full_name":"acme/)" + names[i] +
            R"(","description":"about )" + names[i] + R"(","default_branch":"main"})";
  }
  return body + "]";
}

// A tool that holds its call open until released, then reads as read_file with the snapshot
// the call was given when it began.
class HoldingReadTool : public Tool {
 public:
  HoldingReadTool(std::shared_future<void> release, std::promise<void>* began)
      : release_(std::move(release)), began_(began) {
    spec_ = read_.spec();
    spec_.name = "held_read_file";
  }
  const ToolSpec& spec() const override { return spec_; }
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override {
    began_->set_value();
    release_.wait();
    return read_.Call(ctx, args);
  }

 private:
  ReadFileTool read_;
  ToolSpec spec_;
  std::shared_future<void> release_;
  std::promise<void>* began_;
};

class RelistTest : public ::testing::Test {
 protected:
  RelistTest()
      : git_({root_.path()}), api_([this](const std::string& uri) {
          std::lock_guard<std::mutex> lock(mu_);
          FakeHost::Reply r = reply_;
          if (r.status == 200 && !Has(uri, "/api/orgs/acme/repos")) r.status = 404;
          return r;
        }) {
    for (const char* name : {"shop", "infra", "new"}) {
      TestRepo repo(root_ / (std::string("acme/") + name + ".git"));
      repo.Write("README.md", std::string("# ") + name + "\n");
      repo.Commit(name);
    }
    SetListing({"shop", "infra"});
  }

  void SetListing(const std::vector<std::string>& names) {
    std::lock_guard<std::mutex> lock(mu_);
    reply_ = FakeHost::Reply{};
    reply_.body = Listed(names);
  }
  void SetReply(FakeHost::Reply r) {
    std::lock_guard<std::mutex> lock(mu_);
    reply_ = std::move(r);
  }

  // Configures, lists (as at start), builds the live set and the relister; `sync`: with a
  // syncer that syncs every mirror from the git server.
  void Start(bool sync, const std::string& repos_yaml = "") {
    auto c = ParseConfig(repos_yaml + "mirror_folder: " + folder_.path() + "\ngroups:\n  - host: " +
                             git_.Base() + "\n    host_kind: github\n    owner: acme\n" +
                             "    description: Acme's code.\n    api: " + api_.base() + "/api\n",
                         "c.yaml", folder_.path());
    ASSERT_TRUE(c) << c.error();
    config_ = c.take();
    outcomes_ = ExpandGroups(&config_, BuiltinHostPlugins(), nullptr);
    LinkRepositories(config_, HostLinks(BuiltinHostPlugins().hosts));
    auto catalog = BuildCatalog(config_);
    ASSERT_TRUE(catalog) << catalog.error();
    live_ = std::make_shared<LiveCatalog>(catalog.take(), true);
    if (sync) {
      MirrorSyncer::Options o;
      o.log = [this](const std::string& line) {
        std::lock_guard<std::mutex> lock(mu_);
        sync_log_ += line + "\n";
      };
      syncer_ = std::make_unique<MirrorSyncer>(SyncGit(config_), config_.mirrors, o);
      syncer_->Start();
    }
    GroupRelister::Options o;
    o.serve = ServeMirror;
    o.clock = &clock_;
    o.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(log_mu_);
      relist_log_ += line + "\n";
    };
    relister_ = std::make_unique<GroupRelister>(config_, outcomes_, BuiltinHostPlugins().hosts,
                                                live_, syncer_.get(), o);
  }

  // Waits until the syncer has finished `n` syncs (bounded; no timing is asserted).
  void SyncsFinished(size_t n) {
    for (int i = 0; i < 1200 && syncer_->finished() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_GE(syncer_->finished(), n) << sync_log_;
  }

  // Listings so far, by the relister's log (written on its thread).
  size_t Listings() {
    std::lock_guard<std::mutex> lock(log_mu_);
    size_t n = 0;
    for (const char* outcome : {" listed again: ", ": listing it again failed: "}) {
      for (size_t at = 0; (at = relist_log_.find(outcome, at)) != std::string::npos; ++at) ++n;
    }
    return n;
  }
  // Where the relister's thread waits now, from the clock's time (it must be waiting).
  Clock::Duration NextWait() {
    auto waiting = clock_.Waiting(1);
    EXPECT_EQ(waiting.size(), 1u);
    return waiting.empty() ? Clock::Duration::zero() : waiting[0] - clock_.Now();
  }

  ManualClock clock_;
  TempDir root_, folder_;
  GitHttpServer git_;
  std::mutex mu_, log_mu_;
  FakeHost::Reply reply_;
  FakeHost api_;
  Config config_;
  std::vector<GroupOutcome> outcomes_;
  std::shared_ptr<LiveCatalog> live_;
  std::unique_ptr<MirrorSyncer> syncer_;
  std::unique_ptr<GroupRelister> relister_;
  std::string sync_log_, relist_log_;
};

TEST_F(RelistTest, AddedIsServedRemovedIsGoneAndACallUnderWayKeepsItsSet) {
  Start(true);
  SyncsFinished(2);
  std::promise<void> began;
  std::promise<void> release;
  std::vector<std::unique_ptr<const Tool>> extra;
  extra.push_back(std::make_unique<HoldingReadTool>(release.get_future().share(), &began));
  ToolHarness h(ToolHarness::Live{}, live_, std::move(extra));
  auto before = h.Call("read_file", R"({"repo":"acme/infra","path":"README.md"})");
  ASSERT_FALSE(before.is_error) << before.text;
  const auto shop_before = live_->Get()->Find("acme/shop");
  ASSERT_TRUE(shop_before);

  // A call begins on the set as it is, and is held open across the swap.
  const int held = h.CallAsync("held_read_file", R"({"repo":"acme/infra","path":"README.md"})");
  began.get_future().wait();

  SetListing({"shop", "new"});
  auto r = relister_->ListNow(0);
  ASSERT_TRUE(r.outcome.error.empty()) << r.outcome.error;
  EXPECT_EQ(r.added, std::vector<std::string>{"acme/new"});
  EXPECT_EQ(r.removed, std::vector<std::string>{"acme/infra"});
  EXPECT_EQ(relister_->Names(0), (std::vector<std::string>{"acme/shop", "acme/new"}));
  EXPECT_TRUE(Has(relist_log_, "added: acme/new")) << relist_log_;
  EXPECT_TRUE(Has(relist_log_, "no longer listed, so no longer served or synced")) << relist_log_;
  EXPECT_TRUE(Has(relist_log_, "acme/infra")) << relist_log_;

  // The held call finishes on the set it began with: the removed repository is still read.
  release.set_value();
  auto old_read = h.Await(held);
  ASSERT_FALSE(old_read.is_error) << old_read.text;
  EXPECT_TRUE(Has(old_read.text, "# infra")) << old_read.text;

  // A call from now on: infra is gone, new is there (not mirrored yet, then synced).
  auto gone = h.Call("read_file", R"({"repo":"acme/infra","path":"README.md"})");
  EXPECT_TRUE(gone.is_error);
  EXPECT_TRUE(Has(gone.text, "no repository named `acme/infra` is served")) << gone.text;
  SyncsFinished(3);
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(Has(repos.text, "## acme/new")) << repos.text;
  EXPECT_FALSE(Has(repos.text, "acme/infra")) << repos.text;
  // The configuration's description, then the host's.
  EXPECT_TRUE(Has(repos.text, "Acme's code. — about new")) << repos.text;
  auto added = h.Call("read_file", R"({"repo":"acme/new","path":"README.md"})");
  ASSERT_FALSE(added.is_error) << added.text << "\n" << sync_log_;
  EXPECT_TRUE(Has(added.text, "# new")) << added.text;

  // What did not change kept its ServedRepo (caches, state); the syncer keeps the new set.
  EXPECT_EQ(live_->Get()->Find("acme/shop").value(), shop_before.value());
  EXPECT_EQ(syncer_->size(), 2u);
  // The removed mirror's folder stays on disk; the kept listing is the new one.
  const std::string infra_dir = config_.mirrors[1].dir;
  EXPECT_TRUE(std::filesystem::exists(infra_dir)) << infra_dir;
  std::ifstream in(KeptListingFile(config_, config_.groups[0]));
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(Has(kept, "acme/new")) << kept;
  EXPECT_FALSE(Has(kept, "acme/infra")) << kept;
}

// A repository configured one by one keeps its name: a listing that brings a repository of the
// group under the same name does not serve it in its place (the relister keeps the configured
// names, not the configured repositories).
TEST_F(RelistTest, AListedRepositoryNamedLikeAConfiguredOneIsNotServedInItsPlace) {
  TestRepo local(root_ / "local");
  local.Write("README.md", "# the configured one\n");
  local.Commit("local");
  Start(false, "repos:\n  - name: acme/new\n    path: " + local.path() + "\n");
  SetListing({"shop", "new"});
  auto r = relister_->ListNow(0);
  ASSERT_TRUE(r.outcome.error.empty()) << r.outcome.error;
  EXPECT_TRUE(r.added.empty()) << r.added.front();
  EXPECT_EQ(r.outcome.unnamed, 1u);
  ToolHarness h(ToolHarness::Live{}, live_);
  auto read = h.Call("read_file", R"({"repo":"acme/new","path":"README.md"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "# the configured one")) << read.text;
}

TEST_F(RelistTest, AFirstSyncOfAGroupSaysHowFarItIs) {
  Start(true);
  SyncsFinished(2);
  std::lock_guard<std::mutex> lock(mu_);
  EXPECT_TRUE(Has(sync_log_, "(group 127.0.0.1/acme, first sync: repository 1 of 2)")) << sync_log_;
  EXPECT_TRUE(Has(sync_log_, "(group 127.0.0.1/acme, first sync: repository 2 of 2)")) << sync_log_;
}

TEST_F(RelistTest, AFailedListingKeepsTheGroupsSet) {
  Start(false);
  const auto set_before = live_->Get();
  const uint64_t generation = live_->generation();
  const std::string kept_file = KeptListingFile(config_, config_.groups[0]);
  std::ifstream first(kept_file);
  const std::string kept_before((std::istreambuf_iterator<char>(first)),
                                std::istreambuf_iterator<char>());

  FakeHost::Reply server_error;
  server_error.status = 500;
  FakeHost::Reply not_json;
  not_json.body = "[{\"full_name\": \"acme/shop\",";
  FakeHost::Reply slow_down;
  slow_down.status = 429;
  slow_down.headers = {{"Retry-After", "3600"}};
  for (const auto& reply : {server_error, not_json, slow_down}) {
    SetReply(reply);
    auto r = relister_->ListNow(0);
    EXPECT_FALSE(r.outcome.error.empty()) << reply.status << " " << reply.body;
    EXPECT_EQ(relister_->Names(0), (std::vector<std::string>{"acme/shop", "acme/infra"}));
    EXPECT_EQ(live_->Get(), set_before);
    EXPECT_EQ(live_->generation(), generation);
    if (reply.status == 429) {
      EXPECT_EQ(r.outcome.retry_after, "3600");
      EXPECT_GE(r.next, seconds(3600));  // not the 30 s-and-doubling backoff
      EXPECT_TRUE(Has(relist_log_, "Retry-After: 3600")) << relist_log_;
    } else {
      EXPECT_LT(r.next, seconds(3600));
    }
  }
  EXPECT_TRUE(Has(relist_log_, "it keeps its 2 repositories")) << relist_log_;
  std::ifstream after(kept_file);
  const std::string kept_after((std::istreambuf_iterator<char>(after)),
                               std::istreambuf_iterator<char>());
  EXPECT_EQ(kept_after, kept_before);

  // The host is back: the next listing applies.
  SetListing({"shop"});
  auto r = relister_->ListNow(0);
  EXPECT_TRUE(r.outcome.error.empty()) << r.outcome.error;
  EXPECT_EQ(r.removed, std::vector<std::string>{"acme/infra"});
  EXPECT_NE(live_->Get(), set_before);
  EXPECT_FALSE(live_->Get()->Find("acme/infra"));
}

TEST_F(RelistTest, TheRelisterListsOnItsOwnThread) {
  // A group that failed at start is retried after first_retry (30 s, on the test's clock) by
  // the background thread, which then waits list_every (2 h) for the next listing.
  SetReply(FakeHost::Reply{503, {}, "", {}});
  auto c = ParseConfig("mirror_folder: " + folder_.path() + "\ngroups:\n  - host: " + git_.Base() +
                           "\n    host_kind: github\n    owner: acme\n" +
                           "    list_every: 2h\n    api: " + api_.base() + "/api\n",
                       "c.yaml", folder_.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->groups[0].list_every, 7200);
  Config config = c.take();
  auto outcomes = ExpandGroups(&config, BuiltinHostPlugins(), nullptr);
  ASSERT_FALSE(outcomes[0].error.empty());
  auto catalog = BuildCatalog(config);
  ASSERT_TRUE(catalog) << catalog.error();
  auto live = std::make_shared<LiveCatalog>(catalog.take(), true);
  EXPECT_TRUE(live->Get()->all().empty());
  SetListing({"shop"});
  GroupRelister::Options o;
  o.serve = ServeMirror;
  o.first_retry = seconds(30);
  o.log = [](const std::string&) {};
  ManualClock clock;
  o.clock = &clock;
  GroupRelister relister(config, outcomes, BuiltinHostPlugins().hosts, live, nullptr, o);
  relister.Start();
  auto waiting = clock.Waiting(1);  // the retry of the listing that failed at start
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(live->generation(), 0u);
  clock.Advance(waiting[0] - clock.Now());
  waiting = clock.Waiting(1);  // listed on its own thread, and waiting for the next listing
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_GE(waiting[0] - clock.Now(), seconds(7200 - 720));
  relister.Stop();
  EXPECT_EQ(live->generation(), 1u);
  ASSERT_EQ(live->Get()->all().size(), 1u);
  EXPECT_EQ(live->Get()->all()[0]->name(), "acme/shop");
}

// --- The schedule, on a ManualClock: the relister's thread waits on the clock, and the test
// moves it on to where the next listing is due. ---

// A listing that succeeded is followed by the next one `every` later, give or take a tenth:
// a second short of that, nothing is listed; at it, the group is listed once.
TEST_F(RelistTest, TheNextListingComesAtItsIntervalAndNotBefore) {
  Start(false);
  const Clock::Duration every = seconds(config_.groups[0].sync_every);
  ASSERT_EQ(every, seconds(900));
  relister_->Start();
  for (int round = 0; round < 3; ++round) {
    const Clock::Duration wait = NextWait();
    EXPECT_GE(wait, every - every / 10) << round;
    EXPECT_LT(wait, every + every / 10) << round;
    clock_.Advance(wait - seconds(1));
    EXPECT_EQ(NextWait(), seconds(1)) << "it still waits for the same time";
    EXPECT_EQ(Listings(), static_cast<size_t>(round)) << "listed before its time";
    clock_.Advance(seconds(1));
    NextWait();  // listed, and waiting for the next
    EXPECT_EQ(Listings(), static_cast<size_t>(round + 1));
  }
  relister_->Stop();
}

// A host that keeps failing: the wait doubles from first_retry (30 s) each time, give or take a
// tenth, up to the group's interval; each retry lists once.
TEST_F(RelistTest, FailedListingsBackOffDoublingUpToTheInterval) {
  Start(false);  // listed at start: the next listing is due in `every`
  FakeHost::Reply server_error;
  server_error.status = 500;
  SetReply(server_error);
  relister_->Start();
  clock_.Advance(NextWait());  // the first listing again, which fails
  NextWait();
  size_t listed = Listings();
  ASSERT_EQ(listed, 1u);
  for (int64_t expect : {30, 60, 120, 240, 480, 900, 900}) {
    const Clock::Duration wait = NextWait();
    const Clock::Duration e = seconds(expect);
    EXPECT_GE(wait, e - e / 10) << expect;
    EXPECT_LT(wait, e + e / 10) << expect;
    clock_.Advance(wait);
    NextWait();
    EXPECT_EQ(Listings(), ++listed);
  }
  EXPECT_TRUE(Has(relist_log_, "listing it again failed")) << relist_log_;
  relister_->Stop();
}

// Stop ends the wait for the next listing at once, however far it is.
TEST_F(RelistTest, StopReturnsPromptlyWhileItWaitsForTheNextListing) {
  Start(false);
  relister_->Start();
  ASSERT_GT(NextWait(), seconds(60));
  auto stopped = std::async(std::launch::async, [&] { relister_->Stop(); });
  const bool prompt = stopped.wait_for(seconds(5)) == std::future_status::ready;
  EXPECT_TRUE(prompt) << "Stop waited for the clock";
  if (!prompt) clock_.Advance(std::chrono::hours(24));  // lets the thread end all the same
  stopped.wait();
  EXPECT_EQ(Listings(), 0u);
}

TEST(GroupsConfig, ListEveryIsATimeOfAtLeastAMinute) {
  TempDir dir;
  for (const char* bad : {"30s", "soon", "0m", "-5m"}) {
    auto c = ParseConfig("mirror_folder: " + dir.path() +
                             "\ngroups:\n  - host: https://github.com\n    owner: acme\n"
                             "    list_every: " +
                             bad + "\n",
                         dir / "c.yaml", dir.path());
    ASSERT_FALSE(c) << bad;
    EXPECT_TRUE(Has(c.error(), "groups[0].list_every")) << c.error();
    EXPECT_TRUE(Has(c.error(), "at least a minute")) << c.error();
  }
}

}  // namespace
}  // namespace group_relist_test
}  // namespace rr::testing
