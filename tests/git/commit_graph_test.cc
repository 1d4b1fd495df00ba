#include "core/git/commit_graph.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "core/git/commit_graph_format.h"
#include "core/git/git_repo.h"
#include "tests/git/graph_kit.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace commit_graph_test {
namespace {

namespace fs = std::filesystem;
using Changed = CommitGraph::Changed;

std::string Objects(const TestRepo& repo) { return repo.path() + "/.git/objects"; }
std::string GraphFile(const TestRepo& repo) { return Objects(repo) + "/info/commit-graph"; }

// The repository of every test here: built once per test program, read-only afterwards.
class CommitGraphReader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    InitGitLibrary();
    tmp_ = new TempDir();
    repo_ = new TestRepo(*tmp_ / "shop");
    shape_ = new ShapedHistory(MakeShapedHistory(*repo_));
    repo_->Git({"commit-graph", "write", "--reachable", "--changed-paths"});
  }
  static void TearDownTestSuite() {
    delete shape_;
    delete repo_;
    delete tmp_;
  }
  static uint32_t Pos(const CommitGraph& g, const std::string& id) {
    uint32_t pos = 0;
    EXPECT_TRUE(g.Find(Oid(id), &pos)) << id;
    return pos;
  }

  static TempDir* tmp_;
  static TestRepo* repo_;
  static ShapedHistory* shape_;
};
TempDir* CommitGraphReader::tmp_ = nullptr;
TestRepo* CommitGraphReader::repo_ = nullptr;
ShapedHistory* CommitGraphReader::shape_ = nullptr;

TEST_F(CommitGraphReader, ReadsEveryCommitOfAGraphGitWroteAsGitSeesIt) {
  std::string problem;
  auto g = CommitGraph::Open(Objects(*repo_), &problem);
  ASSERT_TRUE(g) << problem;
  EXPECT_TRUE(g->has_bloom());
  EXPECT_TRUE(g->corrected_dates());  // git 2.36 and later write GDA2
  ASSERT_EQ(g->layers().size(), 1u);
  EXPECT_EQ(g->layers()[0].bloom_settings.hash_version, 1u);
  ExpectGraphMatchesGit(*g, *repo_);
}

TEST_F(CommitGraphReader, OctopusMergeHasItsParentsInOrderFromTheExtraEdgeList) {
  auto g = CommitGraph::Open(Objects(*repo_));
  ASSERT_TRUE(g);
  std::vector<uint32_t> parents;
  ASSERT_TRUE(g->Parents(Pos(*g, shape_->octopus), &parents));
  const auto expected = Split(repo_->Git({"rev-parse", shape_->octopus + "^@"}), '\n');
  ASSERT_EQ(parents.size(), 4u);
  for (size_t i = 0; i < parents.size(); ++i) EXPECT_EQ(HexOf(g->Id(parents[i])), expected[i]);
}

TEST_F(CommitGraphReader, BloomFiltersDenyWhatACommitDidNotChange) {
  auto g = CommitGraph::Open(Objects(*repo_));
  ASSERT_TRUE(g);
  // A path never in the repository is denied by nearly every filter (false positives are rare).
  EXPECT_GT(ShareDenied(*g, "no/such/path.txt"), 0.8);
  EXPECT_GT(ShareDenied(*g, "README.md/not/a/folder"), 0.8);
  // A commit changing nothing denies everything; one changing too much knows nothing.
  EXPECT_EQ(g->ChangedVsFirstParent(Pos(*g, shape_->empty_commit), g->Key("README.md")),
            Changed::kNo);
  EXPECT_EQ(g->ChangedVsFirstParent(Pos(*g, shape_->big_commit), g->Key("README.md")),
            Changed::kUnknown);
  // Paths with bytes over 0x80 hash as git 2.39 hashed them (version 1's signed bytes).
  const uint32_t high = Pos(*g, shape_->high_bit_commit);
  EXPECT_EQ(g->ChangedVsFirstParent(high, g->Key("caf\xc3\xa9/na\xc3\xafve \xe2\x82\xac.txt")),
            Changed::kMaybe);
  EXPECT_EQ(g->ChangedVsFirstParent(high, g->Key("/caf\xc3\xa9/")), Changed::kMaybe);
  // The last commit changed src/b.c only: its folder maybe, README.md not.
  const uint32_t last = Pos(*g, repo_->Rev("main"));
  EXPECT_EQ(g->ChangedVsFirstParent(last, g->Key("src")), Changed::kMaybe);
  EXPECT_EQ(g->ChangedVsFirstParent(last, g->Key("README.md")), Changed::kNo);
}

