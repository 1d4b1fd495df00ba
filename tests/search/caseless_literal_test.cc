// ignore_case with a plain ASCII pattern without k or s: found by a memchr on the pattern's
// rarest byte and a check there, ASCII case aside -- what a Unicode caseless match finds for such
// a pattern. Checked against a plain reference on random text, and against git grep on a file
// (where k and s, which the Kelvin sign and the long s also match, stay on PCRE2).
#include <gtest/gtest.h>

#include <random>

#include "core/search/text_search.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace caseless_literal_test {
namespace {

char Fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// The first place at or after `from` where `pattern` is, ASCII case aside: one byte at a time.
bool Reference(std::string_view text, std::string_view pattern, size_t from, size_t* at) {
  for (size_t i = from; i + pattern.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < pattern.size() && Fold(text[i + k]) == Fold(pattern[k])) ++k;
    if (k == pattern.size()) {
      *at = i;
      return true;
    }
  }
  return false;
}

TEST(CaselessLiteral, FindsWhatAByteByByteSearchFinds) {
  std::mt19937 rng(7);
  const std::string alphabet = "aAbBxX-_ \n\t0zZ\xe2\x84\xaa";
  for (const std::string pattern :
       {"a", "Ab", "xB-", "ZZZ", "-_", "b a", "aAaA", "X0x", "ab\tz", "0", "B-bx_"}) {
    auto p = TextPattern::Make(pattern, false, true, "pattern");
    ASSERT_TRUE(p) << p.error();
    for (int round = 0; round < 300; ++round) {
      std::string text;
      const size_t n = rng() % 60;
      for (size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
      for (size_t from = 0; from <= text.size() + 1; ++from) {
        size_t want = 0, b = 0, e = 0;
        const bool expected = Reference(text, pattern, from, &want);
        ASSERT_EQ(p->FindCandidate(text, from, &b, &e), expected)
            << "pattern `" << pattern << "` in `" << text << "` from " << from;
        if (expected) {
          EXPECT_EQ(b, want);
          EXPECT_EQ(e, want + pattern.size());
        }
        ASSERT_EQ(p->FindInLine(text, from, &b, &e), expected);
      }
    }
  }
}

// The first match at or after `from`, where the Kelvin sign is also a k and the long s an s
// (Unicode's only other cases of ASCII letters): [*b, *e).
bool UnicodeReference(std::string_view text, std::string_view pattern, size_t from, size_t* b,
                      size_t* e) {
  for (size_t i = from; i < text.size(); ++i) {
    size_t t = i, k = 0;
    for (; k < pattern.size(); ++k) {
      const char c = Fold(pattern[k]);
      if (t < text.size() && Fold(text[t]) == c) {
        ++t;
      } else if (c == 'k' && text.substr(t, 3) == "\xe2\x84\xaa") {
        t += 3;
      } else if (c == 's' && text.substr(t, 2) == "\xc5\xbf") {
        t += 2;
      } else {
        break;
      }
    }
    if (k == pattern.size()) {
      *b = i;
      *e = t;
      return true;
    }
  }
  return false;
}

// Patterns with k or s stay on PCRE2, which runs only on the lines holding the pattern's rarest
// other byte: what it finds is what a match over the whole text finds.
TEST(CaselessLiteral, PatternsWithKOrSFindWhatUnicodeFoldingFinds) {
  std::mt19937 rng(11);
  const std::vector<std::string> tokens = {
      "a", "A", "k", "K", "s", "S", "-", "\n", " ", "\xe2\x84\xaa", "\xc5\xbf", "b", "B"};
  for (const std::string pattern : {"k", "Sa", "a-k", "KSB", "s b", "bas", "sk-", "ss"}) {
    auto p = TextPattern::Make(pattern, false, true, "pattern");
    ASSERT_TRUE(p) << p.error();
    for (int round = 0; round < 300; ++round) {
      std::string text;
      const size_t n = rng() % 40;
      for (size_t i = 0; i < n; ++i) text += tokens[rng() % tokens.size()];
      for (size_t from = 0; from <= text.size(); ++from) {
        if (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xc0) == 0x80) {
          continue;  // not where a character starts
        }
        size_t wb = 0, we = 0, b = 0, e = 0;
        const bool expected = UnicodeReference(text, pattern, from, &wb, &we);
        ASSERT_EQ(p->FindCandidate(text, from, &b, &e), expected)
            << "pattern `" << pattern << "` in `" << text << "` from " << from;
        if (expected) {
          EXPECT_EQ(b, wb) << "pattern `" << pattern << "` in `" << text << "` from " << from;
          EXPECT_EQ(e, we);
        }
      }
    }
  }
}

// As git grep -i: the Kelvin sign (U+212A) is a `k`, the long s (U+017F) an `s`.
TEST(CaselessLiteral, AgreesWithGitGrepOnAFile) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt",
             "Signed-off-by: A\nsigned-OFF-BY: b\nsigned off by\n\xe2\x84\xaa"
             "elvin\nkelvin\n"
             "KELVIN\nx-SIGNED-off-by-y\n\xc5\xbfigned-off-BY\nOFF-by\n");
  repo.Commit("one");
  ToolHarness h({Served("shop", repo.path())});
  for (const std::string pattern : {"signed-off-by", "KELVIN", "off-BY", "elvi"}) {
    const auto answer =
        h.Call("grep", R"({"repo":"shop","ignore_case":true,"pattern":")" + pattern + "\"}");
    ASSERT_FALSE(answer.is_error) << answer.text;
    const std::string git = repo.Git({"grep", "-n", "-i", "-F", "-e", pattern, "main"});
    size_t lines = 0;
    for (size_t at = 0; (at = git.find("main:a.txt:", at)) != std::string::npos; ++at) {
      const size_t number_end = git.find(':', at + 11);
      const std::string number = git.substr(at + 11, number_end - at - 11);
      const size_t line_end = git.find('\n', number_end);
      const std::string line = git.substr(number_end + 1, line_end - number_end - 1);
      EXPECT_NE(answer.text.find(number + ": " + line), std::string::npos) << line << "\n"
                                                                           << answer.text;
      ++lines;
    }
    EXPECT_NE(answer.text.find(std::to_string(lines) + " matching line"), std::string::npos)
        << pattern << ": git found " << lines << "\n"
        << answer.text;
  }
}

}  // namespace
}  // namespace caseless_literal_test
}  // namespace rr::testing
