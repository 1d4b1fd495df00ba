// The search tools' safety promises, by attack: files include / exclude keep out and credential
// files are never read, whatever the pattern or path; a pattern that looks like an option is
// text; and a guessed secret cannot be confirmed — not by a plain match on its text, not by a
// regular expression covering it, not by the lines around a dropped line, not by the limit of
// lines a file. Each test checks that git grep, without the protection, would have told.
#include <gtest/gtest.h>

#include "tests/search/search_kit.h"
#include "tests/secrets/generated_values.h"

namespace rr::testing::search::search_safety {
namespace {

std::string Args(const std::string& pattern, const std::string& more = "") {
  return "{\"pattern\":" + Quoted(pattern) + (more.empty() ? "" : "," + more) + "}";
}

TEST(SearchSafety, ExcludedAndCredentialFilesAreNeverSearched) {
  TempDir dir;
  TestRepo repo(dir / "shop");
  repo.Write("app.py", "db = open_shop()\n");
  repo.Write("private/notes.txt", "open_shop is in the vault\n");
  repo.Write(".env", "OPEN_SHOP=open_shop\n");
  repo.Write("deploy/server.pem", "open_shop\n");
  repo.Write("config/id_rsa", "open_shop\n");
  repo.Commit("one");
  RepoConfig rc = Served("shop", repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc});
  // git grep finds all five files: what keeps four out is the policy.
  ASSERT_EQ(Names(GitGrep(repo, "main", {"-F"}, "open_shop")).size(), 5u);
  for (const std::string& more :
       {std::string(), std::string(R"("regex":true)"), std::string(R"("ignore_case":true)")}) {
    for (const std::string tool : {"grep", "search"}) {
      SCOPED_TRACE(tool + " " + more);
      const auto answer = h.Call(tool, Args("open_shop", more));
      ASSERT_FALSE(answer.is_error) << answer.text;
      EXPECT_EQ(Names(HitsIn(answer.text, tool == "search" ? "shop" : "")),
                std::vector<std::string>{"app.py"})
          << answer.text;
      for (const std::string name : {"private", ".env", "server.pem", "id_rsa", "vault"}) {
        EXPECT_EQ(answer.text.find(name), std::string::npos) << name << "\n" << answer.text;
      }
    }
  }
  // Narrowing to a path kept out is refused, judged by the path alone (as read_file words it),
  // whether it exists or not.
  for (const std::string path : {"private", "private/notes.txt", "private/none.txt", ".env",
                                 "deploy/server.pem", "x/other.pem"}) {
    SCOPED_TRACE(path);
    const auto answer = h.Call("grep", Args("open_shop", "\"path\":" + Quoted(path)));
    EXPECT_TRUE(answer.is_error) << answer.text;
    EXPECT_NE(answer.text.find("is outside what this server serves in `shop`"), std::string::npos)
        << answer.text;
    EXPECT_EQ(answer.text, h.Call("read_file", "{\"path\":" + Quoted(path) + "}").text);
  }
}

TEST(SearchSafety, APatternThatLooksLikeAnOptionIsOnlyText) {
  TempDir dir;
  TestRepo repo(dir / "shop");
  repo.Write("a.txt", "run with -e here\nuse --open-files-in-pager=x to page\n--cached\n");
  repo.Write("b.txt", "nothing\n");
  repo.Commit("one");
  ToolHarness h({Served("shop", repo.path())});
  for (const std::string p : {"-e", "--open-files-in-pager=x", "--cached", "-v", "--no-index"}) {
    SCOPED_TRACE(p);
    for (const std::string tool : {"grep", "search"}) {
      const auto answer = h.Call(tool, Args(p));
      ASSERT_FALSE(answer.is_error) << answer.text;
      EXPECT_EQ(HitsIn(answer.text, tool == "search" ? "shop" : ""),
                GitGrep(repo, "main", {"-F"}, p))
          << answer.text;
    }
  }
  // `-v` read as an option would list every line that does not match.
  EXPECT_EQ(HitsIn(h.Call("grep", Args("-v")).text).size(), 0u);
}

// Each file's line numbers and whether each matched ("12:", "11-"), without the text (the
// answer shows hidden values hidden, git does not).
Hits Shape(Hits hits) {
  for (auto& [path, lines] : hits) {
    for (auto& l : lines) l = l.substr(0, l.find_first_of(":-") + 1);
  }
  return hits;
}

class GuessedSecrets : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.Write("config/app.yml",
               "name: shop\n"
               "hit one\n"
               "token: " +
                   token +
                   " hit\n"
                   "other: 1\n"
                   "more: 2\n"
                   "hit two\n");
    std::string many;
    for (int i = 0; i < 3; ++i) many += "key: ghp_" + Chars(36, kBase62, 20 + i) + "\n";
    for (int i = 0; i < 6; ++i) many += "hit " + std::to_string(i) + "\n";
    repo.Write("many.yml", many);
    repo.Commit("one");
  }
  const std::string token = "ghp_" + Chars(36, kBase62, 7);
  TempDir dir;
  TestRepo repo{dir / "shop"};
};