TEST(CommitGraphHash, Murmur3AndBloomKeysAreGitsKnownValues) {
  // From git's t/t0095-bloom.sh.
  EXPECT_EQ(CommitGraph::Murmur3(2, 0, ""), 0x00000000u);
  EXPECT_EQ(CommitGraph::Murmur3(2, 0, "Hello world!"), 0x627b0c2cu);
  EXPECT_EQ(CommitGraph::Murmur3(2, 0, "The quick brown fox jumps over the lazy dog"), 0x2e4ff723u);
  EXPECT_EQ(CommitGraph::Murmur3(2, 0, "\x99\xaa\xbb\xcc\xdd\xee\xff"), 0xa183ccfdu);
  EXPECT_EQ(CommitGraph::Murmur3(1, 0, "Hello world!"), 0x627b0c2cu);
  EXPECT_NE(CommitGraph::Murmur3(1, 0, "\x99\xaa\xbb\xcc\xdd\xee\xff"), 0xa183ccfdu);
  uint32_t h0, h1;
  CommitGraph::BloomHashes(1, "Hello world!", &h0, &h1);
  EXPECT_EQ(h0, 0xb270de9bu);
  EXPECT_EQ(h0 + h1, 0x1bb6f26eu);
  EXPECT_EQ(h0 + 6 * h1, 0x2a15558du);
  CommitGraph::BloomHashes(1, "", &h0, &h1);
  EXPECT_EQ(h0, 0x5615800cu);
  EXPECT_EQ(h0 + h1, 0x5b966560u);
}

TEST(CommitGraphChain, SplitLayersAreReadAsOneGraph) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  MakeShapedHistory(repo);
  repo.Git({"commit-graph", "write", "--reachable", "--changed-paths", "--split"});
  repo.Git({"checkout", "-q", "-b", "later"});
  for (int i = 0; i < 3; ++i) {
    repo.Write("later/" + std::to_string(i) + ".txt", "later\n");
    repo.Commit("later " + std::to_string(i));
  }
  repo.Git({"merge", "-q", "--no-ff", "-m", "merge side", "side"});
  repo.Git({"commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge"});
  ASSERT_FALSE(fs::exists(GraphFile(repo)));
  std::string problem;
  auto g = CommitGraph::Open(Objects(repo), &problem);
  ASSERT_TRUE(g) << problem;
  ASSERT_EQ(g->layers().size(), 2u);
  EXPECT_EQ(g->layers()[1].commits, 4u);
  EXPECT_TRUE(g->layers()[0].bloom && g->layers()[1].bloom);
  ExpectGraphMatchesGit(*g, repo);
  EXPECT_GT(ShareDenied(*g, "no/such/path.txt"), 0.8);
  // The chain file opened directly is the same graph.
  auto again = CommitGraph::OpenFile(Objects(repo) + "/info/commit-graphs/commit-graph-chain");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->size(), g->size());
}

