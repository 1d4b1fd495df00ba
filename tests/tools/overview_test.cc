// overview on repositories the tests build: the index file (INDEX.md before index.md before
// README.md), whole up to half of the answer with the read_file call that continues it; every
// served file with its size (as git gives it), folders once with their files beneath; what is
// kept out never appears; a cut listing pages on with skip to the last file.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace overview_test {
namespace {

class Overview : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string v1, head;
  };
  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("README.md", "# Shop\nRead me.\n");
    r.Write("src/app.py", "print('app')\n");
    s_->v1 = r.Commit("First");  // 2026-01-01
    r.Git({"tag", "v1"});
    r.Write("INDEX.md", "# Map\n- src/: the code\n- docs/: the guide\n");
    r.Write("index.md", "lower case index\n");
    r.Write("docs/guide.md", std::string(1500, 'g') + "\n");
    r.Write("src/api/routes.py", "routes = []\n");
    r.Write("src/zz.py", "z\n");
    r.Write("config/prod.yml", "mode: prod\n");
    r.Write("config/dev.yml", "mode: dev\n");
    r.Write(".env", "TOKEN=1\n");
    r.Write("keys/id_rsa", "not a key\n");
    AddSymlink(r, "current", "src/app.py");
    s_->head = r.Commit("Second");  // 2026-01-02
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  static RepoConfig Config(std::vector<std::string> exclude) {
    RepoConfig rc = Served("shop", s_->repo.path());
    rc.exclude = std::move(exclude);
    return rc;
  }
  static std::string Where() { return "shop · main @ " + Short(s_->head) + " (2026-01-02) · "; }

  static Shared* s_;
  ToolHarness h_{{Config({"config/prod.*"})}};
};
Overview::Shared* Overview::s_ = nullptr;

TEST_F(Overview, TheIndexThenEveryServedFileWithItsSize) {
  auto a = h_.Call("overview", R"({"repo":"shop"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "overview: INDEX.md, 9 served files\n"
                        "=== INDEX.md · 3 lines\n"
                        "# Map\n"
                        "- src/: the code\n"
                        "- docs/: the guide\n"
                        "=== 9 served files, with their sizes\n"
                        "INDEX.md  42 B\n"
                        "README.md  16 B\n"
                        "config/\n"
                        "  dev.yml  10 B\n"
                        "current (link)\n"
                        "docs/\n"
                        "  guide.md  1.5 KB\n"
                        "index.md  17 B\n"
                        "src/\n"
                        "  api/\n"
                        "    routes.py  12 B\n"
                        "  app.py  13 B\n"
                        "  zz.py  2 B");
  // What include / exclude and the credential rule keep out is not there.
  for (const char* kept_out : {"prod.yml", ".env", "id_rsa", "keys/", "mode: prod"}) {
    EXPECT_TRUE(HasNot(a.text, kept_out));
  }
}

// Each size is the one git gives (git cat-file -s), and each file is git's (git ls-tree -r).
TEST_F(Overview, SizesAndFilesAreGits) {
  ToolHarness whole({Served("shop", s_->repo.path())});
  auto a = whole.Call("overview", R"({"repo":"shop","skip":0})");
  ASSERT_FALSE(a.is_error) << a.text;
  std::istringstream tree(s_->repo.Git({"ls-tree", "-r", "-l", "main"}));
  std::string line;
  size_t n = 0;
  while (std::getline(tree, line)) {
    // <mode> <type> <object> <size>\t<path>
    std::istringstream fields(line.substr(0, line.find('\t')));
    std::string mode, type, object, size;
    fields >> mode >> type >> object >> size;
    const std::string path = line.substr(line.find('\t') + 1);
    if (path == ".env" || path == "keys/id_rsa") continue;  // files named for credentials
    ++n;
    const std::string name =
        path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    const size_t depth = static_cast<size_t>(std::count(path.begin(), path.end(), '/'));
    const std::string shown = std::string(2 * depth, ' ') + name;
    if (mode == "120000") {
      EXPECT_TRUE(Has(a.text, "\n" + shown + " (link)\n"));
    } else if (std::stoul(size) < 1024) {
      EXPECT_TRUE(Has(a.text, "\n" + shown + "  " + size + " B"));
    } else {
      char kb[32];
      std::snprintf(kb, sizeof kb, "%.1f KB", std::stoul(size) / 1024.0);
      EXPECT_TRUE(Has(a.text, "\n" + shown + "  " + kb));
    }
  }
  EXPECT_TRUE(Has(a.text, "overview: INDEX.md, " + std::to_string(n) + " served files\n"));
}

