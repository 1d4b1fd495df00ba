// PeriodicService (core/runtime/periodic.h), the skeleton of the history and text indexers, on a
// ManualClock: a pass, then the next one `every` later (within its spread) and not before; a
// nudged key caught up at once without a pass, the wait for the pass going on after; a whole
// pass asked for at once; glances between passes; Stop prompt while it waits. Nothing sleeps:
// the test sees where the service waits (ManualClock::Waiting) and what it has done (rounds).
#include "core/runtime/periodic.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/runtime/clock.h"
#include "core/util/heap_trim.h"

namespace rr::testing {
namespace periodic_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Records what it was asked to do.
class Recorder final : public PeriodicService {
 public:
  explicit Recorder(Schedule s, bool wanted = true) : PeriodicService(s), wanted_(wanted) {}
  ~Recorder() override { Stop(); }
  std::string name() const override { return "recorder"; }

  std::vector<std::string> log() const {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

 private:
  bool Wanted() override { return wanted_; }
  void Pass() override { Add("pass"); }
  void CatchUp(const std::vector<std::string>& keys) override {
    std::string line = "catch up";
    for (const auto& k : keys) line += " " + k;
    Add(line);
  }
  void Glance() override { Add("glance"); }
  void Add(const std::string& line) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back(line);
  }

  bool wanted_;
  mutable std::mutex mu_;
  std::vector<std::string> log_;
};

using Log = std::vector<std::string>;

// Where the service's one thread waits now, from the clock's time.
Clock::Duration NextWait(const ManualClock& clock) {
  auto waiting = clock.Waiting(1);
  EXPECT_EQ(waiting.size(), 1u);
  return waiting.empty() ? Clock::Duration::zero() : waiting[0] - clock.Now();
}

PeriodicService::Schedule On(const ManualClock& clock, milliseconds every, double spread = 0,
                             milliseconds glance = milliseconds(0)) {
  PeriodicService::Schedule s;
  s.every = every;
  s.spread = spread;
  s.glance = glance;
  s.clock = &clock;
  s.lowest_priority = false;
  return s;
}

TEST(PeriodicService, PassesComeAtTheirIntervalWithinTheSpreadAndNotBefore) {
  ManualClock clock;
  Recorder r(On(clock, seconds(60), 0.1));
  r.Start();
  r.Start();  // nothing started twice
  const Clock::Duration every = seconds(60);
  for (uint64_t pass = 1; pass <= 4; ++pass) {
    const Clock::Duration wait = NextWait(clock);
    ASSERT_EQ(r.passes(), pass);
    EXPECT_GE(wait, every - every / 10) << pass;
    EXPECT_LT(wait, every + every / 10) << pass;
    clock.Advance(wait - seconds(1));
    EXPECT_EQ(NextWait(clock), seconds(1)) << "it still waits for the same time";
    EXPECT_EQ(r.passes(), pass) << "a pass before its time";
    clock.Advance(seconds(1));
  }
  NextWait(clock);
  EXPECT_EQ(r.log(), Log(5, "pass"));
}

// After each pass the caches kept for calls drop what went unused (TrimCaches), then the heap's
// free pages go back.
TEST(PeriodicService, EachPassTrimsTheCachesKeptForCalls) {
  static std::atomic<int> trims{0};
  AddCacheTrim([] { ++trims; });
  ManualClock clock;
  Recorder r(On(clock, seconds(60)));
  const int before = trims.load();
  r.Start();
  clock.Advance(NextWait(clock));
  NextWait(clock);
  EXPECT_EQ(r.passes(), 2u);
  EXPECT_EQ(trims.load() - before, 2);
}

TEST(PeriodicService, ANudgedKeyIsCaughtUpAtOnceAndTheNextPassKeepsItsTime) {
  ManualClock clock;
  Recorder r(On(clock, seconds(60)));
  r.Start();
  ASSERT_EQ(NextWait(clock), seconds(60));
  clock.Advance(seconds(10));
  ASSERT_EQ(NextWait(clock), seconds(50));
  const uint64_t rounds = r.rounds();
  r.Nudge("shop");
  r.Nudge("web");
  // Caught up together or one after the other (as the thread wakes); no pass.
  std::set<std::string> caught;
  for (uint64_t n = rounds + 1; caught.size() < 2 && n <= rounds + 2; ++n) {
    ASSERT_TRUE(r.WaitRounds(n, milliseconds(60000)));
    caught.clear();
    for (const auto& line : r.log()) {
      if (line == "pass") continue;
      ASSERT_EQ(line.rfind("catch up ", 0), 0u) << line;
      std::istringstream keys(line.substr(9));
      for (std::string k; keys >> k;) caught.insert(k);
    }
  }
  EXPECT_EQ(caught, (std::set<std::string>{"shop", "web"}));
  EXPECT_EQ(r.passes(), 1u);
  EXPECT_EQ(NextWait(clock), seconds(50)) << "the pass is still due when it was";
  clock.Advance(seconds(50));
  NextWait(clock);
  EXPECT_EQ(r.passes(), 2u);
}

TEST(PeriodicService, AWholePassAskedForComesAtOnce) {
  ManualClock clock;
  Recorder r(On(clock, seconds(60)));
  r.Start();
  ASSERT_EQ(NextWait(clock), seconds(60));
  r.Nudge();
  ASSERT_TRUE(r.WaitRounds(2, milliseconds(60000)));
  EXPECT_EQ(r.passes(), 2u);
  EXPECT_EQ(NextWait(clock), seconds(60)) << "the next pass counts from this one";
  EXPECT_EQ(r.log(), (Log{"pass", "pass"}));
}

TEST(PeriodicService, GlancesComeBetweenPassesAtTheirInterval) {
  ManualClock clock;
  Recorder r(On(clock, seconds(10), 0, seconds(3)));
  r.Start();
  EXPECT_EQ(NextWait(clock), seconds(3));
  clock.Advance(seconds(3));
  EXPECT_EQ(NextWait(clock), seconds(3));
  clock.Advance(seconds(3));
  EXPECT_EQ(NextWait(clock), seconds(3));
  clock.Advance(seconds(3));
  EXPECT_EQ(NextWait(clock), seconds(1)) << "the pass, due before the next glance";
  clock.Advance(seconds(1));
  EXPECT_EQ(NextWait(clock), seconds(3));
  EXPECT_EQ(r.log(), (Log{"pass", "glance", "glance", "glance", "pass"}));
}

TEST(PeriodicService, NothingWantedStartsNoThread) {
  ManualClock clock;
  Recorder r(On(clock, seconds(60)), false);
  r.Start();
  EXPECT_TRUE(clock.Waiting(1, milliseconds(200)).empty());
  EXPECT_EQ(r.passes(), 0u);
  EXPECT_TRUE(r.log().empty());
}

TEST(PeriodicService, StopReturnsPromptlyWhileItWaits) {
  ManualClock clock;
  Recorder r(On(clock, std::chrono::hours(1)));
  r.Start();
  NextWait(clock);
  auto stopped = std::async(std::launch::async, [&] { r.Stop(); });
  const bool prompt = stopped.wait_for(seconds(5)) == std::future_status::ready;
  EXPECT_TRUE(prompt) << "Stop waited for the clock";
  if (!prompt) clock.Advance(std::chrono::hours(2));
  stopped.wait();
  EXPECT_EQ(r.passes(), 1u);
  r.Start();  // not after Stop
  EXPECT_EQ(r.passes(), 1u);
}

}  // namespace
}  // namespace periodic_test
}  // namespace rr::testing
