// Patterns an agent gives, on repositories built to make them costly, by attack:
//   - a glob of nested `**/d/**` on a tree hundreds of folders deep: find_files answers at once
//     (a backtracking matcher tries every way of spreading the folders over the **s and never
//     returns — the server is driven as a child process, so such a hang fails the test);
//   - a megabyte glob of `**/d` groups: refused at once, its bound named, the pattern not echoed;
//   - a regular expression PCRE2 gives up on ((.*a){25} on a line of 50,000 a, or a message of
//     50,001 characters): grep, search, log and find_commits say the pattern is too costly there
//     and never that nothing matches, the other lines, files and commits are still searched, and
//     a line or commit holding a value the secret filter hides is never named;
//   - a pattern that needs more than PCRE2's default JIT stack (^(a|b)*$ on that line) matches,
//     as git grep finds it.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "core/util/json_text.h"
#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace hostile_patterns_test {
namespace {

using Clock = std::chrono::steady_clock;

TEST(HostilePatterns, NestedDoubleStarsOnADeepTreeAreAnsweredAtOnceByFindFiles) {
  TempDir tmp;
  TestRepo repo(tmp / "deep");
  // 150 folders named d, one in the other, a file at the bottom and a few on the way.
  std::string folder;
  for (int i = 0; i < 150; ++i) {
    folder += "d/";
    if (i % 50 == 49) repo.Write(folder + "level.txt", "x\n");
  }
  repo.Write(folder + "bottom.txt", "x\n");
  repo.Write("top.txt", "x\n");
  repo.Commit("A deep tree");
  std::string pattern;
  for (int i = 0; i < 8; ++i) pattern += "**/d/";

  McpProcess server({RR_BINARY}, repo.path());
  server.Initialize();
  for (const std::string& last : {std::string("nomatch.txt"), std::string("bottom.txt")}) {
    SCOPED_TRACE(pattern + "**/" + last);
    const std::string request =
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"find_files",)"
        R"("arguments":{"repo":"deep","pattern":)" +
        JsonQuote(pattern + "**/" + last) + "}}}";
    const auto start = Clock::now();
    server.Send(request);
    // A generous bound: a linear matcher answers in milliseconds; the backtracking one it
    // replaced had not answered after minutes (C(150, 8) ways to try, about 10^12).
    std::optional<std::string> answer;
    while (Clock::now() - start < std::chrono::seconds(5)) {
      answer = server.ReadLine(std::chrono::milliseconds(500));
      if (answer && Has(*answer, "\"id\":7")) break;
      answer.reset();
    }
    ASSERT_TRUE(answer) << "find_files did not answer within 5 seconds";
    if (last == "nomatch.txt") {
      EXPECT_TRUE(Has(*answer, "No served file matches.")) << *answer;
    } else {
      EXPECT_TRUE(Has(*answer, folder + "bottom.txt")) << *answer;
      EXPECT_TRUE(Has(*answer, "1 file")) << *answer;
    }
  }
  server.CloseInput();
  EXPECT_EQ(server.Wait(), 0) << server.Stderr();
}

TEST(HostilePatterns, AMegabyteGlobIsRefusedAtOnceAndNotEchoed) {
  // A pattern of 200,000 `**/d` groups (a megabyte, under the request limit) on a tree 300
  // folders deep: every group stays alive on every folder, so matching it costs the path's parts
  // times the pattern's for each folder the walk enters (about 10^10 steps: the call's time
  // limit, with a server thread busy all along). A pattern is at most 1,024 bytes and 64 parts,
  // so it is refused before any folder is read, and the refusal does not echo it.
  TempDir tmp;
  TestRepo repo(tmp / "deep");
  std::string folder;
  for (int i = 0; i < 300; ++i) folder += "d/";
  repo.Write(folder + "bottom.txt", "x\n");
  repo.Commit("A deep tree");
  std::string pattern;
  for (int i = 0; i < 200000; ++i) pattern += "**/d/";
  pattern += "nomatch.txt";

  McpProcess server({RR_BINARY}, repo.path());
  server.Initialize();
  const auto start = Clock::now();
  server.Send(R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"find_files",)"
              R"("arguments":{"repo":"deep","pattern":)" +
              JsonQuote(pattern) + "}}}");
  std::optional<std::string> answer;
  while (Clock::now() - start < std::chrono::seconds(5)) {
    answer = server.ReadLine(std::chrono::milliseconds(500));
    if (answer && Has(*answer, "\"id\":8")) break;
    answer.reset();
  }
  ASSERT_TRUE(answer) << "find_files did not answer within 5 seconds";
  EXPECT_TRUE(Has(*answer, "\"isError\":true")) << answer->substr(0, 2000);
  EXPECT_TRUE(Has(*answer, "1,000,011 bytes long; a pattern is at most 1,024 bytes"))
      << answer->substr(0, 2000);
  EXPECT_LT(answer->size(), 2000u);
  server.CloseInput();
  EXPECT_EQ(server.Wait(), 0) << server.Stderr();
}

