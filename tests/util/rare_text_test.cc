// RareText keeps a text most objects leave empty as one pointer: it reads back as the string it
// was given, empty as "", and a copy is a text of its own. RareShared keeps a shared pointer
// most leave null as one pointer: it answers the object it was given, null as null, and copies
// share the object.
#include "core/util/rare_text.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace rr {
namespace rare_text_test {
namespace {

TEST(RareText, ReadsBackWhatItWasGiven) {
  RareText none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.str(), "");
  RareText given = std::string("the shop's front end");
  EXPECT_FALSE(given.empty());
  EXPECT_EQ(given.str(), "the shop's front end");
  given = std::string();
  EXPECT_TRUE(given.empty());
  EXPECT_EQ(sizeof(RareText), sizeof(void*));
}

TEST(RareText, ACopyIsATextOfItsOwn) {
  RareText a = std::string("teams/shop");
  RareText b = a;
  EXPECT_EQ(b.str(), "teams/shop");
  EXPECT_NE(&a.str(), &b.str());
  a = std::string("teams/web");
  EXPECT_EQ(b.str(), "teams/shop");
  RareText c = std::move(a);
  EXPECT_EQ(c.str(), "teams/web");
  b = c;
  EXPECT_EQ(b.str(), "teams/web");
  b = b;  // itself: unchanged
  EXPECT_EQ(b.str(), "teams/web");
}

struct Fetcher {
  virtual ~Fetcher() = default;
  virtual int Id() const { return 1; }
};
struct OtherFetcher : Fetcher {
  int Id() const override { return 2; }
};

TEST(RareShared, AnswersTheObjectItWasGiven) {
  RareShared<Fetcher> none;
  EXPECT_FALSE(none);
  EXPECT_TRUE(none == nullptr);
  EXPECT_EQ(none.get(), nullptr);
  EXPECT_EQ(none.shared(), nullptr);
  auto object = std::make_shared<OtherFetcher>();  // a derived type, as a fake fetcher is
  RareShared<Fetcher> given = object;
  EXPECT_TRUE(given);
  EXPECT_TRUE(given != nullptr);
  EXPECT_EQ(given.get(), object.get());
  EXPECT_EQ(given->Id(), 2);
  EXPECT_EQ((*given).Id(), 2);
  EXPECT_EQ(object.use_count(), 2);
  given = nullptr;
  EXPECT_FALSE(given);
  EXPECT_EQ(object.use_count(), 1);
  given = std::shared_ptr<Fetcher>();  // a null shared pointer: unset
  EXPECT_FALSE(given);
  EXPECT_EQ(sizeof(RareShared<Fetcher>), sizeof(void*));
}

TEST(RareShared, CopiesShareTheObject) {
  auto object = std::make_shared<Fetcher>();
  RareShared<Fetcher> a = object;
  RareShared<Fetcher> b = a;
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(object.use_count(), 3);
  RareShared<Fetcher> c = std::move(a);
  EXPECT_FALSE(a);  // NOLINT: moved from, as a moved shared pointer is null
  EXPECT_EQ(c.get(), object.get());
  EXPECT_EQ(object.use_count(), 3);
  b = b;  // itself: unchanged
  EXPECT_EQ(b.get(), object.get());
  c = RareShared<Fetcher>();
  b = c;
  EXPECT_FALSE(b);
  EXPECT_EQ(object.use_count(), 1);
}

}  // namespace
}  // namespace rare_text_test
}  // namespace rr
