// TwoArrays keeps two arrays in one block: each reads back what it was given, in order, the
// second aligned for its type whatever the first's length; elements that own something (shared
// pointers) are moved in and ended once; moves hand the block over; two empty arrays take none.
#include "core/util/two_arrays.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rr {
namespace two_arrays_test {
namespace {

struct Stretch {
  uint32_t begin = 0;
  int32_t part = -1;
  uint32_t first = 0;
};

TEST(TwoArrays, EachReadsBackWhatItWasGiven) {
  for (size_t na : {0u, 1u, 2u, 3u, 7u}) {
    for (size_t nb : {0u, 1u, 5u}) {
      std::vector<std::shared_ptr<const std::string>> a;
      std::vector<Stretch> b;
      for (size_t i = 0; i < na; ++i)
        a.push_back(std::make_shared<const std::string>(std::to_string(i)));
      for (size_t i = 0; i < nb; ++i)
        b.push_back(Stretch{uint32_t(i), int32_t(i) - 1, uint32_t(10 * i)});
      TwoArrays<std::shared_ptr<const std::string>, Stretch> both(std::move(a), std::move(b));
      ASSERT_EQ(both.first().size(), na);
      ASSERT_EQ(both.second().size(), nb);
      EXPECT_EQ(both.first().empty(), na == 0);
      for (size_t i = 0; i < na; ++i) EXPECT_EQ(*both.first()[i], std::to_string(i));
      size_t i = 0;
      for (const Stretch& r : both.second()) {
        EXPECT_EQ(r.begin, i);
        EXPECT_EQ(r.part, int32_t(i) - 1);
        EXPECT_EQ(r.first, 10 * i);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(&r) % alignof(Stretch), 0u);
        ++i;
      }
      EXPECT_EQ(i, nb);
    }
  }
  // A first array of odd bytes: the second still aligned.
  TwoArrays<char, uint64_t> odd(std::vector<char>{'a', 'b', 'c'}, std::vector<uint64_t>{1, 2});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(odd.second().data()) % alignof(uint64_t), 0u);
  EXPECT_EQ(odd.second()[1], 2u);
  EXPECT_EQ(odd.first()[2], 'c');
  EXPECT_EQ(sizeof(odd), 16u);
}

TEST(TwoArrays, OwnedElementsAreEndedOnceAndMovesHandTheBlockOver) {
  auto kept = std::make_shared<const std::string>("part");
  {
    TwoArrays<std::shared_ptr<const std::string>, Stretch> both(
        std::vector<std::shared_ptr<const std::string>>{kept, kept},
        std::vector<Stretch>{Stretch{}});
    EXPECT_EQ(kept.use_count(), 3);  // moved in: the vector's copies are gone
    TwoArrays<std::shared_ptr<const std::string>, Stretch> moved(std::move(both));
    EXPECT_EQ(both.first().size(), 0u);  // NOLINT: moved from, empty
    EXPECT_EQ(moved.first().size(), 2u);
    EXPECT_EQ(kept.use_count(), 3);
    TwoArrays<std::shared_ptr<const std::string>, Stretch> other(
        std::vector<std::shared_ptr<const std::string>>{kept}, std::vector<Stretch>{});
    EXPECT_EQ(kept.use_count(), 4);
    other = std::move(moved);  // other's own element ended, moved's taken
    EXPECT_EQ(kept.use_count(), 3);
    EXPECT_EQ(other.first().size(), 2u);
    EXPECT_EQ(other.second().size(), 1u);
  }
  EXPECT_EQ(kept.use_count(), 1);
  TwoArrays<int, int> none(std::vector<int>{}, std::vector<int>{});
  EXPECT_TRUE(none.first().empty());
  EXPECT_TRUE(none.second().empty());
}

}  // namespace
}  // namespace two_arrays_test
}  // namespace rr
