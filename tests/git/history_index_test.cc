#include "core/git/history_index.h"

#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <functional>

#include "core/git/git_repo.h"
#include "tests/git/graph_kit.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace history_index_test {
namespace {

namespace fs = std::filesystem;
using Changed = CommitGraph::Changed;

std::unique_ptr<GitRepo> OpenRepo(const std::string& path) {
  auto r = GitRepo::Open(path);
  EXPECT_TRUE(r) << r.error();
  return r.take();
}

HistoryIndexUpdate UpdateOk(const std::string& repo, const std::string& folder,
                            const HistoryIndexOptions& options = {}) {
  auto git = OpenRepo(repo);
  auto u = HistoryIndex::Update(*git, folder, StopToken(), nullptr, options);
  EXPECT_TRUE(u) << u.error();
  return u ? u.take() : HistoryIndexUpdate{};
}

// A bare copy of `repo` with all its branches and tags, for git to write its own graph in.
std::string BareCopy(const TestRepo& repo, const std::string& where) {
  EXPECT_EQ(Run({"git", "clone", "-q", "--bare", "--no-local", repo.path(), where}, "", repo.Env())
                .status,
            0);
  return where;
}

CommandResult GitIn(const std::string& dir, const TestRepo& env, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", dir});
  return Run(args, "", env.Env());
}

// Puts our index where git keeps a split graph in `bare`, and asks git to verify it.
void ExpectGitVerifies(const std::string& folder, const std::string& bare, const TestRepo& env) {
  const std::string dest = bare + "/objects/info/commit-graphs";
  fs::remove_all(dest);
  fs::remove(bare + "/objects/info/commit-graph");
  fs::create_directories(dest);
  for (const auto& e : fs::directory_iterator(folder)) {
    if (e.path().filename() == "lock") continue;
    fs::copy_file(e.path(), dest / e.path().filename());
  }
  const auto r = GitIn(bare, env, {"commit-graph", "verify"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "") << "git commit-graph verify complained";
  // git reads it for real: its own walk with the graph agrees with one without.
  const auto with = GitIn(bare, env, {"log", "--all", "--format=%H %P"});
  const auto without =
      GitIn(bare, env, {"-c", "core.commitGraph=false", "log", "--all", "--format=%H %P"});
  EXPECT_EQ(with.out, without.out);
}

// Every commit a libgit2 walk from every ref and HEAD reaches is in the graph, as libgit2
// reads it.
void ExpectLibgit2Agrees(const CommitGraph& g, const std::string& repo_path) {
  auto git = OpenRepo(repo_path);
  git_revwalk* walk = nullptr;
  ASSERT_EQ(git_revwalk_new(&walk, git->raw()), 0);
  ASSERT_EQ(git_revwalk_push_glob(walk, "*"), 0);
  ASSERT_EQ(git_revwalk_push_head(walk), 0);
  git_oid id;
  size_t walked = 0;
  while (git_revwalk_next(&id, walk) == 0) {
    ++walked;
    uint32_t pos = 0;
    ASSERT_TRUE(g.Find(id, &pos)) << HexOf(id);
    git_commit* c = nullptr;
    ASSERT_EQ(git_commit_lookup(&c, git->raw(), &id), 0);
    const git_oid tree = g.Tree(pos);
    EXPECT_TRUE(git_oid_equal(git_commit_tree_id(c), &tree));
    EXPECT_EQ(g.CommitTime(pos), git_commit_time(c));
    std::vector<uint32_t> parents;
    ASSERT_TRUE(g.Parents(pos, &parents));
    ASSERT_EQ(parents.size(), git_commit_parentcount(c));
    for (unsigned i = 0; i < parents.size(); ++i) {
      const git_oid p = g.Id(parents[i]);
      EXPECT_TRUE(git_oid_equal(git_commit_parent_id(c, i), &p));
      EXPECT_LT(g.Generation(parents[i]), g.Generation(pos));
    }
    git_commit_free(c);
  }
  git_revwalk_free(walk);
  EXPECT_EQ(walked, g.size());
}

// The whole of a folder: every path, its mode, and every file's bytes.
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

void AddCommits(TestRepo& repo, const std::string& tag, int n) {
  for (int i = 0; i < n; ++i) {
    repo.Write(tag + "/" + std::to_string(i) + ".txt", tag + std::to_string(i) + "\n");
    repo.Commit(tag + " " + std::to_string(i));
  }
}

class HistoryIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    InitGitLibrary();
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    shape_ = MakeShapedHistory(*repo_);
    folder_ = tmp_ / "cache/history/shop";
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  ShapedHistory shape_;
  std::string folder_;
};

TEST_F(HistoryIndexTest, FirstBuildIsTheLayerGitWritesByteForByte) {
  const auto u = UpdateOk(repo_->path(), folder_);
  EXPECT_EQ(u.layers_written, 1u);
  EXPECT_EQ(u.layers, 1u);
  EXPECT_EQ(u.new_commits, GitCommits(*repo_).size());
  const std::string bare = BareCopy(*repo_, tmp_ / "bare.git");
  ASSERT_EQ(
      GitIn(bare, *repo_, {"commit-graph", "write", "--reachable", "--changed-paths", "--split"})
          .status,
      0);
  const std::string theirs = bare + "/objects/info/commit-graphs/commit-graph-chain";
  const std::string chain = ReadBytes(HistoryIndex::ChainFile(folder_));
  ASSERT_EQ(chain, ReadBytes(theirs));
  const std::string layer = "graph-" + Split(chain, '\n').at(0) + ".graph";
  EXPECT_EQ(ReadBytes(folder_ + "/" + layer),
            ReadBytes(bare + "/objects/info/commit-graphs/" + layer));
}

TEST_F(HistoryIndexTest, GitAcceptsTheIndexAndItAgreesWithGitAndLibgit2) {
  UpdateOk(repo_->path(), folder_);
  std::string problem;
  auto g = HistoryIndex::Open(folder_, &problem);
  ASSERT_TRUE(g) << problem;
  EXPECT_TRUE(g->has_bloom());
  EXPECT_TRUE(g->corrected_dates());
  ExpectGraphMatchesGit(*g, *repo_);
  ExpectLibgit2Agrees(*g, repo_->path());
  EXPECT_GT(ShareDenied(*g, "no/such/path.txt"), 0.8);
  uint32_t pos;
  ASSERT_TRUE(g->Find(Oid(shape_.big_commit), &pos));
  EXPECT_EQ(g->ChangedVsFirstParent(pos, g->Key("README.md")), Changed::kUnknown);
  ASSERT_TRUE(g->Find(Oid(shape_.empty_commit), &pos));
  EXPECT_EQ(g->ChangedVsFirstParent(pos, g->Key("README.md")), Changed::kNo);
  ExpectGitVerifies(folder_, BareCopy(*repo_, tmp_ / "bare.git"), *repo_);
}

TEST_F(HistoryIndexTest, UpdatesAddOnlyNewCommitsInALayerAsGitsSplitWriteDoes) {
  UpdateOk(repo_->path(), folder_);
  const std::string bare = BareCopy(*repo_, tmp_ / "bare.git");
  auto git_split = [&] {
    ASSERT_EQ(GitIn(bare, *repo_,
                    {"fetch", "-q", repo_->path(), "+refs/heads/*:refs/heads/*",
                     "+refs/tags/*:refs/tags/*"})
                  .status,
              0);
    ASSERT_EQ(
        GitIn(bare, *repo_, {"commit-graph", "write", "--reachable", "--changed-paths", "--split"})
            .status,
        0);
  };
  git_split();

  AddCommits(*repo_, "second", 3);
  auto u = UpdateOk(repo_->path(), folder_);
  EXPECT_EQ(u.new_commits, 3u);
  EXPECT_EQ(u.layers_written, 1u);
  EXPECT_EQ(u.layers, 2u);
  git_split();
  EXPECT_EQ(ReadBytes(HistoryIndex::ChainFile(folder_)),
            ReadBytes(bare + "/objects/info/commit-graphs/commit-graph-chain"));
  auto g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  ExpectGraphMatchesGit(*g, *repo_);

  // Two more: the layer of three holds no more than twice two, so it is merged into the new one.
  repo_->Git({"checkout", "-q", "-b", "topic"});
  AddCommits(*repo_, "third", 2);
  u = UpdateOk(repo_->path(), folder_);
  EXPECT_EQ(u.new_commits, 2u);
  EXPECT_EQ(u.layers, 2u);
  git_split();
  EXPECT_EQ(ReadBytes(HistoryIndex::ChainFile(folder_)),
            ReadBytes(bare + "/objects/info/commit-graphs/commit-graph-chain"));
  g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->layers().back().commits, 5u);
  ExpectGraphMatchesGit(*g, *repo_);
  ExpectLibgit2Agrees(*g, repo_->path());
  // Only the chain's layers are left in the folder.
  size_t layers = 0;
  for (const auto& e : fs::directory_iterator(folder_)) {
    if (e.path().extension() == ".graph") ++layers;
  }
  EXPECT_EQ(layers, 2u);
  ExpectGitVerifies(folder_, BareCopy(*repo_, tmp_ / "bare2.git"), *repo_);
}