TEST_F(Overview, TheFirstOfIndexMdIndexMdAndReadmeServedIsTheIndex) {
  // INDEX.md kept out: index.md; both kept out: README.md; all three: none.
  ToolHarness lower({Config({"INDEX.md"})});
  auto a = lower.Call("overview", R"({"repo":"shop"})");
  EXPECT_TRUE(Has(a.text, "overview: index.md, ")) << a.text;
  EXPECT_TRUE(Has(a.text, "=== index.md · 1 line\nlower case index\n"));
  EXPECT_TRUE(HasNot(a.text, "# Map"));
  ToolHarness readme({Config({"INDEX.md", "index.md"})});
  auto b = readme.Call("overview", R"({"repo":"shop"})");
  EXPECT_TRUE(Has(b.text, "=== README.md · 2 lines\n# Shop\nRead me.\n")) << b.text;
  ToolHarness none({Config({"*.md"})});
  auto c = none.Call("overview", R"({"repo":"shop"})");
  EXPECT_TRUE(Has(c.text, "overview: no INDEX.md, index.md or README.md at the root, ")) << c.text;
  EXPECT_TRUE(Has(c.text, "\n=== 6 served files, with their sizes\n")) << c.text;
  // At an older ref, what was there then: README.md.
  auto old = h_.Call("overview", R"({"repo":"shop","ref":"v1"})");
  EXPECT_EQ(old.text, "shop · v1 @ " + Short(s_->v1) +
                          " (2026-01-01) · overview: README.md, 2 served files\n"
                          "=== README.md · 2 lines\n# Shop\nRead me.\n"
                          "=== 2 served files, with their sizes\n"
                          "README.md  16 B\nsrc/\n  app.py  13 B");
}

TEST_F(Overview, AnIndexThatIsALinkIsNotFollowed) {
  TempDir tmp;
  TestRepo r(tmp / "linked");
  r.Write("docs/README.md", "# The real one\n");
  AddSymlink(r, "README.md", "docs/README.md");
  r.Commit("Linked");
  ToolHarness h({Served("linked", r.path())});
  auto a = h.Call("overview", "{}");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text,
                  "overview: no INDEX.md, index.md or README.md at the root, 2 served "
                  "files\n(README.md is a symbolic link to `docs/README.md`, not "
                  "followed: read the target by its own path)\n"));
}

// A long index takes at most half of the answer and ends with the read_file call that goes on
// from the first line it left out.
TEST_F(Overview, ALongIndexTakesHalfTheAnswerAndSaysHowToReadOn) {
  TempDir tmp;
  TestRepo r(tmp / "big");
  std::string readme;
  for (int i = 1; i <= 300; ++i) readme += "Line " + std::to_string(i) + " of the readme.\n";
  r.Write("README.md", readme);
  for (int i = 0; i < 400; ++i) r.Write("src/file" + std::to_string(1000 + i) + ".c", "x\n");
  r.Commit("Big");
  ToolHarness h({Served("big", r.path())}, 6000);
  auto a = h.Call("overview", "{}");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_LE(CodePointsOf(a.text), 6000u);
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines[1], "=== README.md · 300 lines");
  size_t i = 2, shown_chars = 0;
  for (; i < lines.size() && lines[i].rfind("Line ", 0) == 0; ++i) {
    EXPECT_EQ(lines[i], "Line " + std::to_string(i - 1) + " of the readme.");
    shown_chars += CodePointsOf(lines[i]) + 1;
  }
  const int next = static_cast<int>(i - 1);
  EXPECT_LE(shown_chars, 3000u);
  EXPECT_GT(shown_chars + CodePointsOf(lines[i - 1]) + 1, 3000u) << "as much as half holds";
  EXPECT_EQ(lines[i], "[README.md continues: lines " + std::to_string(next) +
                          "–300 are not shown here, to leave room for the files — read them with "
                          "read_file (path: \"README.md\", start_line: " +
                          std::to_string(next) + ")]");
  auto on = h.Call("read_file", R"({"path":"README.md","max_lines":1,"start_line":)" +
                                    std::to_string(next) + "}");
  EXPECT_EQ(Lines(on.text)[1],
            std::to_string(next) + "  Line " + std::to_string(next) + " of the readme.");
  // The listing follows, and its cut gives the skip that continues it.
  EXPECT_EQ(lines[i + 1], "=== 401 served files, with their sizes");
  EXPECT_TRUE(std::regex_match(lines.back(),
                               std::regex(R"(\[[0-9]+ more files not shown — continue with skip: )"
                                          R"([0-9]+, or list one folder with list_files \(path: )"
                                          R"("src", recursive: true\)\])")))
      << lines.back();
}

