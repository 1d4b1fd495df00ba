// blame on repositories the tests build: lines grouped under the commit that last changed them,
// the window and the cut as read_file has them, renamed files, what is refused, what is kept out,
// and secrets in blamed lines and in commit lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace blame_test {
namespace {

// Commits what is staged as `author`, on `date` (YYYY-MM-DD, noon UTC); returns the commit.
std::string CommitAs(TestRepo& repo, const std::string& message, const std::string& author,
                     const std::string& date) {
  auto env = repo.Env();
  env["GIT_AUTHOR_NAME"] = author;
  env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date + "T12:00:00Z";
  EXPECT_EQ(Run({"git", "add", "-A"}, repo.path(), env).status, 0);
  const CommandResult r =
      Run({"git", "commit", "-q", "--allow-empty", "-m", message}, repo.path(), env);
  EXPECT_EQ(r.status, 0) << r.err;
  return repo.Rev("HEAD");
}

std::string Numbered(int from, int to, const std::string& what) {
  std::string s;
  for (int i = from; i <= to; ++i) s += what + " " + std::to_string(i) + "\n";
  return s;
}

class Blame : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string add, fix, rename, head, long_first, long_second;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("src/cart.py", "def total(items):\n    return sum(items)\n");
    r.Write("lib/old_name.py", Numbered(1, 6, "kept"));
    r.Write("long.txt", Numbered(1, 3000, "first"));
    s_->add = CommitAs(r, "Add the cart", "Ada Lovelace", "2026-02-01");
    r.Write("src/cart.py",
            "def total(items):\n    if not items:\n        return 0\n    return sum(items)\n");
    std::string second;
    for (int i = 1; i <= 3000; ++i) {
      second += (i % 100 < 50 ? "first " : "second ") + std::to_string(i) + "\n";
    }
    r.Write("long.txt", second);
    s_->fix = CommitAs(r, "Fix the cart total for empty carts", "Grace Hopper", "2026-02-15");
    r.Git({"mv", "lib/old_name.py", "lib/new_name.py"});
    r.Write("lib/new_name.py", Numbered(1, 6, "kept") + "added after the move\n");
    s_->rename = CommitAs(r, "Rename old_name to new_name", "Alan Turing", "2026-02-20");
    std::string bytes(100, 'b');
    bytes[5] = '\0';
    r.Write("logo.png", bytes);
    r.Write("empty.txt", "");
    r.Write("over-10mb.txt", std::string(10 * 1024 * 1024 + 1, 'x'));
    AddSymlink(r, "cart-link", "src/cart.py");
    AddGitlink(r, "vendor/lib", s_->add);
    s_->head = CommitAs(r, "Add the rest", "Grace Hopper", "2026-02-21");
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  ToolHarness::Answer Call(const std::string& path, const std::string& more = "") {
    return h_.Call("blame", R"({"repo":"shop","path":")" + path + "\"" +
                                (more.empty() ? "" : "," + more) + "}");
  }
  static std::string Where(const std::string& path) {
    return "shop · main @ " + Short(s_->head) + " (2026-02-21) · " + path + " · ";
  }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path())}};
  ToolHarness small_{{Served("shop", s_->repo.path())}, 5000};
};
Blame::Shared* Blame::s_ = nullptr;

TEST_F(Blame, LinesAreGroupedUnderTheCommitThatLastChangedThem) {
  auto a = Call("src/cart.py");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("src/cart.py") + "lines 1–4 of 4\n" + Short(s_->add) +
                        " 2026-02-01 Ada Lovelace — Add the cart\n"
                        "1  def total(items):\n" +
                        Short(s_->fix) +
                        " 2026-02-15 Grace Hopper — Fix the cart total for empty carts\n"
                        "2      if not items:\n"
                        "3          return 0\n" +
                        Short(s_->add) +
                        " 2026-02-01 Ada Lovelace — Add the cart\n"
                        "4      return sum(items)");
}

TEST_F(Blame, AtAnEarlierRefTheFileAsItWasThen) {
  auto a = h_.Call("blame", R"({"repo":"shop","ref":")" + s_->add + R"(","path":"src/cart.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · " + s_->add + " @ " + Short(s_->add) +
                        " (2026-02-01) · src/cart.py · lines 1–2 of 2\n" + Short(s_->add) +
                        " 2026-02-01 Ada Lovelace — Add the cart\n"
                        "1  def total(items):\n"
                        "2      return sum(items)");
}

