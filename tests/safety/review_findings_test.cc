// Holes a review found after the first suite, each built for real and proven closed.
#include <gtest/gtest.h>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace review_findings_test {
namespace {

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// refs/stash holds uncommitted and untracked files; only branches, remote-tracking branches,
// tags, HEAD and commit ids may be read.
TEST(HostileReview, StashIsNotARefAnAgentCanRead) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "committed\n");
  repo.Commit("first");
  repo.Write("a.txt", "UNCOMMITTED CHANGE\n");
  repo.Write("new.txt", "UNTRACKED FILE\n");
  repo.Git({"stash", "-q", "-u"});
  ASSERT_EQ(repo.TryGit({"rev-parse", "--verify", "-q", "refs/stash"}).status, 0);
  ToolHarness h({Served("shop", repo.path())});
  for (const char* ref : {"stash", "refs/stash", "stash^1", "stash^3", "stash~0"}) {
    for (const char* path : {"a.txt", "new.txt"}) {
      auto a = h.Call("read_file", std::string(R"({"repo":"shop","ref":")") + ref +
                                       R"(","path":")" + path + "\"}");
      EXPECT_TRUE(a.is_error) << ref << " " << path << ": " << a.text;
      EXPECT_FALSE(Contains(a.text, "UNCOMMITTED") || Contains(a.text, "UNTRACKED")) << a.text;
      EXPECT_TRUE(Contains(a.text, "is not a branch, tag or commit")) << a.text;
    }
  }
  // A symbolic branch pointing at the stash is refused the same way.
  repo.Git({"symbolic-ref", "refs/heads/sneaky", "refs/stash"});
  auto s = h.Call("read_file", R"({"repo":"shop","ref":"sneaky","path":"a.txt"})");
  EXPECT_TRUE(s.is_error) << s.text;
  EXPECT_FALSE(Contains(s.text, "UNCOMMITTED")) << s.text;
}

// A short id could tell which objects exist (an excluded file's contents, guessed and hashed):
// ids need 7 hex digits, and an ambiguous one answers exactly as an unknown name.
TEST(HostileReview, ShortIdsAnswerAsUnknownNames) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "a\n");
  const std::string commit = repo.Commit("first");
  ToolHarness h({Served("shop", repo.path())});
  auto unknown = h.Call("read_file", R"({"repo":"shop","ref":"abcdef0","path":"a.txt"})");
  ASSERT_TRUE(unknown.is_error);
  auto four = h.Call("read_file",
                     R"({"repo":"shop","ref":")" + commit.substr(0, 4) + R"(","path":"a.txt"})");
  EXPECT_TRUE(four.is_error) << four.text;
  EXPECT_EQ(four.text, unknown.text.replace(unknown.text.find("abcdef0"), 7, commit.substr(0, 4)));
  auto seven = h.Call("read_file",
                      R"({"repo":"shop","ref":")" + commit.substr(0, 7) + R"(","path":"a.txt"})");
  EXPECT_FALSE(seven.is_error) << seven.text;
  for (int len = 4; len <= 6; ++len) {
    auto a = h.Call("read_file",
                    R"({"repo":"shop","ref":")" + commit.substr(0, len) + R"(","path":"a.txt"})");
    EXPECT_TRUE(a.is_error) << a.text;
    EXPECT_FALSE(Contains(a.text, "ambiguous")) << a.text;
  }
}

TEST(HostileReview, ABooleanIsNotAnInteger) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "a\n");
  repo.Commit("first");
  ToolHarness h({Served("shop", repo.path())});
  auto a = h.Call("read_file", R"({"repo":"shop","path":"a.txt","start_line":true})");
  EXPECT_TRUE(a.is_error) << a.text;
  EXPECT_TRUE(Contains(a.text, "`start_line` must be an integer")) << a.text;
}

// C1 controls (CSI, NEL) and the marks that reorder shown text are escaped like C0 controls.
TEST(HostileReview, C1ControlsAndBidiOverridesInNamesAreEscaped) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write(
      "a\xC2\x9B"
      "31mred.txt",
      "x\n");
  repo.Write("invoice\xE2\x80\xAEtxt.exe", "x\n");
  repo.Write("body.txt", "line with \xC2\x85 NEL and \xE2\x80\xAE override\n");
  repo.Commit(
      "subject with \xC2\x9B"
      "2J");
  ToolHarness h({Served("shop", repo.path())});
  auto list = h.Call("list_files", R"({"repo":"shop"})");
  ASSERT_FALSE(list.is_error) << list.text;
  EXPECT_TRUE(Contains(list.text, "a\\u009B31mred.txt")) << list.text;
  EXPECT_TRUE(Contains(list.text, "invoice\\u202Etxt.exe")) << list.text;
  auto refs = h.Call("list_refs", R"({"repo":"shop"})");
  EXPECT_TRUE(Contains(refs.text, "subject with \\u009B2J")) << refs.text;
  auto body = h.Call("read_file", R"({"repo":"shop","path":"body.txt"})");
  EXPECT_TRUE(Contains(body.text, "with \\u0085 NEL and \\u202E override")) << body.text;
  for (const auto& t : {list.text, refs.text, body.text}) {
    EXPECT_FALSE(Contains(t, "\xC2\x9B") || Contains(t, "\xC2\x85") || Contains(t, "\xE2\x80\xAE"));
  }
}

// libgit2's messages quote the repository's own names: shown escaped too.
TEST(HostileReview, GitErrorMessagesQuotingRepositoryNamesAreEscaped) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "a\n");
  repo.Commit("first");
  repo.Write(".git/HEAD", "ref: refs/heads/x\x1b[2J\x1b]0;pwned\x07y\n");
  ToolHarness h({Served("shop", repo.path())});
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"list_repos", "{}"}, {"read_file", R"({"repo":"shop","path":"a.txt"})"}}) {
    auto a = h.Call(tool, args);
    EXPECT_FALSE(Contains(a.text, "\x1b") || Contains(a.text, "\x07")) << tool << ": " << a.text;
  }
}

// list_repos counts what list_refs lists: refs that reach a commit.
TEST(HostileReview, ListReposCountsOnlyRefsThatReachACommit) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "a\n");
  repo.Commit("first");
  const std::string blob = repo.Blob("not a commit\n");
  repo.Write(".git/refs/heads/blob-branch", blob + "\n");  // git itself refuses to write it
  repo.Git({"tag", "-a", "-m", "a tag of a blob", "blob-tag", blob});
  ToolHarness h({Served("shop", repo.path())});
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(Contains(repos.text, "1 branch, 0 tags")) << repos.text;
  auto refs = h.Call("list_refs", R"({"repo":"shop"})");
  EXPECT_TRUE(Contains(refs.text, "1 branch, 0 tags")) << refs.text;
}

}  // namespace
}  // namespace review_findings_test
}  // namespace rr::testing
