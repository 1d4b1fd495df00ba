// read_file with outline: true, on files of every kind the rules cover: the headings of a
// Markdown file (every style, none inside code), the lines that define something in code, each
// with the start_line that reads it; windows, the cut and its continuation; files with no rule.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace read_file_outline_test {
namespace {

const char* const kGuide =
    "---\n"
    "title: Guide\n"
    "---\n"
    "# Guide\n"
    "Intro.\n"
    "\n"
    "Install\n"
    "=======\n"
    "\n"
    "```sh\n"
    "# not a heading\n"
    "```\n"
    "From source\n"
    "-----------\n"
    "    # indented code, not a heading\n"
    "\n"
    "### Configure ###\n";

struct Source {
  std::string path, text;
  std::vector<int> lines;  // the lines its outline names
};

std::vector<Source> Sources() {
  return {
      {"src/cart.cc",
       "#include <vector>\nnamespace shop {\nclass Cart {\n public:\n  int Total() const;\n};\n"
       "int Cart::Total() const {\n  return Sum(items_);\n}\n}  // namespace shop\n",
       {2, 3, 5, 7}},
      {"src/cart.py",
       "import os\n\nclass Cart:\n    def total(self):\n        return 0\n\ndef main():\n"
       "    print('def not_this():')\n",
       {3, 4, 7}},
      {"web/cart.ts",
       "import x from 'x';\nexport interface Item { price: number }\n"
       "export class Cart {\n  total(): number {\n    return 0;\n  }\n}\n"
       "export const load = async () => {};\n",
       {2, 3, 4, 8}},
      {"cmd/cart.go",
       "package main\n\ntype Cart struct{}\n\nfunc (c *Cart) Total() int {\n\treturn 0\n}\n"
       "func main() {}\n",
       {3, 5, 8}},
      {"src/cart.rs",
       "pub struct Cart {}\nimpl Cart {\n    pub fn total(&self) -> u32 {\n        0\n    }\n}\n"
       "fn main() {}\n",
       {1, 2, 3, 7}},
      {"src/Cart.java",
       "package shop;\npublic class Cart {\n  public int total() {\n    return sum();\n  }\n}\n",
       {2, 3}},
      {"bin/deploy.sh",
       "#!/bin/sh\nusage() {\n  echo usage\n}\nfunction main {\n  usage\n}\n",
       {2, 5}},
      {"ci/build.yml", "name: build\non:\n  push: {}\njobs:\n  test:\n    runs-on: x\n", {1, 2, 4}},
  };
}

class ReadFileOutline : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string head;
  };
  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("docs/guide.md", kGuide);
    for (const auto& src : Sources()) r.Write(src.path, src.text);
    std::string many;
    for (int i = 1; i <= 300; ++i) many += "## Section " + std::to_string(i) + "\n\ntext\n\n";
    r.Write("docs/long.md", many);
    r.Write("notes.txt", "# not markdown\n");
    r.Write("docs/empty.md", "no headings here\n");
    std::string png(100, 'p');
    png[1] = '\0';
    r.Write("logo.png", png);
    s_->head = r.Commit("Everything");  // 2026-01-01
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  static std::string Where() { return "shop · main @ " + Short(s_->head) + " (2026-01-01) · "; }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path())}};
};
ReadFileOutline::Shared* ReadFileOutline::s_ = nullptr;

TEST_F(ReadFileOutline, MarkdownHeadingsOfEveryStyleWithTheirLevelsAndLines) {
  auto a = h_.Call("read_file", R"({"repo":"shop","path":"docs/guide.md","outline":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "docs/guide.md · outline (Markdown): 4 headings in 17 lines — read one "
                        "with start_line\n"
                        " 4  # Guide\n"
                        " 7  # Install\n"
                        "13  ## From source\n"
                        "17  ### Configure");
}

// Every entry's number is the start_line that reads the line it shows.
TEST_F(ReadFileOutline, EachLanguagesDefinitionsAndTheStartLineThatReadsEach) {
  for (const auto& src : Sources()) {
    SCOPED_TRACE(src.path);
    auto a = h_.Call("read_file", R"({"repo":"shop","outline":true,"path":")" + src.path + "\"}");
    ASSERT_FALSE(a.is_error) << a.text;
    const auto lines = Lines(a.text);
    ASSERT_EQ(lines.size(), src.lines.size() + 1) << a.text;
    for (size_t i = 0; i < src.lines.size(); ++i) {
      std::smatch m;
      ASSERT_TRUE(std::regex_match(lines[i + 1], m, std::regex(R"( *([0-9]+)  (.*))")))
          << lines[i + 1];
      EXPECT_EQ(std::stoi(m[1]), src.lines[i]) << a.text;
      auto line = h_.Call("read_file", R"({"repo":"shop","max_lines":1,"path":")" + src.path +
                                           R"(","start_line":)" + std::string(m[1]) + "}");
      EXPECT_EQ(Lines(line.text)[1], lines[i + 1]) << "the entry is the line start_line reads";
    }
  }
}

