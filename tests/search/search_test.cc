// search: many repositories at once, each checked against `git grep -m 5` on its default
// branch; the heading; repos and path; a repository that fails to open named in its place
// while the others answer.
#include <gtest/gtest.h>

#include "tests/search/search_kit.h"

namespace rr::testing::search::search_tool {
namespace {

std::string Args(const std::string& pattern, const std::string& more = "") {
  return "{\"pattern\":" + Quoted(pattern) + (more.empty() ? "" : "," + more) + "}";
}

TEST(Search, TheSeedsHeadingAndLines) {
  TempDir dir;
  TestRepo shop(dir / "shop"), billing(dir / "billing");
  shop.Write("config/settings.yml", "currency: EUR\n");
  shop.Commit("one");
  billing.Write("src/invoice.py", "x = 1\nCURRENCY = settings['currency']\n");
  billing.Commit("one");
  ToolHarness h({Served("shop", shop.path()), Served("billing", billing.path())});
  const auto answer = h.Call("search", Args("currency"));
  ASSERT_FALSE(answer.is_error) << answer.text;
  EXPECT_EQ(answer.text,
            "`currency` in 2 repositories (their default branches): 2 lines in 2 files of 2 "
            "repositories — at most 5 lines a file.\n"
            "## shop · main @ " +
                shop.Rev("main").substr(0, 12) +
                " (2026-01-01)\n"
                "config/settings.yml\n"
                "  1: currency: EUR\n"
                "## billing · main @ " +
                billing.Rev("main").substr(0, 12) +
                " (2026-01-01)\n"
                "src/invoice.py\n"
                "  2: CURRENCY = settings['currency']");
}

TEST(Search, ManyRepositoriesEachAsGitGrepFindsAtItsDefaultBranch) {
  TempDir dir;
  std::vector<std::unique_ptr<TestRepo>> repos;
  std::vector<RepoConfig> config;
  for (int r = 0; r < 6; ++r) {
    const std::string name = "repo" + std::to_string(r);
    repos.push_back(std::make_unique<TestRepo>(dir / name));
    TestRepo& repo = *repos.back();
    for (int f = 0; f < 8; ++f) {
      std::string text;
      for (int l = 0; l < 20; ++l) {
        text += ((l * 7 + f * 3 + r) % 5 == 0 ? "order total " : "line ") + std::to_string(l) +
                ((l + r) % 4 == 0 ? " ORDER\n" : "\n");
      }
      repo.Write("src/m" + std::to_string(f) + "/file.txt", text);
    }
    repo.Write("top.txt", r % 2 ? "order\n" : "none\n");
    repo.Commit("one");
    if (r == 3) {
      // Its default branch is another one; an older commit on main holds other lines.
      repo.Git({"checkout", "-q", "-b", "trunk"});
      repo.Write("trunk.txt", "order on trunk\n");
      repo.Commit("trunk");
    }
    config.push_back(Served(name, repo.path()));
  }
  ToolHarness h(config);
  for (const std::string& more :
       {std::string(), std::string(R"("ignore_case":true)"), std::string(R"("regex":true)"),
        std::string(R"("path":"src/m2")")}) {
    SCOPED_TRACE(more);
    const std::string pattern = more.find("regex") != std::string::npos ? "order|ORDER$" : "order";
    const auto answer = h.Call("search", Args(pattern, more));
    ASSERT_FALSE(answer.is_error) << answer.text;
    for (size_t r = 0; r < repos.size(); ++r) {
      const std::string name = "repo" + std::to_string(r);
      std::vector<std::string> options = {more.find("regex") != std::string::npos ? "-E" : "-F"};
      if (more.find("ignore_case") != std::string::npos) options.push_back("-i");
      std::vector<std::string> pathspec;
      if (more.find("path") != std::string::npos) pathspec.push_back("src/m2");
      const std::string head = repos[r]->Git({"symbolic-ref", "--short", "HEAD"});
      EXPECT_EQ(HitsIn(answer.text, name),
                GitGrep(*repos[r], head, options, pattern, pathspec, "5"))
          << name << "\n"
          << answer.text;
    }
  }
  // repos: only those named, in the order given.
  const auto two = h.Call("search", Args("order", R"("repos":"repo3, repo1")"));
  EXPECT_NE(two.text.find("in 2 repositories"), std::string::npos) << two.text;
  EXPECT_LT(two.text.find("## repo3 "), two.text.find("## repo1 "));
  EXPECT_EQ(two.text.find("## repo0 "), std::string::npos);
  const Hits repo3 = HitsIn(two.text, "repo3");
  ASSERT_FALSE(repo3.empty()) << two.text;
  EXPECT_EQ(repo3.back(), Hits::value_type("trunk.txt", {"1:order on trunk"}));
  EXPECT_TRUE(h.Call("search", Args("order", R"("repos":"nope")")).is_error);
  // As a list of names, as read_file's paths are given: the same answer.
  const auto listed = h.Call("search", Args("order", R"("repos":["repo3", "repo1"])"));
  EXPECT_FALSE(listed.is_error) << listed.text;
  EXPECT_EQ(listed.text, two.text);
  const auto unknown = h.Call("search", Args("order", R"("repos":["repo3", "nope"])"));
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("no repository named `nope`"), std::string::npos) << unknown.text;
  const auto not_names = h.Call("search", Args("order", R"("repos":["repo3", 1])"));
  EXPECT_TRUE(not_names.is_error);
  EXPECT_NE(not_names.text.find("argument `repos`: item 2 must be a string"), std::string::npos)
      << not_names.text;
}

// search, find_files and find_commits take `repos` as read_file takes `paths`: tools/list says
// an array of strings (a string of names separated by commas is read too, as before).
TEST(Search, ToolsListDescribesReposAsAnArrayOfStrings) {
  TempDir dir;
  TestRepo shop(dir / "shop");
  shop.Write("a.txt", "x\n");
  shop.Commit("one");
  ToolHarness h({Served("shop", shop.path())});
  auto list = h.Raw(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", 3);
  auto tools = list->getObject("result")->getArray("tools");
  size_t seen = 0;
  for (size_t i = 0; i < tools->size(); ++i) {
    auto t = tools->getObject(static_cast<unsigned>(i));
    auto props = t->getObject("inputSchema")->getObject("properties");
    if (!props->has("repos")) continue;
    SCOPED_TRACE(t->getValue<std::string>("name"));
    ++seen;
    auto repos = props->getObject("repos");
    EXPECT_EQ(repos->getValue<std::string>("type"), "array");
    EXPECT_EQ(repos->getObject("items")->getValue<std::string>("type"), "string");
    EXPECT_NE(repos->getValue<std::string>("description").find("[\"shop\", \"billing\"]"),
              std::string::npos);
  }
  EXPECT_EQ(seen, 3u);  // search, find_files, find_commits
}

TEST(Search, ARepositoryThatFailsToOpenIsNamedWhileTheOthersAnswer) {
  TempDir dir;
  TestRepo shop(dir / "shop");
  shop.Write("a.txt", "needle\n");
  shop.Commit("one");
  TestRepo gone(dir / "gone");
  gone.Write("a.txt", "needle\n");
  gone.Commit("one");
  ToolHarness h({Served("gone", gone.path()), Served("shop", shop.path())});
  rr::testing::Run({"rm", "-rf", gone.path()}, dir.path());
  const auto answer = h.Call("search", Args("needle"));
  ASSERT_FALSE(answer.is_error) << answer.text;
  EXPECT_NE(answer.text.find("## gone — not searched: "), std::string::npos) << answer.text;
  EXPECT_EQ(HitsIn(answer.text, "shop"), GitGrep(shop, "main", {"-F"}, "needle"));
  // Alone, it is an error saying why.
  EXPECT_TRUE(h.Call("search", Args("needle", R"("repos":"gone")")).is_error);
}

// Hundreds of repositories that fail to open (their folders gone) before the one that matches:
// the first few are named with why, the rest counted in one note, and the match still shows
// within the cap (each failure used to take a line of its own, and they filled the answer).
TEST(Search, ManyRepositoriesThatFailToOpenLeaveRoomForTheMatches) {
  TempDir dir;
  TestRepo shop(dir / "shop");
  shop.Write("a.txt", "needle\n");
  shop.Commit("one");
  std::vector<RepoConfig> repos;
  for (int i = 0; i < 400; ++i) {
    const std::string name = "gone-repository-with-a-long-name-" + std::to_string(1000 + i);
    TestRepo gone(dir / name);
    gone.Write("a.txt", "needle\n");
    gone.Commit("one");
    repos.push_back(Served(name, gone.path()));
  }
  repos.push_back(Served("shop", shop.path()));
  const size_t cap = 20000;
  ToolHarness h(repos, cap);
  for (int i = 0; i < 400; ++i) {
    rr::testing::Run(
        {"rm", "-rf", dir / ("gone-repository-with-a-long-name-" + std::to_string(1000 + i))},
        dir.path());
  }
  const auto answer = h.Call("search", Args("needle"));
  ASSERT_FALSE(answer.is_error) << answer.text.substr(0, 3000);
  EXPECT_LE(answer.text.size(), cap);
  EXPECT_NE(answer.text.find("## gone-repository-with-a-long-name-1000 — not searched: "),
            std::string::npos)
      << answer.text.substr(0, 3000);
  EXPECT_EQ(answer.text.find("## gone-repository-with-a-long-name-1005 — not searched"),
            std::string::npos)
      << answer.text.substr(0, 3000);
  EXPECT_NE(answer.text.find("[395 more repositories not searched"), std::string::npos)
      << answer.text.substr(0, 3000);
  EXPECT_NE(answer.text.find(" and 385 more]"), std::string::npos) << answer.text.substr(0, 3000);
  EXPECT_EQ(HitsIn(answer.text, "shop"), GitGrep(shop, "main", {"-F"}, "needle"));
  // All of them gone: the error names the first few and counts the rest, within the cap too.
  std::string names;
  for (int i = 0; i < 400; ++i) {
    names += std::string(names.empty() ? "" : ",") + "\"gone-repository-with-a-long-name-" +
             std::to_string(1000 + i) + "\"";
  }
  const auto all_gone = h.Call("search", Args("needle", "\"repos\":[" + names + "]"));
  EXPECT_TRUE(all_gone.is_error);
  EXPECT_NE(all_gone.text.find("[395 more repositories not searched"), std::string::npos)
      << all_gone.text.substr(0, 3000);
  EXPECT_LE(all_gone.text.size(), cap);
}

TEST(Search, AnAnswerLargerThanTheCapSaysHowToNarrow) {
  TempDir dir;
  TestRepo shop(dir / "shop");
  for (int f = 0; f < 200; ++f) shop.Write("f" + std::to_string(f) + ".txt", "needle here\n");
  shop.Commit("one");
  ToolHarness h({Served("shop", shop.path())}, 3000);
  const auto answer = h.Call("search", Args("needle"));
  EXPECT_NE(answer.text.find("narrow with repos, path"), std::string::npos) << answer.text;
  EXPECT_NE(answer.text.find("200 lines in 200 files"), std::string::npos) << answer.text;
}

// A repository where `path` is missing (or kept out) is named, not passed over in silence.
TEST(Search, RepositoriesWithoutThePathAreNamed) {
  TempDir dir;
  TestRepo shop(dir / "shop"), billing(dir / "billing"), docs(dir / "docs");
  shop.Write("src/a.txt", "currency\n");
  shop.Commit("one");
  billing.Write("lib/b.txt", "currency\n");
  billing.Commit("one");
  docs.Write("src/secret/c.txt", "currency\n");
  docs.Commit("one");
  RepoConfig kept_out = Served("docs", docs.path());
  kept_out.exclude = {"src/**"};
  ToolHarness h({Served("shop", shop.path()), Served("billing", billing.path()), kept_out});
  const auto answer = h.Call("search", Args("currency", R"("path":"src")"));
  ASSERT_FALSE(answer.is_error) << answer.text;
  EXPECT_NE(answer.text.find("src/a.txt"), std::string::npos) << answer.text;
  EXPECT_NE(answer.text.find("[no src to search in 2 repositories (missing there, or not "
                             "served): billing, docs]"),
            std::string::npos)
      << answer.text;
}

}  // namespace
}  // namespace rr::testing::search::search_tool
