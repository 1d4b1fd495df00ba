// log against `git log`: on histories of every shape (octopus and criss-cross merges, merges
// equal to a parent or changing the path on both sides, second roots, empty commits, equal
// dates, clocks that were off, renames, a path that is a file and then a folder), the commits
// log lists — of the whole history, of files and folders, page by page — are the ones `git
// log [-- path]` lists, in its order; and with author, message, since and until, the ones git
// log lists with the same filters (-i -E, and the same instants).
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/policy/path_policy.h"
#include "tests/history/history_kit.h"

namespace rr::testing {
namespace log_test {
namespace {

using Tree = HistoryWriter::Tree;

// log's commits for `args` (a JSON object without max_count / skip), every page of `page`
// commits, following the skip each answer gives until one gives none. Each page is also checked
// against git log --skip --max-count with `git_args`.
std::vector<std::string> LogPaged(ToolHarness& h, const TestRepo& repo, const JsonArgs& args,
                                  const std::vector<std::string>& git_args, long long page) {
  std::vector<std::string> all;
  long long skip = 0;
  for (int guard = 0; guard < 1000; ++guard) {
    JsonArgs a = args;
    a.Set("max_count", page).Set("skip", skip);
    auto answer = h.Call("log", a.str());
    EXPECT_FALSE(answer.is_error) << answer.text;
    const auto ids = IdsIn(answer.text);
    std::vector<std::string> git = {"--skip=" + std::to_string(skip),
                                    "--max-count=" + std::to_string(page)};
    git.insert(git.end(), git_args.begin(), git_args.end());
    EXPECT_EQ(ids, GitLog(repo, git)) << a.str();
    all.insert(all.end(), ids.begin(), ids.end());
    const auto skips = SkipsIn(answer.text);
    if (skips.empty()) break;
    EXPECT_EQ(skips, std::vector<long long>{skip + static_cast<long long>(ids.size())})
        << answer.text;
    if (ids.empty()) break;
    skip = skips[0];
  }
  return all;
}

// log's commits for `args` in one answer of up to 500.
std::vector<std::string> LogAll(ToolHarness& h, JsonArgs args) {
  args.Set("max_count", 500);
  auto answer = h.Call("log", args.str());
  EXPECT_FALSE(answer.is_error) << answer.text;
  EXPECT_TRUE(SkipsIn(answer.text).empty()) << "more than 500 commits: " << args.str();
  return IdsIn(answer.text);
}

// --- A history built by hand, one of each shape (days of 2026 in brackets):
//
//   A[1] root: src/app.py, src/lib/util.py, docs/guide.md
//   B[2] ← A: src/app.py changed            C[3] ← A: src/lib/util.py changed
//   D[4] ← B, C: both sides' changes (src changed on both sides)
//   E[5] ← D: empty                         F[6] ← D: docs/guide.md changed
//   G[6] ← E: src/app.py changed (F's date, to the second)
//   H[7] ← G, F, C: octopus; src/lib/util.py changed again in the merge
//   R[2] a second root: other/readme.md, src/app.py
//   I[8] ← H, R: joins the second root (src/app.py as H has it, other/ as R has it)
//   J[9] ← I: docs/guide.md renamed docs/manual.md
//   K[10] ← J: src/lib, a folder, becomes a file    L[11] ← K: and a folder again
//   P[11] ← K: docs/manual.md changed
//   M[12] ← L, P: a merge equal to its second parent P (undoes L for its branch)
//   X[13] ← M: src/app.py changed           Y[13] ← M: src/lib changed (same second)
//   X2[14] ← X, Y and Y2[14] ← Y, X: criss-cross; Y2 resolves src/app.py its own way
//   Z[15] ← X2, Y2: takes src/app.py from Y2
//   N[16] ← Z: src/app.py deleted
//   Q[9] ← A, a commit whose clock was off: older than its child S[17] ← Q, tagged `skewed`
class LogShapes : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shapes"};
    std::map<std::string, std::string> id;  // letter -> short id
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    HistoryWriter w;
    auto f = [](const std::string& c) { return HistoryWriter::File{c}; };
    Tree a = {{"src/app.py", f("1")}, {"src/lib/util.py", f("1")}, {"docs/guide.md", f("1")}};
    const int A = w.Commit(a, {}, Day(1), "A: the first\n");
    Tree b = a;
    b["src/app.py"] = f("2");
    const int B = w.Commit(b, {A}, Day(2), "B: app two\n");
    Tree c = a;
    c["src/lib/util.py"] = f("2");
    const int C = w.Commit(c, {A}, Day(3), "C: util two\n");
    Tree d = b;
    d["src/lib/util.py"] = f("2");
    const int D = w.Commit(d, {B, C}, Day(4), "D: Merge C into B\n");
    const int E = w.Commit(d, {D}, Day(5), "E: nothing\n");
    Tree ff = d;
    ff["docs/guide.md"] = f("2");
    const int F = w.Commit(ff, {D}, Day(6), "F: guide two\n");
    Tree g = d;
    g["src/app.py"] = f("3");
    const int G = w.Commit(g, {E}, Day(6), "G: app three\n");
    Tree hh = g;
    hh["docs/guide.md"] = f("2");
    hh["src/lib/util.py"] = f("3");
    const int H = w.Commit(hh, {G, F, C}, Day(7), "H: octopus\n");
    Tree r = {{"other/readme.md", f("r")}, {"src/app.py", f("r")}};
    const int R = w.Commit(r, {}, Day(2, 60), "R: a second root\n");
    Tree i = hh;
    i["other/readme.md"] = f("r");
    const int I = w.Commit(i, {H, R}, Day(8), "I: join the second root\n");
    Tree j = i;
    j["docs/manual.md"] = j["docs/guide.md"];
    j.erase("docs/guide.md");
    const int J = w.Commit(j, {I}, Day(9), "J: rename the guide\n");
    Tree k = j;
    k.erase("src/lib/util.py");
    k["src/lib"] = f("now a file");
    const int K = w.Commit(k, {J}, Day(10), "K: lib is a file\n");
    Tree l = k;
    l.erase("src/lib");
    l["src/lib/util.py"] = f("4");
    const int L = w.Commit(l, {K}, Day(11), "L: lib is a folder again\n");
    Tree p = k;
    p["docs/manual.md"] = f("p");
    const int P = w.Commit(p, {K}, Day(11, 30), "P: manual\n");
    const int M = w.Commit(p, {L, P}, Day(12), "M: take P whole\n");
    Tree x = p;
    x["src/app.py"] = f("x");
    const int X = w.Commit(x, {M}, Day(13), "X: app x\n");
    Tree y = p;
    y["src/lib"] = f("y");
    const int Y = w.Commit(y, {M}, Day(13), "Y: lib y\n");
    Tree x2 = x;
    x2["src/lib"] = f("y");
    const int X2 = w.Commit(x2, {X, Y}, Day(14), "X2: criss\n");
    Tree y2 = x2;
    y2["src/app.py"] = f("y2");
    const int Y2 = w.Commit(y2, {Y, X}, Day(14), "Y2: cross\n");
    const int Z = w.Commit(y2, {X2, Y2}, Day(15), "Z: settle\n");
    Tree n = y2;
    n.erase("src/app.py");
    const int N = w.Commit(n, {Z}, Day(16), "N: drop app\n");
    Tree q = a;
    q["src/app.py"] = f("q");
    const int Q = w.Commit(q, {A}, Day(9), "Q: skewed\n");
    Tree sk = q;
    sk["docs/guide.md"] = f("s");
    const int S = w.Commit(sk, {Q}, Day(17), "S: after the skew\n");
    w.Ref("refs/heads/main", N);
    w.Ref("refs/heads/side", Y2);
    w.Ref("refs/tags/skewed", S);
    const auto ids = w.Write(s_->repo, s_->tmp);
    const std::vector<std::pair<std::string, int>> names = {
        {"A", A}, {"B", B},   {"C", C},   {"D", D}, {"E", E}, {"F", F}, {"G", G}, {"H", H},
        {"R", R}, {"I", I},   {"J", J},   {"K", K}, {"L", L}, {"P", P}, {"M", M}, {"X", X},
        {"Y", Y}, {"X2", X2}, {"Y2", Y2}, {"Z", Z}, {"N", N}, {"Q", Q}, {"S", S}};
    for (const auto& [letter, mark] : names) s_->id[letter] = Short(ids.at(mark));
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::vector<std::string> Ids(const std::vector<std::string>& letters) {
    std::vector<std::string> out;
    for (const auto& l : letters) out.push_back(s_->id.at(l));
    return out;
  }
  static JsonArgs At(const std::string& ref, const std::string& path = "") {
    JsonArgs a;
    a.Set("repo", "shapes").Set("ref", ref);
    if (!path.empty()) a.Set("path", path);
    return a;
  }
  static std::vector<std::string> Git(const std::string& ref, const std::string& path = "") {
    if (path.empty()) return GitLog(s_->repo, {ref});
    return GitLog(s_->repo, {ref, "--", path});
  }

