// list_files on repositories the tests build: subfolders then files with full paths, recursive
// listings at any depth, links and submodules marked, errors, refs, and the cut.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_files_test {
namespace {

std::string Numbered(const std::string& prefix, int i, const std::string& suffix) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%03d", i);
  return prefix + buf + suffix;
}

// 40 characters of 4 bytes each.
std::string Wide() {
  std::string s;
  for (int i = 0; i < 40; ++i) s += "\xF0\x9F\x93\x81";  // U+1F4C1, a folder
  return s;
}

// One repository for the suite: a small tree at its first commit, more at its second.
class ListFiles : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string c1, c2;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("README.md", "shop\n");
    r.Write("src/app.py", "app\n");
    s_->c1 = r.Commit("First");  // 2026-01-01
    r.Git({"tag", "v1"});
    r.Write("docs/guide.md", "guide\n");
    r.Write("src/api/routes.py", "routes\n");
    r.Write("src/api/v1/handlers.py", "handlers\n");
    r.Write(".github/workflows/ci.yml", "ci\n");
    AddSymlink(r, "current", "src/app.py");
    AddGitlink(r, "vendor/lib", s_->c1);
    // Many files, for the cut: four folders of 100 under big/, and 400 directly in flat/.
    for (int part = 1; part <= 4; ++part) {
      for (int i = 1; i <= 100; ++i) {
        r.Write(Numbered("big/part" + std::to_string(part) + "/file-", i, ".txt"), "x\n");
      }
    }
    r.Write("flat/sub/inner.txt", "x\n");
    for (int i = 1; i <= 400; ++i) r.Write(Numbered("flat/file-", i, ".txt"), "x\n");
    // Names of 4-byte characters: far more bytes than characters.
    for (int i = 1; i <= 200; ++i) r.Write(Numbered("wide/" + Wide(), i, ".txt"), "x\n");
    s_->c2 = r.Commit("Second");  // 2026-01-02
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::string Where() { return "shop · main @ " + Short(s_->c2) + " (2026-01-02) · "; }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path())}};
};
ListFiles::Shared* ListFiles::s_ = nullptr;

TEST_F(ListFiles, SubfoldersFirstThenFilesWithFullPathsAndMarks) {
  auto a = h_.Call("list_files", R"({"repo":"shop"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where() +
                        "/ — 7 folders, 2 files\n"
                        ".github/\n"
                        "big/\n"
                        "docs/\n"
                        "flat/\n"
                        "src/\n"
                        "vendor/\n"
                        "wide/\n"
                        "README.md\n"
                        "current (link)");

  auto src = h_.Call("list_files", R"({"repo":"shop","path":"src"})");
  ASSERT_FALSE(src.is_error) << src.text;
  EXPECT_EQ(src.text, Where() + "src/ — 1 folder, 1 file\nsrc/api/\nsrc/app.py");

  // A leading or trailing / is ignored.
  auto slashed = h_.Call("list_files", R"({"repo":"shop","path":"/src/"})");
  EXPECT_EQ(slashed.text, src.text);

  auto deeper = h_.Call("list_files", R"({"repo":"shop","path":"src/api"})");
  EXPECT_EQ(deeper.text, Where() + "src/api/ — 1 folder, 1 file\nsrc/api/v1/\nsrc/api/routes.py");

  auto vendor = h_.Call("list_files", R"({"repo":"shop","path":"vendor"})");
  ASSERT_FALSE(vendor.is_error) << vendor.text;
  EXPECT_EQ(vendor.text, Where() + "vendor/ — 0 folders, 1 file\nvendor/lib (submodule)");
}

