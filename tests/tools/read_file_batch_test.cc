// read_file with `paths`: several files in one call, in the order given, each under a line of
// its own, sharing one answer. A file that cannot be read says why in its place and the rest
// still come; a cut names the file shown in part, the start_line that continues it, and the
// files not reached — and following those notes reads every line of every file exactly once.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace read_file_batch_test {
namespace {

std::string Numbered(const std::string& name, int lines) {
  std::string s;
  for (int i = 1; i <= lines; ++i) s += name + " line " + std::to_string(i) + "\n";
  return s;
}

class ReadFileBatch : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string head;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("README.md", "shop\nA made-up shop.\n");
    r.Write("src/app.py", "import os\n\ndef main():\n");
    r.Write("src/long.py", Numbered("long", 400));
    r.Write("notes.txt", Numbered("notes", 30));
    r.Write("docs/guide.md", Numbered("guide", 120));
    r.Write("config/prod.yml", "mode: prod\n");
    r.Write(".env", "TOKEN=1\n");
    std::string png(600, 'p');
    png[3] = '\0';
    r.Write("assets/logo.png", png);
    AddSymlink(r, "current", "src/app.py");
    s_->head = r.Commit("Everything");  // 2026-01-01
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  static RepoConfig Excluding() {
    RepoConfig rc = Served("shop", s_->repo.path());
    rc.exclude = {"config/prod.*"};
    return rc;
  }
  static std::string Where() { return "shop · main @ " + Short(s_->head) + " (2026-01-01) · "; }

  static Shared* s_;
  ToolHarness h_{{Excluding()}};
};
ReadFileBatch::Shared* ReadFileBatch::s_ = nullptr;

TEST_F(ReadFileBatch, EachFileUnderItsOwnLineInTheOrderGiven) {
  auto a = h_.Call("read_file", R"({"repo":"shop","paths":["src/app.py","README.md"]})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "2 files\n"
                        "=== src/app.py · 3 lines\n"
                        "1  import os\n"
                        "2  \n"
                        "3  def main():\n"
                        "=== README.md · 2 lines\n"
                        "1  shop\n"
                        "2  A made-up shop.");
  // The other order is the other order.
  auto b = h_.Call("read_file", R"({"repo":"shop","paths":["README.md","src/app.py"]})");
  ASSERT_FALSE(b.is_error) << b.text;
  EXPECT_LT(b.text.find("=== README.md"), b.text.find("=== src/app.py")) << b.text;
  // One file's lines are those read_file shows for it alone.
  auto alone = h_.Call("read_file", R"({"repo":"shop","path":"src/app.py"})");
  EXPECT_TRUE(Has(a.text, alone.text.substr(alone.text.find('\n') + 1)));
}

TEST_F(ReadFileBatch, AFileThatCannotBeReadSaysWhyInItsPlaceAndTheRestStillCome) {
  auto a = h_.Call("read_file",
                   R"({"repo":"shop","paths":["nope.txt","config/prod.yml","README.md",".env",)"
                   R"("assets/logo.png","src","current","a/../b","src/app.py"]})");
  ASSERT_FALSE(a.is_error) << a.text;
  const std::string at = "main (" + Short(s_->head) + ")";
  EXPECT_EQ(a.text,
            Where() +
                "9 files\n"
                "=== nope.txt · not read: no file or folder `nope.txt` in `shop` at " +
                at +
                "; list_files shows what is there\n"
                "=== config/prod.yml · not read: path `config/prod.yml` is outside what this "
                "server serves in `shop`\n"
                "=== README.md · 2 lines\n"
                "1  shop\n"
                "2  A made-up shop.\n"
                "=== .env · not read: path `.env` is outside what this server serves in `shop`\n"
                "=== assets/logo.png · binary\n"
                "A binary file of 600 bytes; not shown as text.\n"
                "=== src · not read: `src` is a folder: list it with list_files (repo: \"shop\", "
                "path: \"src\")\n"
                "=== current · symbolic link\n"
                "A symbolic link to `src/app.py`. It is not followed: read the target by its "
                "own path.\n"
                "=== a/../b · not read: " +
                h_.Call("read_file", R"({"repo":"shop","path":"a/../b"})").text +
                "\n"
                "=== src/app.py · 3 lines\n"
                "1  import os\n"
                "2  \n"
                "3  def main():");
  EXPECT_TRUE(HasNot(a.text, "mode: prod"));
  EXPECT_TRUE(HasNot(a.text, "TOKEN"));
}