  static Shared* s_;
  ToolHarness h_{{Served("shapes", s_->repo.path())}, 200000};
};
LogShapes::Shared* LogShapes::s_ = nullptr;

TEST_F(LogShapes, TheWholeHistoryIsGitLogs) {
  for (const std::string ref : {"main", "side", "skewed"}) {
    EXPECT_EQ(LogAll(h_, At(ref)), Git(ref)) << ref;
  }
  // Every commit, the empty one and both roots among them; equal dates in git's order.
  EXPECT_EQ(LogAll(h_, At("main")), Ids({"N", "Z", "X2", "Y2", "X", "Y", "M", "P", "L", "K", "J",
                                         "I", "H", "G",  "F",  "E", "D", "C", "R", "B", "A"}));
  // A commit older than its child is listed where its date puts it.
  EXPECT_EQ(LogAll(h_, At("skewed")), Ids({"S", "Q", "A"}));
}

TEST_F(LogShapes, APathsHistoryIsGitLogsOfThatPath) {
  for (const std::string ref : {"main", "side", "skewed"}) {
    for (const std::string path :
         {"src", "src/app.py", "src/lib", "src/lib/util.py", "docs", "docs/guide.md",
          "docs/manual.md", "other", "other/readme.md", "never/there", "src/app.py/below"}) {
      EXPECT_EQ(LogAll(h_, At(ref, path)), Git(ref, path)) << ref << " -- " << path;
    }
  }
}

TEST_F(LogShapes, MergesAreListedOnlyWhereThePathDiffersFromEveryParent) {
  // D changed src on both sides: listed for src; for each file it equals one parent. M equals
  // its second parent P, so the walk follows P alone and never reaches L, the commit that
  // changed util.py last on M's first side; K, where util.py went away, is listed.
  EXPECT_EQ(LogAll(h_, At("main", "src/lib/util.py")), Ids({"K", "H", "C", "A"}));
  // The octopus brought util.py three, new to all of its parents; M equals its parent P.
  const auto src = LogAll(h_, At("main", "src"));
  EXPECT_NE(std::find(src.begin(), src.end(), s_->id["D"]), src.end());
  EXPECT_NE(std::find(src.begin(), src.end(), s_->id["H"]), src.end());
  EXPECT_EQ(std::find(src.begin(), src.end(), s_->id["M"]), src.end());
  // src/lib, a file from K on: X2 equals its parent Y there and follows Y alone.
  EXPECT_EQ(LogAll(h_, At("main", "src/lib")), Ids({"Y", "K", "H", "C", "A"}));
}

TEST_F(LogShapes, RenamesAreNotFollowed) {
  EXPECT_EQ(LogAll(h_, At("main", "docs/manual.md")), Ids({"P", "J"}));
  // The old name's history ends where it went away.
  EXPECT_EQ(LogAll(h_, At("main", "docs/guide.md")), Ids({"J", "F", "A"}));
}

TEST_F(LogShapes, APathThatWasDeletedOrNeverThereAnswersItsHistory) {
  EXPECT_EQ(LogAll(h_, At("main", "src/app.py")).front(), s_->id["N"]);
  auto none = h_.Call("log", At("main", "never/there").str());
  ASSERT_FALSE(none.is_error) << none.text;
  EXPECT_TRUE(IdsIn(none.text).empty());
  EXPECT_TRUE(Has(none.text, "No commit matches."));
}

TEST_F(LogShapes, PagesFollowEachOtherToTheEnd) {
  for (const long long page : {1, 2, 5}) {
    EXPECT_EQ(LogPaged(h_, s_->repo, At("main"), {"main"}, page), Git("main")) << page;
    EXPECT_EQ(LogPaged(h_, s_->repo, At("main", "src"), {"main", "--", "src"}, page),
              Git("main", "src"))
        << page;
  }
  auto past = h_.Call("log", At("main").Set("skip", 21).str());
  ASSERT_FALSE(past.is_error) << past.text;
  EXPECT_TRUE(Has(past.text, "No more commits."));
  EXPECT_TRUE(SkipsIn(past.text).empty());
}

// --- A random history: a few hundred commits on branches that fork and merge at random (two
// and three parents), edits in a few folders, renames, modes, a path that turns from file to
// folder and back, empty commits, second roots, equal dates and clocks that were off.
class LogRandom : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "random"};
    std::vector<std::string> paths;     // to ask the history of
    std::vector<std::string> branches;  // refs/heads/… names, main first
  };

  static void Normalize(Tree* t) {
    // No file may also be a folder: a deeper path under a file is dropped.
    for (auto it = t->begin(); it != t->end();) {
      bool under_file = false;
      for (size_t p = it->first.find('/'); p != std::string::npos; p = it->first.find('/', p + 1)) {
        under_file = under_file || t->count(it->first.substr(0, p));
      }
      it = under_file ? t->erase(it) : std::next(it);
    }
  }

  static void SetUpTestSuite() {
    s_ = new Shared;
    std::mt19937 rng(20260315);
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    const std::vector<std::string> folders = {"app", "app/core", "app/core/deep/er",
                                              "lib", "docs",     "tools"};
    const std::vector<std::string> names = {"a.txt", "b.py", "c.md", "d.sh"};
    const std::vector<Person> people = {{"Grace Hopper", "grace@example.com"},
                                        {"Ada Lovelace", "ada@analytical.org"},
                                        {"Linus Torvalds", "linus@kernel.example"},
                                        {"Émile Zola", "emile@example.fr"}};
    const std::vector<std::string> subjects = {
        "Fix the cart total", "fix: empty carts", "Add the catalog",   "Refactor the core",
        "Update the docs",    "CLEANUP tools",    "Revert the totals", "Tidy"};
    const std::vector<std::string> bodies = {"", "\n\nBody about the cart\nSecond body line\n",
                                             "\n\nfixes #12\n", "\n\n  indented TOTAL\n"};

    HistoryWriter w;
    std::vector<Tree> trees(1);     // by mark
    std::vector<int64_t> times(1);  // by mark
    int64_t now = Day(1);
    auto commit = [&](const Tree& t, const std::vector<int>& parents, const std::string& msg) {
      const size_t roll = pick(100);
      if (roll < 20) {
        // the same second as the last commit
      } else if (roll < 25 && !parents.empty()) {
        now = times[parents[0]] - 3600;  // a clock that was off: older than its parent
      } else {
        now += 1 + static_cast<int64_t>(pick(43200));
      }
      now = std::max(now, Day(1));
      const int mark = w.Commit(t, parents, now, msg, people[pick(people.size())]);
      trees.push_back(t);
      times.push_back(now);
      now = std::max(now, times[parents.empty() ? mark : parents[0]]);
      return mark;
    };
    auto message = [&] { return subjects[pick(subjects.size())] + bodies[pick(bodies.size())]; };
    auto random_path = [&] { return folders[pick(folders.size())] + "/" + names[pick(4)]; };

    Tree first;
    for (int i = 0; i < 6; ++i) first[random_path()] = {"v0"};
    first["docs/old.md"] = {"to be renamed"};
    first["lib/mode"] = {"a file for now"};
    std::vector<int> tips = {commit(first, {}, "Start\n")};
    int counter = 0;
    while (trees.size() < 330) {
      const size_t roll = pick(100);
      if (roll < 55) {
        const size_t which = pick(tips.size());
        Tree t = trees[tips[which]];
        const size_t edits = pick(4);  // 0: an empty commit
        for (size_t e = 0; e < edits; ++e) {
          const size_t kind = pick(10);
          if (kind < 5 || t.empty()) {
            t[random_path()] = {"v" + std::to_string(++counter)};
          } else if (kind < 7) {
            auto it = t.begin();
            std::advance(it, pick(t.size()));
            t.erase(it);
          } else if (kind < 8) {
            auto it = t.begin();
            std::advance(it, pick(t.size()));
            it->second.mode = it->second.mode == "100644" ? "100755" : "100644";
          } else if (kind < 9) {
            // a rename: the same contents under another name
            auto it = t.begin();
            std::advance(it, pick(t.size()));
            const HistoryWriter::File moved = it->second;
            t.erase(it);
            t[random_path()] = moved;
          } else if (t.count("lib/mode")) {
            t.erase("lib/mode");
            t["lib/mode/inner.txt"] = {"a folder now " + std::to_string(++counter)};
          } else {
            t.erase("lib/mode/inner.txt");
            t["lib/mode"] = {"a file again " + std::to_string(++counter)};
          }
        }
        if (t.count("docs/old.md") && pick(20) == 0) {
          t["docs/new.md"] = t["docs/old.md"];
          t.erase("docs/old.md");
        }
        Normalize(&t);
        tips[which] = commit(t, {tips[which]}, message());
      } else if (roll < 65 && tips.size() < 7) {
        tips.push_back(1 + static_cast<int>(pick(trees.size() - 1)));
      } else if (roll < 85 && tips.size() > 1) {
        const size_t into = pick(tips.size());
        std::vector<int> parents = {tips[into]};
        std::vector<size_t> others;
        for (size_t n = pick(5) == 0 ? 2 : 1;
             others.size() < n && others.size() + 1 < tips.size();) {
          const size_t o = pick(tips.size());
          if (o != into && std::find(others.begin(), others.end(), o) == others.end()) {
            others.push_back(o);
          }
        }
        for (size_t o : others) {
          if (std::find(parents.begin(), parents.end(), tips[o]) == parents.end()) {
            parents.push_back(tips[o]);
          }
        }
        if (parents.size() < 2) continue;
        Tree t;
        const size_t how = pick(8);
        if (how == 0) {
          t = trees[parents[0]];  // keeps its first parent whole
        } else if (how == 1) {
          t = trees[parents[1]];  // takes another parent whole
        } else {
          t = trees[parents[0]];
          for (size_t i = 1; i < parents.size(); ++i) {
            for (const auto& [path, file] : trees[parents[i]]) {
              if (pick(2)) t[path] = file;
            }
          }
          if (how >= 6) t[random_path()] = {"resolved " + std::to_string(++counter)};
          Normalize(&t);
        }
        const int mark = commit(t, parents, "Merge " + message());
        tips[into] = mark;
        // Merged branches go away now and then.
        std::sort(others.rbegin(), others.rend());
        for (size_t o : others) {
          if (pick(2) && o != 0) tips.erase(tips.begin() + static_cast<long>(o));
        }
      } else if (roll < 87 && tips.size() < 7) {
        Tree t;
        t["tools/" + names[pick(4)]] = {"orphan " + std::to_string(++counter)};
        tips.push_back(commit(t, {}, "A new root\n"));
      } else {
        Tree t = trees[tips[0]];
        t[random_path()] = {"main " + std::to_string(++counter)};
        tips[0] = commit(t, {tips[0]}, message());
      }
    }
    s_->branches.push_back("main");
    w.Ref("refs/heads/main", tips[0]);
    for (size_t i = 1; i < tips.size(); ++i) {
      s_->branches.push_back("topic/" + std::to_string(i));
      w.Ref("refs/heads/topic/" + std::to_string(i), tips[i]);
    }
    w.Write(s_->repo, s_->tmp);

    std::set<std::string> paths = {"docs/old.md", "docs/new.md", "lib/mode", "lib/mode/inner.txt",
                                   "no/such/path"};
    for (const auto& f : folders) {
      paths.insert(f);
      paths.insert(f + "/" + names[pick(4)]);
    }
    paths.insert("app/core/deep");
    s_->paths.assign(paths.begin(), paths.end());
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static JsonArgs At(const std::string& ref, const std::string& path = "") {
    JsonArgs a;
    a.Set("repo", "random").Set("ref", ref);
    if (!path.empty()) a.Set("path", path);
    return a;
  }

  static Shared* s_;
  ToolHarness h_{{Served("random", s_->repo.path())}, 200000};
};
LogRandom::Shared* LogRandom::s_ = nullptr;

