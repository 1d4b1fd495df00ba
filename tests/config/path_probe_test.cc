// The prober of repository paths (core/config/path_probe.h) on its own, without a configuration:
// what it resolves and accepts (libgit2 is the judge, as it opens a repository without searching
// upwards), that thousands are checked on threads and come back in the order given, and that
// probing hostile paths -- `.git` files and `commondir` pointing elsewhere, links to folders
// that are no repository -- accepts none of them and changes nothing on disk.
#include "core/config/path_probe.h"

#include <git2.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/git/git_repo.h"
#include "tests/testkit/git_fixture.h"

namespace rr {
namespace path_probe_test {
namespace {

namespace fs = std::filesystem;
using cfg::RepoPaths;
using testing::TempDir;
using testing::TestRepo;

bool LibgitOpens(const std::string& path) {
  InitGitLibrary();
  git_repository* repo = nullptr;
  const int rc =
      git_repository_open_ext(&repo, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  git_repository_free(repo);
  return rc == 0;
}

// Every file, folder and link below `dir` with its size and time, to show nothing changed.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::error_code ec;
    const auto st = e.symlink_status();
    std::string what = std::to_string(static_cast<int>(st.type()));
    if (fs::is_regular_file(st)) {
      what += " " + std::to_string(fs::file_size(e.path(), ec)) + " " +
              std::to_string(fs::last_write_time(e.path(), ec).time_since_epoch().count());
    } else if (fs::is_symlink(st)) {
      what += " -> " + fs::read_symlink(e.path(), ec).string();
    }
    out[e.path().string()] = what;
  }
  return out;
}

// Probes `paths` (relative to `base`) as a configuration's reader does, on `threads` threads.
std::vector<RepoPaths::Pending> Probe(const std::vector<std::string>& paths,
                                      const std::string& base, size_t threads,
                                      size_t* started = nullptr) {
  RepoPaths probe;
  std::vector<RepoPaths::Pending> all;
  RepoPaths::Checker checker(&all, paths.size(), threads);
  if (started) *started = checker.threads();
  for (const auto& p : paths) checker.Add(probe.Prepare(p, base));
  checker.Finish();
  return all;
}

class PathProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestRepo work(tmp_ / "checkout");
    work.Write("a.txt", "a\n");
    work.Commit("First");
    TestRepo bare(tmp_ / "bare.git", /*bare=*/true);
    work.Git({"worktree", "add", "-q", tmp_ / "linked"});
    fs::create_directories(tmp_ / "links");
    fs::create_symlink(tmp_ / "checkout", tmp_ / "links/to-work");
    fs::create_symlink(tmp_ / "links", tmp_ / "via");
    root_ = fs::canonical(tmp_.path()).string();
  }
  TempDir tmp_;
  std::string root_;
};

TEST_F(PathProbeTest, ResolvesAsRealpathAndAcceptsWhatLibgit2Opens) {
  struct Case {
    std::string path, resolved;
    bool repository;
  };
  const std::vector<Case> cases = {
      {"checkout", root_ + "/checkout", true},
      {"checkout/.git", root_ + "/checkout/.git", true},
      {"bare.git", root_ + "/bare.git", true},
      {"linked", root_ + "/linked", true},
      {"links/to-work", root_ + "/checkout", true},
      {"via/to-work", root_ + "/checkout", true},
      {"./checkout/../bare.git", root_ + "/bare.git", true},
      {root_ + "/checkout", root_ + "/checkout", true},
      {"checkout/sub", tmp_ / "checkout/sub", false},  // cannot be resolved: kept as written
      {"missing", tmp_ / "missing", false},
  };
  std::vector<std::string> paths;
  for (const auto& c : cases) paths.push_back(c.path);
  const auto all = Probe(paths, tmp_.path(), 4);
  ASSERT_EQ(all.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string abs = cases[i].path[0] == '/' ? cases[i].path : tmp_ / cases[i].path;
    EXPECT_EQ(all[i].path, abs);
    EXPECT_EQ(all[i].resolved, cases[i].resolved) << cases[i].path;
    EXPECT_EQ(all[i].is_repository, cases[i].repository) << cases[i].path;
    EXPECT_EQ(all[i].is_repository, LibgitOpens(abs)) << cases[i].path;
  }
}