TEST_F(ReadFileBatch, StartLineAndMaxLinesApplyToEachFile) {
  auto a =
      h_.Call("read_file", R"({"repo":"shop","paths":["src/app.py","README.md"],"start_line":2,)"
                           R"("max_lines":1})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "2 files, lines 2–2 of each\n"
                        "=== src/app.py · lines 2–2 of 3\n"
                        "2  \n"
                        "[1 more line after this — continue with read_file (path: "
                        "\"src/app.py\", start_line: 3)]\n"
                        "=== README.md · lines 2–2 of 2\n"
                        "2  A made-up shop.");
  // A file shorter than start_line says so in its place.
  auto b =
      h_.Call("read_file", R"({"repo":"shop","paths":["README.md","notes.txt"],"start_line":5})");
  ASSERT_FALSE(b.is_error) << b.text;
  EXPECT_EQ(
      b.text, Where() +
                  "2 files, from line 5 of each\n"
                  "=== README.md · not read: `README.md` has 2 lines; start_line 5 is past "
                  "its end\n"
                  "=== notes.txt · lines 5–30 of 30\n" +
                  [] {
                    std::string s;
                    for (int i = 5; i <= 30; ++i) {
                      s += (i < 10 ? " " : "") + std::to_string(i) + "  notes line " +
                           std::to_string(i) + (i < 30 ? "\n" : "");
                    }
                    return s;
                  }());
}

TEST_F(ReadFileBatch, APathNamedTwiceIsRefused) {
  auto a = h_.Call("read_file", R"({"repo":"shop","paths":["README.md","/README.md/"]})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "`README.md` is named twice in paths; name each file once");
}

TEST_F(ReadFileBatch, ToolsListDescribesPathsAsAnArrayOfStrings) {
  auto list = h_.Raw(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", 3);
  auto tools = list->getObject("result")->getArray("tools");
  Poco::JSON::Object::Ptr paths;
  for (size_t i = 0; i < tools->size(); ++i) {
    auto t = tools->getObject(static_cast<unsigned>(i));
    if (t->getValue<std::string>("name") != "read_file") continue;
    auto schema = t->getObject("inputSchema");
    paths = schema->getObject("properties")->getObject("paths");
    EXPECT_EQ(schema->getArray("required")->size(), 0u) << "path is no longer required";
  }
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->getValue<std::string>("type"), "array");
  EXPECT_EQ(paths->getObject("items")->getValue<std::string>("type"), "string");
  EXPECT_EQ(paths->getValue<int>("minItems"), 1);
  EXPECT_EQ(paths->getValue<int>("maxItems"), 20);
}

// The calls a cut note asks for, in order: read_file (path: "x", start_line: N[, max_lines: M])
// and read_file (paths: [...][, …]).
std::vector<std::string> CallsIn(const std::string& note) {
  std::vector<std::string> calls;
  static const std::regex call(R"(read_file \((path: "[^"]*"[^)]*|paths: \[[^\]]*\][^)]*)\))");
  for (auto it = std::sregex_iterator(note.begin(), note.end(), call); it != std::sregex_iterator();
       ++it) {
    // path: "x", start_line: 5  ->  "path":"x","start_line":5
    std::string args = (*it)[1];
    args = std::regex_replace(args, std::regex(R"(([a-z_]+): )"), "\"$1\":");
    args = std::regex_replace(args, std::regex(R"(, ")"), ",\"");
    calls.push_back("{\"repo\":\"shop\"," + args + "}");
  }
  return calls;
}

