// Ere (core/util/ere.h) beside `grep -E`: the same lines match, with and without -i; what ERE
// does not have is refused with an error saying what to write instead; a subject of any bytes
// is matched without harm; a message is matched line by line, as git log --grep reads it.
#include "core/util/ere.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"

namespace rr {
namespace ere_test {
namespace {

using testing::Run;

// The subjects every pattern is tried on: one per line, as grep reads them.
const std::vector<std::string>& Subjects() {
  static const std::vector<std::string> lines = {
      "Fix the cart total",
      "fix: cart",
      "Add the CART",
      "a",
      "aa",
      "aaa",
      "aaaa",
      "b",
      "ab",
      "aab",
      "abab",
      "a{b",
      "a{,3}",
      "a{2}",
      "*star",
      "x*y",
      "tab\there",
      "hello world",
      "helloworld",
      "foo_bar baz",
      "word-word",
      "Émile été",
      "ÉTÉ",
      "[bracket]",
      "back\\slash",
      "a]b",
      "^caret",
      "dollar$",
      "",
      "123",
      "v2.31.0",
      "a.c",
      "abc",
      "a)b",
      "(paren)",
      "{brace}",
      "x+y",
      "x?y",
      "a|b",
      "a-b",
      "   ",
  };
  return lines;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// The subjects `grep -E` selects (-a: every line is text, whatever its bytes).
std::vector<std::string> Grep(const std::string& pattern, bool ignore_case,
                              const std::vector<std::string>& lines = Subjects()) {
  std::vector<std::string> argv = {"grep", "-a", "-E"};
  if (ignore_case) argv.push_back("-i");
  argv.push_back("-e");
  argv.push_back(pattern);
  const auto r = Run(argv, "", {}, Joined(lines));
  EXPECT_TRUE(r.status == 0 || r.status == 1) << "grep -E '" << pattern << "': " << r.err;
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < r.out.size()) {
    const size_t nl = r.out.find('\n', pos);
    out.push_back(r.out.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

std::vector<std::string> Ours(const std::string& pattern, bool ignore_case,
                              const std::vector<std::string>& lines = Subjects()) {
  auto e = Ere::Compile(pattern, {ignore_case, false}, "message");
  EXPECT_TRUE(e.ok()) << pattern << ": " << (e.ok() ? "" : e.error());
  std::vector<std::string> out;
  if (!e.ok()) return out;
  for (const auto& l : lines) {
    if (e->Matches(l)) out.push_back(l);
  }
  return out;
}

// Patterns ERE and grep -E read alike.
const std::vector<std::string>& AgreedPatterns() {
  static const std::vector<std::string> patterns = {
      // literals, and characters special only elsewhere
      "cart",
      "the cart",
      "a.c",
      "a\\.c",
      "a]b",
      "a}",
      "{brace}",
      "a-b",
      "a\\|b",
      "x\\+y",
      "x\\?y",
      "x\\*y",
      "\\(paren\\)",
      "\\^caret",
      "dollar\\$",
      "back\\\\slash",
      "a\\{b",
      "été",
      // bracket expressions
      "[[:alpha:]]+",
      "^[[:digit:]]+$",
      "[[:space:]]",
      "[[:punct:]]",
      "[[:upper:]]{2}",
      "[[:alnum:]_]+-",
      "[]a]",
      "^[]a]+$",
      "[^]]",
      "^[^]]*$",
      "[\\]",
      "[a\\]x",
      "[\\n]",
      "[\\d]",
      "[a-c]+",
      "^[^a-z]+$",
      "[[]",
      "[.]",
      "[*]",
      "[x[:digit:]]",
      "[]-]",
      "[(|)]",
      // anchors
      "^fix",
      "total$",
      "^$",
      "^a$",
      "^a|b$",
      "a$|^b",
      "(^|x)a",
      "a(b|$)",
      // alternation and groups
      "cart|total",
      "^(fix|add) ",
      "(ab)+",
      "()",
      "a||b",
      "(a|)b",
      "((a)(b))",
      // intervals
      "a{2}",
      "^a{2}$",
      "a{2,}",
      "^a{2,}$",
      "^a{,3}$",
      "a{,3}b",
      "a{2,3}",
      "^a{0}b",
      "(ab){2}",
      "a{",
      "a{b",
      "a{,",
      "a{x}",
      "2}",
      "[0-9]{1,3}\\.[0-9]+",
      // the other quantifiers
      "ab*c",
      "a+b",
      "^a?b",
      "x.*y",
      "^.+$",
      "^.$",
      "^...$",
      // GNU's word operators
      "\\<ab",
      "b\\>",
      "\\<a\\>",
      "\\bworld",
      "hello\\b",
      "\\Bworld",
      "o\\B",
      "\\w+",
      "^\\w+$",
      "\\W",
      "\\s",
      "\\S+ \\S+",
      "\\<é",
      "é\\>",
      "\\w{3}",
      // an unmatched ) is a character
      "a)",
      "a)b",
      // a backslash before a character that needs none
      "a\\-b",
      "\\%",
      "\\é",
  };
  return patterns;
}

TEST(Ere, MatchesTheLinesGrepMatches) {
  for (const auto& p : AgreedPatterns()) {
    EXPECT_EQ(Ours(p, false), Grep(p, false)) << "pattern: " << p;
  }
}

TEST(Ere, IgnoringCaseMatchesTheLinesGrepMatchesWithI) {
  for (const auto& p : AgreedPatterns()) {
    EXPECT_EQ(Ours(p, true), Grep(p, true)) << "pattern: " << p;
  }
  // Some that only -i tells apart, non-ASCII letters among them.
  for (const std::string p : {"CART", "^fix", "[A-Z]+ the", "émile", "^été$", "ÉT"}) {
    EXPECT_EQ(Ours(p, true), Grep(p, true)) << "pattern: " << p;
    EXPECT_NE(Ours(p, true), Ours(p, false)) << "pattern: " << p;
  }
}

TEST(Ere, TranslatesToPcre2WithoutPassingPcre2SyntaxThrough) {
  struct Case {
    std::string ere, pcre2;
  };
  const Case cases[] = {
      {"a{,3}", "a{0,3}"},
      {"a{2}", "a{2}"},
      {"a{", "a\\{"},
      {"a{b}", "a\\{b\\}"},
      {"a}", "a\\}"},
      {"a]", "a\\]"},
      {"\\<w\\>", "\\b(?=\\w)w\\b(?<=\\w)"},
      {"[\\]", "[\\\\]"},
      {"[[a]", "[\\[a]"},
      {"[]a]", "[]a]"},
      {"[^]]", "[^]]"},
      {"[[:alpha:]_]", "[[:alpha:]_]"},
      {"\\.", "\\."},
      {"\\é", "é"},
      {"a)", "a\\)"},
      {"(a))", "(a)\\)"},
  };
  for (const auto& c : cases) {
    auto t = TranslateEre(c.ere, "message");
    ASSERT_TRUE(t.ok()) << c.ere << ": " << t.error();
    EXPECT_EQ(*t, c.pcre2) << "ERE: " << c.ere;
  }
}

TEST(Ere, WhatEreDoesNotHaveIsRefusedSayingWhatToWrite) {
  struct Case {
    std::string pattern, error;
  };
  const Case cases[] = {
      {"(a)\\1",
       "argument `message`: back-references (\\1) are not supported; match the text "
       "itself"},
      {"a(?=b)",
       "argument `message`: (? groups (lookaround, options, named groups) are not part "
       "of extended regular expressions"},
      {"(?i)a",
       "argument `message`: (? groups (lookaround, options, named groups) are not part "
       "of extended regular expressions"},
      {"\\d+",
       "argument `message`: \\d is not part of extended regular expressions (for a digit "
       "write [0-9]; for a character, write it as it is)"},
      {"a\\nb",
       "argument `message`: \\n is not part of extended regular expressions (for a "
       "digit write [0-9]; for a character, write it as it is)"},
      {"\\x41",
       "argument `message`: \\x is not part of extended regular expressions (for a "
       "digit write [0-9]; for a character, write it as it is)"},
      {"\\Qa",
       "argument `message`: \\Q is not part of extended regular expressions (for a "
       "digit write [0-9]; for a character, write it as it is)"},
      {"a++",
       "argument `message`: a quantifier follows another (`++`); write one, e.g. a+ for "
       "a++"},
      {"a*?",
       "argument `message`: a quantifier follows another (`*?`); write one, e.g. a+ for "
       "a++"},
      {"a{2}{3}",
       "argument `message`: a quantifier follows another (`}{`); write one, e.g. a+ "
       "for a++"},
      {"[[=a=]]", "argument `message`: [=…=] in brackets is not supported"},
      {"[[.a.]]", "argument `message`: [.….] in brackets is not supported"},
      {"[[:alpha]", "argument `message`: a [: in brackets is not closed with :]"},
      {"[abc", "argument `message`: a [ is not closed with ]; write \\[ for a bracket"},
      {"[]", "argument `message`: a [ is not closed with ]; write \\[ for a bracket"},
      {"abc\\",
       "argument `message`: the pattern ends with a lone \\; write \\\\ for a "
       "backslash"},
      {"a\nb", "argument `message`: the pattern must be one line"},
  };
  for (const auto& c : cases) {
    auto e = Ere::Compile(c.pattern, {}, "message");
    ASSERT_FALSE(e.ok()) << c.pattern << " was accepted as " << e->translated();
    EXPECT_EQ(e.error(), c.error) << "pattern: " << c.pattern;
  }
}

// A quantifier with nothing before it: git log -E refuses it ("Invalid preceding regular
// expression") and grep -E ignores it with a warning; neither reads it as a character.
TEST(Ere, AQuantifierWithNothingToRepeatIsRefused) {
  for (const std::string p : {"*a", "+a", "?a", "{2}a", "(*a)", "x|*a", "^*a", "a|+"}) {
    auto e = Ere::Compile(p, {}, "message");
    ASSERT_FALSE(e.ok()) << p << " was accepted as " << e->translated();
    EXPECT_EQ(e.error(), "argument `message`: `" + p.substr(p.find_first_of("*+?{"), 1) +
                             "` has nothing before it to repeat; write \\" +
                             p.substr(p.find_first_of("*+?{"), 1) + " for the character")
        << "pattern: " << p;
  }
  // Written as a character, it is one.
  auto star = Ere::Compile("^\\*star", {}, "message");
  ASSERT_TRUE(star.ok()) << star.error();
  EXPECT_TRUE(star->Matches("*star"));
  EXPECT_FALSE(star->Matches("star"));
}

TEST(Ere, WhatPcre2RefusesIsAnErrorNamingTheArgument) {
  for (const std::string p : {"(a", "a{3,2}", "[z-a]", "[[:nosuch:]]", "a{99999}", "\xff"}) {
    auto e = Ere::Compile(p, {}, "author");
    ASSERT_FALSE(e.ok()) << p << " was accepted as " << e->translated();
    EXPECT_EQ(e.error().rfind("argument `author`: not a valid extended regular expression (", 0),
              0u)
        << e.error();
  }
}

TEST(Ere, SubjectsOfAnyBytesAreMatchedWithoutHarm) {
  const std::vector<std::string> lines = {"ok \xff\xfe bytes",
                                          "\xc3",
                                          "caf\xc3\xa9",
                                          "\xed\xa0\x80 surrogate",
                                          std::string("nul\0here", 8),
                                          "\xf4\x90\x80\x80 beyond",
                                          "\xc3\x28 cut"};
  for (const std::string p : {"bytes", "^.", ".$", "^.*$", "é", "[^a]", "\\w+", "here"}) {
    auto e = Ere::Compile(p, {true, false}, "message");
    ASSERT_TRUE(e.ok()) << e.error();
    for (const auto& l : lines) (void)e->Matches(l);
  }
  auto bytes = Ere::Compile("bytes", {}, "message");
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(bytes->Matches(lines[0]));
  auto here = Ere::Compile("nul.here", {}, "message");
  ASSERT_TRUE(here.ok());
  EXPECT_TRUE(here->Matches(lines[4]));
  // Where the bytes are valid, grep and Ere agree.
  EXPECT_EQ(Ours("caf.$", false, {"caf\xc3\xa9", "caf"}), Grep("caf.$", false, {"caf\xc3\xa9"}));
}

TEST(Ere, FindGivesWhereTheMatchIs) {
  auto e = Ere::Compile("c[a-z]+t", {}, "message");
  ASSERT_TRUE(e.ok());
  size_t b = 0, n = 0;
  ASSERT_TRUE(e->Find("the cart, the coat", 0, &b, &n));
  EXPECT_EQ(b, 4u);
  EXPECT_EQ(n, 8u);
  ASSERT_TRUE(e->Find("the cart, the coat", 5, &b, &n));
  EXPECT_EQ(b, 14u);
  EXPECT_EQ(n, 18u);
  EXPECT_FALSE(e->Find("the cart", 100, &b, &n));
}

// git log --grep matches a message line by line: nothing matches across a line break, not even
// [^x], \s or \W, which would match the line break itself.
TEST(Ere, MultilineMatchesEachLineOnItsOwn) {
  const std::string message = "first line\nsecond line\n\nbody";
  struct Case {
    std::string pattern;
    bool matches;
  };
  const Case cases[] = {
      {"^second", true},
      {"line$", true},
      {"^body$", true},
      {"^$", true},
      {"line.second", false},
      {"line[^x]second", false},
      {"line\\ssecond", false},
      {"line\\Wsecond", false},
      {"line[[:space:]]second", false},
      {"first line", true},
      {"FIRST", true},
      {"^line", false},
  };
  for (const auto& c : cases) {
    auto e = Ere::Compile(c.pattern, {true, true}, "message");
    ASSERT_TRUE(e.ok()) << e.error();
    EXPECT_EQ(e->Matches(message), c.matches) << "pattern: " << c.pattern;
  }
  // Find reports positions in the whole subject.
  auto e = Ere::Compile("^[a-z]+ line$", {false, true}, "message");
  ASSERT_TRUE(e.ok());
  size_t b = 0, n = 0;
  ASSERT_TRUE(e->Find(message, 1, &b, &n));
  EXPECT_EQ(message.substr(b, n - b), "second line");
}

}  // namespace
}  // namespace ere_test
}  // namespace rr
