// The blame engine against git's own: on a generated history with edits in every part of a file,
// moved lines, renames with and without edits, merges whose sides both edit, an octopus merge, a
// merge that adds lines of its own and a second root, every line's commit, line number there and
// path there are those `git blame --porcelain` gives.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/git/blame.h"
#include "core/git/commit_graph.h"
#include "core/git/git_repo.h"
#include "core/git/ref_text.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace blame_engine_test {
namespace {

struct Blamed {
  std::string commit;
  std::string path;
  unsigned line = 0;
  bool operator==(const Blamed& o) const {
    return commit == o.commit && path == o.path && line == o.line;
  }
};

std::ostream& operator<<(std::ostream& os, const Blamed& b) {
  return os << b.commit.substr(0, 12) << " " << b.path << ":" << b.line;
}

// A file's lines as a list, written with '\n' after each.
std::string Text(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// A history built with git's command line, one commit an hour from 2026-01-01, each with the
// author given. Lines are unique text, so that no diff has a choice of how to align them.
class History {
 public:
  explicit History(const std::string& dir) : repo_(dir) {}

  TestRepo& repo() { return repo_; }
  const std::string& path() const { return repo_.path(); }

  std::vector<std::string> NewLines(int n, const std::string& what) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
      out.push_back("line " + std::to_string(++made_) + " (" + what + ")");
    }
    return out;
  }

  // git with this history's dates and `author`.
  std::string Git(const std::vector<std::string>& args,
                  const std::string& author = "Grace Hopper") {
    auto env = repo_.Env();
    const std::string when = std::to_string(1767268800 + 3600 * hour_) + " +0100";
    env["GIT_AUTHOR_NAME"] = author;
    env["GIT_AUTHOR_DATE"] = when;
    env["GIT_COMMITTER_DATE"] = when;
    std::vector<std::string> argv = {"git"};
    argv.insert(argv.end(), args.begin(), args.end());
    CommandResult r = Run(argv, repo_.path(), env);
    std::string cmd;
    for (const auto& a : args) cmd += " " + a;
    EXPECT_EQ(r.status, 0) << "git" << cmd << ": " << r.err << r.out;
    if (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    return r.out;
  }

  std::string Commit(const std::string& message, const std::string& author = "Grace Hopper") {
    Git({"add", "-A"});
    Git({"commit", "-q", "--allow-empty", "-m", message}, author);
    ++hour_;
    return repo_.Rev("HEAD");
  }

  // Merges `branches` into the current branch (an octopus merge for more than one).
  std::string Merge(const std::vector<std::string>& branches, const std::string& message,
                    const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"merge", "-q", "--no-ff", "-m", message};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), branches.begin(), branches.end());
    Git(args, "Merge Master");
    ++hour_;
    return repo_.Rev("HEAD");
  }

  void Write(const std::string& file, const std::vector<std::string>& lines) {
    repo_.Write(file, Text(lines));
  }

 private:
  TestRepo repo_;
  int hour_ = 0;
  int made_ = 0;
};

// What git blame --porcelain says of each line of `path` at `commit`.
std::vector<Blamed> GitBlame(TestRepo& repo, const std::string& commit, const std::string& path) {
  const std::string out = repo.Git({"-c", "core.hooksPath=", "blame", "--porcelain",
                                    "--no-textconv", "--no-ignore-revs-file", commit, "--", path});
  std::vector<Blamed> lines;
  std::map<std::string, std::string> filename;  // per commit: the last path git named for it
  std::istringstream in(out);
  std::string line;
  Blamed current;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '\t') {
      lines.push_back(current);
    } else if (line.size() > 41 && line[40] == ' ' &&
               line.find_first_not_of("0123456789abcdef") == 40) {
      std::istringstream header(line);
      header >> current.commit >> current.line;
      current.path = filename[current.commit];
    } else if (line.rfind("filename ", 0) == 0) {
      current.path = filename[current.commit] = line.substr(9);
    }
  }
  return lines;
}