TEST(CommitGraphChain, GenerationIsTheTopologicalLevelWhenALayerLacksGenerationData) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  MakeShapedHistory(repo);
  repo.Git(
      {"-c", "commitGraph.generationVersion=1", "commit-graph", "write", "--reachable", "--split"});
  repo.Write("more.txt", "more\n");
  repo.Commit("more");
  repo.Git({"commit-graph", "write", "--reachable", "--split=no-merge"});
  auto g = CommitGraph::Open(Objects(repo));
  ASSERT_TRUE(g);
  ASSERT_EQ(g->layers().size(), 2u);
  EXPECT_FALSE(g->layers()[0].generation_data);
  EXPECT_FALSE(g->corrected_dates());
  for (uint32_t pos = 0; pos < g->size(); ++pos) EXPECT_EQ(g->Generation(pos), g->TopoLevel(pos));
  ExpectGraphMatchesGit(*g, repo);
}

TEST(CommitGraphChain, GraphWithoutBloomFiltersAnswersUnknown) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  MakeShapedHistory(repo);
  repo.Git({"commit-graph", "write", "--reachable"});
  auto g = CommitGraph::Open(Objects(repo));
  ASSERT_TRUE(g);
  EXPECT_FALSE(g->has_bloom());
  EXPECT_TRUE(g->Key("README.md").empty());
  for (uint32_t pos = 0; pos < g->size(); ++pos) {
    EXPECT_EQ(g->ChangedVsFirstParent(pos, g->Key("README.md")), Changed::kUnknown);
  }
  ExpectGraphMatchesGit(*g, repo);
}

TEST(CommitGraphChain, RepositoryWithoutAGraphSaysSo) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "a\n");
  repo.Commit("one");
  std::string problem;
  EXPECT_FALSE(CommitGraph::Open(Objects(repo), &problem));
  EXPECT_NE(problem.find("no commit-graph"), std::string::npos) << problem;
}

// ---- Hostile files: each must be refused (or read only inside what it holds), never crash.

struct ChunkAt {
  uint64_t offset = 0, size = 0;
};

std::map<uint32_t, ChunkAt> Chunks(const std::string& bytes) {
  using graph_format::Be32;
  using graph_format::Be64;
  const auto* d = reinterpret_cast<const uint8_t*>(bytes.data());
  std::map<uint32_t, ChunkAt> out;
  for (uint32_t i = 0; i < d[6]; ++i) {
    const uint8_t* e = d + 8 + 12 * i;
    out[Be32(e)] = {Be64(e + 4), Be64(e + 16) - Be64(e + 4)};
  }
  return out;
}

void Put32(std::string* bytes, uint64_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*bytes)[at + i] = static_cast<char>(v >> (24 - 8 * i));
}
uint32_t Get32(const std::string& bytes, uint64_t at) {
  return graph_format::Be32(reinterpret_cast<const uint8_t*>(bytes.data()) + at);
}

// Calls every accessor on every position: under the sanitizers, any read outside the file fails.
void ReadEverything(const CommitGraph& g) {
  std::vector<uint32_t> parents;
  const auto key = g.Key("src/a.c");
  uint64_t sink = 0;
  for (uint32_t pos = 0; pos <= g.size(); ++pos) {
    sink += g.Id(pos).id[0] + g.Tree(pos).id[0];
    if (g.Parents(pos, &parents)) {
      for (uint32_t p : parents) sink += g.Generation(p);
    }
    uint32_t first;
    if (g.FirstParent(pos, &first)) sink += first;
    sink += g.CommitTime(pos) + g.Generation(pos) + g.TopoLevel(pos);
    sink += static_cast<int>(g.ChangedVsFirstParent(pos, key));
    std::string_view filter;
    if (g.BloomFilter(pos, &filter)) {
      for (char c : filter) sink += static_cast<uint8_t>(c);
    }
    uint32_t found;
    if (g.Find(g.Id(pos), &found)) sink += found;
  }
  EXPECT_GE(sink, 0u);
}

