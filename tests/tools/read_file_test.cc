// read_file on repositories the tests build: numbered lines, the first line naming where it
// read, windows, the cut and its continuation, long lines, what is not shown as text, refs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace read_file_test {
namespace {

std::string NumberedFile(int lines) {
  std::string s;
  for (int i = 1; i <= lines; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

// One repository for the suite: every kind of file read_file meets, committed on 2026-01-02
// (the first commit is what the submodule pins).
class ReadFile : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string pinned, head;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("README.md", "shop\n");
    s_->pinned = r.Commit("First");  // 2026-01-01
    r.Write("notes.txt", NumberedFile(11) + "no newline at the end");
    r.Write("twelve.txt", NumberedFile(12));
    r.Write("three.txt", "one\ntwo\nthree\n");
    r.Write("empty.txt", "");
    std::string long_file;
    for (int i = 1; i <= 3000; ++i) {
      long_file += "line " + std::to_string(i) + " of the long file, café\n";
    }
    r.Write("long.txt", long_file);
    r.Write("plain-long.txt", NumberedFile(3000));
    std::string accented;
    for (int i = 0; i < 2100; ++i) accented += "é";
    r.Write("min.js",
            std::string(2500, 'x') + "\n" + std::string(2000, 'k') + "\n" + accented + "\nshort\n");
    std::string bytes(1500, 'a');
    bytes[10] = '\0';
    bytes[700] = '\x01';
    r.Write("assets/logo.png", bytes);
    r.Write("src/app.py", "print('linked content')\n");
    // Text with control bytes but no NUL: git shows it, so does read_file (escaped).
    std::string controls(1024, 'c');
    for (int i = 0; i < 8; ++i) controls[100 * i + 50] = '\x01';
    r.Write("controls.txt", controls + "\n");
    r.Write("del.txt", "x\x7fy\n");
    // A NUL past the first 8,000 bytes: git calls it text.
    r.Write("late-nul.txt", std::string(8000, 'n') + "\n" + std::string(1, '\0') + "\n");
    r.Write("cr-at-end.txt", "one\r\ntwo\r");
    // Escapes where a long line is cut: character 2,000 falls inside `\x01` (shown as 4).
    r.Write("long-controls.txt", std::string(1998, 'z') + std::string(3, '\x01') + "tail\n");
    r.Write("src/api/routes.py", "routes\n");
    AddSymlink(r, "current", "src/app.py");
    AddSymlink(r, "escape", "../../../etc/passwd");
    AddGitlink(r, "vendor/lib", s_->pinned);
    const std::string line(1023, 'a');
    std::string ten_mb;
    ten_mb.reserve(10 * 1024 * 1024 + 1);
    for (int i = 0; i < 10 * 1024; ++i) ten_mb += line + "\n";
    r.Write("exactly-10mb.txt", ten_mb);
    r.Write("over-10mb.txt", ten_mb + "b");
    s_->head = r.Commit("Everything");  // 2026-01-02
    // Never committed: a changed file, a file never added, a file staged only.
    r.Write("src/app.py", "print('changed, not committed')\n");
    r.Write("untracked.txt", "never added\n");
    r.Write("staged.txt", "added, never committed\n");
    r.Git({"add", "staged.txt"});
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::string Where(const std::string& path) {
    return "shop · main @ " + Short(s_->head) + " (2026-01-02) · " + path + " · ";
  }
  // read_file on `path` with more arguments (JSON members, or nothing).
  ToolHarness::Answer Read(const std::string& path, const std::string& more = "") {
    return h_.Call("read_file", R"({"repo":"shop","path":")" + path + "\"" +
                                    (more.empty() ? "" : "," + more) + "}");
  }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->repo.path())}};
  ToolHarness small_{{Served("shop", s_->repo.path())}, 5000};
};
ReadFile::Shared* ReadFile::s_ = nullptr;

TEST_F(ReadFile, ReadsTheCommittedFileNotTheWorkTree) {
  auto a = Read("src/app.py");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("src/app.py") + "lines 1–1 of 1\n1  print('linked content')");

  for (const std::string path : {"untracked.txt", "staged.txt"}) {
    auto u = Read(path);
    EXPECT_TRUE(u.is_error);
    EXPECT_EQ(u.text, "no file or folder `" + path + "` in `shop` at main (" + Short(s_->head) +
                          "); list_files shows what is there");
  }
}

