#include "core/policy/repo_path.h"

#include <gtest/gtest.h>

namespace rr {
namespace repo_path_test {
namespace {

TEST(RepoPath, LeadingAndTrailingSlashesAreIgnored) {
  auto p = RepoPath::Parse("/src/app.py/");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->str(), "src/app.py");
  EXPECT_EQ(p->name(), "app.py");
  EXPECT_EQ(p->Parent().str(), "src");
}

TEST(RepoPath, EmptyAndSlashAreTheRoot) {
  EXPECT_TRUE(RepoPath::Parse("")->is_root());
  EXPECT_TRUE(RepoPath::Parse("/")->is_root());
}

TEST(RepoPath, DotPartsEmptyPartsAndDotGitAreRefused) {
  for (const char* bad : {"../etc/passwd", "src/../x", "./a", "a/./b", "a//b", ".git/config",
                          "sub/.GIT/HEAD", "a/.."}) {
    auto p = RepoPath::Parse(bad);
    EXPECT_FALSE(p) << bad;
  }
}

TEST(RepoPath, NulAndControlCharactersAreRefused) {
  EXPECT_FALSE(RepoPath::Parse(std::string("a\0b", 3)));
  EXPECT_FALSE(RepoPath::Parse("a\nb"));
  EXPECT_FALSE(RepoPath::Parse("a\x1b[31mb"));
  EXPECT_NE(RepoPath::Parse("a\nb").error().find("control character"), std::string::npos);
}

TEST(RepoPath, OverlongPathIsRefused) { EXPECT_FALSE(RepoPath::Parse(std::string(5000, 'a'))); }

TEST(RepoPath, ServableEntryNames) {
  EXPECT_TRUE(IsServableEntryName("app.py"));
  EXPECT_TRUE(IsServableEntryName("..."));
  for (const char* bad : {"", ".", "..", ".git", ".Git", "a/b"}) {
    EXPECT_FALSE(IsServableEntryName(bad)) << bad;
  }
}

}  // namespace
}  // namespace repo_path_test
}  // namespace rr
