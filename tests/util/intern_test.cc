// Intern keeps one copy of each text: holders of the same text share its address, and a copy
// outlives the string it was made from.
#include "core/util/intern.h"

#include <gtest/gtest.h>

#include <string>

namespace rr::testing {
namespace intern_test {
namespace {

TEST(Intern, TheSameTextGivesTheSameCopyAndAnotherTextAnother) {
  std::string made = "/cache/text-index";
  const std::string& first = Intern(made);
  made += "/";  // the text it was made from changes: the copy does not
  const std::string& again = Intern("/cache/text-index");
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(first, "/cache/text-index");
  const std::string& other = Intern(made);
  EXPECT_NE(&first, &other);
  EXPECT_EQ(other, "/cache/text-index/");
  EXPECT_EQ(&Intern(""), &Intern(std::string()));
}

}  // namespace
}  // namespace intern_test
}  // namespace rr::testing