std::string Aaa(size_t n) { return std::string(n, 'a'); }

class HostileRegex : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    repo_ = new TestRepo(*tmp_ / "shop");
    // Line 1 is what PCRE2 gives up on ((.*a){25} gives up even on 30 a); `short` matches at
    // once where there are few a.
    repo_->Write("mixed.txt", Aaa(50000) + "\nshort line\nb\n");
    repo_->Write("small.txt", "one\nshort one\n");
    repo_->Write("plain.txt", "nothing here\n");
    // The same long line with a token the secret filter hides: never named.
    repo_->Write("secret.txt", "token: " + token() + " " + Aaa(50000) + "\n");
    repo_->Commit("Short message");
    repo_->Write("plain.txt", "nothing here, still\n");
    costly_commit_ = new std::string(repo_->Commit(Aaa(50001)));
    repo_->Write("plain.txt", "nothing here at all\n");
    repo_->Commit("token: " + token() + " " + Aaa(50000));
  }
  static void TearDownTestSuite() {
    delete costly_commit_;
    delete repo_;
    delete tmp_;
  }
  static std::string token() { return "ghp_" + Chars(36, kBase62, 11); }
  static TempDir* tmp_;
  static TestRepo* repo_;
  static std::string* costly_commit_;
};
TempDir* HostileRegex::tmp_ = nullptr;
TestRepo* HostileRegex::repo_ = nullptr;
std::string* HostileRegex::costly_commit_ = nullptr;

constexpr char kCostly[] = "(.*a){25}";