// What the engine says of lines first.. of `path` at `commit` (all of them without max).
std::vector<Blamed> OurBlame(const std::string& repo_path, const std::string& commit,
                             const std::string& path, uint32_t first = 1, uint32_t max = 0,
                             std::shared_ptr<const CommitGraph> graph = nullptr) {
  auto repo = GitRepo::Open(repo_path);
  EXPECT_TRUE(repo) << repo.error();
  auto ref = RefText::Parse(commit);
  EXPECT_TRUE(ref);
  auto id = (*repo)->Resolve(*ref);
  EXPECT_TRUE(id);
  BlameOptions options;
  options.first_line = first;
  options.max_lines = max;
  options.graph = std::move(graph);
  auto result = BlameFile(**repo, *id, path, options, StopToken());
  EXPECT_TRUE(result) << result.error();
  std::vector<Blamed> out;
  if (!result) return out;
  for (const BlameLine& l : result->lines) {
    EXPECT_EQ(l.stop, BlameStop::kNone);
    out.push_back(Blamed{result->commits[l.commit].id.Hex(), result->paths[l.path], l.line});
  }
  return out;
}

void ExpectSameAsGit(TestRepo& repo, const std::string& commit, const std::string& path) {
  const auto expected = GitBlame(repo, commit, path);
  const auto ours = OurBlame(repo.path(), commit, path);
  ASSERT_FALSE(expected.empty());
  ASSERT_EQ(ours.size(), expected.size()) << path << " at " << commit;
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i], expected[i]) << path << " at " << commit.substr(0, 12) << ", line " << i + 1;
  }
}

// Deterministic choices for the random part of the history.
class Lcg {
 public:
  explicit Lcg(uint32_t seed) : state_(seed) {}
  uint32_t Next(uint32_t below) {
    state_ = state_ * 1103515245u + 12345u;
    return (state_ >> 8) % below;
  }

 private:
  uint32_t state_;
};