class HostileCommitGraph : public CommitGraphReader {
 protected:
  void SetUp() override {
    good_ = ReadBytes(GraphFile(*repo_));
    ASSERT_GT(good_.size(), 1000u);
    chunks_ = Chunks(good_);
  }
  // Opens `bytes` as a graph file; returns whether it was accepted, and the problem.
  std::shared_ptr<const CommitGraph> Try(const std::string& bytes, std::string* problem) {
    const std::string file = tmp_->path() + "/hostile-commit-graph";
    WriteBytes(file, bytes);
    auto g = CommitGraph::OpenFile(file, problem);
    if (g) ReadEverything(*g);
    return g;
  }
  void ExpectRefused(const std::string& bytes, const std::string& words) {
    std::string problem;
    EXPECT_FALSE(Try(bytes, &problem)) << "accepted; expected: " << words;
    EXPECT_NE(problem.find(words), std::string::npos) << problem;
  }
  ChunkAt Chunk(uint32_t id) {
    EXPECT_TRUE(chunks_.count(id)) << id;
    return chunks_[id];
  }

  std::string good_;
  std::map<uint32_t, ChunkAt> chunks_;
};

TEST_F(HostileCommitGraph, TheUntouchedFileIsAccepted) {
  std::string problem;
  EXPECT_TRUE(Try(good_, &problem)) << problem;
}

TEST_F(HostileCommitGraph, TruncatedAtAnyLengthIsRefused) {
  for (size_t len = 0; len < good_.size(); len += (len < 1100 ? 1 : 61)) {
    std::string problem;
    EXPECT_FALSE(Try(good_.substr(0, len), &problem)) << "accepted at length " << len;
    EXPECT_FALSE(problem.empty());
  }
}

TEST_F(HostileCommitGraph, WrongCommitCountsAreRefused) {
  using namespace graph_format;
  const uint64_t fanout = Chunk(kChunkOidFanout).offset;
  const uint32_t n = Get32(good_, fanout + 4 * 255);
  std::string more = good_;
  Put32(&more, fanout + 4 * 255, n + 1);
  ExpectRefused(more, "does not hold");
  std::string fewer = good_;
  Put32(&fewer, fanout + 4 * 255, n - 1);
  ExpectRefused(fewer, "");
  std::string huge = good_;
  for (int i = 0; i < 256; ++i) Put32(&huge, fanout + 4 * i, 0x7fffffff);
  ExpectRefused(huge, "more than a commit-graph can hold");
  std::string out_of_order = good_;
  Put32(&out_of_order, fanout + 4 * 10, n);
  ExpectRefused(out_of_order, "not in order");
}

TEST_F(HostileCommitGraph, ChunkOffsetsOutsideTheFileAreRefused) {
  for (uint32_t i = 0; i < static_cast<uint8_t>(good_[6]); ++i) {
    for (uint64_t bad : {uint64_t{0}, uint64_t{good_.size()}, ~uint64_t{0}, uint64_t{1} << 40}) {
      std::string bytes = good_;
      const uint64_t at = 8 + 12 * i + 4;
      Put32(&bytes, at, static_cast<uint32_t>(bad >> 32));
      Put32(&bytes, at + 4, static_cast<uint32_t>(bad));
      std::string problem;
      EXPECT_FALSE(Try(bytes, &problem)) << "chunk " << i << " at " << bad;
    }
  }
  std::string more_chunks = good_;
  more_chunks[6] = static_cast<char>(250);
  ExpectRefused(more_chunks, "");
  std::string no_terminator = good_;
  Put32(&no_terminator, 8 + 12 * static_cast<uint8_t>(good_[6]), graph_format::kChunkBase);
  ExpectRefused(no_terminator, "terminating");
}