TEST_F(LogRandom, EveryBranchAndPathAgreesWithGitLog) {
  ASSERT_GE(GitLog(s_->repo, {"main"}).size(), 100u);
  for (const auto& branch : s_->branches) {
    EXPECT_EQ(LogAll(h_, At(branch)), GitLog(s_->repo, {branch})) << branch;
    for (const auto& path : s_->paths) {
      EXPECT_EQ(LogAll(h_, At(branch, path)), GitLog(s_->repo, {branch, "--", path}))
          << branch << " -- " << path;
    }
  }
}

TEST_F(LogRandom, PagesAgreeWithGitLogSkipAndMaxCount) {
  EXPECT_EQ(LogPaged(h_, s_->repo, At("main"), {"main"}, 37), GitLog(s_->repo, {"main"}));
  EXPECT_EQ(LogPaged(h_, s_->repo, At("main", "app/core"), {"main", "--", "app/core"}, 9),
            GitLog(s_->repo, {"main", "--", "app/core"}));
}

TEST_F(LogRandom, FiltersAgreeWithGitLogsOwn) {
  struct Case {
    std::vector<std::pair<std::string, std::string>> ours;  // argument, value
    std::vector<std::string> git;                           // git log's options
  };
  const Case cases[] = {
      {{{"author", "grace"}}, {"--author=grace"}},
      {{{"author", "^ada "}}, {"--author=^ada "}},
      {{{"author", "@example\\.(com|fr)>$"}}, {"--author=@example\\.(com|fr)>$"}},
      {{{"author", "ÉMILE"}}, {"--author=ÉMILE"}},
      {{{"message", "fix(es)? (the )?(cart|empty)"}}, {"--grep=fix(es)? (the )?(cart|empty)"}},
      {{{"message", "^merge"}}, {"--grep=^merge"}},
      {{{"message", "^body"}}, {"--grep=^body"}},
      {{{"message", "line$"}}, {"--grep=line$"}},
      {{{"message", "cart[^x]second"}}, {"--grep=cart[^x]second"}},
      {{{"message", "[[:upper:]]{7}"}}, {"--grep=[[:upper:]]{7}"}},
      {{{"message", "\\<tidy\\>|cleanup"}}, {"--grep=\\<tidy\\>|cleanup"}},
      {{{"message", "#1[0-9]"}}, {"--grep=#1[0-9]"}},
      {{{"since", "2026-01-20"}}, {"--since=2026-01-20 00:00:00 +0000"}},
      {{{"until", "2026-02-10"}}, {"--until=2026-02-10 23:59:59 +0000"}},
      {{{"since", "2026-01-25 13:30"}}, {"--since=2026-01-25 13:30:00 +0000"}},
      {{{"until", "2026-01-25 13:30"}}, {"--until=2026-01-25 13:30:59 +0000"}},
      {{{"since", "2026-01-25T13:30:00+02:00"}, {"until", "2026-02-01T00:00:00Z"}},
       {"--since=2026-01-25 11:30:00 +0000", "--until=2026-02-01 00:00:00 +0000"}},
      {{{"since", "@1768500000"}}, {"--since=@1768500000"}},
      {{{"author", "grace|ada"}, {"message", "fix|add"}, {"since", "2026-01-10"}},
       {"--author=grace|ada", "--grep=fix|add", "--since=2026-01-10 00:00:00 +0000"}},
  };
  for (const auto& c : cases) {
    for (const std::string path : {"", "app", "lib/mode"}) {
      JsonArgs a = At("main", path);
      for (const auto& [k, v] : c.ours) a.Set(k, v);
      std::vector<std::string> git = {"-i", "-E"};
      git.insert(git.end(), c.git.begin(), c.git.end());
      git.push_back("main");
      if (!path.empty()) {
        git.push_back("--");
        git.push_back(path);
      }
      const auto expected = GitLog(s_->repo, git);
      EXPECT_EQ(LogAll(h_, a), expected) << a.str();
      if (path.empty()) {
        EXPECT_LT(expected.size(), GitLog(s_->repo, {"main"}).size()) << a.str();
      }
      if (path == "app") {
        EXPECT_EQ(LogPaged(h_, s_->repo, a, git, 4), expected) << a.str();
      }
    }
  }
}

