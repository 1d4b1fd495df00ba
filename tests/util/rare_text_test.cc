// RareText keeps a text most objects leave empty as one pointer: it reads back as the string it
// was given, empty as "", and a copy is a text of its own.
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

}  // namespace
}  // namespace rare_text_test
}  // namespace rr
