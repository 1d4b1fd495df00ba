// MadeOnFirstUse: the object is made on the first Get only, every later Get (from any thread)
// answers the same one, a thread that lost the race to make it frees its own, and the owner's
// end frees the one kept -- each with the code that made it.
#include "core/util/made_on_first_use.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace rr {
namespace made_on_first_use_test {
namespace {

struct Counted {
  static inline std::atomic<int> made{0}, freed{0};
  int value = 0;
};

Counted* Make() {
  Counted::made++;
  auto* c = new Counted();
  c->value = 7;
  return c;
}
void Free(Counted* c) {
  Counted::freed++;
  delete c;
}

TEST(MadeOnFirstUse, MadeOnceAndFreedWithItsOwner) {
  Counted::made = 0;
  Counted::freed = 0;
  {
    MadeOnFirstUse<Counted> kept;
    EXPECT_EQ(kept.IfMade(), nullptr);
    Counted& first = kept.Get(Make, Free);
    EXPECT_EQ(first.value, 7);
    first.value = 8;
    EXPECT_EQ(&kept.Get(Make, Free), &first);
    EXPECT_EQ(kept.Get(Make, Free).value, 8);
    EXPECT_EQ(kept.IfMade(), &first);
    EXPECT_EQ(Counted::made, 1);
    EXPECT_EQ(Counted::freed, 0);
  }
  EXPECT_EQ(Counted::freed, 1);
  {
    MadeOnFirstUse<Counted> never;  // never asked: nothing made, nothing freed
  }
  EXPECT_EQ(Counted::made, 1);
  EXPECT_EQ(Counted::freed, 1);
  EXPECT_EQ(sizeof(MadeOnFirstUse<Counted>), sizeof(void*));
}

TEST(MadeOnFirstUse, ThreadsRacingToMakeItAllGetTheOneKept) {
  for (int round = 0; round < 50; ++round) {
    Counted::made = 0;
    Counted::freed = 0;
    {
      MadeOnFirstUse<Counted> kept;
      std::atomic<bool> go{false};
      std::vector<const Counted*> got(8);
      std::vector<std::thread> threads;
      for (size_t t = 0; t < got.size(); ++t) {
        threads.emplace_back([&, t] {
          while (!go) std::this_thread::yield();
          got[t] = &kept.Get(Make, Free);
        });
      }
      go = true;
      for (auto& t : threads) t.join();
      EXPECT_EQ(std::set<const Counted*>(got.begin(), got.end()).size(), 1u);
      EXPECT_EQ(got[0], kept.IfMade());
      // Every one made but the one kept is freed already.
      EXPECT_EQ(Counted::freed, Counted::made - 1);
    }
    EXPECT_EQ(Counted::freed, Counted::made);
  }
}

}  // namespace
}  // namespace made_on_first_use_test
}  // namespace rr