TEST_F(ReadFile, NumbersEveryLineAlignedToTheLastNumber) {
  auto a = Read("notes.txt");
  ASSERT_FALSE(a.is_error) << a.text;
  std::string expected = Where("notes.txt") + "lines 1–12 of 12";
  for (int i = 1; i <= 9; ++i) {
    expected += "\n " + std::to_string(i) + "  line " + std::to_string(i);
  }
  expected += "\n10  line 10\n11  line 11\n12  no newline at the end";
  EXPECT_EQ(a.text, expected);

  // A leading or trailing / is ignored.
  EXPECT_EQ(Read("/notes.txt").text, a.text);

  auto three = Read("three.txt");
  EXPECT_EQ(three.text, Where("three.txt") + "lines 1–3 of 3\n1  one\n2  two\n3  three");
}

TEST_F(ReadFile, StartLineAndMaxLinesChooseTheWindow) {
  const std::string where = Where("twelve.txt");
  auto w = Read("twelve.txt", R"("start_line":3,"max_lines":2)");
  ASSERT_FALSE(w.is_error) << w.text;
  EXPECT_EQ(w.text, where +
                        "lines 3–4 of 12\n"
                        " 3  line 3\n"
                        " 4  line 4\n"
                        "[8 more lines after this — continue with start_line: 5]");

  EXPECT_EQ(Read("twelve.txt", R"("start_line":11)").text,
            where + "lines 11–12 of 12\n11  line 11\n12  line 12");
  EXPECT_EQ(Read("twelve.txt", R"("max_lines":1)").text,
            where +
                "lines 1–1 of 12\n 1  line 1\n[11 more lines after this — continue with "
                "start_line: 2]");
  // A window reaching past the end is the rest of the file, with no note.
  EXPECT_EQ(Read("twelve.txt", R"("start_line":12,"max_lines":50)").text,
            where + "lines 12–12 of 12\n12  line 12");
  EXPECT_EQ(Read("twelve.txt", R"("start_line":10,"max_lines":3)").text,
            where + "lines 10–12 of 12\n10  line 10\n11  line 11\n12  line 12");
  EXPECT_EQ(Read("twelve.txt", R"("start_line":10,"max_lines":2)").text,
            where +
                "lines 10–11 of 12\n10  line 10\n11  line 11\n[1 more line after this — continue "
                "with start_line: 12]");
}

TEST_F(ReadFile, StartLinePastTheEndIsAClearError) {
  auto a = Read("three.txt", R"("start_line":4)");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "`three.txt` has 3 lines; start_line 4 is past its end");

  auto far = Read("three.txt", R"("start_line":1000000)");
  EXPECT_TRUE(far.is_error);
  EXPECT_EQ(far.text, "`three.txt` has 3 lines; start_line 1000000 is past its end");

  auto ok = Read("three.txt", R"("start_line":3)");
  EXPECT_FALSE(ok.is_error) << ok.text;
  EXPECT_EQ(ok.text, Where("three.txt") + "lines 3–3 of 3\n3  three");
}

TEST_F(ReadFile, EmptyFile) {
  auto a = Read("empty.txt");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("empty.txt") + "empty file (0 lines)");
}

