// Argument errors through the real MCP path: each one a clear error naming the argument and
// what is expected.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace arguments_test {
namespace {

class Arguments : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir;
    repo_ = new TestRepo(*tmp_ / "shop");
    repo_->Write("a.txt", "one\ntwo\n");
    head_ = repo_->Commit("One");
  }
  static void TearDownTestSuite() {
    delete repo_;
    delete tmp_;
  }

  // The answer to a call that must fail.
  std::string Fails(const std::string& tool, const std::string& args) {
    auto a = h_.Call(tool, args);
    EXPECT_TRUE(a.is_error) << tool << " " << args << ": " << a.text;
    return a.text;
  }

  static TempDir* tmp_;
  static TestRepo* repo_;
  static std::string head_;
  ToolHarness h_{{Served("shop", repo_->path())}};
};
TempDir* Arguments::tmp_ = nullptr;
TestRepo* Arguments::repo_ = nullptr;
std::string Arguments::head_;

TEST_F(Arguments, UnknownArgument) {
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","colour":"red"})"),
            "unknown argument `colour`; read_file takes: repo, ref, path, paths, start_line, "
            "max_lines, outline");
  EXPECT_EQ(
      Fails("list_files", R"({"repo":"shop","depth":2})"),
      "unknown argument `depth`; list_files takes: repo, ref, path, recursive, skip, outline");
  EXPECT_EQ(Fails("list_repos", R"({"all":true})"),
            "unknown argument `all`; list_repos takes: pattern, skip");
  EXPECT_EQ(Fails("about", R"({"all":true})"), "unknown argument `all`; about takes no arguments");
}

TEST_F(Arguments, WrongType) {
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","start_line":"2"})"),
            "argument `start_line` must be an integer (The first line to show. Default 1.)");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","max_lines":2.5})"),
            "argument `max_lines` must be an integer (At most this many lines. Default: as many "
            "as fit in the answer.)");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":["a.txt"]})"),
            "argument `path` must be a string (The file, written from the repository's root: "
            "src/app.py. For several files, paths instead.)");
  EXPECT_EQ(Fails("list_files", R"({"repo":"shop","recursive":"yes"})"),
            "argument `recursive` must be true or false");
  EXPECT_EQ(Fails("list_refs", R"({"repo":7})"),
            "argument `repo` must be a string (The repository's name, as list_repos shows it. "
            "May be left out when the server serves exactly one repository.)");
  EXPECT_EQ(Fails("list_refs", R"({"repo":"shop","kind":"everything"})"),
            "argument `kind` is `everything`; it must be one of: all, branches, tags");
}

TEST_F(Arguments, MissingRequired) {
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop"})"),
            "read_file needs path, the file (src/app.py), or paths, up to 20 files "
            "([\"src/app.py\", \"README.md\"])");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","paths":["a.txt"]})"),
            "give path (one file) or paths (several), not both");
}

// A list of strings (read_file's paths): an array, each item a string, within its count.
TEST_F(Arguments, ListsOfStrings) {
  const std::string about =
      "Several files, up to 20, instead of path: [\"src/app.py\", \"README.md\"]. Read in the "
      "order given, each under a line of its own, sharing one answer: a later file gets what is "
      "left, and a cut says how to continue. A file that cannot be read says why in its place; "
      "the others still come.";
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":"a.txt"})"),
            "argument `paths` must be a list of strings ([\"a\", \"b\"]: " + about + ")");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":{"a":1}})"),
            "argument `paths` must be a list of strings ([\"a\", \"b\"]: " + about + ")");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":["a.txt",7]})"),
            "argument `paths`: item 2 must be a string (" + about + ")");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":[]})"),
            "argument `paths` holds 0 items; it must hold from 1 to 20");
  std::string many = "[";
  for (int i = 0; i < 21; ++i) many += (i ? ",\"f" : "\"f") + std::to_string(i) + "\"";
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":)" + many + "]}"),
            "argument `paths` holds 21 items; it must hold from 1 to 20");
  // null is as if not given, as for every argument.
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","paths":null})"),
            "read_file needs path, the file (src/app.py), or paths, up to 20 files "
            "([\"src/app.py\", \"README.md\"])");
  auto a = h_.Call("read_file", R"({"repo":"shop","paths":["a.txt"]})");
  EXPECT_FALSE(a.is_error) << a.text;
}

