// Attacks on what the secret filter reads around a block of shown lines. A value the built-in
// detectors recognise only from the line above it — a YAML block scalar's text under
// `password: >-`, an AWS secret access key under the line holding its key id — must be hidden
// in every window of the file an answer shows it in, also when the window begins on the
// value's own line: grep's context lines and match lines, search's lines, a diff's or
// show_commit's hunk, blame's range, read_file's window (one file or several at once), also
// the window that goes on from where the answer's cap cut a long file (read_file, a batch,
// blame: the call the cut's note gives), and the repository's index file in the overview,
// whose window ends on the value's line. Each block of lines carries its source, and the filter
// reads the lines before and after it there.
// The values are generated from the providers' documented shapes; none is real.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace block_source_test {
namespace {

class BlockSource : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    // Both values sit on line 4, below the line that makes them recognisable.
    repo_->Write("deploy/values.yaml", Yaml("pool: 4"));
    repo_->Write("app/creds.js", Js("const retries = 3;"));
    first_ = repo_->Commit("Add the settings");
    // Line 7 changes: the hunk's three lines of context begin on line 4, the value's line.
    repo_->Write("deploy/values.yaml", Yaml("pool: 8"));
    repo_->Write("app/creds.js", Js("const retries = 5;"));
    second_ = repo_->Commit("Raise the pool and the retries");
    harness_ =
        std::make_unique<ToolHarness>(std::vector<RepoConfig>{Served("shop", repo_->path())});
  }

  std::string Yaml(const std::string& seventh) const {
    return "db:\n  user: shop\n  password: >-\n    " + pw_ +
           "\n  host: db.example.com\n  port: 5432\n  " + seventh +
           "\n  timeout: 30\n  mode: classic\n";
  }
  std::string Js(const std::string& seventh) const {
    return "// The deploy account.\nconst region = \"eu-west-1\";\n"
           "const creds = new AWS.Credentials(\"" +
           aws_id_ + "\",\n    \"" + aws_secret_ + "\"); // deploy creds\nconst a = 1;\n" +
           "const b = 2;\n" + seventh + "\nconst c = 3;\nmodule.exports = creds;\n";
  }

  std::string Call(const std::string& tool, const std::string& args) {
    auto a = harness_->Call(tool, R"({"repo":"shop",)" + args + "}");
    EXPECT_FALSE(a.is_error) << tool << " " << args << "\n" << a.text;
    return a.text;
  }
  // Neither value is shown, and what hid them says so.
  void ExpectHidden(const std::string& what, const std::string& a) {
    EXPECT_EQ(a.find(pw_), std::string::npos) << what << "\n" << a;
    EXPECT_EQ(a.find(aws_secret_), std::string::npos) << what << "\n" << a;
  }

  // Long files for the answers the cap cuts, 40 lines each: the value on line 30, below the
  // line that makes it recognisable, after 28 lines that a small answer is cut in.
  static constexpr size_t kValueLine = 30;
  std::string LongYaml() const {
    std::string s = "services:\n";
    for (int i = 10; i < 36; ++i) {
      const std::string n = std::to_string(i);
      s += "  svc-" + n + ": registry.example.com/shop/svc-" + n + ":1.4.2\n";
    }
    s += "db:\n  password: >-\n    " + pw_ + "\n  host: db.example.com\n";
    for (int i = 1; i <= 9; ++i)
      s += "  pool_" + std::to_string(i) + ": " + std::to_string(i) + "\n";
    return s;
  }
  std::string LongJs() const {
    std::string s = "// The deploy account's settings.\n";
    for (int i = 10; i < 37; ++i) {
      const std::string n = std::to_string(i);
      s += "const svc" + n + " = \"registry.example.com/shop/svc-" + n + "\";\n";
    }
    s += "const creds = new AWS.Credentials(\"" + aws_id_ + "\",\n    \"" + aws_secret_ +
         "\"); // deploy creds: the platform team rotates them every ninety days\n";
    for (int i = 1; i <= 9; ++i)
      s += "const c" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
    return s + "module.exports = creds;\n";
  }
  void AddLongFiles() {
    repo_->Write("deploy/long.yaml", LongYaml());
    repo_->Write("app/long.js", LongJs());
    repo_->Commit("Add the long settings");
  }

  static std::string CallOn(ToolHarness& h, const std::string& tool, const std::string& args) {
    auto a = h.Call(tool, R"({"repo":"shop",)" + args + "}");
    EXPECT_FALSE(a.is_error) << tool << " " << args << "\n" << a.text;
    return a.text;
  }
  // The start_line a cut answer's note continues it with (read_file, blame), 0 when none.
  static size_t ContinuedAt(const std::string& a) {
    const std::string mark = "continue with start_line: ";
    const size_t at = a.rfind(mark);
    if (at == std::string::npos) return 0;
    return std::stoul(a.substr(at + mark.size()));
  }
  // The least answer limit at which `first` — the start_line the note of `tool` called with
  // `args` at that limit continues with, 0 when the answer is not cut — is `line` or past it. A
  // larger answer shows more, so it is found by halving; the test then asserts it is `line`.
  size_t LimitContinuingAt(const std::string& tool, const std::string& args, size_t line,
                           const std::function<size_t(const std::string&)>& first) {
    size_t lo = 200, hi = 20000;  // the cut is before `line` at lo, at or past it at hi
    while (hi - lo > 1) {
      const size_t mid = lo + (hi - lo) / 2;
      ToolHarness capped({Served("shop", repo_->path())}, mid);
      const size_t at = first(CallOn(capped, tool, args));
      (at == 0 || at >= line ? hi : lo) = mid;
    }
    return hi;
  }
  // The start_line of the first call a batch's cut note gives, when that call continues
  // `path`; past every line when it reads another file (`path` was shown whole); 0 when the
  // answer has no such note.
  static size_t FirstNoteCallAt(const std::string& a, const std::string& path) {
    const std::vector<std::string> calls = NoteCalls(a);
    if (calls.empty()) return 0;
    const std::string mark = "\"start_line\":";
    const size_t at = calls[0].find(mark);
    if (!Has(calls[0], "\"" + path + "\"") || at == std::string::npos) return SIZE_MAX;
    return std::stoul(calls[0].substr(at + mark.size()));
  }
  // The calls a batch's cut note gives, in order, as JSON arguments for read_file: the note
  // writes them as `read_file (path: "a", start_line: 5, max_lines: 3)`.
  static std::vector<std::string> NoteCalls(const std::string& a) {
    std::vector<std::string> calls;
    const size_t note = a.rfind("[the answer reached its limit");
    if (note == std::string::npos) return calls;
    const std::string open = "read_file (";
    for (size_t at = a.find(open, note); at != std::string::npos; at = a.find(open, at)) {
      at += open.size();
      const size_t close = a.find(')', at);
      if (close == std::string::npos) break;
      calls.push_back(std::regex_replace(a.substr(at, close - at), std::regex("(^|, )([a-z_]+): "),
                                         "$1\"$2\":"));
    }
    return calls;
  }

  // An index file for the overview: prose, then `above` and `value` (the value's line), then
  // `below` and more prose.
  static std::string Readme(const std::string& above, const std::string& value,
                            const std::string& below) {
    std::string s = "# Shop\n\n";
    for (int i = 1; i <= 16; ++i) {
      s += "Step " + std::to_string(i) +
           " of the setup: run the shop's checks and read what they say.\n";
    }
    s += "\n## The deploy account\n\n" + above + "\n" + value + "\n" + below + "\n";
    for (int i = 1; i <= 4; ++i) s += "After " + std::to_string(i) + ": the account is rotated.\n";
    return s;
  }
  // The answer limit whose overview shows `readme` down to the line holding `value` and no
  // further: the index file has half of the answer.
  static size_t LimitEndingOn(const std::string& readme, const std::string& value) {
    const size_t end = readme.find('\n', readme.find(value));
    return 2 * (end + 1);  // each line costs its characters and its newline
  }

  const std::string pw_ = "Tr0ub4dor-" + Chars(12, kBase62, 71);
  const std::string aws_id_ = "AKIA" + Chars(16, kUpperDigits, 72);
  const std::string aws_secret_ = Chars(38, kBase62 + "+/", 73) + "Q/";
  const std::string api_key_ = Chars(32, kBase62, 74);
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::unique_ptr<ToolHarness> harness_;
  std::string first_, second_;
};

