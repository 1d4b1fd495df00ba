// The server's background history indexer, and ServedRepo::Graph() choosing what to walk with.
// Its passes are scheduled on a ManualClock: a pass has ended when the indexer waits on the
// clock, and the next one comes when the test moves the clock on by `recheck`, not before.
#include "core/history/history_indexer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/git/git_repo.h"
#include "core/mcp/server.h"
#include "core/runtime/clock.h"
#include "core/runtime/service.h"
#include "core/tools/tool.h"
#include "tests/git/graph_kit.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace history_indexer_test {
namespace {

namespace fs = std::filesystem;

// Waits up to a minute for `done`.
bool WaitFor(const std::function<bool()>& done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

// The whole of a folder: every path, its mode and time, and every file's bytes.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    struct stat st;
    lstat(it->path().c_str(), &st);
    std::string what = std::to_string(st.st_mode) + " " + std::to_string(st.st_size) + " " +
                       std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    if (S_ISREG(st.st_mode)) what += " " + ReadBytes(it->path());
    out[it->path().string()] = what;
  }
  return out;
}

// The indexer's first pass ends (it waits on `clock`), the clock moves on by its recheck, and
// the second pass ends.
bool TwoPasses(ManualClock& clock, const HistoryIndexer& indexer) {
  if (clock.Waiting(1).size() != 1 || indexer.passes() != 1) return false;
  clock.Advance(std::chrono::milliseconds(50));
  return clock.Waiting(1).size() == 1 && indexer.passes() == 2;
}

std::shared_ptr<const Catalog> CatalogOf(const std::vector<std::string>& paths,
                                         const std::string& cache) {
  Config config;
  config.source = "test";
  for (size_t i = 0; i < paths.size(); ++i) {
    config.repos.push_back(Served("repo" + std::to_string(i), paths[i]));
  }
  config.cache_folder = cache;
  auto catalog = BuildCatalog(config);
  EXPECT_TRUE(catalog) << catalog.error();
  return catalog.take();
}

class HistoryIndexerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    InitGitLibrary();
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    MakeShapedHistory(*repo_);
    cache_ = tmp_ / "cache";
  }
  bool OwnGraphIn(const CommitGraph& g) const {
    return g.layers().at(0).file.rfind(repo_->path() + "/.git/objects/", 0) == 0;
  }
  bool IndexIn(const CommitGraph& g) const {
    return g.layers().at(0).file.rfind(cache_ + "/history/", 0) == 0;
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::string cache_;
};