TEST_F(Arguments, RepoMayBeLeftOutOnlyWhenOneRepositoryIsServed) {
  // One served: without repo (or with null, as if not given) is the same as naming it.
  for (const auto& [tool, args, named] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"list_refs", "{}", R"({"repo":"shop"})"},
           {"list_files", R"({"repo":null})", R"({"repo":"shop"})"},
           {"read_file", R"({"path":"a.txt"})", R"({"repo":"shop","path":"a.txt"})"}}) {
    auto a = h_.Call(tool, args);
    ASSERT_FALSE(a.is_error) << tool << " " << args << ": " << a.text;
    EXPECT_EQ(a.text, h_.Call(tool, named).text) << tool << " " << args;
  }
  // Two served (one not listed): it must be named, and the error does not name them.
  TestRepo other(*tmp_ / "other");
  other.Write("b.txt", "b\n");
  other.Commit("B");
  RepoConfig hidden = Served("hidden", other.path());
  hidden.listed = false;
  ToolHarness two({Served("shop", repo_->path()), hidden});
  for (const std::string tool : {"list_refs", "list_files"}) {
    auto a = two.Call(tool, "{}");
    EXPECT_TRUE(a.is_error) << tool << ": " << a.text;
    EXPECT_EQ(a.text,
              "argument `repo` is needed: this server serves 2 repositories; name one "
              "(list_repos lists them)");
  }
}

TEST_F(Arguments, NullIsAsIfNotGiven) {
  auto a = h_.Call("read_file", R"({"repo":"shop","path":"a.txt","ref":null,"max_lines":null})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · main @ " + Short(head_) +
                        " (2026-01-01) · a.txt · lines 1–2 of 2\n1  one\n2  two");
}

TEST_F(Arguments, OutOfRange) {
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","max_lines":0})"),
            "argument `max_lines` is 0; it must be 1 or more");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","start_line":0})"),
            "argument `start_line` is 0; it must be 1 or more");
  EXPECT_EQ(Fails("read_file", R"({"repo":"shop","path":"a.txt","start_line":-3})"),
            "argument `start_line` is -3; it must be 1 or more");
}

TEST_F(Arguments, UnknownRepositoryNamesTheServedOnes) {
  const std::string expected =
      "no repository named `nope` is served; served: shop — list_repos lists them";
  EXPECT_EQ(Fails("read_file", R"({"repo":"nope","path":"a.txt"})"), expected);
  EXPECT_EQ(Fails("list_files", R"({"repo":"nope"})"), expected);
  EXPECT_EQ(Fails("list_refs", R"({"repo":"nope"})"), expected);
}

TEST_F(Arguments, UnknownTool) {
  const std::string text = Fails("write_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_EQ(text.rfind("unknown tool `write_file`; the tools are: ", 0), 0u) << text;
  for (const char* tool : {"about", "list_repos", "list_refs", "read_file", "list_files"}) {
    EXPECT_TRUE(Has(text, tool));
  }
}

TEST_F(Arguments, ArgumentsMustBeAnObject) {
  EXPECT_EQ(Fails("list_refs", R"(["shop"])"), "`arguments` must be an object");
}

TEST_F(Arguments, BadPaths) {
  const std::string dots = Fails("read_file", R"({"repo":"shop","path":"../a.txt"})");
  EXPECT_TRUE(Has(dots, "path")) << dots;
  EXPECT_TRUE(Has(dots, "..")) << dots;
  const std::string empty_ref = Fails("read_file", R"({"repo":"shop","path":"a.txt","ref":""})");
  EXPECT_EQ(empty_ref,
            "ref is empty; give a branch, tag or commit id, or leave ref out for the default "
            "branch");
}

}  // namespace
}  // namespace arguments_test
}  // namespace rr::testing