TEST_F(Blame, StartLineAndMaxLinesChooseTheWindow) {
  auto a = Call("src/cart.py", R"("start_line":2,"max_lines":2)");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("src/cart.py") + "lines 2–3 of 4\n" + Short(s_->fix) +
                        " 2026-02-15 Grace Hopper — Fix the cart total for empty carts\n"
                        "2      if not items:\n"
                        "3          return 0\n"
                        "[1 more line after this — continue with start_line: 4]");
  auto past = Call("src/cart.py", R"("start_line":5)");
  EXPECT_TRUE(past.is_error);
  EXPECT_EQ(past.text, "`src/cart.py` has 4 lines; start_line 5 is past its end");
}

TEST_F(Blame, ARenamedFileNamesItsPathInOlderCommits) {
  auto a = Call("lib/new_name.py");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines.size(), 10u) << a.text;
  EXPECT_EQ(lines[1], Short(s_->add) +
                          " 2026-02-01 Ada Lovelace — Add the cart [path then: lib/old_name.py]");
  EXPECT_EQ(lines[2], "1  kept 1");
  EXPECT_EQ(lines[8], Short(s_->rename) + " 2026-02-20 Alan Turing — Rename old_name to new_name");
  EXPECT_EQ(lines[9], "7  added after the move");
  EXPECT_TRUE(HasNot(a.text, "this commit or older"))
      << "a rename between served paths is followed";
}

TEST_F(Blame, ALongFileIsCutWhereTheAnswerIsFullAndContinues) {
  constexpr int kTotal = 3000;
  std::vector<int> seen;
  int start = 1, pages = 0;
  while (start <= kTotal && pages < 100) {
    ++pages;
    auto a = small_.Call(
        "blame", R"({"repo":"shop","path":"long.txt","start_line":)" + std::to_string(start) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 5000u);
    const auto lines = Lines(a.text);
    const std::string prefix = Where("long.txt") + "lines " + std::to_string(start) + "–";
    ASSERT_EQ(lines[0].rfind(prefix, 0), 0u) << lines[0];
    const int last = std::stoi(lines[0].substr(prefix.size()));
    ASSERT_GE(last, start);
    // Every page opens with the commit of its first line; a commit line follows wherever the
    // commit changes; the numbered lines are exactly those the first line names.
    int expected = start;
    std::string group;
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (l.rfind("[", 0) == 0) {
        ASSERT_EQ(i, lines.size() - 1) << "a note ends the answer";
        continue;
      }
      if (l.find(" — ") != std::string::npos) {
        ASSERT_EQ(i + 1 < lines.size() && lines[i + 1].find(" — ") == std::string::npos, true)
            << "a commit line is followed by the lines it holds: " << l;
        group = l;
        continue;
      }
      ASSERT_FALSE(group.empty()) << "a line before any commit line";
      std::string num = std::to_string(expected);
      num.insert(0, 4 - num.size(), ' ');
      const bool first = expected % 100 < 50;
      ASSERT_EQ(l, num + "  " + (first ? "first " : "second ") + std::to_string(expected));
      ASSERT_EQ(group.substr(0, 12), first ? Short(s_->add) : Short(s_->fix)) << l;
      seen.push_back(expected++);
    }
    ASSERT_EQ(expected - 1, last) << a.text;
    if (last == kTotal) break;
    const std::string next = std::to_string(last + 1);
    EXPECT_EQ(lines.back(), "[lines " + next +
                                "–3000 not shown: the answer reached its limit of "
                                "5,000 characters — continue with start_line: " +
                                next + "]");
    start = last + 1;
  }
  ASSERT_EQ(seen.size(), static_cast<size_t>(kTotal));
  EXPECT_GT(pages, 10);
}