// Pages through a file longer than the answer: every page is cut where the answer is full, ends
// with the exact start_line that continues it, and no line is lost or repeated.
TEST_F(ReadFile, ALongFileIsCutWhereTheAnswerIsFullAndContinues) {
  constexpr int kTotal = 3000;
  constexpr size_t kLimit = 5000;
  const std::string where = Where("long.txt");
  std::vector<int> seen;
  int start = 1;
  int pages = 0;
  while (start <= kTotal && pages < 100) {
    ++pages;
    auto a = small_.Call("read_file", R"({"repo":"shop","path":"long.txt","start_line":)" +
                                          std::to_string(start) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), kLimit);
    const auto lines = Lines(a.text);
    ASSERT_GE(lines.size(), 2u) << a.text;

    // The first line: lines START–LAST of 3000.
    const std::string prefix = where + "lines " + std::to_string(start) + "–";
    ASSERT_EQ(lines[0].rfind(prefix, 0), 0u) << lines[0];
    const std::string suffix = " of " + std::to_string(kTotal);
    ASSERT_GE(lines[0].size(), prefix.size() + suffix.size());
    ASSERT_EQ(lines[0].substr(lines[0].size() - suffix.size()), suffix) << lines[0];
    const int last =
        std::stoi(lines[0].substr(prefix.size(), lines[0].size() - prefix.size() - suffix.size()));
    ASSERT_GE(last, start);

    // The numbered lines, exactly those the first line names.
    const size_t numbered = static_cast<size_t>(last - start + 1);
    ASSERT_GE(lines.size(), numbered + 1) << a.text;
    for (size_t i = 0; i < numbered; ++i) {
      const int n = start + static_cast<int>(i);
      std::string num = std::to_string(n);
      num.insert(0, 4 - num.size(), ' ');
      EXPECT_EQ(lines[1 + i], num + "  line " + std::to_string(n) + " of the long file, café");
      seen.push_back(n);
    }

    if (last == kTotal) {
      EXPECT_EQ(lines.size(), numbered + 1) << "nothing after the last line:\n" << a.text;
      break;
    }
    // A cut page ends with the note giving the start_line that continues it, and nothing else.
    ASSERT_EQ(lines.size(), numbered + 2) << a.text;
    const std::string next = std::to_string(last + 1);
    EXPECT_EQ(lines.back(), "[lines " + next + "–" + std::to_string(kTotal) +
                                " not shown: the answer reached its limit of 5,000 characters — "
                                "continue with start_line: " +
                                next + "]");
    // Cut where the answer is full: one more line (and a digit more in the first line) would
    // not have fit.
    const std::string next_line = "  line " + next + " of the long file, café";
    EXPECT_GT(CodePointsOf(a.text) + 4 + CodePointsOf(next_line) + 1 + 1, kLimit) << a.text;
    start = last + 1;
  }
  ASSERT_EQ(seen.size(), static_cast<size_t>(kTotal));
  for (int i = 0; i < kTotal; ++i) ASSERT_EQ(seen[i], i + 1);
  EXPECT_GT(pages, 10);
}

// A window (max_lines) larger than what fits: the note that ends the answer continues from the
// first line not shown, not from the end of the window.
TEST_F(ReadFile, AWindowLargerThanTheAnswerContinuesFromTheCut) {
  auto a = small_.Call(
      "read_file", R"({"repo":"shop","path":"plain-long.txt","start_line":101,"max_lines":2000})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[1], " 101  line 101");
  // The last numbered line shown, and the first line naming it.
  const std::string& shown = lines[lines.size() - 2];
  const int last = std::stoi(shown.substr(0, shown.find("  line")));
  EXPECT_LT(last, 2100);
  EXPECT_EQ(lines[0], Where("plain-long.txt") + "lines 101–" + std::to_string(last) + " of 3000");
  EXPECT_EQ(lines.back(), "[lines " + std::to_string(last + 1) +
                              "–3000 not shown: the answer reached its limit of 5,000 characters "
                              "— continue with start_line: " +
                              std::to_string(last + 1) + "]");
  EXPECT_TRUE(HasNot(a.text, "start_line: 2101")) << "a note skipping lines not shown";
}

// Around the size where a window just fits: whichever note ends the answer, the start_line it
// gives is the first line not shown, and the first line names exactly the lines shown.
TEST_F(ReadFile, EveryWindowNearTheLimitEndsWithTheRightContinuation) {
  int whole = 0, cut = 0;  // windows shown whole, windows cut
  for (int max_lines = 300; max_lines <= 345; ++max_lines) {
    auto a = small_.Call("read_file", R"({"repo":"shop","path":"plain-long.txt","start_line":101,)"
                                      R"("max_lines":)" +
                                          std::to_string(max_lines) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 5000u) << max_lines;
    const auto lines = Lines(a.text);
    ASSERT_GE(lines.size(), 3u);
    const std::string& shown = lines[lines.size() - 2];
    const int last = std::stoi(shown.substr(0, shown.find("  line")));
    EXPECT_EQ(lines[0], Where("plain-long.txt") + "lines 101–" + std::to_string(last) + " of 3000")
        << max_lines;
    EXPECT_EQ(static_cast<int>(lines.size()) - 2, last - 100) << max_lines;
    const std::string next = std::to_string(last + 1);
    if (last == 100 + max_lines) {
      ++whole;
      EXPECT_EQ(lines.back(), "[" + Commas(3000 - last) +
                                  " more lines after this — continue with start_line: " + next +
                                  "]")
          << max_lines;
    } else {
      ++cut;
      EXPECT_LT(last, 100 + max_lines);
      EXPECT_EQ(lines.back(), "[lines " + next +
                                  "–3000 not shown: the answer reached its limit of 5,000 "
                                  "characters — continue with start_line: " +
                                  next + "]")
          << max_lines;
    }
  }
  EXPECT_GT(whole, 0);
  EXPECT_GT(cut, 0);
}

TEST_F(ReadFile, ALineOverTwoThousandCharactersIsCutSayingHowManyWereLeftOut) {
  auto a = Read("min.js");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], Where("min.js") + "lines 1–4 of 4");
  EXPECT_EQ(lines[1], "1  " + std::string(2000, 'x') + " …[500 more characters on this line]");
  EXPECT_EQ(lines[2], "2  " + std::string(2000, 'k'));  // exactly 2,000: whole
  std::string cut;
  for (int i = 0; i < 2000; ++i) cut += "é";
  // Characters are counted, not bytes.
  EXPECT_EQ(lines[3], "3  " + cut + " …[100 more characters on this line]");
  EXPECT_EQ(lines[4], "4  short");
}

