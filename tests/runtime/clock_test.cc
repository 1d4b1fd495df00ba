// The clocks of core/runtime/clock.h: a ManualClock's time moves only when a test moves it, a
// thread waiting on it wakes when its time is reached and not before, and a notify wakes it at
// once; the real clock waits as condition_variable does.
#include "core/runtime/clock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace rr::testing {
namespace clock_test {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ManualClock, TimeMovesOnlyWhenAdvanced) {
  ManualClock clock(1000);
  const auto t0 = clock.Now();
  EXPECT_EQ(clock.Now(), t0);
  clock.Advance(seconds(90));
  EXPECT_EQ(clock.Now() - t0, seconds(90));
  EXPECT_EQ(clock.Wall(), 1090);
  clock.Advance(milliseconds(1500));
  EXPECT_EQ(clock.Wall(), 1091);
  clock.Advance(-hours(1));  // never back
  EXPECT_EQ(clock.Now() - t0, milliseconds(91500));
}

// One thread waits until t0 + 1 h; it wakes when the clock reaches that time, not a second
// before, and Waiting() shows where it waits.
TEST(ManualClock, AWaiterWakesAtItsTimeAndNotBefore) {
  ManualClock clock;
  std::mutex mu;
  std::condition_variable cv;
  const auto until = clock.Now() + hours(1);
  std::atomic<bool> woke{false};
  std::thread t([&] {
    std::unique_lock<std::mutex> lock(mu);
    EXPECT_FALSE(clock.WaitUntil(lock, cv, until, [] { return false; }));
    woke = true;
  });
  auto waiting = clock.Waiting(1);
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(waiting[0], until);
  clock.Advance(hours(1) - seconds(1));
  waiting = clock.Waiting(1);  // it has seen the new time and still waits
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_FALSE(woke.load());
  clock.Advance(seconds(1));
  t.join();
  EXPECT_TRUE(woke.load());
  EXPECT_TRUE(clock.Waiting(1, milliseconds(10)).empty());
}

// A wait whose condition becomes true (a Stop) ends at once, however far its time is.
TEST(ManualClock, ANotifiedConditionEndsTheWaitAtOnce) {
  ManualClock clock;
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  std::thread t([&] {
    std::unique_lock<std::mutex> lock(mu);
    EXPECT_TRUE(clock.WaitUntil(lock, cv, Clock::TimePoint::max(), [&] { return stop; }));
  });
  ASSERT_EQ(clock.Waiting(1).size(), 1u);
  EXPECT_EQ(clock.Waiting(1)[0], Clock::TimePoint::max());
  const auto begin = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  cv.notify_all();
  t.join();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, seconds(5));
}

TEST(ManualClock, WaitingGivesUpAfterItsTimeout) {
  ManualClock clock;
  EXPECT_TRUE(clock.Waiting(1, milliseconds(20)).empty());
  EXPECT_TRUE(clock.Waiting(0, milliseconds(20)).empty());
}

TEST(SteadyClock, WaitsUntilItsTimeOrItsCondition) {
  const Clock& clock = Clock::Real();
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  const auto begin = clock.Now();
  EXPECT_FALSE(clock.WaitFor(lock, cv, milliseconds(20), [] { return false; }));
  EXPECT_GE(clock.Now() - begin, milliseconds(20));
  EXPECT_TRUE(clock.WaitFor(lock, cv, hours(1), [] { return true; }));
  EXPECT_GT(clock.Wall(), 1700000000);
}

}  // namespace
}  // namespace clock_test
}  // namespace rr::testing