TEST_F(GuessedSecrets, APlainSearchForAHiddenValueFindsNothing) {
  ToolHarness h({Served("shop", repo.path())});
  const std::vector<std::string> guesses = {token, token.substr(4, 12), token.substr(0, 10),
                                            "ghp_"};
  for (const std::string& guess : guesses) {
    SCOPED_TRACE(guess);
    ASSERT_FALSE(GitGrep(repo, "main", {"-F"}, guess).empty());  // git would confirm it
    for (const std::string tool : {"grep", "search"}) {
      const auto answer = h.Call(tool, Args(guess));
      EXPECT_TRUE(HitsIn(answer.text, tool == "search" ? "shop" : "").empty()) << answer.text;
      EXPECT_NE(answer.text.find("No line matches."), std::string::npos) << answer.text;
    }
    const auto any_case = h.Call("grep", Args(guess, R"("ignore_case":true,"files_only":true)"));
    EXPECT_TRUE(HitsIn(any_case.text).empty()) << any_case.text;
  }
}

TEST_F(GuessedSecrets, APlainMatchClearOfTheValueIsKeptAndTheValueShownHidden) {
  ToolHarness h({Served("shop", repo.path())});
  const auto answer = h.Call("grep", Args("token:"));
  EXPECT_NE(answer.text.find("3: token: [hidden: "), std::string::npos) << answer.text;
  EXPECT_EQ(answer.text.find(token), std::string::npos);
}

TEST_F(GuessedSecrets, ARegexNeverMatchesALineHoldingOne) {
  ToolHarness h({Served("shop", repo.path())});
  const std::vector<std::string> guesses = {"ghp_[A-Za-z0-9]{36}",
                                            "ghp_" + token.substr(4, 1) + ".*", "^token: ", "hit$"};
  for (const std::string& guess : guesses) {
    SCOPED_TRACE(guess);
    const auto answer = h.Call("grep", Args(guess, R"("regex":true,"path":"config")"));
    ASSERT_FALSE(answer.is_error) << answer.text;
    for (const auto& [path, lines] : HitsIn(answer.text)) {
      for (const auto& l : lines) EXPECT_NE(l.substr(0, 2), "3:") << answer.text;
    }
    // git grep matches line 3.
    const Hits git = GitGrep(repo, "main", {"-E"}, guess, {"config"});
    ASSERT_FALSE(git.empty());
    EXPECT_EQ(git[0].second.front().substr(0, 2), "3:");
  }
}

TEST_F(GuessedSecrets, ContextAndLimitsAreAsIfTheDroppedLineHadNotMatched) {
  ToolHarness h({Served("shop", repo.path())});
  // `hit|ghp_` loses line 3 (and many.yml's key lines): the answer is git's for `^hit`, which
  // matches neither, so that line 3 is no match and (one line of context) not shown either —
  // lines 1-2 and 5-6 stay two groups.
  const auto answer = h.Call("grep", Args("hit|ghp_", R"("regex":true,"context":1)"));
  EXPECT_EQ(Shape(HitsIn(answer.text)), Shape(GitGrep(repo, "main", {"-E", "-C", "1"}, "^hit")))
      << answer.text;
  EXPECT_NE(GitGrep(repo, "main", {"-E", "-C", "1"}, "hit|ghp_"),
            GitGrep(repo, "main", {"-E", "-C", "1"}, "^hit"));
  // Context of 2 shows line 3 as context, its value hidden.
  const auto wide = h.Call("grep", Args("hit|ghp_", R"("regex":true,"context":2,"path":"config")"));
  EXPECT_NE(wide.text.find("3- token: [hidden: "), std::string::npos) << wide.text;
  EXPECT_EQ(wide.text.find(token.substr(4)), std::string::npos) << wide.text;
  EXPECT_EQ(Shape(HitsIn(wide.text)),
            Hits({{"config/app.yml", {"1-", "2:", "3-", "4-", "5-", "6:"}}}));

  // search's 5 lines a file are counted after the dropped lines: many.yml's first three lines
  // hold tokens, and the five shown are the first five `hit` lines.
  const auto search = h.Call("search", Args("hit|ghp_", R"("regex":true,"path":"many.yml")"));
  EXPECT_EQ(HitsIn(search.text, "shop"), GitGrep(repo, "main", {"-E"}, "^hit", {"many.yml"}, "5"))
      << search.text;
}

}  // namespace
}  // namespace rr::testing::search::search_safety