TEST_F(ReadFile, ABinaryFileIsGivenByItsSize) {
  auto a = Read("assets/logo.png");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("assets/logo.png") +
                        "binary\n"
                        "A binary file of 1.5 KB (1,500 bytes); not shown as text.");
}

TEST_F(ReadFile, OnlyANulInTheFirst8000BytesMakesAFileBinaryAsInGit) {
  auto a = Read("controls.txt");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_NE(a.text.find("lines 1–1 of 1"), std::string::npos) << a.text.substr(0, 200);
  EXPECT_NE(a.text.find("ccc\\x01ccc"), std::string::npos) << a.text.substr(0, 200);
  auto d = Read("del.txt");
  EXPECT_EQ(d.text, Where("del.txt") + "lines 1–1 of 1\n1  x\\x7Fy") << d.text;
  auto n = Read("late-nul.txt", R"("start_line":2)");
  ASSERT_FALSE(n.is_error) << n.text;
  EXPECT_NE(n.text.find("lines 2–2 of 2\n2  \\x00"), std::string::npos) << n.text;
}

TEST_F(ReadFile, ALongLineIsNeverCutInsideAnEscape) {
  auto a = Read("long-controls.txt");
  ASSERT_FALSE(a.is_error) << a.text;
  const std::string line = Lines(a.text)[1];
  // 1,998 z, then the cut before the first escape (it would end at character 2,002).
  EXPECT_EQ(line, "1  " + std::string(1998, 'z') + " …[16 more characters on this line]") << line;
}

TEST_F(ReadFile, ACarriageReturnEndingTheFileIsShown) {
  // "\r\n" is a line ending; a "\r" with no "\n" after it is the last line's own.
  auto a = Read("cr-at-end.txt");
  EXPECT_EQ(a.text, Where("cr-at-end.txt") + "lines 1–2 of 2\n1  one\n2  two\\r") << a.text;
}

TEST_F(ReadFile, ASymbolicLinkIsGivenByItsTargetAndNeverFollowed) {
  auto a = Read("current");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("current") +
                        "symbolic link\n"
                        "A symbolic link to `src/app.py`. It is not followed: read the target by "
                        "its own path.");
  EXPECT_TRUE(HasNot(a.text, "linked content"));

  auto e = Read("escape");
  ASSERT_FALSE(e.is_error) << e.text;
  EXPECT_EQ(e.text, Where("escape") +
                        "symbolic link\n"
                        "A symbolic link to `../../../etc/passwd`. It is not followed: read the "
                        "target by its own path.");
}

TEST_F(ReadFile, ASubmoduleIsGivenByThePinnedCommit) {
  ASSERT_EQ(s_->repo.Git({"ls-tree", "HEAD", "vendor/lib"}),
            "160000 commit " + s_->pinned + "\tvendor/lib");
  auto a = Read("vendor/lib");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, Where("vendor/lib") +
                        "submodule\n"
                        "A submodule, pinned at commit " +
                        s_->pinned +
                        ". Its files belong to another repository and are not read here.");

  auto inside = Read("vendor/lib/README.md");
  EXPECT_TRUE(inside.is_error);
  EXPECT_EQ(inside.text, "no file or folder `vendor/lib/README.md` in `shop` at main (" +
                             Short(s_->head) + "); list_files shows what is there");
}