// The history of a repository served in part, walked plainly: every commit's whole tree read
// (git ls-tree -r), the served files kept (PathPolicy), and compared as sets — no tree ids, no
// subtree skipped. The walk itself is git's: newest first by date, equal dates in the order
// found; with a path, a merge whose served files there equal a parent's follows that parent.
class PlainWalk {
 public:
  PlainWalk(const TestRepo& repo, const PathPolicy& policy) {
    for (const auto& line : Lines(repo.Git({"log", "--all", "--format=%H %T %ct %P"}))) {
      std::istringstream in(line);
      Commit c;
      std::string id, parent;
      in >> id >> c.tree >> c.time;
      while (in >> parent) c.parents.push_back(parent);
      for (const auto& entry : Lines(repo.Git({"ls-tree", "-r", "--full-tree", id}))) {
        const size_t tab = entry.find('\t');
        const std::string path = entry.substr(tab + 1);
        auto parsed = RepoPath::Parse(path);
        if (parsed.ok() && policy.ServesFile(*parsed)) {
          const std::string mode = entry.substr(0, entry.find(' '));
          c.served[path] = mode + " " + entry.substr(entry.rfind(' ', tab) + 1, tab);
        }
      }
      commits_[id] = std::move(c);
    }
  }

  std::vector<std::string> Log(const std::string& start, const std::string& path) const {
    struct Item {
      int64_t time;
      uint64_t seq;
      std::string id;
      bool operator<(const Item& o) const { return time != o.time ? time < o.time : seq > o.seq; }
    };
    std::priority_queue<Item> queue;
    std::set<std::string> seen;
    uint64_t seq = 0;
    auto push = [&](const std::string& id) {
      if (seen.insert(id).second) queue.push({commits_.at(id).time, seq++, id});
    };
    push(start);
    std::vector<std::string> out;
    while (!queue.empty()) {
      const std::string id = queue.top().id;
      queue.pop();
      const Commit& c = commits_.at(id);
      std::vector<std::string> follow = c.parents;
      bool listed;
      if (path.empty()) {
        if (c.parents.empty()) {
          listed = !c.served.empty() || c.tree == kEmptyTree;
        } else {
          const Commit& first = commits_.at(c.parents[0]);
          listed = c.tree == first.tree || c.served != first.served;
        }
      } else {
        const auto mine = Under(c, path);
        listed = c.parents.empty() ? !mine.empty() : true;
        for (const auto& p : c.parents) {
          if (Under(commits_.at(p), path) == mine) {
            follow = {p};
            listed = false;
            break;
          }
        }
      }
      for (const auto& p : follow) push(p);
      if (listed) out.push_back(Short(id));
    }
    return out;
  }

