// Repositories written by an attacker: file contents. A file over the size read, a line of
// thousands of characters, NUL bytes, CRLF line ends, UTF-16, a file of many short lines.
#include <gtest/gtest.h>

#include "core/util/text.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_files {
namespace {

struct FilesRepo {
  TempDir tmp;
  TestRepo repo{tmp / "files"};
  FilesRepo() {
    repo.Write("big.bin", std::string(11 * 1024 * 1024, 'A'));
    repo.Write("long-line.txt", "start " + std::string(4994, 'x') + "\nsecond line\n");
    std::string wide;
    for (int i = 0; i < 2500; ++i) wide += "\xC3\xA9";  // é, two bytes
    repo.Write("wide-chars.txt", wide + "\n");
    repo.Write("nul.txt", std::string("hello\0world, a secret after a NUL\n", 35));
    repo.Write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
    repo.Write("lone-cr.txt", "carriage\rreturn inside a line\n");
    std::string utf16le = "\xFF\xFE";
    for (char c : std::string("hidden text in UTF-16\n")) {
      utf16le.push_back(c);
      utf16le.push_back('\0');
    }
    repo.Write("utf16le.txt", utf16le);
    std::string utf16be = "\xFE\xFF";
    for (char c : std::string("hidden text in UTF-16\n")) {
      utf16be.push_back('\0');
      utf16be.push_back(c);
    }
    repo.Write("utf16be.txt", utf16be);
    std::string many;
    for (int i = 1; i <= 20000; ++i) many += "line " + std::to_string(i) + "\n";
    repo.Write("many-lines.txt", many);
    repo.Commit("Files");
  }
};

// One repository for the suite: committing 11 MB once is enough.
class HostileFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { repo_ = new FilesRepo; }
  static void TearDownTestSuite() {
    delete repo_;
    repo_ = nullptr;
  }
  static FilesRepo* repo_;
};
FilesRepo* HostileFiles::repo_ = nullptr;

TEST_F(HostileFiles, FileOverTenMegabytesIsRefusedWithItsSize) {
  FilesRepo& r = *repo_;
  ToolHarness h({Served("files", r.repo.path())});
  auto a = h.Call("read_file", R"({"repo":"files","path":"big.bin"})");
  EXPECT_TRUE(a.is_error) << a.text.substr(0, 300);
  EXPECT_TRUE(Has(a.text, "11.0 MB (11,534,336 bytes), over the 10 MB this server reads"))
      << a.text.substr(0, 300);
  EXPECT_FALSE(Has(a.text, "AAAA")) << a.text.substr(0, 300);
  EXPECT_LT(a.text.size(), 1000u);
  auto list = h.Call("list_files", R"({"repo":"files"})");
  EXPECT_TRUE(Has(list.text, "\nbig.bin")) << list.text;
}

TEST_F(HostileFiles, LineOfFiveThousandCharactersIsCutAtTwoThousandWithTheCountLeftOut) {
  FilesRepo& r = *repo_;
  ToolHarness h({Served("files", r.repo.path())});
  auto a = h.Call("read_file", R"({"repo":"files","path":"long-line.txt"})");
  ASSERT_FALSE(a.is_error) << a.text.substr(0, 300);
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines.size(), 3u) << a.text.substr(0, 300);
  EXPECT_EQ(lines[1],
            "1  start " + std::string(1994, 'x') + " …[3,000 more characters on this line]");
  EXPECT_EQ(lines[2], "2  second line");

  // Counted in characters, not bytes: a line of 2,500 two-byte characters.
  auto w = h.Call("read_file", R"({"repo":"files","path":"wide-chars.txt"})");
  ASSERT_FALSE(w.is_error) << w.text.substr(0, 300);
  std::string kept;
  for (int i = 0; i < 2000; ++i) kept += "\xC3\xA9";
  EXPECT_EQ(Lines(w.text)[1], "1  " + kept + " …[500 more characters on this line]");
  EXPECT_TRUE(Printable(w.text));
}

TEST_F(HostileFiles, NulBytesMakeAFileBinaryAndItIsNotShown) {
  FilesRepo& r = *repo_;
  ToolHarness h({Served("files", r.repo.path())});
  auto a = h.Call("read_file", R"({"repo":"files","path":"nul.txt"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "A binary file of 35 bytes; not shown as text.")) << a.text;
  EXPECT_FALSE(Has(a.text, "hello")) << a.text;
  EXPECT_FALSE(Has(a.text, "secret")) << a.text;
  EXPECT_TRUE(Printable(a.text));
}

TEST_F(HostileFiles, CrlfLinesAreShownWithoutCarriageReturns) {
  FilesRepo& r = *repo_;
  ToolHarness h({Served("files", r.repo.path())});
  auto a = h.Call("read_file", R"({"repo":"files","path":"crlf.txt"})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto lines = Lines(a.text);
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 1, lines.end()),
            (std::vector<std::string>{"1  one", "2  two", "3  three"}))
      << a.text;
  EXPECT_TRUE(Has(lines[0], "lines 1–3 of 3")) << a.text;
  EXPECT_FALSE(Has(a.text, "\r"));
  EXPECT_FALSE(Has(a.text, "\\r"));

  // A carriage return inside a line could hide what comes before it: shown escaped.
  auto cr = h.Call("read_file", R"({"repo":"files","path":"lone-cr.txt"})");
  ASSERT_FALSE(cr.is_error) << cr.text;
  EXPECT_EQ(Lines(cr.text).back(), "1  carriage\\rreturn inside a line") << cr.text;
  EXPECT_TRUE(Printable(cr.text));
}

TEST_F(HostileFiles, Utf16WithByteOrderMarkIsSaidToBeUtf16AndNotShown) {
  FilesRepo& r = *repo_;
  ToolHarness h({Served("files", r.repo.path())});
  for (const char* path : {"utf16le.txt", "utf16be.txt"}) {
    auto a = h.Call("read_file", R"({"repo":"files","path":")" + std::string(path) + "\"}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(Has(a.text, "UTF-16 text of 46 bytes; not shown as text.")) << a.text;
    EXPECT_FALSE(Has(a.text, "hidden")) << a.text;
    EXPECT_TRUE(Printable(a.text));
  }
}

TEST_F(HostileFiles, FileLongerThanTheAnswerIsCutWithTheLineToContinueFrom) {
  FilesRepo& r = *repo_;
  constexpr size_t kCap = 20000;
  ToolHarness h({Served("files", r.repo.path())}, kCap);
  auto a = h.Call("read_file", R"({"repo":"files","path":"many-lines.txt"})");
  ASSERT_FALSE(a.is_error) << a.text.substr(0, 300);
  EXPECT_LE(CodePoints(a.text), kCap);
  const auto lines = Lines(a.text);
  const size_t shown = lines.size() - 2;
  EXPECT_TRUE(Has(lines[0], "lines 1–" + std::to_string(shown) + " of 20000")) << lines[0];
  EXPECT_TRUE(Has(lines.back(), "continue with start_line: " + std::to_string(shown + 1)))
      << lines.back();
  auto next = h.Call("read_file", R"({"repo":"files","path":"many-lines.txt","start_line":)" +
                                      std::to_string(shown + 1) + "}");
  ASSERT_FALSE(next.is_error) << next.text.substr(0, 300);
  EXPECT_TRUE(Has(Lines(next.text)[1], "line " + std::to_string(shown + 1))) << Lines(next.text)[1];
}

}  // namespace
}  // namespace rr::testing::safety::hostile_files
