// The host link under an answer's header (core/answer/host_links.h), end to end through the
// server: a mirror of a GitHub, GitLab or Bitbucket repository gets "On GitHub: <url>" naming
// the commit read and, for a file, the lines shown; a local repository gets none.
#include <gtest/gtest.h>

#include <ctime>
#include <memory>
#include <string>

#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace host_links_test {
namespace {

class HostLinksTest : public ::testing::Test {
 protected:
  HostLinksTest() : repo_(dir_.path()) {
    std::string app;
    for (int i = 1; i <= 50; ++i) app += "line " + std::to_string(i) + " of the app\n";
    repo_.Write("src/app.py", app);
    repo_.Write("docs/a b#c.md", "spaces and a hash\n");
    std::string big;
    for (int i = 1; i <= 900; ++i) big += "a longer line, number " + std::to_string(i) + "\n";
    repo_.Write("src/big.txt", big);
    base_ = repo_.Commit("first");
    repo_.Write("src/app.py", app + "one more\n");
    head_ = repo_.Commit("second");
  }

  // A configuration serving the test repository as a mirror of `url` (synced), and as a local
  // repository `local`.
  Config Mirrored(const std::string& url, const std::string& kind, size_t answer = 40000) {
    Config c;
    c.source = "test";
    c.answer_characters = answer;
    c.repos.push_back(Served("local", repo_.path()));
    MirrorConfig m;
    m.name = "shop";
    m.url = url;
    m.host_kind = kind;
    m.dir = repo_.path();
    m.state = std::make_shared<MirrorState>(url, "", "");
    m.state->set_host_kind(kind);
    m.state->Succeeded(static_cast<int64_t>(std::time(nullptr)));
    c.mirrors.push_back(m);
    return c;
  }

  static std::string SecondLine(const std::string& text) {
    const size_t a = text.find('\n');
    if (a == std::string::npos) return "";
    const size_t b = text.find('\n', a + 1);
    return text.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  }

  TempDir dir_;
  TestRepo repo_;
  std::string base_, head_;
};

TEST_F(HostLinksTest, GitHubLinksEachPageToTheCommitRead) {
  ToolHarness h(ToolHarness::FromConfig{}, Mirrored("https://github.com/acme/shop.git", "github"));
  const std::string web = "https://github.com/acme/shop";

  auto read = h.Call("read_file", R"({"repo":"shop","path":"src/app.py","max_lines":40})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_EQ(SecondLine(read.text), "On GitHub: " + web + "/blob/" + head_ + "/src/app.py#L1-L40");

  auto window = h.Call("read_file", R"({"repo":"shop","path":"src/app.py","start_line":7,)"
                                    R"("max_lines":3,"ref":")" +
                                        base_ + R"("})");
  EXPECT_EQ(SecondLine(window.text), "On GitHub: " + web + "/blob/" + base_ + "/src/app.py#L7-L9");

  auto blame = h.Call("blame", R"({"repo":"shop","path":"src/app.py","start_line":49})");
  ASSERT_FALSE(blame.is_error) << blame.text;
  EXPECT_EQ(SecondLine(blame.text), "On GitHub: " + web + "/blob/" + head_ + "/src/app.py#L49-L51");

  auto folder = h.Call("list_files", R"({"repo":"shop","path":"src"})");
  EXPECT_EQ(SecondLine(folder.text), "On GitHub: " + web + "/tree/" + head_ + "/src");
  auto root = h.Call("list_files", R"({"repo":"shop"})");
  EXPECT_EQ(SecondLine(root.text), "On GitHub: " + web + "/tree/" + head_);

  auto commit = h.Call("show_commit", R"({"repo":"shop","commit":"main~1"})");
  ASSERT_FALSE(commit.is_error) << commit.text;
  EXPECT_EQ(SecondLine(commit.text), "On GitHub: " + web + "/commit/" + base_);

  auto diff = h.Call("diff", R"({"repo":"shop","base":")" + base_ + R"(","head":"main"})");
  ASSERT_FALSE(diff.is_error) << diff.text;
  EXPECT_EQ(SecondLine(diff.text), "On GitHub: " + web + "/compare/" + base_ + "..." + head_);