 private:
  static constexpr const char* kEmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  struct Commit {
    std::string tree;
    int64_t time = 0;
    std::vector<std::string> parents;
    std::map<std::string, std::string> served;  // path -> mode and blob id
  };
  static std::map<std::string, std::string> Under(const Commit& c, const std::string& path) {
    std::map<std::string, std::string> out;
    for (const auto& [p, v] : c.served) {
      if (p == path || p.rfind(path + "/", 0) == 0) out[p] = v;
    }
    return out;
  }
  std::map<std::string, Commit> commits_;
};

TEST_F(LogRandom, ServedInPartAgreesWithAPlainWalk) {
  struct Config {
    std::vector<std::string> include, exclude;
  };
  {
    // The plain walk is git's where everything is served.
    const PlainWalk whole(s_->repo, PathPolicy::Default());
    EXPECT_EQ(whole.Log(s_->repo.Rev("main"), ""), GitLog(s_->repo, {"main"}));
    for (const auto& path : s_->paths) {
      EXPECT_EQ(whole.Log(s_->repo.Rev("main"), path), GitLog(s_->repo, {"main", "--", path}))
          << path;
    }
  }
  const Config configs[] = {
      {{}, {"app/core/**", "*.sh", "docs/old.md"}},
      {{"app/**", "lib/mode/**", "tools/a.txt"}, {}},
      {{"app/**"}, {"app/core/deep/**", "*.md"}},
  };
  for (const auto& config : configs) {
    RepoConfig rc = Served("part", s_->repo.path());
    rc.include = config.include;
    rc.exclude = config.exclude;
    auto policy = PathPolicy::Make(config.include, config.exclude, false);
    ASSERT_TRUE(policy.ok()) << policy.error();
    const PlainWalk plain(s_->repo, *policy);
    ToolHarness h({rc}, 200000);
    for (const auto& branch : s_->branches) {
      JsonArgs root;
      root.Set("repo", "part").Set("ref", branch);
      const auto expected = plain.Log(s_->repo.Rev(branch), "");
      EXPECT_EQ(LogAll(h, root), expected) << branch;
      EXPECT_LT(expected.size(), GitLog(s_->repo, {branch}).size()) << branch;
      for (const auto& path : s_->paths) {
        auto parsed = RepoPath::Parse(path);
        ASSERT_TRUE(parsed.ok());
        if (policy->Outside(*parsed)) continue;
        JsonArgs a = root;
        a.Set("path", path);
        EXPECT_EQ(LogAll(h, a), plain.Log(s_->repo.Rev(branch), path)) << branch << " -- " << path;
      }
    }
  }
}

