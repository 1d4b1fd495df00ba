// What a pass of the history indexer costs a repository whose refs have not moved: nothing is
// opened or read (the update answers from the last one, in this run or, kept beside the index,
// an earlier one), while a moved ref or an index removed from the cache folder is still caught. And
// asking whether a repository needs an index does not keep its commit-graph, and follows the graph
// files as they change.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace history_index_pass_test {
namespace {

namespace fs = std::filesystem;

// HEAD, packed-refs and refs/ made to look long unchanged, so a stamp taken now is trusted.
void Backdate(const std::string& git_dir) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  for (const char* f : {"HEAD", "packed-refs"}) {
    if (fs::exists(git_dir + "/" + f)) fs::last_write_time(git_dir + "/" + f, old);
  }
  fs::last_write_time(git_dir + "/refs", old);
  for (const auto& e : fs::recursive_directory_iterator(git_dir + "/refs")) {
    fs::last_write_time(e.path(), old);
  }
}

class HistoryIndexPass : public ::testing::Test {
 protected:
  HistoryIndexPass() {
    repo_.Write("a.txt", "a\n");
    repo_.Commit("First");
    repo_.Write("a.txt", "b\n");
    repo_.Commit("Second");
    Restart();
  }
  // A new catalog on the same configuration and cache folder: the server started again.
  void Restart() {
    Config config;
    config.source = "test";
    config.repos.push_back(Served("shop", repo_.path()));
    config.cache_folder = tmp_ / "cache";
    catalog_ = BuildCatalog(config).take();
  }
  const ServedRepo& served() const { return *catalog_->all().at(0); }

  TempDir tmp_;
  TestRepo repo_{tmp_ / "shop"};
  std::shared_ptr<const Catalog> catalog_;
};

TEST_F(HistoryIndexPass, AnUnchangedRepositoryIsNotReadAgain) {
  ASSERT_TRUE(served().NeedsHistoryIndex());
  auto first = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->new_commits, 2u);
  Backdate(repo_.path() + "/.git");
  auto kept = served().UpdateHistoryIndex(StopToken());  // stamps what is trusted from here on
  ASSERT_TRUE(kept) << kept.error();

  // The repository could not even be opened now; no ref moved, so it is not.
  fs::rename(repo_.path() + "/.git/objects", repo_.path() + "/.git/objects.away");
  auto again = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->new_commits, 0u);
  EXPECT_EQ(again->commits, 2u);
  fs::rename(repo_.path() + "/.git/objects.away", repo_.path() + "/.git/objects");

  // A commit moves main: read again, the new commit indexed.
  repo_.Write("a.txt", "c\n");
  repo_.Commit("Third");
  auto moved = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(moved) << moved.error();
  EXPECT_EQ(moved->new_commits, 1u);
  EXPECT_EQ(moved->commits, 3u);

  // The index removed from the cache folder: built again, though no ref moved.
  Backdate(repo_.path() + "/.git");
  ASSERT_TRUE(served().UpdateHistoryIndex(StopToken()));
  fs::remove_all(served().settings().index_folder.str());
  auto rebuilt = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(rebuilt) << rebuilt.error();
  EXPECT_EQ(rebuilt->new_commits, 3u);
}

TEST_F(HistoryIndexPass, AServerStartedAgainNeedNotReadAnUnchangedRepository) {
  ASSERT_TRUE(served().UpdateHistoryIndex(StopToken()));
  Backdate(repo_.path() + "/.git");
  ASSERT_TRUE(served().UpdateHistoryIndex(StopToken()));  // kept beside the index from here on
  const std::string kept = served().settings().index_folder.str() + "/refs-stamp";
  ASSERT_TRUE(fs::exists(kept));

  Restart();
  fs::rename(repo_.path() + "/.git/objects", repo_.path() + "/.git/objects.away");
  auto again = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->new_commits, 0u);
  EXPECT_EQ(again->commits, 2u);
  fs::rename(repo_.path() + "/.git/objects.away", repo_.path() + "/.git/objects");

  // A commit made while the server was stopped is found at the next start.
  repo_.Write("a.txt", "c\n");
  repo_.Commit("Third");
  Restart();
  auto moved = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(moved) << moved.error();
  EXPECT_EQ(moved->new_commits, 1u);

  // What is kept beside the index is only a shortcut: a damaged file reads the repository.
  std::ofstream(kept, std::ios::trunc) << "repo-reader refs-stamp 1\ngit_dir /nowhere\n";
  Restart();
  auto damaged = served().UpdateHistoryIndex(StopToken());
  ASSERT_TRUE(damaged) << damaged.error();
  EXPECT_EQ(damaged->commits, 3u);
}

TEST_F(HistoryIndexPass, WhetherAnIndexIsNeededFollowsTheRepositorysOwnGraph) {
  // The repository's own graph, without Bloom filters: an index is needed. The answer is kept,
  // the graph is not -- a tool that walks history opens it then.
  repo_.Git({"commit-graph", "write", "--reachable"});
  ASSERT_TRUE(fs::exists(repo_.path() + "/.git/objects/info/commit-graph"));
  EXPECT_TRUE(served().NeedsHistoryIndex());
  EXPECT_TRUE(served().NeedsHistoryIndex());
  // With Bloom filters it is not; the files changed, so the answer is found again.
  repo_.Git({"commit-graph", "write", "--reachable", "--changed-paths"});
  EXPECT_FALSE(served().NeedsHistoryIndex());
  auto graph = served().Graph();
  ASSERT_NE(graph, nullptr);
  EXPECT_TRUE(graph->has_bloom());
  EXPECT_FALSE(served().NeedsHistoryIndex());
}

}  // namespace
}  // namespace history_index_pass_test
}  // namespace rr::testing
