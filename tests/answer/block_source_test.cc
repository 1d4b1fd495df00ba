// Attacks on what the secret filter reads around a block of shown lines. A value the built-in
// detectors recognise only from the line above it — a YAML block scalar's text under
// `password: >-`, an AWS secret access key under the line holding its key id — must be hidden
// in every window of the file an answer shows it in, also when the window begins on the
// value's own line: grep's context lines and match lines, search's lines, a diff's or
// show_commit's hunk, blame's range, read_file's window (one file or several at once). Each
// block of lines carries its source, and the filter reads the lines before and after it there.
// The values are generated from the providers' documented shapes; none is real.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
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

  const std::string pw_ = "Tr0ub4dor-" + Chars(12, kBase62, 71);
  const std::string aws_id_ = "AKIA" + Chars(16, kUpperDigits, 72);
  const std::string aws_secret_ = Chars(38, kBase62 + "+/", 73) + "Q/";
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

}  // namespace
}  // namespace block_source_test
}  // namespace rr::testing