TEST_F(HistoryIndexTest, AnUpToDateIndexIsLeftAlone) {
  UpdateOk(repo_->path(), folder_);
  const auto before = Snapshot(folder_);
  const auto u = UpdateOk(repo_->path(), folder_);
  EXPECT_EQ(u.new_commits, 0u);
  EXPECT_EQ(u.layers_written, 0u);
  EXPECT_EQ(Snapshot(folder_), before);
}

TEST_F(HistoryIndexTest, TheRepositoryIsNeverWrittenAndTheIndexIsPrivate) {
  const auto before = Snapshot(repo_->path());
  UpdateOk(repo_->path(), folder_);
  AddCommits(*repo_, "more", 2);
  const auto middle = Snapshot(repo_->path());
  UpdateOk(repo_->path(), folder_);
  EXPECT_EQ(Snapshot(repo_->path()), middle);
  EXPECT_NE(before, middle);  // the snapshot sees a change when there is one
  struct stat st;
  ASSERT_EQ(stat(folder_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat((tmp_ / "cache").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u);
  for (const auto& e : fs::directory_iterator(folder_)) {
    ASSERT_EQ(stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << e.path();
  }
}

TEST_F(HistoryIndexTest, AStoppedBuildKeepsItsLayersAndTheNextUpdateCarriesOn) {
  HistoryIndexOptions small;
  small.batch_commits = 6;
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  const StopToken stop(cancelled, std::chrono::hours(1));
  std::vector<HistoryIndexProgress::Stage> stages;
  auto git = OpenRepo(repo_->path());
  auto u = HistoryIndex::Update(
      *git, folder_, stop,
      [&](const HistoryIndexProgress& p) {
        stages.push_back(p.stage);
        if (p.stage == HistoryIndexProgress::Stage::kWriting) cancelled->store(true);
      },
      small);
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().find("stopped"), std::string::npos) << u.error();
  auto partial = HistoryIndex::Open(folder_);
  ASSERT_TRUE(partial);
  EXPECT_EQ(partial->size(), 6u);
  EXPECT_LT(partial->size(), GitCommits(*repo_).size());
  EXPECT_NE(std::find(stages.begin(), stages.end(), HistoryIndexProgress::Stage::kComputing),
            stages.end());

  const auto rest = UpdateOk(repo_->path(), folder_, small);
  EXPECT_EQ(rest.new_commits + 6, GitCommits(*repo_).size());
  EXPECT_GE(rest.layers_written, 2u);  // batches grow with the index: few layers, few merges
  auto g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  EXPECT_LE(g->layers().size(), 3u);
  ExpectGraphMatchesGit(*g, *repo_);
  ExpectLibgit2Agrees(*g, repo_->path());
  ExpectGitVerifies(folder_, BareCopy(*repo_, tmp_ / "bare.git"), *repo_);
}

TEST_F(HistoryIndexTest, AnIndexThatCannotBeReadIsRebuilt) {
  UpdateOk(repo_->path(), folder_);
  const std::string chain = HistoryIndex::ChainFile(folder_);
  const auto checksum = Split(ReadBytes(chain), '\n').at(0);
  WriteBytes(folder_ + "/graph-" + checksum + ".graph", "CGPH garbage");
  const auto u = UpdateOk(repo_->path(), folder_);
  EXPECT_NE(u.rebuilt_because.find("could not be read"), std::string::npos) << u.rebuilt_because;
  EXPECT_EQ(u.new_commits, GitCommits(*repo_).size());
  auto g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  ExpectGraphMatchesGit(*g, *repo_);
}

TEST_F(HistoryIndexTest, AnIndexWithOtherSettingsIsRebuiltAndVersionTwoHashesRead) {
  UpdateOk(repo_->path(), folder_);
  HistoryIndexOptions v2;
  v2.bloom.hash_version = 2;
  const auto u = UpdateOk(repo_->path(), folder_, v2);
  EXPECT_NE(u.rebuilt_because.find("other settings"), std::string::npos) << u.rebuilt_because;
  auto g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->layers().at(0).bloom_settings.hash_version, 2u);
  ExpectGraphMatchesGit(*g, *repo_);
  uint32_t pos;
  ASSERT_TRUE(g->Find(Oid(shape_.high_bit_commit), &pos));
  EXPECT_EQ(g->ChangedVsFirstParent(pos, g->Key("caf\xc3\xa9/na\xc3\xafve \xe2\x82\xac.txt")),
            Changed::kMaybe);
  EXPECT_GT(ShareDenied(*g, "caf\xc3\xa9/elsewhere"), 0.8);
}

TEST_F(HistoryIndexTest, WorkBeyondTheBoundGivesFiltersThatSayNothingNeverWrongOnes) {
  HistoryIndexOptions tight;
  tight.max_entries_per_commit = 8;
  UpdateOk(repo_->path(), folder_, tight);
  auto g = HistoryIndex::Open(folder_);
  ASSERT_TRUE(g);
  uint32_t pos;
  ASSERT_TRUE(g->Find(Oid(repo_->Rev("main")), &pos));
  EXPECT_EQ(g->ChangedVsFirstParent(pos, g->Key("no/such/path")), Changed::kUnknown);
  ExpectGraphMatchesGit(*g, *repo_);
}

TEST_F(HistoryIndexTest, AnotherUpdateOfTheSameFolderIsRefusedNotWaitedFor) {
  fs::create_directories(folder_);
  const int fd = open((folder_ + "/lock").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  auto git = OpenRepo(repo_->path());
  auto u = HistoryIndex::Update(*git, folder_, StopToken());
  EXPECT_FALSE(u);
  EXPECT_NE(u.error().find("another process"), std::string::npos) << u.error();
  close(fd);
  UpdateOk(repo_->path(), folder_);
}

TEST_F(HistoryIndexTest, AShallowCloneHasNoIndexAndSaysWhy) {
  const std::string shallow = tmp_ / "shallow";
  ASSERT_TRUE(ShallowClone(*repo_, shallow));
  auto git = OpenRepo(shallow);
  auto u = HistoryIndex::Update(*git, folder_, StopToken());
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().find("incomplete"), std::string::npos) << u.error();
}

TEST_F(HistoryIndexTest, AnIndexFolderThatIsALinkIsNotFollowed) {
  // A link in the index's place, to the repository's own graph folder: refused, nothing written.
  const std::string objects = repo_->path() + "/.git/objects/info/commit-graphs";
  fs::create_directories(objects);
  fs::create_directories(fs::path(folder_).parent_path());
  fs::create_directory_symlink(objects, folder_);
  const auto before = Snapshot(repo_->path());
  auto git = OpenRepo(repo_->path());
  auto u = HistoryIndex::Update(*git, folder_, StopToken());
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().find("a link is refused"), std::string::npos) << u.error();
  EXPECT_EQ(Snapshot(repo_->path()), before);
}

TEST_F(HistoryIndexTest, AFolderThatIsNotAbsoluteIsRefused) {
  auto git = OpenRepo(repo_->path());
  auto u = HistoryIndex::Update(*git, "relative/folder", StopToken());
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().find("absolute"), std::string::npos) << u.error();
}

}  // namespace
}  // namespace history_index_test
}  // namespace rr::testing