TEST_F(HostileRegex, GrepNamesTheLineItGaveUpOnAndSearchesTheRest) {
  ToolHarness h({Served("shop", repo_->path())});
  const auto a = h.Call("grep", R"({"repo":"shop","pattern":"(.*a){25}|short","regex":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(HasNot(a.text, "No line matches")) << a.text;
  EXPECT_TRUE(Has(a.text, "[this pattern is too costly on `mixed.txt:1`; narrow it")) << a.text;
  // The other lines and files were searched: line 2 of mixed.txt, line 2 of small.txt.
  EXPECT_TRUE(Has(a.text, "mixed.txt\n  2: short line")) << a.text;
  EXPECT_TRUE(Has(a.text, "small.txt\n  2: short one")) << a.text;
  EXPECT_TRUE(Has(a.text, "2 matching lines in 2 files")) << a.text;
  // The line holding a hidden value is not named: how costly a pattern is there would tell.
  EXPECT_TRUE(HasNot(a.text, "secret.txt")) << a.text;

  // One file: its matching line, and the line it gave up on.
  const auto one = h.Call(
      "grep", R"({"repo":"shop","pattern":"(.*a){25}|short","regex":true,"path":"mixed.txt"})");
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_TRUE(Has(one.text, "1 matching line in 1 file")) << one.text;
  EXPECT_TRUE(Has(one.text, "too costly on `mixed.txt:1`")) << one.text;
}

TEST_F(HostileRegex, GrepOnTheCostlyLineAloneNeverSaysNoLineMatches) {
  TempDir tmp;
  TestRepo repo(tmp / "one");
  repo.Write("big.txt", Aaa(50000) + "\n");
  repo.Commit("One long line");
  ToolHarness h({Served("one", repo.path())});
  for (const std::string tool : {"grep", "search"}) {
    SCOPED_TRACE(tool);
    const std::string where = tool == "grep" ? R"("repo":"one")" : R"("repos":"one")";
    const auto a = h.Call(tool, "{" + where + R"(,"pattern":"(.*a){25}","regex":true})");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(HasNot(a.text, "No line matches")) << a.text;
    EXPECT_TRUE(Has(a.text, "No line is known to match")) << a.text;
    EXPECT_TRUE(Has(a.text, "too costly on `big.txt:1`")) << a.text;
  }
  // git grep (a DFA, no backtracking) finds the line: it does match.
  EXPECT_EQ(repo.TryGit({"grep", "-c", "-E", kCostly, "main", "--", "big.txt"}).out,
            "main:big.txt:1\n");
}

TEST_F(HostileRegex, ALargerJitStackLetsANestedRepeatMatchALongLine) {
  TempDir tmp;
  TestRepo repo(tmp / "one");
  repo.Write("big.txt", Aaa(50000) + "\n");
  repo.Commit("One long line");
  ToolHarness h({Served("one", repo.path())});
  // ^(a|b)*$ keeps a frame for each character: PCRE2's 32 KB JIT stack gives up on it.
  const auto a = h.Call("grep", R"({"repo":"one","pattern":"^(a|b)*$","regex":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "1 matching line in 1 file")) << a.text;
  EXPECT_TRUE(HasNot(a.text, "too costly")) << a.text;
  EXPECT_EQ(repo.TryGit({"grep", "-c", "-E", "^(a|b)*$", "main"}).out, "main:big.txt:1\n");
}

TEST_F(HostileRegex, SearchNamesTheLineItGaveUpOnInItsRepository) {
  ToolHarness h({Served("shop", repo_->path())});
  const auto a = h.Call("search", R"({"repos":"shop","pattern":"(.*a){25}|short","regex":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(HasNot(a.text, "No line matches")) << a.text;
  EXPECT_TRUE(Has(a.text, "too costly on `mixed.txt:1` in shop; narrow it")) << a.text;
  EXPECT_TRUE(Has(a.text, "small.txt")) << a.text;
  EXPECT_TRUE(HasNot(a.text, "secret.txt")) << a.text;
}

TEST_F(HostileRegex, LogAndFindCommitsNameTheCommitTheyGaveUpOn) {
  ToolHarness h({Served("shop", repo_->path())});
  const std::string costly = Short(*costly_commit_);
  const auto log = h.Call("log", R"({"repo":"shop","message":"(.*a){25}|^Short"})");
  ASSERT_FALSE(log.is_error) << log.text;
  EXPECT_TRUE(Has(log.text, "[this pattern is too costly on commit " + costly + "; narrow it"))
      << log.text;
  EXPECT_TRUE(Has(log.text, "Short message")) << log.text;  // still searched
  EXPECT_TRUE(Has(log.text, "1 commit, newest first")) << log.text;
  // The commit whose message holds a hidden value (the newest, also too costly) is never named:
  // the note names exactly one commit, and no line shows the newest.
  EXPECT_TRUE(HasNot(log.text, "\n" + Short(repo_->Rev("main")))) << log.text;

  const auto found = h.Call("find_commits", R"({"repos":"shop","message":"(.*a){25}|^Short"})");
  ASSERT_FALSE(found.is_error) << found.text;
  EXPECT_TRUE(Has(found.text, "too costly on commit " + costly + "; narrow it")) << found.text;
  EXPECT_TRUE(Has(found.text, "Short message")) << found.text;
  EXPECT_TRUE(HasNot(found.text, Short(repo_->Rev("main")))) << found.text;
  EXPECT_TRUE(Has(found.text, "too costly on commit " + costly + ";")) << found.text;

  // Only the costly commit in range: never "No commit matches".
  const std::string only = R"("message":"^a(.*a){25}$")";
  for (const std::string& call :
       {R"({"repo":"shop",)" + only + "}", R"({"repos":"shop",)" + only + "}"}) {
    const std::string tool = call.find("\"repos\"") != std::string::npos ? "find_commits" : "log";
    SCOPED_TRACE(tool);
    const auto a = h.Call(tool, call);
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(HasNot(a.text, "No commit matches")) << a.text;
    EXPECT_TRUE(Has(a.text, "No commit is known to match")) << a.text;
    EXPECT_TRUE(Has(a.text, "too costly on commit " + costly)) << a.text;
  }
  // git log (no backtracking) finds it.
  EXPECT_TRUE(Has(repo_->Git({"log", "-E", "--format=%H", "--grep", kCostly}), *costly_commit_));
}

}  // namespace
}  // namespace hostile_patterns_test
}  // namespace rr::testing
