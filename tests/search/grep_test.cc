// grep: its files and lines checked against `git grep -I -n -m 100` on generated repositories —
// plain text, regular expressions, any case, context and how groups merge, files_only, a path,
// another ref, binary files, the 100-lines-a-file limit, patterns that look like options, and
// regular expressions' special cases, including what ERE does not have (refused).
#include <gtest/gtest.h>

#include <random>

#include "tests/search/search_kit.h"

namespace rr::testing::search::grep {
namespace {

// A repository of text files made of a few words, so that patterns match often and in runs.
class GrepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(42);
    const std::vector<std::string> words = {
        "alpha", "Beta",  "gamma",     "DELTA",     "mode = classic",
        "x+y",   "a.b",   "[x]",       "-e",        "--open-files-in-pager=x",
        "end",   "12345", "tab\there", "Alpha beta"};
    const std::vector<std::string> files = {"README.md",     "src/app.py",  "src/lib/util.py",
                                            "src/lib/z.txt", "docs/a-b.md", "docs/guide.md",
                                            "a.txt",         "a/b.txt",     "config/legacy.ini"};
    for (const auto& f : files) {
      std::string text;
      const size_t lines = 5 + rng() % 60;
      for (size_t i = 0; i < lines; ++i) {
        const size_t n = rng() % 4;
        for (size_t k = 0; k < n; ++k) {
          if (k) text += ' ';
          text += words[rng() % words.size()];
        }
        text += '\n';
      }
      if (rng() % 3 == 0) text += "alpha without a final newline";
      repo.Write(f, text);
    }
    repo.Write("bin/data.bin", std::string("alpha\0beta\n", 11) + "alpha gamma\n");
    repo.Commit("one");
    repo.Git({"tag", "v1"});
    repo.Write("src/app.py", "alpha at v2 only\nBeta\n");
    repo.Write("new.txt", "gamma alpha\n");
    repo.Commit("two");
  }

  std::string Args(const std::string& pattern, const std::string& more = "") {
    return "{\"pattern\":" + Quoted(pattern) + (more.empty() ? "" : "," + more) + "}";
  }

  TempDir dir;
  TestRepo repo{dir / "shop"};
};

