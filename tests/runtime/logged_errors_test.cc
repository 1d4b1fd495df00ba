// LoggedErrors (core/runtime/logged_errors.h): a repository's failure is told once, again only
// when it changes or after the repository went through, and each repository on its own.
#include "core/runtime/logged_errors.h"

#include <gtest/gtest.h>

#include <string>

namespace rr::testing {
namespace logged_errors_test {
namespace {

TEST(LoggedErrorsTest, AnErrorIsToldOnceUntilItChanges) {
  LoggedErrors logged;
  EXPECT_TRUE(logged.First("shop", "the history is incomplete: commit 1234"));
  EXPECT_FALSE(logged.First("shop", "the history is incomplete: commit 1234"));
  EXPECT_FALSE(logged.First("shop", std::string("the history is incomplete: commit ") + "1234"));
  EXPECT_TRUE(logged.First("shop", "the history is incomplete: commit 5678"));
  EXPECT_FALSE(logged.First("shop", "the history is incomplete: commit 5678"));
  // Back to the first error: it changed again, so it is told again.
  EXPECT_TRUE(logged.First("shop", "the history is incomplete: commit 1234"));
  EXPECT_EQ(logged.failing(), 1u);
}

TEST(LoggedErrorsTest, EachRepositoryIsToldOfItsOwn) {
  LoggedErrors logged;
  EXPECT_TRUE(logged.First("shop", "cannot open"));
  EXPECT_TRUE(logged.First("docs", "cannot open"));
  EXPECT_FALSE(logged.First("shop", "cannot open"));
  EXPECT_FALSE(logged.First("docs", "cannot open"));
  EXPECT_EQ(logged.failing(), 2u);
}

TEST(LoggedErrorsTest, ARepositoryThatWentThroughIsToldOfItsNextFailure) {
  LoggedErrors logged;
  EXPECT_TRUE(logged.First("shop", "cannot open"));
  logged.Clear("shop");
  EXPECT_EQ(logged.failing(), 0u);
  EXPECT_TRUE(logged.First("shop", "cannot open"));
  logged.Clear("never failed");  // nothing to forget
  EXPECT_EQ(logged.failing(), 1u);
}

}  // namespace
}  // namespace logged_errors_test
}  // namespace rr::testing