// Paging with the skip each cut gives lists every served file once, in git's order, each
// under its folders' lines.
TEST_F(Overview, PagingWithSkipListsEveryFileOnce) {
  TempDir tmp;
  TestRepo r(tmp / "many");
  r.Write("README.md", "# Many\n");
  std::vector<std::string> expected = {"README.md"};
  for (const char* folder : {"a", "b/c", "b/d", "e"}) {
    for (int i = 0; i < 150; ++i) {
      const std::string path = std::string(folder) + "/f" + std::to_string(1000 + i) + ".txt";
      r.Write(path, std::to_string(i) + "\n");
      expected.push_back(path);
    }
  }
  r.Commit("Many");
  std::sort(expected.begin(), expected.end());
  ToolHarness h({Served("many", r.path())}, 5000);
  std::vector<std::string> seen;
  size_t skip = 0;
  for (int page = 0; page < 50; ++page) {
    auto a = h.Call("overview", R"({"skip":)" + std::to_string(skip) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 5000u);
    const auto lines = Lines(a.text);
    std::vector<std::string> folders;  // the folder lines above, by depth
    bool listing = false, cut = false;
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (l.rfind("=== ", 0) == 0) {
        listing = l.find("served files") != std::string::npos;
        continue;
      }
      if (!listing) continue;
      std::smatch m;
      if (std::regex_match(l, m,
                           std::regex(R"(\[[0-9]+ more files not shown — continue with )"
                                      R"(skip: ([0-9]+).*\])"))) {
        ASSERT_EQ(i, lines.size() - 1);
        EXPECT_EQ(std::stoul(m[1]), seen.size()) << "the skip is the files shown so far";
        skip = std::stoul(m[1]);
        cut = true;
        break;
      }
      const size_t depth = l.find_first_not_of(' ') / 2;
      const std::string name = l.substr(depth * 2);
      folders.resize(depth);
      if (name.back() == '/') {
        folders.push_back(name);
        continue;
      }
      std::string path;
      for (const auto& f : folders) path += f;
      seen.push_back(path + name.substr(0, name.find("  ")));
    }
    if (!cut) break;
  }
  EXPECT_EQ(seen, expected);
}

TEST_F(Overview, SecretsInTheIndexAreHiddenAsInTheFile) {
  TempDir tmp;
  TestRepo r(tmp / "leaky");
  const std::string token = "ghp_" + Chars(36, kBase62, 55);
  r.Write("README.md", "# Deploy\nexport GITHUB_TOKEN=" + token + "\n");
  r.Commit("Leak");
  ToolHarness h({Served("leaky", r.path())});
  auto a = h.Call("overview", "{}");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(HasNot(a.text, token));
  EXPECT_TRUE(Has(a.text, "export GITHUB_TOKEN=[hidden: GitHub token]"));
}

TEST_F(Overview, ASkipPastTheEndIsAClearError) {
  auto a = h_.Call("overview", R"({"repo":"shop","skip":9})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "skip 9 is past the end: the repository has 9 served files; give a smaller skip");
}

TEST_F(Overview, TheServersInstructionsAndAboutNameIt) {
  auto init = h_.Raw(R"({"jsonrpc":"2.0","id":5,"method":"initialize","params":{)"
                     R"("protocolVersion":"2025-06-18","capabilities":{},)"
                     R"("clientInfo":{"name":"t","version":"1"}}})",
                     5);
  const std::string instructions = init->getObject("result")->getValue<std::string>("instructions");
  EXPECT_TRUE(Has(instructions, "overview gives one repository's map"));
  EXPECT_TRUE(Has(h_.Call("about").text, "and overview for a repository's map"));
}

TEST_F(Overview, ListedAfterListFiles) {
  auto list = h_.Raw(R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})", 4);
  auto tools = list->getObject("result")->getArray("tools");
  std::vector<std::string> names;
  for (size_t i = 0; i < tools->size(); ++i) {
    names.push_back(tools->getObject(static_cast<unsigned>(i))->getValue<std::string>("name"));
  }
  const auto at = std::find(names.begin(), names.end(), "list_files");
  ASSERT_NE(at, names.end());
  ASSERT_NE(at + 1, names.end());
  EXPECT_EQ(*(at + 1), "overview");
}

}  // namespace
}  // namespace overview_test
}  // namespace rr::testing