TEST_F(HistoryIndexerTest, TheServerBuildsAnIndexInItsCacheFolderAndGraphReturnsIt) {
  ASSERT_FALSE(fs::exists(repo_->path() + "/.git/objects/info/commit-graph"));
  const auto before = Snapshot(repo_->path());
  auto catalog = CatalogOf({repo_->path()}, cache_);
  const ServedRepo& served = *catalog->all().at(0);
  // As the app has it: the runtime owns the indexer, the server starts it once it has answered.
  ManualClock clock;
  Runtime runtime(clock);
  HistoryIndexer::Options index;
  index.recheck = std::chrono::minutes(1);
  index.clock = &clock;
  auto* indexer = runtime.Add(std::make_unique<HistoryIndexer>(catalog, index));
  McpServer::Options options;
  options.first_answered = [&] { runtime.Start(indexer); };
  std::mutex mu;
  std::vector<std::string> sent;
  auto server = std::make_unique<McpServer>(
      catalog, AnswerPipeline(40000, {}, BuiltinPlugins().secrets),
      [&](const std::string& m) {
        std::lock_guard<std::mutex> lock(mu);
        sent.push_back(m);
      },
      BuiltinTools(), options);
  EXPECT_FALSE(runtime.started(indexer));
  EXPECT_TRUE(clock.Waiting(1, std::chrono::milliseconds(200)).empty());
  EXPECT_FALSE(fs::exists(cache_)) << "nothing is indexed before the server has answered";
  EXPECT_EQ(served.Graph(), nullptr);

  server->Handle(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_TRUE(runtime.started(indexer));
  // The first pass has ended once the indexer waits for the next, a minute on.
  auto waiting = clock.Waiting(1);
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(waiting[0], clock.Now() + std::chrono::minutes(1));
  EXPECT_EQ(indexer->passes(), 1u);
  auto g = served.Graph();
  ASSERT_TRUE(g);
  EXPECT_TRUE(IndexIn(*g)) << g->layers().at(0).file;
  EXPECT_TRUE(g->has_bloom());
  ExpectGraphMatchesGit(*g, *repo_);
  EXPECT_EQ(served.Graph(), g) << "an unchanged index is not read again";
  EXPECT_EQ(Snapshot(repo_->path()), before) << "the repository was written";
  struct stat st;
  for (const std::string& dir :
       {cache_, cache_ + "/history", served.settings().index_folder.str()}) {
    ASSERT_EQ(stat(dir.c_str(), &st), 0) << dir;
    EXPECT_EQ(st.st_mode & 0777, 0700u) << dir;
  }
  for (const auto& e : fs::directory_iterator(served.settings().index_folder.str())) {
    ASSERT_EQ(stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << e.path();
  }

  // New commits are indexed on a later pass, in a layer of their own.
  repo_->Write("later.txt", "later\n");
  repo_->Commit("later");
  repo_->Write("later.txt", "later still\n");
  repo_->Commit("later still");
  const auto middle = Snapshot(repo_->path());
  const size_t commits = GitCommits(*repo_).size();
  // Not before `recheck`: a second short of it, the indexer still waits and has not read them.
  clock.Advance(std::chrono::minutes(1) - std::chrono::seconds(1));
  ASSERT_EQ(clock.Waiting(1).size(), 1u);
  EXPECT_EQ(indexer->passes(), 1u);
  EXPECT_LT(served.Graph()->size(), commits);
  clock.Advance(std::chrono::seconds(1));
  waiting = clock.Waiting(1);
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(indexer->passes(), 2u);
  EXPECT_EQ(waiting[0], clock.Now() + std::chrono::minutes(1));
  g = served.Graph();
  EXPECT_EQ(g->size(), commits);
  EXPECT_EQ(g->layers().size(), 2u);
  ExpectGraphMatchesGit(*g, *repo_);
  server.reset();
  runtime.Stop();
  EXPECT_EQ(Snapshot(repo_->path()), middle) << "the repository was written";
}

TEST_F(HistoryIndexerTest, ARepositoryWithItsOwnBloomFiltersGetsNoIndex) {
  repo_->Git({"commit-graph", "write", "--reachable", "--changed-paths"});
  auto catalog = CatalogOf({repo_->path()}, cache_);
  const ServedRepo& served = *catalog->all().at(0);
  EXPECT_FALSE(served.NeedsHistoryIndex());
  ManualClock clock;
  HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50), &clock});
  indexer.Start();
  ASSERT_TRUE(TwoPasses(clock, indexer));
  EXPECT_FALSE(fs::exists(served.settings().index_folder.str()));
  auto g = served.Graph();
  ASSERT_TRUE(g);
  EXPECT_TRUE(OwnGraphIn(*g)) << g->layers().at(0).file;
}

TEST_F(HistoryIndexerTest, AnOwnGraphWithoutBloomFiltersServesUntilTheIndexIsBuilt) {
  repo_->Git({"commit-graph", "write", "--reachable"});
  auto catalog = CatalogOf({repo_->path()}, cache_);
  const ServedRepo& served = *catalog->all().at(0);
  auto g = served.Graph();
  ASSERT_TRUE(g);
  EXPECT_TRUE(OwnGraphIn(*g));
  EXPECT_FALSE(g->has_bloom());
  EXPECT_TRUE(served.NeedsHistoryIndex());
  ManualClock clock;
  HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50), &clock});
  indexer.Start();
  ASSERT_EQ(clock.Waiting(1).size(), 1u);  // the first pass has ended
  EXPECT_EQ(indexer.passes(), 1u);
  g = served.Graph();
  EXPECT_TRUE(IndexIn(*g));
  EXPECT_TRUE(g->has_bloom());
  // The repository gains its own filters: they are preferred from the next call on.
  repo_->Git({"commit-graph", "write", "--reachable", "--changed-paths"});
  g = served.Graph();
  EXPECT_TRUE(OwnGraphIn(*g));
  EXPECT_TRUE(g->has_bloom());
}

TEST_F(HistoryIndexerTest, AFailingRepositoryDoesNotStopTheOthers) {
  const std::string shallow = tmp_ / "shallow";
  ASSERT_TRUE(ShallowClone(*repo_, shallow));
  auto catalog = CatalogOf({shallow, repo_->path()}, cache_);
  ManualClock clock;
  HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50), &clock});
  indexer.Start();
  ASSERT_TRUE(TwoPasses(clock, indexer));
  EXPECT_EQ(catalog->all().at(0)->Graph(), nullptr);
  auto g = catalog->all().at(1)->Graph();
  ASSERT_TRUE(g);
  ExpectGraphMatchesGit(*g, *repo_);
}