// The whole files hide both values: what follows tests the windows, not the detectors.
TEST_F(BlockSource, TheWholeFilesHideBothValues) {
  const std::string a = Call("read_file", R"("paths":["deploy/values.yaml","app/creds.js"])");
  ExpectHidden("whole files", a);
  EXPECT_NE(a.find("[hidden: password]"), std::string::npos) << a;
  EXPECT_NE(a.find("[hidden: AWS secret access key]"), std::string::npos) << a;
}

TEST_F(BlockSource, GrepContextLinesHideAValueRecognisedFromTheLineAbove) {
  // One file (the answer knows its path), then every file (it does not).
  std::string a = Call("grep", R"("pattern":"db.example.com","path":"deploy/values.yaml",)"
                               R"("context":1)");
  ASSERT_NE(a.find("5: "), std::string::npos) << a;
  ExpectHidden("grep context, one file", a);
  a = Call("grep", R"("pattern":"const a = 1","path":"app/creds.js","context":1)");
  ASSERT_NE(a.find("5: const a = 1"), std::string::npos) << a;
  ExpectHidden("grep context, js", a);
  a = Call("grep", R"("pattern":"const a = 1","context":1)");
  ExpectHidden("grep context, every file", a);
  // Two files match: the answer names no one file, and each run is also read as its own
  // file's text (a YAML block value is one only in a YAML file).
  a = Call("grep", R"("pattern":"db[.]example[.]com|const a = 1","regex":true,"context":1)");
  ASSERT_NE(a.find("deploy/values.yaml"), std::string::npos) << a;
  ASSERT_NE(a.find("app/creds.js"), std::string::npos) << a;
  ExpectHidden("grep context, two files", a);
}

