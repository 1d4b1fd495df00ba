#include "core/util/text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/json_text.h"

namespace rr {
namespace text_test {
namespace {

TEST(Text, DisplayNameEscapesControlCharactersAndInvalidUtf8) {
  EXPECT_EQ(DisplayName("plain/path.txt"), "plain/path.txt");
  EXPECT_EQ(DisplayName("a\nb"), "a\\nb");
  EXPECT_EQ(DisplayName("\x1b[31mred"), "\\e[31mred");
  EXPECT_EQ(DisplayName("bad\xff"), "bad\\xFF");
  EXPECT_EQ(DisplayName("café"), "café");
  EXPECT_EQ(DisplayName("\xc3"), "\\xC3");  // a cut sequence
}

TEST(Text, DisplayTextKeepsTabsAndReplacesInvalidUtf8) {
  EXPECT_EQ(DisplayText("a\tb"), "a\tb");
  EXPECT_EQ(DisplayText("x\xffy"), "x\xEF\xBF\xBDy");
  EXPECT_EQ(DisplayText("\x1b[0m"), "\\e[0m");
  EXPECT_EQ(DisplayText("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}

TEST(Text, NumbersAndCodePoints) {
  EXPECT_EQ(WithCommas(0), "0");
  EXPECT_EQ(WithCommas(1234567), "1,234,567");
  EXPECT_EQ(Plural(1, "file", "files"), "1 file");
  EXPECT_EQ(Plural(2000, "file", "files"), "2,000 files");
  EXPECT_EQ(CodePoints("héllo"), 5u);
  EXPECT_EQ(PrefixBytes("héllo", 2), 3u);
  EXPECT_EQ(ShortDate(0, 0), "1970-01-01");
  EXPECT_EQ(ShortDate(1772323200, -60), "2026-02-28");
}

// Random texts of characters of every kind, long enough for the eight-bytes-at-a-time paths:
// counting and quoting a whole text give what its characters give one at a time (each short
// enough to take the byte-at-a-time path).
TEST(Text, CodePointsAndJsonQuoteOfLongTextsAgreeWithTheirCharacters) {
  const std::vector<std::string> pieces = {
      "a",    "Z",    " ", "~", "\"", "\\",   "\n",   "\t", "\r",        std::string(1, '\0'),
      "\x1f", "\x7f", "é", "€", "😀",  "\xff", "\xfe", "/",  "0123456789"};
  uint32_t seed = 12345;
  const auto next = [&seed] {
    seed = seed * 1103515245 + 12345;
    return (seed >> 16) & 0x7fff;
  };
  for (int round = 0; round < 2000; ++round) {
    std::string text, quoted = "\"";
    size_t code_points = 0;
    const size_t n = next() % 64;
    // Mostly plain runs, so that whole words of plain bytes occur, with specials among them.
    for (size_t k = 0; k < n; ++k) {
      const std::string& piece = next() % 3 == 0 ? pieces[next() % pieces.size()] : pieces[0];
      text += piece;
      const std::string q = JsonQuote(piece);
      quoted += q.substr(1, q.size() - 2);
      code_points += CodePoints(piece);
    }
    quoted += "\"";
    ASSERT_EQ(JsonQuote(text), quoted) << round;
    ASSERT_EQ(CodePoints(text), code_points) << round;
  }
  EXPECT_EQ(CodePoints("😀😀😀😀 plain ascii é"), 18u);
  EXPECT_EQ(CodePoints(std::string(1000, 'x') + "é"), 1001u);
  // More continuation bytes than a byte can count, in every lane, and past 255 words.
  std::string many;
  for (int k = 0; k < 5000; ++k) many += "é€😀";
  EXPECT_EQ(CodePoints(many), 15000u);
  // Without the first lead byte, the continuation byte left starts no code point.
  EXPECT_EQ(CodePoints(many.substr(1)), 14999u);
}

TEST(JsonText, AlwaysValidJsonWhateverTheBytes) {
  EXPECT_EQ(JsonQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonQuote(std::string("\0\a\v\x7f", 4)), "\"\\u0000\\u0007\\u000b\\u007f\"");
  EXPECT_EQ(JsonQuote("\xff"), "\"\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonQuote("é\n"), "\"é\\n\"");
}

}  // namespace
}  // namespace text_test
}  // namespace rr
