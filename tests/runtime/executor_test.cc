// The BoundedExecutor of core/runtime/executor.h: a fixed number of threads, a queue of bounded
// length, and a full queue refused at once with an error that says so, with nothing queued.
#include "core/runtime/executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace rr::testing {
namespace executor_test {
namespace {

TEST(BoundedExecutor, RunsEveryTaskOnItsOwnThreads) {
  BoundedExecutor ex({"test pool", 3, 100});
  ex.Start();
  std::atomic<int> ran{0};
  std::promise<void> all;
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> on_caller{false};
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(ex.Submit([&] {
      if (std::this_thread::get_id() == caller) on_caller = true;
      if (++ran == 100) all.set_value();
    }));
  }
  all.get_future().wait();
  EXPECT_EQ(ran.load(), 100);
  EXPECT_FALSE(on_caller.load());
}

// Two threads held busy, a queue of two: the fifth task is refused, with a sentence that names
// the pool and its limit, and it never runs; once the threads are free, tasks are taken again.
TEST(BoundedExecutor, AFullQueueIsRefusedAndNothingIsQueued) {
  BoundedExecutor ex({"search pool", 2, 2});
  ex.Start();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> began{0}, ran{0};
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(ex.Submit([&, released] {
      ++began;
      released.wait();
      ++ran;
    }));
  }
  while (began.load() < 2) std::this_thread::yield();
  ASSERT_TRUE(ex.Submit([&] { ++ran; }));
  ASSERT_TRUE(ex.Submit([&] { ++ran; }));
  EXPECT_EQ(ex.queued(), 2u);
  EXPECT_EQ(ex.running(), 2u);
  std::atomic<bool> refused_ran{false};
  Status refused = ex.Submit([&] { refused_ran = true; });
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(),
            "the search pool is busy: 2 threads are at work and 2 tasks wait, its limit; try "
            "again once some have finished");
  EXPECT_EQ(ex.queued(), 2u);
  release.set_value();
  while (ran.load() < 4) std::this_thread::yield();
  ASSERT_TRUE(ex.Submit([&] { ++ran; }));
  while (ran.load() < 5) std::this_thread::yield();
  ex.Stop();
  EXPECT_FALSE(refused_ran.load());
  EXPECT_EQ(ran.load(), 5);
}

// Stop drops what is queued, waits for what runs, and refuses what comes after.
TEST(BoundedExecutor, StopDropsTheQueueWaitsForTheRunningAndRefusesMore) {
  BoundedExecutor ex({"pool", 1, 10});
  ex.Start();
  std::promise<void> began;
  std::atomic<bool> finished{false}, dropped_ran{false};
  ASSERT_TRUE(ex.Submit([&] {
    began.set_value();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    finished = true;
  }));
  began.get_future().wait();
  ASSERT_TRUE(ex.Submit([&] { dropped_ran = true; }));
  ex.Stop();
  EXPECT_TRUE(finished.load());
  EXPECT_FALSE(dropped_ran.load());
  Status late = ex.Submit([] {});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error(), "the pool is stopping: no task is taken any more");
}

// WaitIdle returns once every task queued has run and none runs: the server's Drain (stdin
// closed) waits on it for every call under way to answer.
TEST(BoundedExecutor, WaitIdleReturnsOnceEveryQueuedTaskHasRun) {
  BoundedExecutor ex({"pool", 2, 10});
  ex.Start();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(ex.Submit([&, released] {
      released.wait();
      ++ran;
    }));
  }
  auto idle = std::async(std::launch::async, [&] { ex.WaitIdle(); });
  EXPECT_EQ(idle.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  release.set_value();
  idle.get();
  EXPECT_EQ(ran.load(), 6);
  EXPECT_EQ(ex.queued() + ex.running(), 0u);
}

}  // namespace
}  // namespace executor_test
}  // namespace rr::testing