TEST_F(GrepTest, LinesAndContextAreWhatGitGrepFinds) {
  ToolHarness h({Served("shop", repo.path())});
  struct Case {
    std::string pattern;
    std::vector<std::string> git;  // git grep's options
    std::string args;              // the tool's
  };
  const std::vector<Case> cases = {
      {"alpha", {"-F"}, ""},
      {"Alpha", {"-F", "-i"}, R"("ignore_case":true)"},
      {"a.b", {"-F"}, ""},
      {"x+y", {"-F"}, ""},
      {"[x]", {"-F"}, ""},
      {"^alpha", {"-E"}, R"("regex":true)"},
      {"classic$", {"-E"}, R"("regex":true)"},
      {"gamma|DELTA", {"-E"}, R"("regex":true)"},
      {"[[:digit:]]{3,}", {"-E"}, R"("regex":true)"},
      {"a[.]b|x\\+y", {"-E"}, R"("regex":true)"},
      {"\\bbeta\\b", {"-E", "-i"}, R"("regex":true,"ignore_case":true)"},
      // (Not `^$`: git grep also reports a line after a file's final newline, which grep and
      // this server do not count.)
      {"^(end|alpha)$", {"-E"}, R"("regex":true)"},
      {"e.d", {"-E", "-C", "2"}, R"("regex":true,"context":2)"},
      {"alpha", {"-F", "-C", "1"}, R"("context":1)"},
      {"alpha", {"-F", "-C", "3"}, R"("context":3)"},
      {"DELTA", {"-F", "-C", "10"}, R"("context":10)"},
      {"beta", {"-F", "-i", "-C", "2"}, R"("ignore_case":true,"context":2)"},
      {"mode = classic", {"-F", "-C", "2"}, R"("context":2)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.pattern + " " + c.args);
    const auto answer = h.Call("grep", Args(c.pattern, c.args));
    ASSERT_FALSE(answer.is_error) << answer.text;
    const Hits want = GitGrep(repo, "main", c.git, c.pattern);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(HitsIn(answer.text), want) << answer.text;
  }
}

TEST_F(GrepTest, GroupsAreSeparatedWhereLinesAreSkipped) {
  repo.Write("gaps.txt", "hit\n1\n2\nhit\n3\n4\n5\n6\nhit\nhit\n7\n");
  repo.Commit("gaps");
  ToolHarness h({Served("shop", repo.path())});
  const auto answer = h.Call("grep", Args("hit", R"("context":1,"path":"gaps.txt")"));
  EXPECT_NE(answer.text.find("gaps.txt\n   1: hit\n   2- 1\n   3- 2\n   4: hit\n   5- 3\n  --\n"
                             "   8- 6\n   9: hit\n  10: hit\n  11- 7"),
            std::string::npos)
      << answer.text;
  EXPECT_EQ(HitsIn(answer.text), GitGrep(repo, "main", {"-F", "-C", "1"}, "hit", {"gaps.txt"}));
}

TEST_F(GrepTest, FilesOnlyPathAndRef) {
  ToolHarness h({Served("shop", repo.path())});
  auto answer = h.Call("grep", Args("alpha", R"("files_only":true)"));
  ASSERT_FALSE(answer.is_error) << answer.text;
  EXPECT_EQ(Names(HitsIn(answer.text)), Names(GitGrep(repo, "main", {"-F", "-l"}, "alpha")));
  EXPECT_NE(answer.text.find("matching files"), std::string::npos) << answer.text;

  answer = h.Call("grep", Args("alpha", R"("path":"src","context":1)"));
  EXPECT_EQ(HitsIn(answer.text), GitGrep(repo, "main", {"-F", "-C", "1"}, "alpha", {"src"}));
  answer = h.Call("grep", Args("alpha", R"("path":"src/lib/util.py")"));
  EXPECT_EQ(HitsIn(answer.text), GitGrep(repo, "main", {"-F"}, "alpha", {"src/lib/util.py"}));

  answer = h.Call("grep", Args("alpha", R"("ref":"v1")"));
  EXPECT_NE(answer.text.find(" · v1 @ " + repo.Rev("v1").substr(0, 12)), std::string::npos)
      << answer.text;
  const Hits at_v1 = GitGrep(repo, "v1", {"-F"}, "alpha");
  EXPECT_EQ(HitsIn(answer.text), at_v1);
  EXPECT_NE(at_v1, GitGrep(repo, "main", {"-F"}, "alpha"));  // the ref mattered
}

TEST_F(GrepTest, BinaryFilesAreSkipped) {
  ToolHarness h({Served("shop", repo.path())});
  const auto answer = h.Call("grep", Args("alpha gamma"));
  EXPECT_EQ(HitsIn(answer.text), GitGrep(repo, "main", {"-F"}, "alpha gamma"));
  EXPECT_EQ(answer.text.find("bin/data.bin\n"), std::string::npos) << answer.text;
  EXPECT_NE(answer.text.find("[1 binary file not searched]"), std::string::npos) << answer.text;
  // git grep without -I finds it: the skip is this server's doing.
  EXPECT_EQ(repo.Git({"grep", "-l", "-e", "alpha gamma", "main", "--", "bin"}),
            "main:bin/data.bin");
}

TEST_F(GrepTest, AtMostOneHundredLinesAFile) {
  std::string text;
  for (int i = 0; i < 150; ++i) text += "row " + std::to_string(i) + "\n";
  repo.Write("many.txt", text);
  repo.Commit("many");
  ToolHarness h({Served("shop", repo.path())});
  const auto answer = h.Call("grep", Args("row", R"("path":"many.txt")"));
  const Hits got = HitsIn(answer.text);
  ASSERT_EQ(got.size(), 1u) << answer.text;
  EXPECT_EQ(got[0].second.size(), 100u);
  EXPECT_EQ(got, GitGrep(repo, "main", {"-F"}, "row", {"many.txt"}));
  EXPECT_NE(answer.text.find("100 matching lines in 1 file (at most 100 a file)"),
            std::string::npos)
      << answer.text;
}

TEST_F(GrepTest, APatternThatLooksLikeAnOptionIsText) {
  ToolHarness h({Served("shop", repo.path())});
  for (const std::string p : {"-e", "--open-files-in-pager=x", "-"}) {
    SCOPED_TRACE(p);
    for (const bool regex : {false, true}) {
      const auto answer = h.Call("grep", Args(p, regex ? R"("regex":true)" : ""));
      ASSERT_FALSE(answer.is_error) << answer.text;
      const Hits want = GitGrep(repo, "main", {regex ? "-E" : "-F"}, p);
      EXPECT_FALSE(want.empty());
      EXPECT_EQ(HitsIn(answer.text), want);
    }
  }
}

TEST_F(GrepTest, WhatEreDoesNotHaveIsRefused) {
  ToolHarness h({Served("shop", repo.path())});
  for (const std::string p : {"(?=alpha)", "(a)\\1", "\\d+", "a++", "*a", "[[=a=]]"}) {
    SCOPED_TRACE(p);
    const auto answer = h.Call("grep", Args(p, R"("regex":true)"));
    EXPECT_TRUE(answer.is_error) << answer.text;
    EXPECT_NE(answer.text.find("argument `pattern`"), std::string::npos) << answer.text;
  }
  // As plain text the same patterns are only text.
  const auto plain = h.Call("grep", Args("(?=alpha)"));
  EXPECT_FALSE(plain.is_error) << plain.text;
  EXPECT_NE(plain.text.find("0 matching lines"), std::string::npos) << plain.text;
  // One line only.
  EXPECT_TRUE(h.Call("grep", Args("alpha\nbeta")).is_error);
  EXPECT_TRUE(h.Call("grep", Args("")).is_error);
}

TEST_F(GrepTest, ContextOutsideItsRangeIsRefused) {
  ToolHarness h({Served("shop", repo.path())});
  EXPECT_TRUE(h.Call("grep", Args("alpha", R"("context":11)")).is_error);
  EXPECT_TRUE(h.Call("grep", Args("alpha", R"("context":-1)")).is_error);
}

TEST_F(GrepTest, AnAnswerLargerThanTheCapSaysHowToNarrow) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "alpha " + std::string(100, 'x') + "\n";
  for (int f = 0; f < 20; ++f) repo.Write("big/f" + std::to_string(f) + ".txt", text);
  repo.Commit("big");
  ToolHarness h({Served("shop", repo.path())}, 5000);
  const auto answer = h.Call("grep", Args("alpha"));
  EXPECT_FALSE(answer.is_error);
  EXPECT_NE(answer.text.find("narrow with path"), std::string::npos) << answer.text;
  EXPECT_LE(answer.text.size(), 5000u * 3);
}

}  // namespace
}  // namespace rr::testing::search::grep