class BlameEngine : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    History h{tmp / "shop"};
    std::string before_renames, head;
    std::string fix_a, fix_b;  // lines changed the same way on both sides of a merge
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    History& h = s_->h;
    // The root commit.
    std::vector<std::string> app = h.NewLines(30, "first version");
    std::vector<std::string> util = h.NewLines(10, "util");
    h.Write("app.py", app);
    h.Write("util.py", util);
    h.Commit("Start the shop", "Ada Lovelace");

    // Edits at the top, in the middle and at the end; lines deleted; lines moved.
    auto top = h.NewLines(3, "top");
    app.insert(app.begin(), top.begin(), top.end());
    h.Write("app.py", app);
    h.Commit("Add a header", "Grace Hopper");
    auto mid = h.NewLines(2, "middle");
    app[15] = mid[0];
    app[16] = mid[1];
    h.Write("app.py", app);
    h.Commit("Change the middle", "Alan Turing");
    auto end = h.NewLines(4, "end");
    app.insert(app.end(), end.begin(), end.end());
    h.Write("app.py", app);
    h.Commit("Append a footer", "Grace Hopper");
    app.erase(app.begin() + 20, app.begin() + 23);
    h.Write("app.py", app);
    h.Commit("Drop three lines", "Alan Turing");
    std::vector<std::string> moved(app.begin() + 3, app.begin() + 8);
    app.erase(app.begin() + 3, app.begin() + 8);
    app.insert(app.end() - 2, moved.begin(), moved.end());
    h.Write("app.py", app);
    h.Commit("Move a block down", "Ada Lovelace");

    // A merge whose two sides both edit the file, in different places.
    h.Git({"checkout", "-q", "-b", "side"});
    auto side_app = app;
    side_app[1] = h.NewLines(1, "side top")[0];
    h.Write("app.py", side_app);
    h.Commit("Side: edit the top", "Barbara Liskov");
    auto side_end = h.NewLines(2, "side end");
    side_app.insert(side_app.end() - 1, side_end.begin(), side_end.end());
    h.Write("app.py", side_app);
    h.Commit("Side: add near the end", "Barbara Liskov");
    h.Git({"checkout", "-q", "main"});
    app[12] = h.NewLines(1, "main middle")[0];
    h.Write("app.py", app);
    h.Commit("Main: edit the middle", "Grace Hopper");
    h.Merge({"side"}, "Merge side");
    s_->before_renames = h.repo().Rev("HEAD");

    // A rename with no edit, then edits, then a rename with edits (a tenth of the lines).
    h.Git({"mv", "app.py", "core.py"});
    h.Commit("Rename app.py to core.py", "Alan Turing");
    std::string current = h.repo().Git({"show", "HEAD:core.py"}) + "\n";
    std::vector<std::string> lines;
    for (size_t b = 0, e; b < current.size(); b = e + 1) {
      e = current.find('\n', b);
      lines.push_back(current.substr(b, e - b));
    }
    lines[5] = h.NewLines(1, "after the rename")[0];
    lines[6] = h.NewLines(1, "after the rename")[0];
    h.Write("core.py", lines);
    h.Commit("Edit core.py", "Grace Hopper");
    std::filesystem::create_directories(h.path() + "/src");
    h.Git({"mv", "core.py", "src/main.py"});
    lines[0] = h.NewLines(1, "renamed with edits")[0];
    lines[lines.size() / 2] = h.NewLines(1, "renamed with edits")[0];
    lines.push_back(h.NewLines(1, "renamed with edits")[0]);
    h.Write("src/main.py", lines);
    h.Commit("Move core.py to src/main.py and touch it", "Ada Lovelace");

    // An octopus merge of three branches, each editing its own part of the file.
    const std::string base = h.repo().Rev("HEAD");
    const std::vector<std::pair<std::string, size_t>> parts = {{"b1", 3}, {"b2", 14}, {"b3", 28}};
    for (const auto& [branch, at] : parts) {
      h.Git({"checkout", "-q", "-b", branch, base});
      auto mine = lines;
      mine[at] = h.NewLines(1, branch)[0];
      h.Write("src/main.py", mine);
      h.Commit("Edit on " + branch, "Edsger Dijkstra");
    }
    h.Git({"checkout", "-q", "main"});
    h.Merge({"b1", "b2", "b3"}, "Octopus merge");

    // A merge that adds lines of its own (in neither parent).
    h.Git({"checkout", "-q", "-b", "evil"});
    current = h.repo().Git({"show", "HEAD:src/main.py"}) + "\n";
    lines.clear();
    for (size_t b = 0, e; b < current.size(); b = e + 1) {
      e = current.find('\n', b);
      lines.push_back(current.substr(b, e - b));
    }
    auto evil = lines;
    evil[4] = h.NewLines(1, "evil branch")[0];
    h.Write("src/main.py", evil);
    h.Commit("Evil: edit", "Mallory Evil");
    h.Git({"checkout", "-q", "main"});
    lines[lines.size() - 3] = h.NewLines(1, "main before evil merge")[0];
    h.Write("src/main.py", lines);
    h.Commit("Main: edit near the end", "Grace Hopper");
    h.Git({"merge", "-q", "--no-ff", "--no-commit", "evil"}, "Merge Master");
    lines[4] = evil[4];
    lines.insert(lines.begin() + 10, h.NewLines(1, "written in the merge")[0]);
    h.Write("src/main.py", lines);
    h.Commit("Merge evil, with a line of its own", "Merge Master");

    // The same change made on both sides of a merge. When the merge keeps one side's file as
    // it is, that side takes every line (git gives no line to the other side); otherwise the
    // first parent is offered the lines first.
    const std::string before_a = h.repo().Rev("HEAD");
    auto side_a = lines;
    const std::string fix_a = h.NewLines(1, "fix A on both sides")[0];
    lines[20] = fix_a;
    h.Write("src/main.py", lines);
    h.Commit("Main: fix A", "Grace Hopper");
    h.Git({"checkout", "-q", "-b", "fix-a", before_a});
    side_a[20] = fix_a;
    side_a[25] = h.NewLines(1, "beside fix A")[0];
    h.Write("src/main.py", side_a);
    h.Commit("Side: fix A too, and more", "Barbara Liskov");
    h.Git({"checkout", "-q", "main"});
    h.Merge({"fix-a"}, "Merge fix-a");
    lines = side_a;
    const std::string before_b = h.repo().Rev("HEAD");
    auto side_b = lines;
    const std::string fix_b = h.NewLines(1, "fix B on both sides")[0];
    lines[30] = fix_b;
    lines[8] = h.NewLines(1, "main beside fix B")[0];
    h.Write("src/main.py", lines);
    h.Commit("Main: fix B", "Grace Hopper");
    h.Git({"checkout", "-q", "-b", "fix-b", before_b});
    side_b[30] = fix_b;
    side_b[35] = h.NewLines(1, "side beside fix B")[0];
    h.Write("src/main.py", side_b);
    h.Commit("Side: fix B too", "Barbara Liskov");
    h.Git({"checkout", "-q", "main"});
    h.Merge({"fix-b"}, "Merge fix-b");
    lines[35] = side_b[35];
    s_->fix_a = fix_a;
    s_->fix_b = fix_b;

    // A second root: a history of its own, merged in.
    h.Git({"checkout", "-q", "--orphan", "other"});
    h.Git({"rm", "-q", "-rf", "."});
    auto extra = h.NewLines(12, "other root");
    h.Write("lib/extra.py", extra);
    h.Commit("Start another history", "Katherine Johnson");
    extra[3] = h.NewLines(1, "other history")[0];
    h.Write("lib/extra.py", extra);
    h.Commit("Edit in the other history", "Katherine Johnson");
    h.Git({"checkout", "-q", "main"});
    h.Merge({"other"}, "Merge the other history", {"--allow-unrelated-histories"});

    // Then random edits anywhere in another file (a copy of this one, so that it starts with
    // a long history), some on branches merged back.
    auto random = lines;
    h.Write("src/random.py", random);
    h.Commit("Copy src/main.py to src/random.py", "Grace Hopper");
    Lcg rng(2026);
    for (int round = 0; round < 30; ++round) {
      const bool branch = round % 7 == 3;
      if (branch) h.Git({"checkout", "-q", "-b", "r" + std::to_string(round)});
      for (int k = 0; k < (branch ? 3 : 1); ++k) {
        const uint32_t op = rng.Next(3);
        const size_t at = rng.Next(static_cast<uint32_t>(random.size()));
        const uint32_t n = 1 + rng.Next(4);
        const std::string what = "round " + std::to_string(round);
        if (op == 0 || random.size() < 20) {
          auto fresh = h.NewLines(static_cast<int>(n), what);
          random.insert(random.begin() + static_cast<long>(at), fresh.begin(), fresh.end());
        } else if (op == 1) {
          random.erase(random.begin() + static_cast<long>(at),
                       random.begin() + static_cast<long>(std::min(random.size(), at + n)));
        } else {
          for (size_t i = at; i < std::min(random.size(), at + n); ++i) {
            random[i] = h.NewLines(1, what)[0];
          }
        }
        h.Write("src/random.py", random);
        h.Commit("Round " + std::to_string(round) + "." + std::to_string(k),
                 round % 2 ? "Grace Hopper" : "Alan Turing");
      }
      if (branch) {
        h.Git({"checkout", "-q", "main"});
        h.Merge({"r" + std::to_string(round)}, "Merge round " + std::to_string(round));
      }
    }
    s_->head = h.repo().Rev("HEAD");
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static Shared* s_;
};
BlameEngine::Shared* BlameEngine::s_ = nullptr;