// --- What the answer says.

class LogAnswer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    for (int i = 1; i <= 40; ++i) {
      r.Write("src/n.txt", std::to_string(i));
      s_->ids.push_back(r.Commit("Change number " + std::to_string(i)));
    }
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::vector<std::string> ids;  // oldest first
  };
  static Shared* s_;
};
LogAnswer::Shared* LogAnswer::s_ = nullptr;

TEST_F(LogAnswer, ShowsIdDateAuthorAndSubjectNewestFirst) {
  ToolHarness h({Served("shop", s_->repo.path())});
  auto a = h.Call("log", R"({"repo":"shop","max_count":2})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · main @ " + Short(s_->ids[39]) +
                        " (2026-01-28) · 2 commits, newest first\n" + Short(s_->ids[39]) +
                        " 2026-01-28 Grace Hopper — Change number 40\n" + Short(s_->ids[38]) +
                        " 2026-01-28 Grace Hopper — Change number 39\n"
                        "[more commits — continue with skip: 2]");
  auto p = h.Call("log", R"({"repo":"shop","path":"src/n.txt","skip":39})");
  ASSERT_FALSE(p.is_error) << p.text;
  EXPECT_EQ(p.text, "shop · main @ " + Short(s_->ids[39]) +
                        " (2026-01-28) · history of src/n.txt · 1 commit after the first 39, "
                        "newest first\n" +
                        Short(s_->ids[0]) + " 2026-01-01 Grace Hopper — Change number 1");
}

