// log when the repository is served in part (include / exclude, credential files): only
// commits that changed something served, or nothing at all, are listed, and the answer says so;
// skip counts what is listed; a path kept out is refused by the path alone; a folder's history
// counts only its served files. And a message holding a value the secret filter hides: shown
// hidden, never matched by a message filter, so a guessed secret cannot be confirmed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/history/history_kit.h"
#include "tests/secrets/generated_values.h"

namespace rr::testing {
namespace log_served_test {
namespace {

const char kPartNote[] =
    "[only part of this repository is served: commits that changed only files this server does "
    "not serve are left out]";

// A GitHub token shape the built-in detectors hide (made here, never a real one).
std::string Token() { return "gh" + std::string("p_") + Chars(36, kBase62, 7); }

// c1 (2026-01-01) adds README.md, src/app.py, src/gen/out.py and secret/plan.md; then, one day
// apart: c2 changes secret/plan.md only, c3 is empty, c4 changes .env only, c5 src/app.py,
// c6 src/gen/out.py only, c7 src/app.py and secret/plan.md, c8 README.md, with a token in its
// subject.
class LogServed : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::vector<std::string> c{""};  // c[1]..c[8], short ids
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    auto commit = [&](const std::string& message) { s_->c.push_back(Short(r.Commit(message))); };
    r.Write("README.md", "shop\n");
    r.Write("src/app.py", "app 1\n");
    r.Write("src/gen/out.py", "generated 1\n");
    r.Write("secret/plan.md", "plan 1\n");
    commit("Start the shop");
    r.Write("secret/plan.md", "plan 2\n");
    commit("Revise the plan");
    commit("Nothing at all");
    r.Write(".env", "MODE=dev\n");
    commit("Add the environment");
    r.Write("src/app.py", "app 2\n");
    commit("Fix the app");
    r.Write("src/gen/out.py", "generated 2\n");
    commit("Generate again");
    r.Write("src/app.py", "app 3\n");
    r.Write("secret/plan.md", "plan 3\n");
    commit("Fix the app and the plan");
    r.Write("README.md", "shop 2\n");
    commit("Rotate the deploy token " + Token() + "\n\nRotated after the leak.");
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static RepoConfig With(const std::string& name, std::vector<std::string> include,
                         std::vector<std::string> exclude) {
    RepoConfig rc = Served(name, s_->repo.path());
    rc.include = std::move(include);
    rc.exclude = std::move(exclude);
    return rc;
  }
  static std::vector<std::string> C(const std::vector<int>& numbers) {
    std::vector<std::string> out;
    for (int n : numbers) out.push_back(s_->c[n]);
    return out;
  }
  static std::string Outside(const std::string& repo, const std::string& path) {
    return "path `" + path + "` is outside what this server serves in `" + repo + "`";
  }