TEST_F(BlameEngine, EveryLineAsGitBlameSaysAfterRenamesMergesAndEdits) {
  ExpectSameAsGit(s_->h.repo(), s_->head, "src/main.py");
}

TEST_F(BlameEngine, ALineFromEachKindOfChangeIsThere) {
  // The comparison above is only as good as the history: it holds a line from each kind of
  // change, so that every path of the engine was compared.
  const auto ours = OurBlame(s_->h.path(), s_->head, "src/main.py");
  std::map<std::string, std::string> subject_of;
  for (const auto& b : ours) {
    subject_of[b.commit] = s_->h.repo().Git({"log", "-1", "--format=%s", b.commit});
  }
  std::map<std::string, int> seen;
  for (const auto& b : ours) ++seen[subject_of[b.commit]];
  for (const std::string subject :
       {"Start the shop", "Add a header", "Change the middle", "Append a footer",
        "Move a block down", "Side: edit the top", "Side: add near the end",
        "Main: edit the middle", "Edit core.py", "Move core.py to src/main.py and touch it",
        "Edit on b1", "Edit on b2", "Edit on b3", "Evil: edit",
        "Merge evil, with a line of its own"}) {
    EXPECT_GT(seen[subject], 0) << "no line left from `" << subject << "`";
  }
  // The line both sides of a merge changed alike: from the side whose file the merge kept
  // whole, then from the first parent.
  const std::string text = s_->h.repo().Git({"show", s_->head + ":src/main.py"}) + "\n";
  std::vector<std::string> lines;
  for (size_t b = 0, e; b < text.size(); b = e + 1) {
    e = text.find('\n', b);
    lines.push_back(text.substr(b, e - b));
  }
  ASSERT_EQ(lines.size(), ours.size());
  int fixes = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == s_->fix_a) {
      EXPECT_EQ(subject_of[ours[i].commit], "Side: fix A too, and more");
      ++fixes;
    }
    if (lines[i] == s_->fix_b) {
      EXPECT_EQ(subject_of[ours[i].commit], "Main: fix B");
      ++fixes;
    }
  }
  EXPECT_EQ(fixes, 2);
  std::map<std::string, int> paths;
  for (const auto& b : ours) ++paths[b.path];
  EXPECT_GT(paths["app.py"], 0);
  EXPECT_GT(paths["core.py"], 0);
  EXPECT_GT(paths["src/main.py"], 0);
}