TEST_F(BlockSource, AGrepMatchLineHidesAValueRecognisedFromTheLineAbove) {
  std::string a = Call("grep", R"("pattern":"deploy creds","path":"app/creds.js")");
  ASSERT_NE(a.find("4: "), std::string::npos) << a;
  ExpectHidden("grep match, one file", a);
  a = Call("grep", R"("pattern":"deploy creds")");
  ASSERT_NE(a.find("4: "), std::string::npos) << a;
  ExpectHidden("grep match, every file", a);
}

TEST_F(BlockSource, SearchLinesHideAValueRecognisedFromTheLineAbove) {
  auto a = harness_->Call("search", R"({"pattern":"deploy creds"})");
  ASSERT_FALSE(a.is_error) << a.text;
  ASSERT_NE(a.text.find("4: "), std::string::npos) << a.text;
  ExpectHidden("search", a.text);
}

TEST_F(BlockSource, ADiffHunkBeginningOnTheValueHidesIt) {
  const std::string a = Call("diff", R"("base":")" + first_ + R"(","head":")" + second_ + "\"");
  ASSERT_NE(a.find("@@ -4,"), std::string::npos) << a;
  ExpectHidden("diff", a);
  const std::string one =
      Call("diff", R"("base":")" + first_ + R"(","head":")" + second_ + R"(","path":"deploy")");
  ASSERT_NE(one.find("@@ -4,"), std::string::npos) << one;
  ExpectHidden("diff of one folder", one);
}

TEST_F(BlockSource, AShowCommitHunkBeginningOnTheValueHidesIt) {
  const std::string a = Call("show_commit", R"("commit":")" + second_ + "\"");
  ASSERT_NE(a.find("@@ -4,"), std::string::npos) << a;
  ExpectHidden("show_commit", a);
}

TEST_F(BlockSource, ABlameRangeBeginningOnTheValueHidesIt) {
  for (const char* path : {"deploy/values.yaml", "app/creds.js"}) {
    for (const char* window : {R"(,"start_line":4)", R"(,"start_line":4,"max_lines":1)"}) {
      const std::string a = Call("blame", R"("path":")" + std::string(path) + "\"" + window);
      ASSERT_NE(a.find("lines 4–"), std::string::npos) << a;
      ExpectHidden(std::string("blame ") + path + window, a);
    }
  }
}

TEST_F(BlockSource, AReadFileWindowBeginningOnTheValueHidesIt) {
  for (const char* path : {"deploy/values.yaml", "app/creds.js"}) {
    for (const char* window : {R"(,"start_line":4)", R"(,"start_line":4,"max_lines":1)"}) {
      const std::string a = Call("read_file", R"("path":")" + std::string(path) + "\"" + window);
      ASSERT_NE(a.find("lines 4–"), std::string::npos) << a;
      ExpectHidden(std::string("read_file ") + path + window, a);
    }
  }
  // Several files at once, each window beginning on its value's line; at an older ref too.
  for (const std::string& at : {std::string(), R"(,"ref":")" + first_ + "\""}) {
    const std::string a =
        Call("read_file", R"("paths":["deploy/values.yaml","app/creds.js"],"start_line":4)" + at);
    ExpectHidden("read_file paths", a);
    const std::string b =
        Call("read_file",
             R"("paths":["app/creds.js","deploy/values.yaml"],"start_line":4,"max_lines":1)" + at);
    ExpectHidden("read_file paths, one line each", b);
  }
}