  static Shared* s_;
  ToolHarness h_{{Served("whole", s_->repo.path()), With("exc", {}, {"secret/**", "src/gen/**"}),
                  With("inc", {"src/**"}, {})}};
};
LogServed::Shared* LogServed::s_ = nullptr;

TEST_F(LogServed, ACommitThatChangedOnlyWhatIsKeptOutIsNotListed) {
  auto exc = h_.Call("log", R"({"repo":"exc"})");
  ASSERT_FALSE(exc.is_error) << exc.text;
  EXPECT_EQ(IdsIn(exc.text), C({8, 7, 5, 3, 1}));
  EXPECT_TRUE(Has(exc.text, kPartNote));

  auto inc = h_.Call("log", R"({"repo":"inc"})");
  ASSERT_FALSE(inc.is_error) << inc.text;
  EXPECT_EQ(IdsIn(inc.text), C({7, 6, 5, 3, 1}));
  EXPECT_TRUE(Has(inc.text, kPartNote));
}

TEST_F(LogServed, ACommitThatChangedOnlyACredentialFileIsNotListed) {
  auto whole = h_.Call("log", R"({"repo":"whole"})");
  ASSERT_FALSE(whole.is_error) << whole.text;
  EXPECT_EQ(IdsIn(whole.text), C({8, 7, 6, 5, 3, 2, 1}));
  // git lists it; with no include / exclude, the answer has no note about a part.
  EXPECT_EQ(GitLog(s_->repo, {"main"}), C({8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_TRUE(HasNot(whole.text, "only part of this repository"));
}

// The filter is read before the trees are compared (a filter few commits pass then walks fast):
// a commit it matches is still left out when it changed only what is kept out.
TEST_F(LogServed, ACommitAFilterMatchesIsStillLeftOutWhenItChangedOnlyWhatIsKeptOut) {
  // "plan" is in c2's message ("Revise the plan": secret/plan.md only) and c7's.
  auto exc = h_.Call("log", R"({"repo":"exc","message":"plan"})");
  ASSERT_FALSE(exc.is_error) << exc.text;
  EXPECT_EQ(IdsIn(exc.text), C({7}));
  auto whole = h_.Call("log", R"({"repo":"whole","message":"plan"})");
  ASSERT_FALSE(whole.is_error) << whole.text;
  EXPECT_EQ(IdsIn(whole.text), C({7, 2}));
  // c4 changed .env alone: its message is found nowhere. With an author every commit has, skip
  // counts only the commits listed.
  auto env = h_.Call("log", R"({"repo":"whole","message":"environment"})");
  ASSERT_FALSE(env.is_error) << env.text;
  EXPECT_TRUE(IdsIn(env.text).empty()) << env.text;
  auto paged = h_.Call("log", R"({"repo":"inc","author":"e","max_count":2,"skip":2})");
  ASSERT_FALSE(paged.is_error) << paged.text;
  EXPECT_EQ(IdsIn(paged.text), C({5, 3}));
  // find_commits, over every branch, judges the same way.
  auto found = h_.Call("find_commits", R"({"repos":"exc","message":"plan"})");
  ASSERT_FALSE(found.is_error) << found.text;
  EXPECT_TRUE(Has(found.text, s_->c[7])) << found.text;
  EXPECT_TRUE(HasNot(found.text, s_->c[2])) << found.text;
}

TEST_F(LogServed, SkipCountsTheCommitsListed) {
  auto first = h_.Call("log", R"({"repo":"exc","max_count":2})");
  ASSERT_FALSE(first.is_error) << first.text;
  EXPECT_EQ(IdsIn(first.text), C({8, 7}));
  EXPECT_EQ(SkipsIn(first.text), std::vector<long long>{2});
  auto second = h_.Call("log", R"({"repo":"exc","max_count":2,"skip":2})");
  ASSERT_FALSE(second.is_error) << second.text;
  EXPECT_EQ(IdsIn(second.text), C({5, 3}));
  EXPECT_EQ(SkipsIn(second.text), std::vector<long long>{4});
  auto last = h_.Call("log", R"({"repo":"exc","max_count":2,"skip":4})");
  ASSERT_FALSE(last.is_error) << last.text;
  EXPECT_EQ(IdsIn(last.text), C({1}));
  EXPECT_TRUE(SkipsIn(last.text).empty()) << last.text;
  EXPECT_TRUE(Has(last.text, kPartNote));
}

TEST_F(LogServed, AFoldersHistoryCountsOnlyItsServedFiles) {
  auto exc = h_.Call("log", R"({"repo":"exc","path":"src"})");
  ASSERT_FALSE(exc.is_error) << exc.text;
  EXPECT_EQ(IdsIn(exc.text), C({7, 5, 1}));
  // Served whole, the folder's history is git's.
  auto whole = h_.Call("log", R"({"repo":"whole","path":"src"})");
  ASSERT_FALSE(whole.is_error) << whole.text;
  EXPECT_EQ(IdsIn(whole.text), GitLog(s_->repo, {"main", "--", "src"}));
  EXPECT_EQ(IdsIn(whole.text), C({7, 6, 5, 1}));
  // The root, named as a path, is the whole history.
  auto root = h_.Call("log", R"({"repo":"exc","path":"/"})");
  ASSERT_FALSE(root.is_error) << root.text;
  EXPECT_EQ(IdsIn(root.text), C({8, 7, 5, 3, 1}));
}

// Judged by the path alone: the same words for a path that exists, one that never did, and a
// folder, so the answer never tells whether an excluded path exists or changed.
TEST_F(LogServed, APathKeptOutIsRefusedTheSameWhetherItExistsOrNot) {
  struct Case {
    std::string repo, path;
  };
  const Case cases[] = {
      {"exc", "secret/plan.md"}, {"exc", "secret/never.md"}, {"exc", "secret"},
      {"exc", "src/gen"},        {"exc", "src/gen/out.py"},  {"exc", "src/gen/none.py"},
      {"inc", "README.md"},      {"inc", "docs/none.md"},    {"whole", ".env"},
      {"whole", "deep/.env"},    {"inc", "secret/plan.md"},
  };
  for (const auto& c : cases) {
    for (const std::string extra : {"", R"(,"message":"plan","since":"2026-01-01")"}) {
      auto a = h_.Call("log",
                       R"({"repo":")" + c.repo + R"(","path":)" + JsonQuote(c.path) + extra + "}");
      EXPECT_TRUE(a.is_error) << c.repo << " " << c.path << ": " << a.text;
      EXPECT_EQ(a.text, Outside(c.repo, c.path));
    }
  }
}

TEST_F(LogServed, AValueTheFilterHidesIsShownHidden) {
  auto a = h_.Call("log", R"({"repo":"whole","max_count":1})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(IdsIn(a.text), C({8}));
  EXPECT_TRUE(Has(a.text, " — Rotate the deploy token [hidden: GitHub token]\n"));
  EXPECT_TRUE(HasNot(a.text, Token()));
  EXPECT_TRUE(HasNot(a.text, Token().substr(4, 12)));
}

// A message filter never matches a message holding a hidden value, whatever part it matches —
// the words around the value, the body, or the value itself — so a guess cannot be confirmed.
TEST_F(LogServed, AMessageFilterNeverMatchesAMessageHoldingAHiddenValue) {
  const std::string token = Token();
  const std::vector<std::string> patterns = {"deploy token",       "^rotated after",
                                             "gh[p]_[a-z0-9]{36}", token,
                                             token.substr(0, 10),  "^rotate"};
  for (const auto& pattern : patterns) {
    // git finds it: only the filter's veto keeps it out.
    ASSERT_EQ(GitLog(s_->repo, {"-i", "-E", "--grep=" + pattern, "main"}), C({8})) << pattern;
    for (const std::string repo : {"whole", "exc"}) {
      auto a = h_.Call("log", JsonArgs().Set("repo", repo).Set("message", pattern).str());
      ASSERT_FALSE(a.is_error) << a.text;
      EXPECT_TRUE(IdsIn(a.text).empty()) << repo << " " << pattern << ":\n" << a.text;
      EXPECT_TRUE(Has(a.text, "No commit matches.")) << a.text;
    }
  }
  // The other messages are matched as usual.
  auto fix = h_.Call("log", R"({"repo":"whole","message":"^fix"})");
  ASSERT_FALSE(fix.is_error) << fix.text;
  EXPECT_EQ(IdsIn(fix.text), C({7, 5}));
}

// c1 is a root holding only excluded files, R an empty root, M a merge of R that changed
// nothing; the second root's own files are kept out too.
TEST(LogServedRoots, ARootHoldingOnlyWhatIsKeptOutIsNotListedAnEmptyOneIs) {
  TempDir tmp;
  TestRepo repo(tmp / "roots");
  HistoryWriter w;
  const int a = w.Commit({{"secret/plan.md", {"1"}}}, {}, Day(1), "A: only the plan\n");
  const int b =
      w.Commit({{"secret/plan.md", {"1"}}, {"src/app.py", {"1"}}}, {a}, Day(2), "B: the app\n");
  const int r = w.Commit({}, {}, Day(3), "R: an empty root\n");
  const int m = w.Commit({{"secret/plan.md", {"1"}}, {"src/app.py", {"1"}}}, {b, r}, Day(4),
                         "M: join the empty root\n");
  const int e = w.Commit({{".env", {"X=1"}}}, {}, Day(5), "E: a root of credentials\n");
  const int n = w.Commit({{".env", {"X=1"}}, {"secret/plan.md", {"1"}}, {"src/app.py", {"1"}}},
                         {m, e}, Day(6), "N: join it\n");
  w.Ref("refs/heads/main", n);
  const auto ids = w.Write(repo, tmp);
  RepoConfig exc = Served("exc", repo.path());
  exc.exclude = {"secret/**"};
  ToolHarness h({exc, Served("whole", repo.path())});
  auto part = h.Call("log", R"({"repo":"exc"})");
  ASSERT_FALSE(part.is_error) << part.text;
  // N changed nothing served against M (only .env came in); E holds only .env.
  EXPECT_EQ(IdsIn(part.text),
            std::vector<std::string>({Short(ids.at(m)), Short(ids.at(r)), Short(ids.at(b))}));
  auto whole = h.Call("log", R"({"repo":"whole"})");
  ASSERT_FALSE(whole.is_error) << whole.text;
  EXPECT_EQ(IdsIn(whole.text), std::vector<std::string>({Short(ids.at(m)), Short(ids.at(r)),
                                                         Short(ids.at(b)), Short(ids.at(a))}));
  EXPECT_EQ(GitLog(repo, {"main"}).size(), 6u);
}

}  // namespace
}  // namespace log_served_test
}  // namespace rr::testing