TEST_F(ReadFile, AFileOverTenMegabytesIsNotRead) {
  auto over = Read("over-10mb.txt");
  EXPECT_TRUE(over.is_error);
  EXPECT_EQ(over.text,
            "`over-10mb.txt` is 10.0 MB (10,485,761 bytes), over the 10 MB this server reads; it "
            "is not read");

  auto exact = Read("exactly-10mb.txt", R"("max_lines":2)");
  ASSERT_FALSE(exact.is_error) << exact.text;
  EXPECT_EQ(Lines(exact.text)[0], Where("exactly-10mb.txt") + "lines 1–2 of 10240");
}

TEST_F(ReadFile, AFolderIsRefusedWithAPointerToListFiles) {
  auto a = Read("src/api");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            R"(`src/api` is a folder: list it with list_files (repo: "shop", path: "src/api"))");

  auto root = Read("/");
  EXPECT_TRUE(root.is_error);
  EXPECT_EQ(root.text, "path names the repository's root, a folder: list it with list_files");
}

TEST_F(ReadFile, PathsWithDotPartsAreRefused) {
  for (const char* p :
       {"src/../src/app.py", "./src/app.py", "../shop/src/app.py", "src/./app.py"}) {
    auto a = Read(p);
    EXPECT_TRUE(a.is_error) << p << ": " << a.text;
    EXPECT_TRUE(HasNot(a.text, "linked content")) << p;
    EXPECT_TRUE(Has(a.text, "path")) << p;
  }
}

// A history with a lightweight tag, an annotated tag, a branch merged into main and a
// remote-tracking branch. Built once for the suite.
class ReadFileAtRefs : public ::testing::Test {
 protected:
  struct History {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string c1, c2, c3, c4, merge;
  };

  static void SetUpTestSuite() {
    h_ = new History;
    TestRepo& r = h_->repo;
    r.Write("version.txt", "one\n");
    h_->c1 = r.Commit("One");  // 2026-01-01
    r.Git({"tag", "v0.1"});
    r.Write("version.txt", "two\n");
    h_->c2 = r.Commit("Two");  // 2026-01-02
    r.Git({"tag", "-a", "v0.2", "-m", "Release 0.2"});
    r.Git({"update-ref", "refs/remotes/origin/main", h_->c2});
    r.Git({"checkout", "-q", "-b", "feature"});
    r.Write("feature.txt", "from the feature branch\n");
    h_->c3 = r.Commit("Feature");  // 2026-01-03
    r.Git({"checkout", "-q", "main"});
    r.Write("version.txt", "four\n");
    h_->c4 = r.Commit("Four");                                                // 2026-01-04
    r.Git({"merge", "-q", "--no-ff", "-m", "Merge the feature", "feature"});  // 2026-01-05
    h_->merge = r.Rev("HEAD");
    r.Git({"branch", "-D", "feature"});
  }
  static void TearDownTestSuite() {
    delete h_;
    h_ = nullptr;
  }

  std::string Read(const std::string& ref, const std::string& path) {
    auto a = server_.Call("read_file",
                          R"({"repo":"shop","path":")" + path + R"(","ref":")" + ref + "\"}");
    EXPECT_FALSE(a.is_error) << ref << ": " << a.text;
    return a.text;
  }

  static History* h_;
  ToolHarness server_{{Served("shop", h_->repo.path())}};
  const std::string &c1_ = h_->c1, &c2_ = h_->c2, &c3_ = h_->c3, &c4_ = h_->c4, &merge_ = h_->merge;
  TestRepo& repo_ = h_->repo;
};
ReadFileAtRefs::History* ReadFileAtRefs::h_ = nullptr;

