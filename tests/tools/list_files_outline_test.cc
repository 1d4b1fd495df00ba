// list_files with outline: true: each Markdown file's headings beneath it, numbered with the
// start_line that reads each; a recursive listing reads at most 40 Markdown files and says how
// to narrow past that; a cut among a file's headings lists that file again.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_files_outline_test {
namespace {

class ListFilesOutline : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string head;
  };
  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("docs/guide.md", "# Guide\n\nSetup\n-----\n```\n# not a heading\n```\n## Use\n");
    r.Write("docs/notes.txt", "# not markdown\n");
    r.Write("docs/api/index.md", "API\n===\n");
    r.Write("docs/plain.md", "no headings\n");
    r.Write("docs/token.md", "# Deploy with " + Token() + "\n");
    for (int i = 1; i <= 25; ++i) {
      r.Write("wiki/a/page" + std::to_string(i) + ".md", "# A" + std::to_string(i) + "\n");
      r.Write("wiki/b/page" + std::to_string(i) + ".md", "# B" + std::to_string(i) + "\n");
    }
    for (int i = 1; i <= 30; ++i) {
      std::string md;
      for (int k = 1; k <= 20; ++k) md += "## Part " + std::to_string(k) + "\n";
      r.Write("book/ch" + std::to_string(100 + i) + ".md", md);
    }
    s_->head = r.Commit("Everything");  // 2026-01-01
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  static std::string Token() { return "ghp_" + Chars(36, kBase62, 77); }
  static std::string Where() { return "shop · main @ " + Short(s_->head) + " (2026-01-01) · "; }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path())}};
};
ListFilesOutline::Shared* ListFilesOutline::s_ = nullptr;

TEST_F(ListFilesOutline, EachMarkdownFilesHeadingsBeneathIt) {
  auto a = h_.Call("list_files", R"({"repo":"shop","path":"docs","outline":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "docs/ — 1 folder, 4 files\n"
                        "docs/api/\n"
                        "docs/guide.md\n"
                        "  1  # Guide\n"
                        "  3  ## Setup\n"
                        "  8  ## Use\n"
                        "docs/notes.txt\n"
                        "docs/plain.md\n"
                        "docs/token.md\n"
                        "  1  # Deploy with [hidden: GitHub token]\n"
                        "[1 value that looks like a secret is hidden as `[hidden: …]` — this "
                        "server never shows it.]");
  auto r =
      h_.Call("list_files", R"({"repo":"shop","path":"docs","outline":true,"recursive":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(Has(r.text, "docs/api/index.md\n  1  # API\ndocs/guide.md\n  1  # Guide\n"));
  EXPECT_TRUE(HasNot(r.text, Token()));
  // Without outline, the listing is as it was.
  EXPECT_EQ(h_.Call("list_files", R"({"repo":"shop","path":"docs"})").text,
            Where() +
                "docs/ — 1 folder, 4 files\ndocs/api/\ndocs/guide.md\ndocs/notes.txt\n"
                "docs/plain.md\ndocs/token.md");
}

TEST_F(ListFilesOutline, RecursiveOverMoreThanFortyMarkdownFilesIsRefusedSayingHowToNarrow) {
  auto a =
      h_.Call("list_files", R"({"repo":"shop","path":"wiki","outline":true,"recursive":true})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "outline reads each Markdown file, at most 40 a call: `wiki/` holds 50 at any depth. "
            "Narrow path to a subfolder — wiki/a (25), wiki/b (25) — or leave recursive out to "
            "outline one folder's own files");
  auto narrowed =
      h_.Call("list_files", R"({"repo":"shop","path":"wiki/a","outline":true,"recursive":true})");
  ASSERT_FALSE(narrowed.is_error) << narrowed.text;
  EXPECT_TRUE(Has(narrowed.text, "wiki/a/page1.md\n  1  # A1\n"));
}

// A cut falls among the headings of some file: the skip it gives lists that file again, and
// paging on shows every entry, each file's headings whole under it.
TEST_F(ListFilesOutline, PagingThroughACutOutlineShowsEveryFileWithAllItsHeadings) {
  ToolHarness small({Served("shop", s_->repo.path())}, 1000);
  std::set<std::string> files;
  size_t skip = 0;
  int pages = 0, cut_in_headings = 0;
  while (pages++ < 40) {
    auto a = small.Call("list_files", R"({"repo":"shop","path":"book","outline":true,"skip":)" +
                                          std::to_string(skip) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 1000u);
    const auto lines = Lines(a.text);
    std::string file;
    int parts = 0;
    size_t complete = 0;  // files shown with all their headings on this page
    std::smatch m;
    bool cut = false;
    for (size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].rfind("book/", 0) == 0) {
        if (!file.empty()) {
          EXPECT_EQ(parts, 20) << file;
          files.insert(file);
          ++complete;
        }
        file = lines[i];
        parts = 0;
      } else if (std::regex_match(lines[i], m, std::regex(R"( +([0-9]+)  ## Part ([0-9]+))"))) {
        EXPECT_EQ(m[1], m[2]);
        ++parts;
      } else {
        ASSERT_EQ(i, lines.size() - 1) << a.text;
        ASSERT_TRUE(std::regex_search(lines[i], m, std::regex(R"(continue with skip: ([0-9]+))")))
            << lines[i];
        if (parts < 20) {
          ++cut_in_headings;  // this file is listed again on the next page
        } else {
          files.insert(file);
          ++complete;
        }
        EXPECT_EQ(std::stoul(m[1]), skip + complete) << a.text;
        skip = std::stoul(m[1]);
        cut = true;
      }
    }
    if (!cut) {
      if (!file.empty()) {
        EXPECT_EQ(parts, 20) << file;
        files.insert(file);
      }
      break;
    }
  }
  EXPECT_EQ(files.size(), 30u);
  EXPECT_GT(cut_in_headings, 0);
}

}  // namespace
}  // namespace list_files_outline_test
}  // namespace rr::testing