TEST_F(HostileCommitGraph, UnsortedOrDuplicatedIdsAreRefused) {
  using namespace graph_format;
  const ChunkAt oidl = Chunk(kChunkOidLookup);
  // Two ids swapped: out of order (or out of their fanout buckets).
  std::string swapped = good_;
  for (int b = 0; b < 20; ++b) std::swap(swapped[oidl.offset + b], swapped[oidl.offset + 20 + b]);
  ExpectRefused(swapped, "");
  // An id given twice.
  std::string duplicated = good_;
  duplicated.replace(oidl.offset + 20, 20, good_.substr(oidl.offset, 20));
  ExpectRefused(duplicated, "ascending");
  // An id moved out of its fanout bucket.
  std::string moved = good_;
  moved[oidl.offset] = static_cast<char>(0xff);
  ExpectRefused(moved, "");
}

TEST_F(HostileCommitGraph, ParentsOutsideTheGraphAreRefused) {
  using namespace graph_format;
  const ChunkAt cdat = Chunk(kChunkCommitData);
  const uint32_t n = static_cast<uint32_t>(cdat.size / kCommitDataWidth);
  std::string first = good_;
  Put32(&first, cdat.offset + 20, n + 3);
  ExpectRefused(first, "outside the graph");
  std::string second = good_;
  Put32(&second, cdat.offset + 20, 0);
  Put32(&second, cdat.offset + 24, n);
  ExpectRefused(second, "");
  // An octopus edge past EDGE's end.
  std::string edge = good_;
  Put32(&edge, cdat.offset + 24, kExtraEdgesNeeded | 1000);
  Put32(&edge, cdat.offset + 20, 1);
  ExpectRefused(edge, "");
}

TEST_F(HostileCommitGraph, OctopusListWithoutAnEndIsRefused) {
  using namespace graph_format;
  const ChunkAt edges = Chunk(kChunkExtraEdges);
  std::string bytes = good_;
  for (uint64_t at = edges.offset; at < edges.offset + edges.size; at += 4) {
    Put32(&bytes, at, Get32(bytes, at) & kEdgeMask);
  }
  ExpectRefused(bytes, "octopus");
}

TEST_F(HostileCommitGraph, ACycleOfParentsIsRefusedByItsGenerations) {
  using namespace graph_format;
  // Make the root commit's first parent the newest commit: a cycle, so some parent's
  // generation cannot be below its child's.
  auto g = CommitGraph::OpenFile(GraphFile(*repo_));
  ASSERT_TRUE(g);
  const uint32_t root = Pos(*g, repo_->Git({"rev-list", "--max-parents=0", "main"}));
  const uint32_t tip = Pos(*g, repo_->Rev("main"));
  const ChunkAt cdat = Chunk(kChunkCommitData);
  std::string bytes = good_;
  Put32(&bytes, cdat.offset + root * kCommitDataWidth + 20, tip);
  ExpectRefused(bytes, "generation");
  // A generation overflow entry that is not there.
  const ChunkAt gda = Chunk(kChunkGenerationData);
  std::string overflow = good_;
  Put32(&overflow, gda.offset + 4 * tip, kGenerationOverflow | 7);
  ExpectRefused(overflow, "overflow");
}

TEST_F(HostileCommitGraph, BrokenBloomIndexLeavesOnlyTheFiltersOut) {
  using namespace graph_format;
  const ChunkAt bidx = Chunk(kChunkBloomIndexes);
  std::string decreasing = good_;
  Put32(&decreasing, bidx.offset, 0xffff);
  std::string problem;
  auto g = Try(decreasing, &problem);
  ASSERT_TRUE(g) << problem;
  EXPECT_FALSE(g->has_bloom());
  EXPECT_EQ(g->ChangedVsFirstParent(0, g->Key("README.md")), Changed::kUnknown);
  const ChunkAt bdat = Chunk(kChunkBloomData);
  std::string version = good_;
  Put32(&version, bdat.offset, 3);
  g = Try(version, &problem);
  ASSERT_TRUE(g) << problem;
  EXPECT_FALSE(g->has_bloom());
  std::string hashes = good_;
  Put32(&hashes, bdat.offset + 4, 0x7fffffff);
  g = Try(hashes, &problem);
  ASSERT_TRUE(g) << problem;
  EXPECT_FALSE(g->has_bloom());
}