TEST_F(Blame, WhatIsNotATextFileIsRefusedSayingWhatItIs) {
  struct Case {
    std::string path, expected;
  } cases[] = {
      {"src",
       "`src` is a folder; blame takes a file: list the folder with list_files (repo: "
       "\"shop\", path: \"src\")"},
      {"cart-link",
       "`cart-link` is a symbolic link; blame takes a file. read_file shows the "
       "link's target: blame the target by its own path"},
      {"vendor/lib",
       "`vendor/lib` is a submodule: its files belong to another repository, and "
       "are not blamed here"},
      {"logo.png", "`logo.png` is a binary file (100 bytes); blame reads text files only"},
      {"over-10mb.txt",
       "`over-10mb.txt` is 10.0 MB (10,485,761 bytes), over the 10 MB this server "
       "reads; it is not read"},
      {"/",
       "path names the repository's root, a folder; blame takes a file: list the folder "
       "with list_files"},
      {"nothing.py", "no file or folder `nothing.py` in `shop` at main (" + Short(s_->head) +
                         "); list_files shows what is there"},
  };
  for (const auto& c : cases) {
    auto a = Call(c.path);
    EXPECT_TRUE(a.is_error) << c.path;
    EXPECT_EQ(a.text, c.expected);
  }
  auto empty = Call("empty.txt");
  ASSERT_FALSE(empty.is_error) << empty.text;
  EXPECT_EQ(empty.text, Where("empty.txt") + "empty file (0 lines)");
  auto missing = h_.Call("blame", R"({"repo":"shop"})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(Has(missing.text, "`path`")) << missing.text;
}

TEST_F(Blame, TheRepositoryMayBeLeftOutWhenOnlyOneIsServed) {
  auto a = h_.Call("blame", R"({"path":"src/cart.py","max_lines":1})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "1  def total(items):"));
}

// Secrets: in a blamed line, in a commit's subject, and a private key whose lines came in two
// commits, with a commit line between them.
TEST(BlameSecrets, SecretsInLinesAndInCommitLinesAreHidden) {
  TempDir tmp;
  TestRepo r(tmp / "keys");
  const std::string base64 = kBase62 + "+/";
  std::vector<std::string> key = {Chars(64, base64, 31), Chars(64, base64, 32),
                                  Chars(64, base64, 33), Chars(64, base64, 34)};
  auto pem = [&key]() {
    std::string s = "-----BEGIN RSA PRIVATE KEY-----\n";
    for (const auto& l : key) s += l + "\n";
    return s + "-----END RSA PRIVATE KEY-----\n";
  };
  r.Write("deploy/key.txt", pem());
  r.Write("settings.py", "NAME = 'shop'\n");
  CommitAs(r, "Add the deploy key", "Ada Lovelace", "2026-02-01");
  // Only the key's first line changes: BEGIN, the key's other lines and END stay the older
  // commit's, so that commit lines stand between BEGIN and the rest of the key.
  const std::string old_first = key[0];
  key[0] = Chars(64, base64, 35);
  r.Write("deploy/key.txt", pem());
  const std::string aws_id = "AKIA" + Chars(16, kUpperDigits, 36);
  const std::string ghp = "ghp_" + Chars(36, kBase62, 37);
  r.Write("settings.py", "NAME = 'shop'\nAWS_ACCESS_KEY_ID = '" + aws_id + "'\n");
  CommitAs(r, "Rotate the key; the old token was " + ghp, "Grace Hopper", "2026-02-02");
  ToolHarness h({Served("keys", r.path())});

  auto a = h.Call("blame", R"({"repo":"keys","path":"deploy/key.txt"})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines.size(), 11u) << a.text;
  EXPECT_EQ(lines[1].substr(12), " 2026-02-01 Ada Lovelace — Add the deploy key");
  EXPECT_EQ(lines[2], "1  -----BEGIN RSA PRIVATE KEY-----");
  EXPECT_EQ(lines[3].substr(12),
            " 2026-02-02 Grace Hopper — Rotate the key; the old token was [hidden: GitHub token]");
  EXPECT_EQ(lines[5], lines[1]);
  EXPECT_EQ(lines[9], "6  -----END RSA PRIVATE KEY-----");
  // The key is one value, the token in the subject another.
  EXPECT_EQ(lines[10],
            "[2 values that look like secrets are hidden as `[hidden: …]` — this "
            "server never shows them.]");
  for (const auto& l : key) EXPECT_TRUE(HasNot(a.text, l.substr(0, 16))) << a.text;
  for (size_t i : {4u, 6u, 7u, 8u}) {
    EXPECT_EQ(lines[i].find("[hidden: private key"), 3u) << lines[i];
  }

  auto settings = h.Call("blame", R"({"repo":"keys","path":"settings.py"})");
  ASSERT_FALSE(settings.is_error) << settings.text;
  EXPECT_TRUE(HasNot(settings.text, aws_id)) << settings.text;
  EXPECT_TRUE(HasNot(settings.text, ghp)) << settings.text;
  EXPECT_TRUE(Has(settings.text, "2  AWS_ACCESS_KEY_ID = '[hidden: ")) << settings.text;
  EXPECT_TRUE(Has(settings.text, "are hidden as `[hidden: …]`")) << settings.text;
}

}  // namespace
}  // namespace blame_test
}  // namespace rr::testing
