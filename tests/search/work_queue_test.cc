// The search's queue between its walkers and its searching threads: items handed on in batches
// arrive once each and in order; a searching thread takes a few at a time, never more than its
// share of what waits; the queue ends once every walker is done and it is empty.
#include "core/search/work_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <thread>
#include <vector>

namespace rr::testing {
namespace work_queue_test {
namespace {

std::vector<WorkItem> Items(size_t from, size_t n) {
  std::vector<WorkItem> out;
  for (size_t i = from; i < from + n; ++i) out.push_back(WorkItem{0, i, Node{}, false});
  return out;
}

TEST(WorkQueue, ASearcherTakesAtMostItsShareOfWhatWaits) {
  StopToken stop;
  WorkQueue queue(1024, 1);
  auto items = Items(0, 64);
  ASSERT_TRUE(queue.PushAll(&items, stop));
  EXPECT_TRUE(items.empty());
  std::deque<WorkItem> mine;
  // 64 wait: a quarter is 16, the most asked 8.
  ASSERT_TRUE(queue.PopSome(&mine, 8));
  ASSERT_EQ(mine.size(), 8u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(mine[i].index, i);
  // 56 wait: asked for 32, a quarter (14) is taken.
  mine.clear();
  ASSERT_TRUE(queue.PopSome(&mine, 32));
  ASSERT_EQ(mine.size(), 14u);
  EXPECT_EQ(mine.front().index, 8u);
  // Down to the last few, one at a time, so that no other thread is left without.
  size_t left = 64 - 8 - 14;
  while (left > 3) {
    mine.clear();
    ASSERT_TRUE(queue.PopSome(&mine, 8));
    left -= mine.size();
  }
  for (size_t k = 0; k < 3; ++k) {
    mine.clear();
    ASSERT_TRUE(queue.PopSome(&mine, 8));
    EXPECT_EQ(mine.size(), 1u);
  }
  queue.WalkerDone();
  mine.clear();
  EXPECT_FALSE(queue.PopSome(&mine, 8));
  EXPECT_TRUE(mine.empty());
}

// Two walkers handing on through outboxes, three threads taking: every item arrives exactly
// once, each walker's in its order, and every thread ends.
TEST(WorkQueue, EveryItemHandedOnArrivesOnceAndInItsWalkersOrder) {
  StopToken stop;
  constexpr size_t kPerWalker = 5000;
  WorkQueue queue(64, 2);  // small: the walkers wait for room
  std::vector<std::thread> threads;
  for (size_t w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      Outbox out(&queue, &stop);
      for (size_t i = 0; i < kPerWalker; ++i) {
        EXPECT_TRUE(out.Push(WorkItem{w, i, Node{}, false}));
      }
      EXPECT_TRUE(out.Flush());
      queue.WalkerDone();  // always: the takers end only then
    });
  }
  std::vector<std::atomic<int>> seen(2 * kPerWalker);
  std::atomic<bool> in_order{true};
  for (int s = 0; s < 3; ++s) {
    threads.emplace_back([&] {
      std::deque<WorkItem> mine;
      size_t last[2] = {SIZE_MAX, SIZE_MAX};
      while (!mine.empty() || queue.PopSome(&mine, 8)) {
        const WorkItem item = std::move(mine.front());
        mine.pop_front();
        ++seen[item.target * kPerWalker + item.index];
        // What one thread takes of one walker comes in that walker's order.
        if (last[item.target] != SIZE_MAX && item.index <= last[item.target]) in_order = false;
        last[item.target] = item.index;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i].load(), 1) << i;
  EXPECT_TRUE(in_order.load());
}

// A batch larger than the whole queue, handed on while the only searching thread sleeps waiting
// for work: the walker wakes it before it waits for room itself, so every item goes through. (Had
// it waited first, both would sleep until the call's time was up, and the batch be dropped.)
TEST(WorkQueue, ABatchThatFillsTheQueueWakesTheSleepingTakerBeforeItWaits) {
  auto flag = std::make_shared<std::atomic<bool>>(false);
  StopToken stop(flag, std::chrono::seconds(20));
  WorkQueue queue(2, 1);
  std::atomic<size_t> got{0};
  std::thread taker([&] {
    std::deque<WorkItem> mine;
    while (!mine.empty() || queue.PopSome(&mine, 8)) {
      mine.pop_front();
      ++got;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // asleep in PopSome by now
  auto items = Items(0, 10);
  EXPECT_TRUE(queue.PushAll(&items, stop));
  queue.WalkerDone();
  taker.join();
  EXPECT_EQ(got.load(), 10u);
}

}  // namespace
}  // namespace work_queue_test
}  // namespace rr::testing