TEST_F(ReadFileAtRefs, BranchTagsCommitIdsAncestorsAndRemoteTracking) {
  EXPECT_EQ(Read("main", "version.txt"), "shop · main @ " + Short(merge_) +
                                             " (2026-01-05) · version.txt · lines 1–1 of 1\n"
                                             "1  four");
  EXPECT_EQ(Read("v0.1", "version.txt"), "shop · v0.1 @ " + Short(c1_) +
                                             " (2026-01-01) · version.txt · lines 1–1 of 1\n"
                                             "1  one");
  // An annotated tag reads the commit it is on, not the tag object.
  const std::string tag_object = repo_.Rev("v0.2");
  ASSERT_NE(tag_object, c2_);
  EXPECT_EQ(Read("v0.2", "version.txt"), "shop · v0.2 @ " + Short(c2_) +
                                             " (2026-01-02) · version.txt · lines 1–1 of 1\n"
                                             "1  two");
  const std::string abbrev = c1_.substr(0, 7);
  EXPECT_EQ(Read(abbrev, "version.txt"), "shop · " + abbrev + " @ " + Short(c1_) +
                                             " (2026-01-01) · version.txt · lines 1–1 of 1\n"
                                             "1  one");
  EXPECT_TRUE(Has(Read(c2_, "version.txt"), "shop · " + c2_ + " @ " + Short(c2_) + " ("));
  EXPECT_EQ(Read("main~1", "version.txt"), "shop · main~1 @ " + Short(c4_) +
                                               " (2026-01-04) · version.txt · lines 1–1 of 1\n"
                                               "1  four");
  EXPECT_EQ(Read("main~2", "version.txt"), "shop · main~2 @ " + Short(c2_) +
                                               " (2026-01-02) · version.txt · lines 1–1 of 1\n"
                                               "1  two");
  // The merge's second parent: the feature branch's commit.
  EXPECT_EQ(Read("main^2", "feature.txt"), "shop · main^2 @ " + Short(c3_) +
                                               " (2026-01-03) · feature.txt · lines 1–1 of 1\n"
                                               "1  from the feature branch");
  EXPECT_EQ(Read("origin/main", "version.txt"), "shop · origin/main @ " + Short(c2_) +
                                                    " (2026-01-02) · version.txt · lines 1–1 of 1\n"
                                                    "1  two");
}

TEST_F(ReadFileAtRefs, AFileAbsentAtTheRefIsNotThere) {
  auto a = server_.Call("read_file", R"({"repo":"shop","path":"feature.txt","ref":"v0.2"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text, "no file or folder `feature.txt` in `shop` at v0.2 (" + Short(c2_) +
                        "); list_files shows what is there");
}

// Revision suffixes as git reads them: `@` is HEAD with ~ and ^ too; what git refuses for one
// commit (`^@`, a suffix followed by anything but digits) is no commit here either.
TEST_F(ReadFileAtRefs, SuffixesMeanWhatGitMeansAndWhatGitRefusesIsRefused) {
  auto at = [&](const std::string& ref) {
    return server_.Call("read_file",
                        R"({"repo":"shop","path":"version.txt","ref":")" + ref + "\"}");
  };
  for (const std::string ref : {"@~1", "@^", "@~", "HEAD~1", "main^1"}) {
    auto a = at(ref);
    ASSERT_FALSE(a.is_error) << ref << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "@ " + Short(h_->c4))) << ref << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "1  four")) << ref << ": " << a.text;
  }
  auto two = at("@~2");
  EXPECT_TRUE(Has(two.text, "@ " + Short(h_->c2))) << two.text;
  for (const std::string ref : {"main^@", "v0.2^@", "main^0@", "main~0@", "main~x", "~1", "^"}) {
    auto a = at(ref);
    EXPECT_TRUE(a.is_error) << ref << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "is not a branch, tag or commit")) << ref << ": " << a.text;
  }
}

TEST_F(ReadFileAtRefs, UnknownOrRefusedRefs) {
  auto a = server_.Call("read_file", R"({"repo":"shop","path":"version.txt","ref":"nope"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "ref `nope` is not a branch, tag or commit of `shop`; list_refs lists its branches "
            "and tags (a commit id needs at least 7 hex digits, more where they are not enough)");

  auto deleted =
      server_.Call("read_file", R"({"repo":"shop","path":"version.txt","ref":"feature"})");
  EXPECT_TRUE(deleted.is_error);
  EXPECT_TRUE(Has(deleted.text, "ref `feature` is not a branch, tag or commit of `shop`"));

  auto path_syntax =
      server_.Call("read_file", R"({"repo":"shop","path":"version.txt","ref":"main:version.txt"})");
  EXPECT_TRUE(path_syntax.is_error);
  EXPECT_TRUE(Has(path_syntax.text, "ref `main:version.txt` is refused"));

  auto option =
      server_.Call("read_file", R"({"repo":"shop","path":"version.txt","ref":"--output=x"})");
  EXPECT_TRUE(option.is_error);
  EXPECT_TRUE(Has(option.text, "a ref may not start with -"));
}

}  // namespace
}  // namespace read_file_test
}  // namespace rr::testing
