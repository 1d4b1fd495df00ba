// list_repos on mirrors: what it shows of a mirror is the mirror's last complete state -- never
// an entry read while its first sync was still running -- and no answer names the folder the
// server keeps it in (its own storage).
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_repos_mirror_test {
namespace {

// A configuration serving one mirror `acme/shop` kept at `dir`, with `state`.
Config MirrorAt(const std::string& dir, const std::shared_ptr<MirrorState>& state) {
  Config c;
  c.source = "test";
  MirrorConfig m;
  m.name = "acme/shop";
  m.url = "https://github.example/acme/shop.git";
  m.host_kind = "github";
  m.group = "github.example/acme";
  m.dir = dir;
  m.state = state;
  c.mirrors.push_back(m);
  return c;
}

// list_repos was asked while the first sync was running (the folder not a repository yet);
// the sync then finished. Before, the entry read in between was kept for 30 s: list_repos said
// "Cannot be read now: … `/…/mirrors/….git` is not a git repository that can be read" while
// read_file already read the mirror.
TEST(ListReposMirror, AfterTheFirstSyncTheMirrorIsShownAtOnce) {
  TempDir tmp;
  const std::string dir = tmp / "mirrors/6c42e1.git";
  std::filesystem::create_directories(dir);  // the sync has made the folder, nothing in it yet
  auto state = std::make_shared<MirrorState>("https://github.example/acme/shop.git",
                                             "github.example/acme", "");
  state->Began();
  ToolHarness h(ToolHarness::FromConfig{}, MirrorAt(dir, state));

  const auto syncing = h.Call("list_repos", "{}");
  EXPECT_FALSE(syncing.is_error) << syncing.text;
  EXPECT_TRUE(Has(syncing.text, "not mirrored yet (its first sync is running)")) << syncing.text;

  // The sync finishes: the folder is a repository now.
  TestRepo mirror(dir);
  mirror.Write("README.md", "# Shop\n");
  const std::string commit = mirror.Commit("Add the shop");
  state->Succeeded(static_cast<int64_t>(std::time(nullptr)));

  const auto read = h.Call("read_file", R"({"repo":"acme/shop","path":"README.md"})");
  EXPECT_FALSE(read.is_error) << read.text;
  const auto listed = h.Call("list_repos", "{}");
  EXPECT_FALSE(listed.is_error) << listed.text;
  EXPECT_TRUE(Has(listed.text, "Default branch: main @ " + commit.substr(0, 12))) << listed.text;
  EXPECT_TRUE(HasNot(listed.text, "Cannot be read now")) << listed.text;
  EXPECT_TRUE(HasNot(listed.text, tmp.path())) << listed.text;
}

// A mirror whose folder cannot be read (gone, or not a repository): every answer says so
// without naming the folder, which is the server's own storage.
TEST(ListReposMirror, NoAnswerNamesTheMirrorsFolder) {
  TempDir tmp;
  const std::string dir = tmp / "mirrors/6c42e1.git";
  std::filesystem::create_directories(dir);
  auto state = std::make_shared<MirrorState>("https://github.example/acme/shop.git", "", "");
  state->Succeeded(static_cast<int64_t>(std::time(nullptr)));  // synced, then the folder broke
  ToolHarness h(ToolHarness::FromConfig{}, MirrorAt(dir, state));
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"list_repos", "{}"},
           {"read_file", R"({"repo":"acme/shop","path":"README.md"})"},
           {"list_files", R"({"repo":"acme/shop"})"},
           {"search", R"({"pattern":"shop"})"},
           {"find_files", R"({"pattern":"*"})"},
           {"find_commits", R"({"message":"shop"})"},
           {"log", R"({"repo":"acme/shop"})"}}) {
    SCOPED_TRACE(tool);
    const auto a = h.Call(tool, args);
    EXPECT_TRUE(HasNot(a.text, tmp.path())) << a.text;
    EXPECT_TRUE(HasNot(a.text, "6c42e1")) << a.text;
    EXPECT_TRUE(Has(a.text, "cannot be opened: its local copy is not a git repository")) << a.text;
  }
}

}  // namespace
}  // namespace list_repos_mirror_test
}  // namespace rr::testing