// A .mailmap is the repository's to write: log shows and matches authors as each commit names
// them, never as the mailmap would rename them.
TEST(LogAuthors, AuthorsAreShownAndMatchedAsWrittenNotAsAMailmapRenamesThem) {
  TempDir tmp;
  TestRepo repo(tmp / "mapped");
  repo.Write(".mailmap", "Mallory Mapped <mallory@example.net> Grace Hopper <grace@example.com>\n");
  const std::string id = repo.Commit("Add a mailmap");
  // git log itself renames her (log.mailmap is on by default).
  ASSERT_EQ(repo.Git({"log", "-1", "--format=%aN"}), "Mallory Mapped");
  ToolHarness h({Served("mapped", repo.path())});
  auto a = h.Call("log", R"({"repo":"mapped"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, Short(id) + " 2026-01-01 Grace Hopper — Add a mailmap"));
  EXPECT_TRUE(HasNot(a.text, "Mallory"));
  auto grace = h.Call("log", R"({"repo":"mapped","author":"grace@example\\.com"})");
  ASSERT_FALSE(grace.is_error) << grace.text;
  EXPECT_EQ(IdsIn(grace.text), std::vector<std::string>{Short(id)});
  auto mallory = h.Call("log", R"({"repo":"mapped","author":"mallory"})");
  ASSERT_FALSE(mallory.is_error) << mallory.text;
  EXPECT_TRUE(IdsIn(mallory.text).empty()) << mallory.text;
}

TEST_F(LogAnswer, TheDefaultIsThirtyCommits) {
  ToolHarness h({Served("shop", s_->repo.path())});
  auto a = h.Call("log", R"({"repo":"shop"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(IdsIn(a.text).size(), 30u);
  EXPECT_EQ(SkipsIn(a.text), std::vector<long long>{30});
}

// An answer cut at the cap gives one skip, the one that continues it: following it reads the
// whole history, each commit once.
TEST_F(LogAnswer, ACutAnswerGivesTheSkipThatContinuesIt) {
  ToolHarness h({Served("shop", s_->repo.path())}, 700);
  std::vector<std::string> all;
  long long skip = 0;
  for (int guard = 0; guard < 100; ++guard) {
    auto a = h.Call("log", JsonArgs().Set("repo", "shop").Set("skip", skip).str());
    ASSERT_FALSE(a.is_error) << a.text;
    const auto ids = IdsIn(a.text);
    ASSERT_FALSE(ids.empty()) << a.text;
    all.insert(all.end(), ids.begin(), ids.end());
    const auto skips = SkipsIn(a.text);
    if (skips.empty()) break;
    ASSERT_EQ(skips, std::vector<long long>{skip + static_cast<long long>(ids.size())}) << a.text;
    skip = skips[0];
  }
  EXPECT_EQ(all, GitLog(s_->repo, {"main"}));
}

TEST_F(LogAnswer, ArgumentErrorsSayWhatToGive) {
  ToolHarness h({Served("shop", s_->repo.path())});
  struct Case {
    std::string args, error;
  };
  const Case cases[] = {
      {R"({"repo":"shop","max_count":0})", "argument `max_count` is 0; it must be from 1 to 500"},
      {R"({"repo":"shop","max_count":501})",
       "argument `max_count` is 501; it must be from 1 to 500"},
      {R"({"repo":"shop","skip":-1})", "argument `skip` is -1; it must be from 0 to 1000000000"},
      {R"({"repo":"shop","message":"fix(es"})",
       "argument `message`: not a valid extended regular expression (missing closing "
       "parenthesis)"},
      {R"({"repo":"shop","author":"(?i)grace"})",
       "argument `author`: (? groups (lookaround, options, named groups) are not part of "
       "extended regular expressions"},
      {R"({"repo":"shop","message":"\\d+"})",
       "argument `message`: \\d is not part of extended regular expressions (for a digit write "
       "[0-9]; for a character, write it as it is)"},
      {R"({"repo":"shop","since":"2026-02-01","until":"2026-01-01"})",
       "`since` is after `until`: no commit can be in between; swap them"},
      {R"({"repo":"shop","since":"2026-02-30"})",
       "argument `since`: `2026-02-30` is not a real date or time; write 2026-01-31, "
       "2026-01-31 14:00, 2026-01-31T14:00:00Z, 2 weeks ago, yesterday or @<seconds since "
       "1970>"},
      {R"({"repo":"shop","until":"soon"})",
       "argument `until`: not a date this server reads; write 2026-01-31, 2026-01-31 14:00, "
       "2026-01-31T14:00:00Z, 2 weeks ago, yesterday or @<seconds since 1970>"},
  };
  for (const auto& c : cases) {
    auto a = h.Call("log", c.args);
    EXPECT_TRUE(a.is_error) << c.args << "\n" << a.text;
    EXPECT_EQ(a.text, c.error) << c.args;
  }
  // The same instant for since and until is no error: commits made that second.
  auto same = h.Call("log", R"({"repo":"shop","since":"2026-01-05 12:00:00",)"
                            R"("until":"2026-01-05 12:00:00"})");
  ASSERT_FALSE(same.is_error) << same.text;
  EXPECT_EQ(IdsIn(same.text), std::vector<std::string>{Short(s_->ids[4])});
}

}  // namespace
}  // namespace log_test
}  // namespace rr::testing