  // Paths are percent-encoded.
  auto odd = h.Call("read_file", R"({"repo":"shop","path":"docs/a b#c.md"})");
  EXPECT_EQ(SecondLine(odd.text), "On GitHub: " + web + "/blob/" + head_ + "/docs/a%20b%23c.md#L1");

  // list_repos: the repository's page, under where it is mirrored from; none for a local one.
  auto repos = h.Call("list_repos");
  EXPECT_NE(repos.text.find("Mirrored from https://github.com/acme/shop.git, synced "),
            std::string::npos)
      << repos.text;
  EXPECT_NE(repos.text.find("\nOn GitHub: https://github.com/acme/shop\n"), std::string::npos)
      << repos.text;
  EXPECT_EQ(repos.text.find("On GitHub: https://github.com/acme/shop\n", 0),
            repos.text.rfind("On GitHub: https://github.com/acme/shop\n"))
      << "one link, for the mirror only: " << repos.text;

  // Tools without a page of their own get no line.
  auto log = h.Call("log", R"({"repo":"shop"})");
  EXPECT_EQ(log.text.find("On GitHub"), std::string::npos) << log.text;
}

TEST_F(HostLinksTest, ALocalRepositoryHasNone) {
  ToolHarness h(ToolHarness::FromConfig{}, Mirrored("https://github.com/acme/shop.git", "github"));
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"read_file", R"({"repo":"local","path":"src/app.py"})"},
           {"list_files", R"({"repo":"local"})"},
           {"show_commit", R"({"repo":"local","commit":"main"})"},
           {"diff", R"({"repo":"local","base":"main~1","head":"main"})"}}) {
    auto a = h.Call(tool, args);
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_EQ(a.text.find("On GitHub"), std::string::npos) << tool << ": " << a.text;
    EXPECT_EQ(a.text.find("https://"), std::string::npos) << tool << ": " << a.text;
  }
}

TEST_F(HostLinksTest, TheLinkNamesTheLinesTheCapKept) {
  // 900 lines of about 30 characters do not fit in 5,000: the link names the lines shown.
  ToolHarness h(ToolHarness::FromConfig{},
                Mirrored("https://github.com/acme/shop.git", "github", 5000));
  auto read = h.Call("read_file", R"({"repo":"shop","path":"src/big.txt","start_line":10})");
  ASSERT_FALSE(read.is_error) << read.text;
  const size_t from = read.text.find("lines 10–");
  ASSERT_NE(from, std::string::npos) << read.text.substr(0, 200);
  const size_t at = from + std::string("lines 10–").size();
  const std::string last = read.text.substr(at, read.text.find(' ', at) - at);
  ASSERT_LT(std::stoi(last), 900);
  EXPECT_EQ(SecondLine(read.text),
            "On GitHub: https://github.com/acme/shop/blob/" + head_ + "/src/big.txt#L10-L" + last);
  EXPECT_LE(read.text.size(), 5000u);
}

TEST_F(HostLinksTest, GitLabAndBitbucketLinks) {
  {
    ToolHarness h(ToolHarness::FromConfig{},
                  Mirrored("https://gitlab.example.com/platform/shop.git", "gitlab"));
    auto read = h.Call("read_file", R"({"repo":"shop","path":"src/app.py","max_lines":40})");
    EXPECT_EQ(SecondLine(read.text), "On GitLab: https://gitlab.example.com/platform/shop/-/blob/" +
                                         head_ + "/src/app.py#L1-40");
    auto diff = h.Call("diff", R"({"repo":"shop","base":"main~1","head":"main"})");
    EXPECT_EQ(
        SecondLine(diff.text),
        "On GitLab: https://gitlab.example.com/platform/shop/-/compare/" + base_ + "..." + head_);
  }
  {
    ToolHarness h(ToolHarness::FromConfig{},
                  Mirrored("https://bitbucket.org/acme/shop.git", "bitbucket"));
    auto read = h.Call("read_file", R"({"repo":"shop","path":"src/app.py","max_lines":40})");
    EXPECT_EQ(SecondLine(read.text), "On Bitbucket: https://bitbucket.org/acme/shop/src/" + head_ +
                                         "/src/app.py#lines-1:40");
    auto commit = h.Call("show_commit", R"({"repo":"shop","commit":"main"})");
    EXPECT_EQ(SecondLine(commit.text),
              "On Bitbucket: https://bitbucket.org/acme/shop/commits/" + head_);
    // Bitbucket has no comparison page: no line.
    auto diff = h.Call("diff", R"({"repo":"shop","base":"main~1","head":"main"})");
    ASSERT_FALSE(diff.is_error) << diff.text;
    EXPECT_EQ(diff.text.find("On Bitbucket"), std::string::npos) << diff.text;
  }
}

TEST_F(HostLinksTest, AHostKindWithoutAPluginGetsNoLink) {
  ToolHarness h(ToolHarness::FromConfig{},
                Mirrored("https://git.example.com/acme/shop.git", "gitea"));
  auto read = h.Call("read_file", R"({"repo":"shop","path":"src/app.py"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_EQ(read.text.find("On "), std::string::npos) << read.text.substr(0, 300);
}

}  // namespace
}  // namespace host_links_test
}  // namespace rr::testing