// Every cut of a batch, wherever it falls (inside a file, at a file's first line, between two
// files), continues exactly: following the notes reads each line of each file once, in order.
TEST_F(ReadFileBatch, FollowingTheCutNotesReadsEveryLineOnce) {
  const std::vector<std::pair<std::string, int>> files = {{"src/app.py", 3},
                                                          {"src/long.py", 400},
                                                          {"README.md", 2},
                                                          {"notes.txt", 30},
                                                          {"docs/guide.md", 120}};
  const std::string first_call =
      R"({"repo":"shop","paths":["src/app.py","src/long.py","README.md","notes.txt",)"
      R"("docs/guide.md"]})";
  int cuts_inside = 0, cuts_between = 0;
  // Limits spread from a few lines an answer to most of a file; 400, 807 and 844 cut between two
  // files (at a file's own first line) with this suite's files.
  for (size_t limit : {400, 511, 622, 733, 807, 844, 955, 1177, 1399, 1621, 1954, 2398}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    ToolHarness h({Excluding()}, limit);
    std::map<std::string, std::vector<int>> seen;
    std::vector<std::string> queue = {first_call};
    int calls = 0;
    while (!queue.empty() && calls < 200) {
      const std::string args = queue.front();
      queue.erase(queue.begin());
      ++calls;
      auto a = h.Call("read_file", args);
      ASSERT_FALSE(a.is_error) << args << "\n" << a.text;
      EXPECT_LE(CodePointsOf(a.text), limit) << a.text;
      const auto lines = Lines(a.text);
      // One file alone: its name is in the first line; a batch names each file's own line.
      std::string file;
      const bool batch = args.find("\"paths\"") != std::string::npos;
      std::smatch pm;
      if (!batch && std::regex_search(args, pm, std::regex(R"re("path":"([^"]*)")re")))
        file = pm[1];
      for (size_t i = 1; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (l.rfind("=== ", 0) == 0) {
          file = l.substr(4, l.find(" · ") - 4);
          continue;
        }
        std::smatch m;
        if (std::regex_match(l, m, std::regex(R"( *([0-9]+)  (\S+) line ([0-9]+))"))) {
          EXPECT_EQ(m[1], m[3]) << l;
          seen[file].push_back(std::stoi(m[1]));
          continue;
        }
        if (std::regex_match(l, m, std::regex(R"( *([0-9]+)  .*)"))) {
          seen[file].push_back(std::stoi(m[1]));
          continue;
        }
        ASSERT_EQ(l[0], '[') << "a line that is neither a file's nor a note: " << l;
        ASSERT_EQ(i, lines.size() - 1) << "a note before the end:\n" << a.text;
        auto more = CallsIn(l);
        if (!batch &&
            std::regex_search(l, m, std::regex(R"(continue with start_line: ([0-9]+)\]$)"))) {
          more.push_back(R"({"repo":"shop","path":")" + file + R"(","start_line":)" +
                         std::string(m[1]) + "}");
        }
        ASSERT_FALSE(more.empty()) << l;
        if (batch) {
          (l.find("is shown up to line") != std::string::npos ? cuts_inside : cuts_between)++;
        }
        queue.insert(queue.end(), more.begin(), more.end());
      }
    }
    for (const auto& [name, total] : files) {
      std::vector<int> expected;
      for (int n = 1; n <= total; ++n) expected.push_back(n);
      EXPECT_EQ(seen[name], expected) << name;
    }
  }
  EXPECT_GT(cuts_inside, 0);
  EXPECT_GT(cuts_between, 0);
}

TEST_F(ReadFileBatch, ACutNamesThePathItsStartLineAndTheFilesNotReached) {
  ToolHarness h({Excluding()}, 1000);
  auto a =
      h.Call("read_file",
             R"({"repo":"shop","paths":["src/app.py","src/long.py","README.md","notes.txt"]})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  const std::string& last_shown = lines[lines.size() - 2];
  const int last = std::stoi(last_shown);
  EXPECT_EQ(lines.back(),
            "[the answer reached its limit of 1,000 characters — `src/long.py` is "
            "shown up to line " +
                std::to_string(last) +
                ": continue it with read_file (path: \"src/long.py\", start_line: " +
                std::to_string(last + 1) +
                "); 2 files not reached — read them with read_file (paths: "
                "[\"README.md\", \"notes.txt\"])]");
  // With a window, the continuation keeps it: the file in part up to the window's end, and the
  // files not reached with the same window.
  auto w = h.Call("read_file", R"({"repo":"shop","paths":["src/long.py","notes.txt"],)"
                               R"("start_line":11,"max_lines":200})");
  ASSERT_FALSE(w.is_error) << w.text;
  const auto wl = Lines(w.text);
  const int wlast = std::stoi(wl[wl.size() - 2]);
  EXPECT_EQ(wl.back(),
            "[the answer reached its limit of 1,000 characters — `src/long.py` is shown up to "
            "line " +
                std::to_string(wlast) +
                ": continue it with read_file (path: \"src/long.py\", start_line: " +
                std::to_string(wlast + 1) + ", max_lines: " + std::to_string(210 - wlast) +
                "); 1 file not reached — read it with read_file (path: \"notes.txt\", "
                "start_line: 11, max_lines: 200)]");
}

}  // namespace
}  // namespace read_file_batch_test
}  // namespace rr::testing