// A shallow clone's history cannot be indexed (a parent is missing): every pass fails on it, and
// the log says so once, not once a pass.
TEST_F(HistoryIndexerTest, AFailureIsLoggedOnceNotEveryPass) {
  const std::string shallow = tmp_ / "shallow";
  ASSERT_TRUE(ShallowClone(*repo_, shallow));
  auto catalog = CatalogOf({shallow}, cache_);
  ManualClock clock;
  HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50), &clock});
  ::testing::internal::CaptureStderr();
  indexer.Start();
  const bool passes = TwoPasses(clock, indexer);
  clock.Advance(std::chrono::milliseconds(50));
  const bool third = clock.Waiting(1).size() == 1 && indexer.passes() == 3;
  indexer.Stop();
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(passes && third) << log;
  const std::string line = "the history index of `repo0` could not be updated: ";
  const size_t first = log.find(line);
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_NE(log.find("the history is incomplete", first), std::string::npos) << log;
  EXPECT_EQ(log.find(line, first + 1), std::string::npos) << "logged on every pass:\n" << log;
  EXPECT_EQ(catalog->all().at(0)->Graph(), nullptr);
}

TEST_F(HistoryIndexerTest, WithoutACacheFolderNothingIsIndexed) {
  auto catalog = CatalogOf({repo_->path()}, "");
  EXPECT_EQ(catalog->all().at(0)->settings().index_folder.str(), "");
  EXPECT_FALSE(catalog->all().at(0)->NeedsHistoryIndex());
  ManualClock clock;
  HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50), &clock});
  indexer.Start();
  EXPECT_TRUE(clock.Waiting(1, std::chrono::milliseconds(200)).empty());  // no thread waits
  EXPECT_EQ(indexer.passes(), 0u);                                        // none was started
  EXPECT_EQ(catalog->all().at(0)->Graph(), nullptr);
}

TEST_F(HistoryIndexerTest, StoppingTheServerStopsABuildUnderWay) {
  // A history long enough that stopping lands mid-build.
  for (int i = 0; i < 30; ++i) {
    repo_->Write("many/" + std::to_string(i) + ".txt", std::to_string(i));
    repo_->Commit("many " + std::to_string(i));
  }
  auto catalog = CatalogOf({repo_->path()}, cache_);
  {
    HistoryIndexer indexer(catalog, {std::chrono::milliseconds(50)});
    indexer.Start();
  }  // the destructor stops the build and waits for it
  // Whatever was written is whole: the index opens, or there is none yet.
  std::string problem;
  auto g = HistoryIndex::Open(catalog->all().at(0)->settings().index_folder.str(), &problem);
  if (g) {
    ExpectGraphMatchesGit(*g, *repo_);
  } else {
    EXPECT_NE(problem.find("cannot be opened"), std::string::npos) << problem;
  }
}

// Stop ends the wait between two passes at once: the real clock, an hour's recheck.
TEST_F(HistoryIndexerTest, StopReturnsPromptlyWhileItWaitsForTheNextPass) {
  auto catalog = CatalogOf({repo_->path()}, cache_);
  HistoryIndexer indexer(catalog, {std::chrono::hours(1)});
  indexer.Start();
  ASSERT_TRUE(WaitFor([&] { return indexer.passes() >= 1; }));
  const auto begin = std::chrono::steady_clock::now();
  indexer.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(2));
  EXPECT_EQ(indexer.passes(), 1u);
}

// The server process: the app's runtime starts the indexer once the server has answered, and
// stops it with the rest when the input ends.
TEST_F(HistoryIndexerTest, TheServerProcessIndexesOnceItHasAnsweredAndStopsAtEndOfInput) {
  const std::string config = tmp_ / "repo-reader.yaml";
  {
    std::ofstream out(config);
    out << "cache_folder: " << cache_ << "\nrepos:\n  - name: shop\n    path: " << repo_->path()
        << "\n";
  }
  McpProcess p({RR_BINARY, "--config", config}, tmp_.path());
  p.Initialize();
  auto indexed = [&] {
    const fs::path history = cache_ + "/history";
    if (!fs::exists(history)) return false;
    for (const auto& e : fs::recursive_directory_iterator(history)) {
      if (e.is_regular_file()) return true;
    }
    return false;
  };
  ASSERT_TRUE(WaitFor(indexed)) << p.Stderr();
  p.CloseInput();
  EXPECT_EQ(p.Wait(std::chrono::seconds(10)), 0) << p.Stderr();
}

}  // namespace
}  // namespace history_indexer_test
}  // namespace rr::testing