TEST_F(ListFiles, RecursiveListsEveryFileAtAnyDepth) {
  auto src = h_.Call("list_files", R"({"repo":"shop","path":"src","recursive":true})");
  ASSERT_FALSE(src.is_error) << src.text;
  EXPECT_EQ(src.text, Where() +
                          "src/ — 3 files, at any depth\n"
                          "src/api/routes.py\n"
                          "src/api/v1/handlers.py\n"
                          "src/app.py");

  // The whole repository, with a generous answer: 8 small files and the 1,001 of big/, flat/
  // and wide/.
  ToolHarness wide({Served("shop", s_->repo.path())}, 200000);
  auto all = wide.Call("list_files", R"({"repo":"shop","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  const auto lines = Lines(all.text);
  ASSERT_EQ(lines[0], Where() + "/ — 1,009 files, at any depth");
  ASSERT_EQ(lines.size(), 1010u);
  EXPECT_EQ(lines[1], ".github/workflows/ci.yml");
  EXPECT_EQ(lines[2], "README.md");
  EXPECT_EQ(lines[3], "big/part1/file-001.txt");
  EXPECT_EQ(lines[402], "big/part4/file-100.txt");
  EXPECT_EQ(lines[403], "current (link)");
  EXPECT_EQ(lines[404], "docs/guide.md");
  EXPECT_EQ(lines[405], "flat/file-001.txt");
  EXPECT_EQ(lines[804], "flat/file-400.txt");
  EXPECT_EQ(lines[805], "flat/sub/inner.txt");
  EXPECT_EQ(lines[806], "src/api/routes.py");
  EXPECT_EQ(lines[807], "src/api/v1/handlers.py");
  EXPECT_EQ(lines[808], "src/app.py");
  EXPECT_EQ(lines[809], "vendor/lib (submodule)");
  EXPECT_EQ(lines[810], Numbered("wide/" + Wide(), 1, ".txt"));
  EXPECT_EQ(lines[1009], Numbered("wide/" + Wide(), 200, ".txt"));
}

TEST_F(ListFiles, AFolderThatIsNotThereIsAnError) {
  auto a = h_.Call("list_files", R"({"repo":"shop","path":"nope"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "no file or folder `nope` in `shop` at main (" + Short(s_->c2) +
                        "); list_files shows what is there");

  auto under_a_file = h_.Call("list_files", R"({"repo":"shop","path":"README.md/x"})");
  EXPECT_TRUE(under_a_file.is_error);
  EXPECT_TRUE(Has(under_a_file.text, "no file or folder `README.md/x`"));
}

TEST_F(ListFiles, AFileGivenAsPathPointsToReadFile) {
  auto a = h_.Call("list_files", R"({"repo":"shop","path":"src/app.py"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "`src/app.py` is a file, not a folder: read it with read_file");
}

TEST_F(ListFiles, ReadsAtAnyRef) {
  auto a = h_.Call("list_files", R"({"repo":"shop","ref":"v1"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · v1 @ " + Short(s_->c1) +
                        " (2026-01-01) · / — 1 folder, 1 file\n"
                        "src/\n"
                        "README.md");

  auto r = h_.Call("list_files", R"({"repo":"shop","ref":"main~1","path":"src","recursive":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text, "shop · main~1 @ " + Short(s_->c1) +
                        " (2026-01-01) · src/ — 1 file, at any depth\n"
                        "src/app.py");

  auto gone = h_.Call("list_files", R"({"repo":"shop","ref":"v1","path":"docs"})");
  EXPECT_TRUE(gone.is_error);
  EXPECT_EQ(gone.text, "no file or folder `docs` in `shop` at v1 (" + Short(s_->c1) +
                           "); list_files shows what is there");
}

// The path a cut note names (path: "X"), or "" when it names none.
std::string NamedPath(const std::string& note) {
  const std::string key = "path: \"";
  const size_t at = note.find(key);
  if (at == std::string::npos) return "";
  const size_t end = note.find('"', at + key.size());
  return note.substr(at + key.size(), end - at - key.size());
}

TEST_F(ListFiles, ACutRecursiveListingEndsNamingANarrowerFolder) {
  ToolHarness small({Served("shop", s_->repo.path())}, 5000);
  auto a = small.Call("list_files", R"({"repo":"shop","path":"big","recursive":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_LE(CodePointsOf(a.text), 5000u);
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines[0], Where() + "big/ — 400 files, at any depth");
  const size_t shown = lines.size() - 2;
  ASSERT_GT(shown, 100u);
  ASSERT_LT(shown, 400u);
  for (size_t i = 0; i < shown; ++i) {
    const int part = 1 + static_cast<int>(i) / 100, n = 1 + static_cast<int>(i) % 100;
    ASSERT_EQ(lines[1 + i], Numbered("big/part" + std::to_string(part) + "/file-", n, ".txt"));
  }
  // The first file left out is in big/partN: the note names that folder.
  const std::string folder = "big/part" + std::to_string(1 + shown / 100);
  EXPECT_EQ(lines.back(),
            "[" + std::to_string(400 - shown) +
                " more files not shown — continue with skip: " + std::to_string(shown) +
                ", or list a narrower folder, e.g. path: \"" + folder + "\"]");
  auto narrower =
      small.Call("list_files", R"({"repo":"shop","recursive":true,"path":")" + folder + "\"}");
  ASSERT_FALSE(narrower.is_error) << narrower.text;
  EXPECT_TRUE(
      Has(narrower.text, "\n" + Numbered(folder + "/file-", 1 + shown % 100, ".txt") + "\n"));
}

// Paging with the skip each cut note gives returns every entry exactly once, in order.
TEST_F(ListFiles, PagingWithTheGivenSkipListsEveryEntryOnce) {
  ToolHarness small({Served("shop", s_->repo.path())}, 5000);
  for (const bool recursive : {false, true}) {
    std::vector<std::string> seen;
    size_t skip = 0;
    for (int page = 0; page < 50; ++page) {
      auto a = small.Call("list_files", R"({"repo":"shop","path":"flat","recursive":)" +
                                            std::string(recursive ? "true" : "false") +
                                            ",\"skip\":" + std::to_string(skip) + "}");
      ASSERT_FALSE(a.is_error) << a.text;
      auto lines = Lines(a.text);
      const std::string last = lines.back();
      const size_t at = last.find("continue with skip: ");
      const size_t body_end = at == std::string::npos ? lines.size() : lines.size() - 1;
      for (size_t i = 1; i < body_end; ++i) seen.push_back(lines[i]);
      if (at == std::string::npos) break;
      const size_t next = std::stoul(last.substr(at + 20));
      ASSERT_EQ(next, seen.size()) << last;
      skip = next;
    }
    auto whole = ToolHarness({Served("shop", s_->repo.path())}, 1000000)
                     .Call("list_files", R"({"repo":"shop","path":"flat","recursive":)" +
                                             std::string(recursive ? "true" : "false") + "}");
    auto all = Lines(whole.text);
    all.erase(all.begin());
    EXPECT_EQ(seen, all) << (recursive ? "recursive" : "direct");
  }
  auto past = small.Call("list_files", R"({"repo":"shop","path":"flat","skip":100000})");
  EXPECT_TRUE(past.is_error);
  EXPECT_TRUE(Has(past.text, "past the end")) << past.text;
}

// Where no narrower folder holds what was left out, a cut note does not send the agent to the
// folder it listed, or to a file.
TEST_F(ListFiles, ACutNoteNeverNamesThePathListedOrAFile) {
  ToolHarness small({Served("shop", s_->repo.path())}, 5000);
  auto rec = small.Call("list_files", R"({"repo":"shop","path":"flat","recursive":true})");
  ASSERT_FALSE(rec.is_error) << rec.text;
  const std::string rec_note = Lines(rec.text).back();
  EXPECT_EQ(rec_note.rfind("[", 0), 0u) << rec_note;
  EXPECT_TRUE(Has(rec_note, " more files not shown"));
  const std::string rec_path = NamedPath(rec_note);
  EXPECT_NE(rec_path, "flat") << rec_note;
  if (!rec_path.empty()) {
    EXPECT_EQ(rec_path.rfind("flat/", 0), 0u) << rec_note;
    EXPECT_FALSE(
        small.Call("list_files", R"({"repo":"shop","path":")" + rec_path + "\"}").is_error);
  }

  auto direct = small.Call("list_files", R"({"repo":"shop","path":"flat"})");
  ASSERT_FALSE(direct.is_error) << direct.text;
  const auto lines = Lines(direct.text);
  EXPECT_EQ(lines[0], Where() + "flat/ — 1 folder, 400 files");
  EXPECT_EQ(lines[1], "flat/sub/");
  EXPECT_EQ(lines[2], "flat/file-001.txt");
  const std::string note = lines.back();
  EXPECT_TRUE(Has(note, " more entries not shown")) << note;
  const size_t shown = lines.size() - 2;
  EXPECT_EQ(note.rfind("[" + std::to_string(401 - shown) + " more entries not shown", 0), 0u)
      << note;
  const std::string path = NamedPath(note);
  if (!path.empty()) {
    auto named = small.Call("list_files", R"({"repo":"shop","path":")" + path + "\"}");
    EXPECT_FALSE(named.is_error) << "the note names " << path << ": " << named.text;
  }
}

// The cap counts characters: a listing of names with many bytes a character is cut like any
// other, never shortened without a note.
TEST_F(ListFiles, ACutListingOfLongUtf8NamesStillEndsWithTheNote) {
  ToolHarness small({Served("shop", s_->repo.path())}, 5000);
  auto a = small.Call("list_files", R"({"repo":"shop","path":"wide","recursive":true})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_LE(CodePointsOf(a.text), 5000u);
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines[0], Where() + "wide/ — 200 files, at any depth");
  const size_t shown = lines.size() - 2;
  ASSERT_LT(shown, 200u) << a.text;
  for (size_t i = 0; i < shown; ++i) {
    ASSERT_EQ(lines[1 + i], Numbered("wide/" + Wide(), static_cast<int>(i) + 1, ".txt"));
  }
  // Cut where the answer is full: one more name would not have fit.
  EXPECT_GT(CodePointsOf(a.text) + CodePointsOf(lines[1]) + 1, 5000u);
  EXPECT_EQ(lines.back().rfind("[" + std::to_string(200 - shown) + " more files not shown", 0), 0u)
      << lines.back();
}

}  // namespace
}  // namespace list_files_test
}  // namespace rr::testing