TEST_F(BlameEngine, OtherFilesAndEarlierCommitsAsGitBlameSays) {
  ExpectSameAsGit(s_->h.repo(), s_->head, "lib/extra.py");
  ExpectSameAsGit(s_->h.repo(), s_->head, "util.py");
  ExpectSameAsGit(s_->h.repo(), s_->head, "src/random.py");
  ExpectSameAsGit(s_->h.repo(), s_->before_renames, "app.py");
  ExpectSameAsGit(s_->h.repo(), s_->head + "~3", "src/main.py");
}

TEST_F(BlameEngine, WithACommitGraphAndBloomFiltersEveryLineIsTheSame) {
  // Commits read from the graph, and first parents passed over by their Bloom filters, give
  // git's answer too (on a copy: the suite's repository is shared).
  TempDir tmp;
  const std::string copy = tmp / "copy.git";
  ASSERT_EQ(rr::testing::Run({"git", "clone", "-q", "--mirror", "--no-local", s_->h.path(), copy},
                             tmp.path(), s_->h.repo().Env())
                .status,
            0);
  ASSERT_EQ(rr::testing::Run({"git", "commit-graph", "write", "--reachable", "--changed-paths"},
                             copy, s_->h.repo().Env())
                .status,
            0);
  auto graph = CommitGraph::Open(copy + "/objects");
  ASSERT_TRUE(graph);
  ASSERT_TRUE(graph->has_bloom());
  for (const std::string path : {"src/main.py", "lib/extra.py", "util.py", "src/random.py"}) {
    const auto expected = GitBlame(s_->h.repo(), s_->head, path);
    const auto ours = OurBlame(copy, s_->head, path, 1, 0, graph);
    ASSERT_EQ(ours.size(), expected.size()) << path;
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i], expected[i]) << path << ", line " << i + 1;
    }
  }
}

