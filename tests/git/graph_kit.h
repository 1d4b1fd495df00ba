// Shared by the commit-graph and history-index tests: a repository with every shape of history
// a graph must hold, git's own answers about it, and a check of a graph against them.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/git/commit_graph.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {

inline git_oid Oid(const std::string& hex) {
  git_oid oid;
  EXPECT_EQ(git_oid_fromstr(&oid, hex.c_str()), 0) << hex;
  return oid;
}

inline std::string HexOf(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

inline std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// What git says about a commit.
struct GitCommit {
  std::string id, tree;
  int64_t time = 0;
  std::vector<std::string> parents;
};

// Every commit reachable from every ref (and HEAD), as git lists them.
inline std::vector<GitCommit> GitCommits(const TestRepo& repo) {
  std::vector<GitCommit> out;
  for (const auto& line : Split(repo.Git({"log", "--all", "--format=%H %T %ct %P"}), '\n')) {
    const auto parts = Split(line, ' ');
    GitCommit c;
    c.id = parts.at(0);
    c.tree = parts.at(1);
    c.time = std::stoll(parts.at(2));
    c.parents.assign(parts.begin() + 3, parts.end());
    out.push_back(c);
  }
  return out;
}

// The paths a commit changed against its first parent (the empty tree for a root), with every
// leading folder of each: what git adds to the commit's Bloom filter.
inline std::vector<std::string> ChangedPaths(const TestRepo& repo, const GitCommit& c) {
  std::vector<std::string> args = {"diff-tree",    "-r",          "-z",
                                   "--no-renames", "--name-only", "--no-commit-id"};
  if (c.parents.empty()) {
    args.push_back("--root");
  } else {
    args.push_back(c.parents[0]);
  }
  args.push_back(c.id);
  std::vector<std::string> out;
  for (const auto& path : Split(repo.Git(args), '\0')) {
    std::string p = path;
    while (true) {
      out.push_back(p);
      const size_t slash = p.rfind('/');
      if (slash == std::string::npos) break;
      p.resize(slash);
    }
  }
  return out;
}

// A history with merges, an octopus merge, a rename, deep folders, a path with bytes >= 0x80,
// a mode change, a file replaced by a folder, a link, a commit changing nothing and one
// changing more than 512 paths; a side branch and an annotated tag.
struct ShapedHistory {
  std::string empty_commit, big_commit, octopus, high_bit_commit;
};

inline ShapedHistory MakeShapedHistory(TestRepo& repo) {
  namespace fs = std::filesystem;
  ShapedHistory h;
  repo.Write("README.md", "hello\n");
  repo.Write("src/a.c", "int a;\n");
  repo.Write("deep/one/two/three/four/leaf.txt", "leaf\n");
  repo.Commit("root");
  repo.Write("src/a.c", "int a = 1;\n");
  repo.Commit("change a");
  repo.Git({"checkout", "-q", "-b", "feature"});
  repo.Write("feature/f.txt", "feature\n");
  repo.Commit("feature work");
  repo.Write("deep/one/two/three/four/leaf.txt", "leaf 2\n");
  repo.Commit("deep change on feature");
  repo.Git({"checkout", "-q", "main"});
  repo.Write("README.md", "hello again\n");
  repo.Commit("readme on main");
  repo.Git({"merge", "-q", "--no-ff", "-m", "merge feature", "feature"});
  for (const char* b : {"b1", "b2", "b3"}) {
    repo.Git({"checkout", "-q", "-b", b, "main"});
    repo.Write(std::string("oct/") + b + ".txt", b);
    repo.Commit(std::string("octopus arm ") + b);
  }
  repo.Git({"checkout", "-q", "main"});
  repo.Write("oct/main.txt", "main");
  repo.Commit("octopus base on main");
  repo.Git({"merge", "-q", "-m", "octopus", "b1", "b2", "b3"});
  h.octopus = repo.Rev("HEAD");
  repo.Git({"mv", "src/a.c", "src/b.c"});
  repo.Commit("rename a to b");
  repo.Write("caf\xc3\xa9/na\xc3\xafve \xe2\x82\xac.txt", "high bits\n");
  h.high_bit_commit = repo.Commit("a path with bytes over 0x80");
  h.empty_commit = repo.Commit("nothing changed");
  fs::permissions(fs::path(repo.path()) / "src/b.c", fs::perms::owner_exec, fs::perm_options::add);
  repo.Commit("mode change");
  repo.Write("x", "a file\n");
  repo.Commit("x is a file");
  repo.Git({"rm", "-q", "x"});
  repo.Write("x/y", "now a folder\n");
  fs::create_symlink("../README.md", fs::path(repo.path()) / "src/link");
  repo.Commit("x is a folder; a link");
  for (int i = 0; i < 520; ++i) repo.Write("big/file" + std::to_string(i) + ".txt", "big\n");
  h.big_commit = repo.Commit("more than 512 changes");
  repo.Git({"tag", "-a", "-m", "release", "v1.0"});
  repo.Git({"checkout", "-q", "-b", "side", "HEAD~3"});
  repo.Write("side.txt", "side\n");
  repo.Commit("side branch");
  repo.Git({"checkout", "-q", "main"});
  repo.Write("src/b.c", "int b;\n");
  repo.Commit("last on main");
  return h;
}

// A clone of `repo` at `where` holding its last two commits only (git clone --depth 2): a
// history whose oldest commit's parent is missing. True when git made it.
inline bool ShallowClone(const TestRepo& repo, const std::string& where) {
  return rr::testing::Run({"git", "clone", "-q", "--depth", "2", "file://" + repo.path(), where},
                          "", repo.Env())
             .status == 0;
}

// Checks every commit git lists against the graph: found, id, tree, time, parents in order,
// generations falling towards the roots (topological levels exactly), and Bloom filters that
// never deny a path the commit changed or a folder holding one.
inline void ExpectGraphMatchesGit(const CommitGraph& g, const TestRepo& repo) {
  const auto commits = GitCommits(repo);
  ASSERT_FALSE(commits.empty());
  EXPECT_EQ(g.size(), commits.size());
  std::map<std::string, uint32_t> pos_of;
  for (const auto& c : commits) {
    uint32_t pos = 0;
    ASSERT_TRUE(g.Find(Oid(c.id), &pos)) << c.id;
    pos_of[c.id] = pos;
    EXPECT_EQ(HexOf(g.Id(pos)), c.id);
    EXPECT_EQ(HexOf(g.Tree(pos)), c.tree) << c.id;
    EXPECT_EQ(g.CommitTime(pos), c.time) << c.id;
  }
  for (const auto& c : commits) {
    const uint32_t pos = pos_of[c.id];
    std::vector<uint32_t> parents;
    ASSERT_TRUE(g.Parents(pos, &parents)) << c.id;
    ASSERT_EQ(parents.size(), c.parents.size()) << c.id;
    uint32_t level = 0;
    for (size_t i = 0; i < parents.size(); ++i) {
      EXPECT_EQ(HexOf(g.Id(parents[i])), c.parents[i]) << c.id << " parent " << i;
      EXPECT_LT(g.Generation(parents[i]), g.Generation(pos)) << c.id;
      level = std::max(level, g.TopoLevel(parents[i]));
    }
    EXPECT_EQ(g.TopoLevel(pos), level + 1) << c.id;
    EXPECT_NE(g.Generation(pos), 0u);
    uint32_t first = 0;
    EXPECT_EQ(g.FirstParent(pos, &first), !parents.empty());
    if (!parents.empty()) {
      EXPECT_EQ(first, parents[0]);
    }
    if (g.corrected_dates()) {
      EXPECT_GE(static_cast<int64_t>(g.Generation(pos)), c.time);
    }
    if (!g.has_bloom()) continue;
    for (const auto& path : ChangedPaths(repo, c)) {
      EXPECT_NE(g.ChangedVsFirstParent(pos, g.Key(path)), CommitGraph::Changed::kNo)
          << c.id << " changed " << path;
    }
  }
}

// How many commits' filters deny a path that was never in the repository, of those with one.
inline double ShareDenied(const CommitGraph& g, const std::string& path) {
  const auto key = g.Key(path);
  uint32_t denied = 0, with_filter = 0;
  for (uint32_t pos = 0; pos < g.size(); ++pos) {
    const auto answer = g.ChangedVsFirstParent(pos, key);
    if (answer == CommitGraph::Changed::kUnknown) continue;
    ++with_filter;
    if (answer == CommitGraph::Changed::kNo) ++denied;
  }
  return with_filter ? static_cast<double>(denied) / with_filter : 0.0;
}

inline std::string ReadBytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteBytes(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace rr::testing