TEST_F(HostileCommitGraph, RandomDamageNeverCrashes) {
  std::mt19937 rng(7);
  int accepted = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string bytes = good_;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      // Half the damage in the header, table and fanout, where it matters most.
      const size_t at =
          (rng() % 2) ? rng() % std::min<size_t>(bytes.size(), 1200) : rng() % bytes.size();
      bytes[at] = static_cast<char>(rng());
    }
    std::string problem;
    if (Try(bytes, &problem)) ++accepted;
  }
  // Damage to tree ids, dates or filters is not detectable without the checksum.
  EXPECT_GT(accepted, 0);
}

TEST_F(HostileCommitGraph, AFifoOrAFolderInPlaceOfTheFileIsRefusedWithoutWaiting) {
  const std::string fifo = tmp_->path() + "/fifo-graph";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  std::string problem;
  EXPECT_FALSE(CommitGraph::OpenFile(fifo, &problem));
  EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
  EXPECT_FALSE(CommitGraph::OpenFile(tmp_->path(), &problem));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  // A folder whose info/commit-graph is a FIFO: Open says so and moves on.
  TempDir objects;
  fs::create_directories(objects / "info");
  ASSERT_EQ(mkfifo((objects / "info/commit-graph").c_str(), 0600), 0);
  EXPECT_FALSE(CommitGraph::Open(objects.path(), &problem));
}

TEST(HostileCommitGraphChain, BrokenChainsAreRefused) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  MakeShapedHistory(repo);
  repo.Git({"commit-graph", "write", "--reachable", "--changed-paths", "--split"});
  repo.Write("more.txt", "more\n");
  repo.Commit("more");
  repo.Git({"commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge"});
  const std::string dir = Objects(repo) + "/info/commit-graphs";
  const std::string chain = dir + "/commit-graph-chain";
  const std::string good = ReadBytes(chain);
  const auto lines = Split(good, '\n');
  ASSERT_EQ(lines.size(), 2u);
  // git writes its chain and layers read-only.
  fs::permissions(chain, fs::perms::owner_write, fs::perm_options::add);
  std::string problem;
  ASSERT_TRUE(CommitGraph::OpenFile(chain, &problem)) << problem;

  WriteBytes(chain, "not a checksum\n");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  WriteBytes(chain, "");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  WriteBytes(chain, "../../../../etc/passwd\n");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  // Layers in the wrong order: the top layer's BASE chunk names another base.
  WriteBytes(chain, lines[1] + "\n" + lines[0] + "\n");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  EXPECT_NE(problem.find("does not match the chain"), std::string::npos) << problem;
  // The top layer alone: it names a base the chain does not hold.
  WriteBytes(chain, lines[1] + "\n");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  // A layer missing.
  WriteBytes(chain, good);
  fs::rename(dir + "/graph-" + lines[0] + ".graph", dir + "/moved");
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  EXPECT_NE(problem.find("layer 0"), std::string::npos) << problem;
  fs::rename(dir + "/moved", dir + "/graph-" + lines[0] + ".graph");
  // A layer whose checksum is not its name.
  std::string layer = ReadBytes(dir + "/graph-" + lines[0] + ".graph");
  layer[layer.size() - 1] ^= 1;
  fs::permissions(dir + "/graph-" + lines[0] + ".graph", fs::perms::owner_write,
                  fs::perm_options::add);
  WriteBytes(dir + "/graph-" + lines[0] + ".graph", layer);
  EXPECT_FALSE(CommitGraph::OpenFile(chain, &problem));
  EXPECT_FALSE(CommitGraph::Open(Objects(repo), &problem));
}

}  // namespace
}  // namespace commit_graph_test
}  // namespace rr::testing