// read_file and blame of each long file at the least answer limit that puts the cap's cut just
// before line kValueLine (the first call asserts it), continued with the start_line the cut's
// note gives: the window begins on the value's line.
TEST_F(BlockSource, AReadFileOrBlameContinuedFromItsCutOnTheValueHidesIt) {
  AddLongFiles();
  for (const std::string tool : {"read_file", "blame"}) {
    for (const auto& [path, hidden] : std::vector<std::pair<std::string, std::string>>{
             {"deploy/long.yaml", "[hidden: password]"},
             {"app/long.js", "[hidden: AWS secret access key]"}}) {
      SCOPED_TRACE(tool + " " + path);
      const std::string args = R"("path":")" + path + "\"";
      ToolHarness capped({Served("shop", repo_->path())},
                         LimitContinuingAt(tool, args, kValueLine, ContinuedAt));
      const std::string a = CallOn(capped, tool, args);
      ASSERT_EQ(ContinuedAt(a), kValueLine) << "the cut is to land just before the value\n" << a;
      const std::string b =
          CallOn(capped, tool, args + R"(,"start_line":)" + std::to_string(ContinuedAt(a)));
      ASSERT_TRUE(Has(b, "lines 30–40 of 40"));
      EXPECT_TRUE(HasNot(b, pw_));
      EXPECT_TRUE(HasNot(b, aws_secret_));
      EXPECT_TRUE(Has(b, hidden));
    }
  }
}

TEST_F(BlockSource, ABatchContinuedFromItsCutOnTheValueHidesIt) {
  AddLongFiles();
  // Each file first in turn, the cut inside it; the second with a window, which the note's
  // calls repeat (the file cut goes on to the window's end: start_line 30, max_lines 3).
  for (const auto& [args, first, hidden] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {R"("paths":["deploy/long.yaml","app/long.js"])", "deploy/long.yaml",
            "[hidden: password]"},
           {R"("paths":["app/long.js","deploy/long.yaml"],"max_lines":32)", "app/long.js",
            "[hidden: AWS secret access key]"}}) {
    const size_t limit = LimitContinuingAt(
        "read_file", args, kValueLine,
        [path = first](const std::string& a) { return FirstNoteCallAt(a, path); });
    ToolHarness capped({Served("shop", repo_->path())}, limit);
    const std::string a = CallOn(capped, "read_file", args);
    // The note continues the file it cut, then reads the one not reached.
    const std::vector<std::string> calls = NoteCalls(a);
    ASSERT_EQ(calls.size(), 2u) << a;
    ASSERT_TRUE(Has(calls[0], R"("start_line":30)")) << "the cut is to land just before the value";
    const std::string b = CallOn(capped, "read_file", calls[0]);
    ASSERT_TRUE(Has(b, "lines 30–")) << calls[0];
    EXPECT_TRUE(HasNot(b, pw_)) << calls[0];
    EXPECT_TRUE(HasNot(b, aws_secret_)) << calls[0];
    EXPECT_TRUE(Has(b, hidden)) << calls[0];
    const std::string c = CallOn(capped, "read_file", calls[1]);
    ExpectHidden(calls[1], c);
  }
}

// The overview shows the index file from its first line, never from one inside it: its window
// can only end, where its half of the answer is spent. Here it ends on the value's line, the
// line that makes the value recognisable shown above it and the lines after it left out: an
// AWS secret access key under its key id (the window's own lines recognise it), and an
// element's value on its own line, recognised by the element's name above it and its closing
// tag below, which only the file around the window holds.
TEST_F(BlockSource, AnOverviewIndexEndingOnTheValueHidesIt) {
  for (const auto& [readme, value, hidden] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {Readme("```js\nconst creds = new AWS.Credentials(\"" + aws_id_ + "\",",
                   "    \"" + aws_secret_ + "\"); // deploy creds", "```"),
            aws_secret_, "[hidden: AWS secret access key]"},
           {Readme("```xml\n<deployApiKey>", "  " + api_key_, "</deployApiKey>\n```"), api_key_,
            "[hidden: API key]"}}) {
    repo_->Write("README.md", readme);
    const std::string at = repo_->Commit("Describe the deploy account");
    ToolHarness capped({Served("shop", repo_->path())}, LimitEndingOn(readme, value));
    const std::string a = CallOn(capped, "overview", R"("ref":")" + at + "\"");
    // The value's line is the last shown: the line after it is the first left out.
    const auto line = std::count(readme.begin(), readme.begin() + readme.find(value), '\n') + 1;
    ASSERT_TRUE(Has(a, "[README.md continues: lines " + std::to_string(line + 1) + "–"));
    EXPECT_TRUE(HasNot(a, value));
    EXPECT_TRUE(Has(a, hidden));
  }
}

}  // namespace
}  // namespace block_source_test
}  // namespace rr::testing
