#include "core/util/text.h"

#include <gtest/gtest.h>

#include "core/util/json_text.h"

namespace rr {
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

TEST(JsonText, AlwaysValidJsonWhateverTheBytes) {
  EXPECT_EQ(JsonQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonQuote(std::string("\0\a\v\x7f", 4)), "\"\\u0000\\u0007\\u000b\\u007f\"");
  EXPECT_EQ(JsonQuote("\xff"), "\"\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonQuote("é\n"), "\"é\\n\"");
}

}  // namespace
}  // namespace rr
