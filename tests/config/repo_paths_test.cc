// The repositories' paths in a configuration: resolved as realpath resolves them and accepted
// exactly when libgit2 would open them (checked against git_repository_open_ext on every case:
// bare, with a work tree, a linked worktree's .git file, reached through links; and folders that
// are no repository). With thousands of repositories the checks run on several threads; the
// problems still come in the order of the file.
#include <git2.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/config/config.h"
#include "core/git/git_repo.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing::repo_paths {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::TestRepo;

bool LibgitOpens(const std::string& path) {
  InitGitLibrary();
  return git_repository_open_ext(nullptr, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) ==
         0;
}

class RepoPathsTest : public ::testing::Test {
 protected:
  Result<Config> Serve(const std::string& path) {
    return ParseConfig("repos:\n  - name: x\n    path: \"" + path + "\"\n", "c.yaml", tmp_.path());
  }
  TempDir tmp_;
};

TEST_F(RepoPathsTest, WhatLibgit2OpensIsAcceptedAndNothingElse) {
  TestRepo work(tmp_ / "checkout");
  work.Write("a.txt", "a\n");
  work.Commit("First");
  TestRepo bare(tmp_ / "bare.git", /*bare=*/true);
  work.Git({"worktree", "add", "-q", tmp_ / "linked"});
  fs::create_directories(tmp_ / "links");
  fs::create_symlink(tmp_ / "checkout", tmp_ / "links/to-work");
  fs::create_symlink(tmp_ / "links", tmp_ / "via");
  fs::create_directories(tmp_ / "empty");
  fs::create_directories(tmp_ / "head-only");
  std::ofstream(tmp_ / "head-only/HEAD") << "ref: refs/heads/main\n";
  fs::create_directories(tmp_ / "dangling");
  std::ofstream(tmp_ / "dangling/.git") << "gitdir: ../nowhere\n";
  std::ofstream(tmp_ / "file") << "x\n";

  struct Case {
    std::string path;
    std::string resolved;  // "" when not a repository
  };
  const std::string root = fs::canonical(tmp_.path()).string();
  const Case cases[] = {
      {"checkout", root + "/checkout"},
      {"checkout/.git", root + "/checkout/.git"},
      {"bare.git", root + "/bare.git"},
      {"linked", root + "/linked"},
      {"links/to-work", root + "/checkout"},
      {"via/to-work", root + "/checkout"},
      {"./checkout/../bare.git", root + "/bare.git"},
      {"empty", ""},
      {"head-only", ""},
      {"dangling", ""},
      {"file", ""},
      {"missing", ""},
  };
  for (const auto& c : cases) {
    auto config = Serve(c.path);
    EXPECT_EQ(static_cast<bool>(config), LibgitOpens(tmp_ / c.path)) << c.path;
    if (c.resolved.empty()) {
      ASSERT_FALSE(config) << c.path;
      EXPECT_NE(config.error().find("is not a git repository"), std::string::npos)
          << config.error();
    } else {
      ASSERT_TRUE(config) << c.path << ": " << config.error();
      EXPECT_EQ(config->repos[0].path, c.resolved) << c.path;
    }
  }
}

TEST_F(RepoPathsTest, ThousandsAreCheckedAndTheProblemsKeepTheFilesOrder) {
  TestRepo work(tmp_ / "checkout");
  work.Write("a.txt", "a\n");
  work.Commit("First");
  // 3,000 entries (checked on several threads), a few of them wrong in two ways each.
  std::string yaml = "repos:\n";
  for (int i = 0; i < 3000; ++i) {
    const bool bad = i % 1000 == 999;
    yaml += "  - name: r" + std::to_string(i) + "\n    path: " + (bad ? "nowhere" : "checkout") +
            "\n" + (bad ? "    listed: maybe\n" : "");
  }
  auto config = ParseConfig(yaml, "c.yaml", tmp_.path());
  ASSERT_FALSE(config);
  std::vector<std::string> lines;
  std::istringstream in(config.error());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 6u) << config.error();
  int previous = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line = std::stoi(lines[i].substr(lines[i].find(':') + 1));
    EXPECT_GT(line, previous) << lines[i];
    previous = line;
    EXPECT_NE(lines[i].find(i % 2 == 0 ? "is not a git repository" : "must be true or false"),
              std::string::npos)
        << lines[i];
  }
  // Without the mistakes every path is resolved.
  std::string good = "repos:\n";
  for (int i = 0; i < 3000; ++i) {
    good += "  - name: r" + std::to_string(i) + "\n    path: checkout\n";
  }
  auto ok = ParseConfig(good, "c.yaml", tmp_.path());
  ASSERT_TRUE(ok) << ok.error();
  ASSERT_EQ(ok->repos.size(), 3000u);
  for (const auto& r : ok->repos) EXPECT_EQ(r.path, fs::canonical(tmp_ / "checkout").string());
}

}  // namespace
}  // namespace rr::testing::repo_paths