TEST_F(ReadFileOutline, AWindowNarrowsTheOutline) {
  auto a = h_.Call(
      "read_file",
      R"({"repo":"shop","path":"docs/guide.md","outline":true,"start_line":5,"max_lines":9})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "docs/guide.md · outline (Markdown): 2 headings in 17 lines, lines 5–13 "
                        "— read one with start_line\n"
                        " 7  # Install\n"
                        "13  ## From source");
}

TEST_F(ReadFileOutline, ACutOutlineContinuesFromTheFirstEntryLeftOut) {
  ToolHarness small({Served("shop", s_->repo.path())}, 1000);
  std::vector<int> seen;
  int start = 1, pages = 0;
  while (pages++ < 50) {
    auto a = small.Call("read_file", R"({"repo":"shop","path":"docs/long.md","outline":true,)"
                                     R"("start_line":)" +
                                         std::to_string(start) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 1000u);
    const auto lines = Lines(a.text);
    for (size_t i = 1; i < lines.size(); ++i) {
      std::smatch m;
      if (std::regex_match(lines[i], m, std::regex(R"( *([0-9]+)  ## Section ([0-9]+))"))) {
        EXPECT_EQ(std::stoi(m[1]), (std::stoi(m[2]) - 1) * 4 + 1);
        seen.push_back(std::stoi(m[2]));
      } else {
        ASSERT_EQ(i, lines.size() - 1) << a.text;
        ASSERT_TRUE(std::regex_search(lines[i], m,
                                      std::regex(R"(more entries not shown: the answer reached )"
                                                 R"(its limit of 1,000 characters — continue )"
                                                 R"(with outline: true, start_line: ([0-9]+)\]$)")))
            << lines[i];
        start = std::stoi(m[1]);
      }
    }
    if (!seen.empty() && seen.back() == 300) break;
  }
  ASSERT_EQ(seen.size(), 300u);
  for (int i = 0; i < 300; ++i) ASSERT_EQ(seen[i], i + 1);
  EXPECT_GT(pages, 3);
}

TEST_F(ReadFileOutline, AFileWithNoRuleIsRefusedAndOthersAreSaidAsForText) {
  auto a = h_.Call("read_file", R"({"repo":"shop","path":"notes.txt","outline":true})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "no outline rule for `notes.txt`: outlines cover Markdown, C/C++, Python, "
            "JavaScript/TypeScript, Go, Rust, Java, shell and YAML files (docs/tools.md gives "
            "the rules); read it with start_line / max_lines");
  auto none = h_.Call("read_file", R"({"repo":"shop","path":"docs/empty.md","outline":true})");
  EXPECT_EQ(none.text, Where() +
                           "docs/empty.md · outline (Markdown): 0 headings in 1 line — read one "
                           "with start_line\n(no headings)");
  auto png = h_.Call("read_file", R"({"repo":"shop","path":"logo.png","outline":true})");
  EXPECT_EQ(png.text, h_.Call("read_file", R"({"repo":"shop","path":"logo.png"})").text);
}

TEST_F(ReadFileOutline, OutlinesOfSeveralFilesAtOnce) {
  auto a =
      h_.Call("read_file", R"({"repo":"shop","paths":["docs/guide.md","notes.txt","src/cart.py"],)"
                           R"("outline":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "3 files, outlines\n"
                        "=== docs/guide.md · outline (Markdown): 4 headings in 17 lines\n"
                        " 4  # Guide\n"
                        " 7  # Install\n"
                        "13  ## From source\n"
                        "17  ### Configure\n"
                        "=== notes.txt · not read: no outline rule for `notes.txt`: outlines cover "
                        "Markdown, C/C++, Python, JavaScript/TypeScript, Go, Rust, Java, shell and "
                        "YAML files (docs/tools.md gives the rules); read it with start_line / "
                        "max_lines\n"
                        "=== src/cart.py · outline (Python): 3 definitions in 8 lines\n"
                        "3  class Cart:\n"
                        "4      def total(self):\n"
                        "7  def main():");
}

}  // namespace
}  // namespace read_file_outline_test
}  // namespace rr::testing