TEST_F(PathProbeTest, HostileLookalikesAreNoRepositoryAndNothingOnDiskChanges) {
  // Each looks a little like a repository, or points at one it does not hold.
  fs::create_directories(tmp_ / "head-only");
  std::ofstream(tmp_ / "head-only/HEAD") << "ref: refs/heads/main\n";
  fs::create_directories(tmp_ / "dangling");
  std::ofstream(tmp_ / "dangling/.git") << "gitdir: ../nowhere\n";
  fs::create_directories(tmp_ / "to-root");
  std::ofstream(tmp_ / "to-root/.git") << "gitdir: /\n";
  fs::create_directories(tmp_ / "empty-gitdir");
  std::ofstream(tmp_ / "empty-gitdir/.git") << "gitdir: \n";
  fs::create_directories(tmp_ / "common-elsewhere");  // HEAD, and a commondir naming no repository
  std::ofstream(tmp_ / "common-elsewhere/HEAD") << "ref: refs/heads/main\n";
  std::ofstream(tmp_ / "common-elsewhere/commondir") << "../links\n";
  fs::create_directories(tmp_ / "git-is-a-link");  // .git a link to a folder that is no repository
  fs::create_symlink(tmp_ / "links", tmp_ / "git-is-a-link/.git");
  fs::create_symlink(tmp_ / "nowhere", tmp_ / "broken-link");
  std::ofstream(tmp_ / "file") << "x\n";
  fs::create_directories(tmp_ / "fifo-git");
  ASSERT_EQ(mkfifo((tmp_ / "fifo-git/.git").c_str(), 0600), 0);  // never opened: not a file

  const std::vector<std::string> hostile = {
      "head-only",
      "dangling",
      "to-root",
      "empty-gitdir",
      "common-elsewhere",
      "git-is-a-link",
      "broken-link",
      "file",
      "fifo-git",
      "/",
      "..",
  };
  const auto before = Snapshot(tmp_.path());
  const auto all = Probe(hostile, tmp_.path(), 4);
  EXPECT_EQ(Snapshot(tmp_.path()), before);
  ASSERT_EQ(all.size(), hostile.size());
  for (size_t i = 0; i < hostile.size(); ++i) {
    EXPECT_FALSE(all[i].is_repository) << "`" << hostile[i] << "` resolved to " << all[i].resolved;
    EXPECT_EQ(all[i].is_repository, LibgitOpens(all[i].path)) << hostile[i];
  }
}

TEST_F(PathProbeTest, ThousandsAreCheckedOnThreadsInTheOrderGiven) {
  std::vector<std::string> paths;
  for (int i = 0; i < 3000; ++i) {
    paths.push_back(i % 3 == 0   ? "checkout"
                    : i % 3 == 1 ? "missing-" + std::to_string(i)
                                 : "via/to-work");
  }
  size_t started = 0;
  const auto all = Probe(paths, tmp_.path(), 4, &started);
  EXPECT_EQ(started, 4u);
  ASSERT_EQ(all.size(), paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ(all[i].path, tmp_ / paths[i]);
    EXPECT_EQ(all[i].is_repository, i % 3 != 1) << paths[i];
    EXPECT_EQ(all[i].resolved, i % 3 == 1 ? tmp_ / paths[i] : root_ + "/checkout") << paths[i];
  }
  // A short list takes no thread, and the same answers.
  size_t none = 1;
  const auto few = Probe({"checkout", "missing", "via/to-work"}, tmp_.path(), 4, &none);
  EXPECT_EQ(none, 0u);
  ASSERT_EQ(few.size(), 3u);
  EXPECT_TRUE(few[0].is_repository);
  EXPECT_FALSE(few[1].is_repository);
  EXPECT_EQ(few[2].resolved, root_ + "/checkout");
}

TEST_F(PathProbeTest, FewerAddedThanExpectedKeepsOnlyThoseAdded) {
  RepoPaths probe;
  std::vector<RepoPaths::Pending> all;
  {
    RepoPaths::Checker checker(&all, 2000, 2);  // a list with entries that were no mapping
    checker.Add(probe.Prepare("checkout", tmp_.path()));
    checker.Add(probe.Prepare("missing", tmp_.path()));
  }  // the destructor finishes
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[0].is_repository);
  EXPECT_FALSE(all[1].is_repository);
}

TEST(AbsolutePath, HomeAndBaseFolderAreAppliedAndNothingIsResolved) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(cfg::AbsolutePath("~/git/shop", "/srv"), std::string(home) + "/git/shop");
  EXPECT_EQ(cfg::AbsolutePath("~", "/srv"), std::string(home));
  EXPECT_EQ(cfg::AbsolutePath("~other/shop", "/srv"), "/srv/~other/shop");
  EXPECT_EQ(cfg::AbsolutePath("git/../shop", "/srv"), "/srv/git/../shop");
  EXPECT_EQ(cfg::AbsolutePath("/abs/shop", "/srv"), "/abs/shop");
}

}  // namespace
}  // namespace path_probe_test
}  // namespace rr