TEST_F(BlameEngine, AWindowIsThatPartOfTheWholeBlame) {
  const auto whole = OurBlame(s_->h.path(), s_->head, "src/main.py");
  ASSERT_GT(whole.size(), 30u);
  const auto window = OurBlame(s_->h.path(), s_->head, "src/main.py", 10, 7);
  ASSERT_EQ(window.size(), 7u);
  for (size_t i = 0; i < window.size(); ++i) EXPECT_EQ(window[i], whole[9 + i]) << i;
  const auto tail =
      OurBlame(s_->h.path(), s_->head, "src/main.py", static_cast<uint32_t>(whole.size()) - 2, 50);
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(tail.back(), whole.back());
  EXPECT_TRUE(
      OurBlame(s_->h.path(), s_->head, "src/main.py", static_cast<uint32_t>(whole.size()) + 1)
          .empty());
}

}  // namespace
}  // namespace blame_engine_test
}  // namespace rr::testing

namespace rr::testing {
namespace blame_engine_test {
namespace {

// A small history: three versions of one file, each growing it.
struct Small {
  TempDir tmp;
  TestRepo repo{tmp / "small"};
  std::string first, second, third;
  Small() {
    repo.Write("a.txt", "one\n");
    first = repo.Commit("One");
    repo.Write("a.txt", "one\ntwo\n");
    second = repo.Commit("Two");
    repo.Write("a.txt", "one\ntwo\nthree, a longer line than the others\n");
    third = repo.Commit("Three");
  }
  Result<BlameResult> Blame(const BlameOptions& options, const StopToken& stop) {
    auto git = GitRepo::Open(repo.path());
    EXPECT_TRUE(git);
    auto id = (*git)->Resolve(*RefText::Parse("HEAD"));
    return BlameFile(**git, *id, "a.txt", options, stop);
  }
};

TEST(BlameEngineLimits, AStoppedWalkMarksEveryLineItDidNotSettle) {
  Small s;
  auto cancelled = std::make_shared<std::atomic<bool>>(true);
  auto r = s.Blame(BlameOptions{}, StopToken(cancelled, std::chrono::seconds(30)));
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->lines.size(), 3u);
  for (const auto& l : r->lines) {
    EXPECT_EQ(l.stop, BlameStop::kStopped);
    EXPECT_EQ(r->commits[l.commit].id.Hex(), s.third);  // where the walk was: the start
  }
  auto whole = s.Blame(BlameOptions{}, StopToken());
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->commits[whole->lines[0].commit].id.Hex(), s.first);
  EXPECT_EQ(whole->lines[0].stop, BlameStop::kNone);
}

TEST(BlameEngineLimits, AnOlderVersionOverTheSizeLimitStopsTheWalkThere) {
  Small s;
  BlameOptions options;
  options.max_blob_bytes = 60;  // no version is larger
  auto r = s.Blame(options, StopToken());
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->lines[0].stop, BlameStop::kNone);
  options.max_blob_bytes = 40;  // the start version (45 bytes) itself is over it
  EXPECT_FALSE(s.Blame(options, StopToken()));
  // The version at the start is read; the one before it is not.
  s.repo.Write("a.txt", "short\n");
  s.repo.Commit("Shrink");
  options.max_blob_bytes = 10;
  auto shrunk = s.Blame(options, StopToken());
  ASSERT_TRUE(shrunk) << shrunk.error();
  ASSERT_EQ(shrunk->lines.size(), 1u);
  EXPECT_EQ(shrunk->lines[0].stop, BlameStop::kTooLarge);
}

TEST(BlameEngineLimits, APathThatIsNoFileAtTheCommitIsAnError) {
  Small s;
  auto git = GitRepo::Open(s.repo.path());
  ASSERT_TRUE(git);
  auto id = (*git)->Resolve(*RefText::Parse("HEAD"));
  EXPECT_FALSE(BlameFile(**git, *id, "missing.txt", BlameOptions{}, StopToken()));
  EXPECT_FALSE(BlameFile(**git, *id, "", BlameOptions{}, StopToken()));
}

}  // namespace
}  // namespace blame_engine_test
}  // namespace rr::testing
