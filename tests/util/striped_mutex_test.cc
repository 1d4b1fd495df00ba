// StripedMutexes: the same object always gets the same mutex, objects laid out as an
// allocator lays out 20,000 repositories' spread over the whole pool, each mutex sits on a cache
// line of its own, and objects guarded by their stripes are guarded (threads counting up many
// objects at once lose no count).
#include "core/util/striped_mutex.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <thread>
#include <vector>

namespace rr {
namespace striped_mutex_test {
namespace {

TEST(StripedMutexes, TheSameObjectAlwaysGetsTheSameMutex) {
  static StripedMutexes<64> locks;
  int a = 0, b = 0;
  EXPECT_EQ(&locks.For(&a), &locks.For(&a));
  EXPECT_EQ(&locks.For(&b), &locks.For(&b));
  // One mutex only: every object shares it.
  static StripedMutexes<1> one;
  EXPECT_EQ(&one.For(&a), &one.For(&b));
}

TEST(StripedMutexes, ObjectsOfOneSizeSpreadOverThePool) {
  // 20,000 objects of a jemalloc size class (320 bytes), one after the other, as a slab
  // holds them; and heap objects as this process allocates them.
  for (uint64_t stride : {16u, 96u, 112u, 320u, 384u}) {
    std::vector<size_t> count(64);
    for (uint64_t i = 0; i < 20000; ++i)
      ++count[StripedMutexes<64>::Index(0x7f3a10000000 + i * stride)];
    size_t least = SIZE_MAX, most = 0;
    for (size_t c : count) {
      least = std::min(least, c);
      most = std::max(most, c);
    }
    EXPECT_GT(least, 20000u / 64 / 2) << "stride " << stride;
    EXPECT_LT(most, 20000u / 64 * 2) << "stride " << stride;
  }
  std::vector<std::unique_ptr<int>> objects;
  std::set<size_t> used;
  for (int i = 0; i < 1000; ++i) {
    objects.push_back(std::make_unique<int>(i));
    used.insert(StripedMutexes<64>::Index(reinterpret_cast<uintptr_t>(objects.back().get())));
  }
  EXPECT_EQ(used.size(), 64u);
}

TEST(StripedMutexes, EachMutexOnALineOfItsOwn) {
  static StripedMutexes<64> locks;
  std::set<uintptr_t> lines;
  for (uint64_t i = 0; i < 4096; ++i) {
    const auto at = reinterpret_cast<uintptr_t>(&locks.For(reinterpret_cast<const void*>(i * 16)));
    EXPECT_EQ(at % 64, 0u);
    lines.insert(at / 64);
  }
  EXPECT_EQ(lines.size(), 64u);
  EXPECT_EQ(sizeof(locks), 64u * 64u);
}

TEST(StripedMutexes, ObjectsGuardedByTheirStripesLoseNoCount) {
  static StripedMutexes<8> locks;  // few: many objects share each one
  struct Counted {
    uint64_t n = 0;
  };
  std::vector<Counted> objects(1000);
  constexpr int kThreads = 4, kRounds = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        for (Counted& c : objects) {
          std::lock_guard<std::mutex> lock(locks.For(&c));
          ++c.n;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const Counted& c : objects) EXPECT_EQ(c.n, uint64_t{kThreads} * kRounds);
}

}  // namespace
}  // namespace striped_mutex_test
}  // namespace rr
