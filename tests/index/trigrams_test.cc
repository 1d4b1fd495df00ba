// The trigram query of a pattern never requires a trigram a match does not hold: checked with the
// search's own matcher (TextPattern) over many random patterns and lines, ignore_case included
// (the Kelvin sign and the long s, which match k and s, are among the lines' characters); and the
// query is useful where a pattern has plain runs: the trigrams it requires, by example.
#include "core/index/trigrams.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/search/text_search.h"

namespace rr {
namespace trigrams_test {
namespace {

std::set<uint32_t> TrigramsIn(std::string_view line) {
  std::set<uint32_t> out;
  ForEachTrigram(line, [&](uint32_t t) { out.insert(t); });
  return out;
}

std::vector<std::string> Strings(const TrigramQuery& q) {
  std::vector<std::string> out;
  for (const auto& b : q.branches) {
    std::string s;
    for (uint32_t t : b) {
      s += (s.empty() ? "" : " ");
      s += static_cast<char>(t >> 16);
      s += static_cast<char>((t >> 8) & 0xFF);
      s += static_cast<char>(t & 0xFF);
    }
    out.push_back(s);
  }
  return out;
}

TEST(Trigrams, WhatAPatternRequiresByExample) {
  const TrigramQuery token = PlanTrigrams("orgtoken-09700", false, false);
  ASSERT_FALSE(token.all);
  ASSERT_EQ(token.branches.size(), 1u);
  EXPECT_EQ(token.branches[0].size(), 12u);
  // Plain text: every trigram, folded to lower case.
  EXPECT_EQ(Strings(PlanTrigrams("StopTok", false, false)),
            (std::vector<std::string>{"opt pto sto tok top"}));
  // A regular expression: the runs outside the optional and the classes.
  EXPECT_EQ(Strings(PlanTrigrams(R"(func \w+Handler\()", true, false)),
            (std::vector<std::string>{"and dle er( fun han ler nc  ndl unc"}));
  EXPECT_EQ(Strings(PlanTrigrams("colou?r", true, false)), (std::vector<std::string>{"col olo"}));
  EXPECT_EQ(Strings(PlanTrigrams("abcd{0,2}x", true, false)), (std::vector<std::string>{"abc"}));
  EXPECT_EQ(Strings(PlanTrigrams("abcd+x", true, false)), (std::vector<std::string>{"abc bcd"}));
  EXPECT_EQ(Strings(PlanTrigrams("alpha|beta", true, false)),
            (std::vector<std::string>{"alp lph pha", "bet eta"}));
  // ignore_case: trigrams with k or s (the Kelvin sign, the long s) or bytes outside ASCII
  // require nothing.
  EXPECT_EQ(Strings(PlanTrigrams("StopTok", false, true)),
            (std::vector<std::string>{"opt pto top"}));
  EXPECT_EQ(Strings(PlanTrigrams("caf\xc3\xa9 bar", false, true)),
            (std::vector<std::string>{" ba bar caf"}));
  // Nothing usable: scanned.
  EXPECT_TRUE(PlanTrigrams("ab", false, false).all);
  EXPECT_TRUE(PlanTrigrams("[0-9]{4}-[0-9]{2}", true, false).all);
  EXPECT_TRUE(PlanTrigrams("alpha|b", true, false).all);
  EXPECT_TRUE(PlanTrigrams("(alpha)", true, false).all);
  EXPECT_TRUE(PlanTrigrams("skss", false, true).all);
}

// Random patterns from ERE pieces, random lines from a small alphabet: wherever the search's
// matcher finds a line matching, the line holds every trigram of some branch of the query.
TEST(Trigrams, NeverRequiresWhatAMatchLacks) {
  const std::vector<std::string> pieces = {
      "a",      "b",    "k",           "s",        "K",   "S",    "x",    "_",    ".",
      "*",      "?",    "+",           "{0,2}",    "{2}", "{1,}", "{,1}", "[ab]", "[^k]",
      "(ab|k)", "(s)",  "|",           "\\.",      "\\(", "^",    "$",    "\\w",  "\\W",
      "\\<",    "\\>",  "\\b",         "ab",       "ks",  "abk",  "{",    "}",    "]",
      ")",      "[]a]", "[[:alpha:]]", "\xc3\xa9", "\\{"};
  const std::vector<std::string> letters = {"a",
                                            "b",
                                            "k",
                                            "s",
                                            "K",
                                            "S",
                                            "x",
                                            "_",
                                            ".",
                                            "(",
                                            "{",
                                            "}",
                                            " ",
                                            "\xe2\x84\xaa" /* Kelvin */,
                                            "\xc5\xbf" /* long s */,
                                            "\xc3\xa9",
                                            "\xc3\x89"};
  std::mt19937 random(20261202);
  size_t compiled = 0, matched = 0, narrowed = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string pattern;
    const int n = 1 + static_cast<int>(random() % 7);
    for (int i = 0; i < n; ++i) pattern += pieces[random() % pieces.size()];
    const bool regex = random() % 4 != 0, ignore_case = random() % 2 == 0;
    auto p = TextPattern::Make(pattern, regex, ignore_case, "pattern");
    if (!p) continue;
    ++compiled;
    const TrigramQuery q = PlanTrigrams(pattern, regex, ignore_case);
    if (!q.all) ++narrowed;
    for (int l = 0; l < 40; ++l) {
      std::string line;
      const int m = static_cast<int>(random() % 14);
      for (int i = 0; i < m; ++i) line += letters[random() % letters.size()];
      // Half the lines hold the pattern's own text, so that plain runs do match.
      if (l % 2 == 0) line.insert(random() % (line.size() + 1), pattern);
      size_t b = 0, e = 0;
      Ere::GaveUp gave_up;
      if (!p->FindInLine(line, 0, &b, &e, &gave_up)) continue;
      ++matched;
      if (q.all) continue;
      const std::set<uint32_t> held = TrigramsIn(line);
      bool some = false;
      for (const auto& branch : q.branches) {
        bool all = true;
        for (uint32_t t : branch) all = all && held.count(t);
        some = some || all;
      }
      ASSERT_TRUE(some) << "pattern `" << pattern << "` regex " << regex << " ignore_case "
                        << ignore_case << " matches `" << line << "` but the query requires "
                        << ::testing::PrintToString(Strings(q));
    }
  }
  EXPECT_GT(compiled, 2000u);
  EXPECT_GT(matched, 10000u);
  EXPECT_GT(narrowed, 500u);
}

}  // namespace
}  // namespace trigrams_test
}  // namespace rr
