// LoadYaml (libyaml's parser, yaml-cpp's tree) checked against YAML::Load on the same text: the
// same tree -- kinds, values, what is null, keys given twice, aliases, the first document only
// -- and the same line and column for every node, which the configuration's problems cite, but
// for an empty value: LoadYaml places it just after its key or dash, where it would have been
// written, yaml-cpp at whatever comes next (often the next line). Text that is not YAML is
// refused by both; two texts yaml-cpp lets through (an unclosed quote, a mapping after a list at
// the same level) are refused too.
#include "core/util/yaml_load.h"

#include <gtest/gtest.h>

#include <string>

namespace rr::testing {
namespace yaml_load_test {
namespace {

std::string Describe(const YAML::Node& n, const std::string& at) {
  return at + " (" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1) +
         ")";
}

// Every difference between the two trees, one a line; "" when they are the same.
std::string Differences(const YAML::Node& ours, const YAML::Node& theirs, const std::string& at) {
  if (ours.Type() != theirs.Type()) {
    return Describe(ours, at) + ": kind " + std::to_string(ours.Type()) + " vs " +
           std::to_string(theirs.Type()) + "\n";
  }
  std::string out;
  const bool empty_value = ours.IsNull() && theirs.IsNull();
  if (!empty_value &&
      (ours.Mark().line != theirs.Mark().line || ours.Mark().column != theirs.Mark().column)) {
    out += Describe(ours, at) + ": at " + std::to_string(ours.Mark().line + 1) + ":" +
           std::to_string(ours.Mark().column + 1) + " vs " +
           std::to_string(theirs.Mark().line + 1) + ":" + std::to_string(theirs.Mark().column + 1) +
           "\n";
  }
  if (ours.IsScalar()) {
    if (ours.Scalar() != theirs.Scalar()) {
      out += Describe(ours, at) + ": `" + ours.Scalar() + "` vs `" + theirs.Scalar() + "`\n";
    }
    if (ours.Tag() != theirs.Tag()) {
      out += Describe(ours, at) + ": tag " + ours.Tag() + " vs " + theirs.Tag() + "\n";
    }
  }
  if (ours.size() != theirs.size()) {
    return out + Describe(ours, at) + ": " + std::to_string(ours.size()) + " children vs " +
           std::to_string(theirs.size()) + "\n";
  }
  if (ours.IsSequence()) {
    for (size_t i = 0; i < ours.size(); ++i) {
      out += Differences(ours[i], theirs[i], at + "[" + std::to_string(i) + "]");
    }
  } else if (ours.IsMap()) {
    auto a = ours.begin();
    auto b = theirs.begin();
    for (size_t i = 0; a != ours.end(); ++a, ++b, ++i) {
      out += Differences(a->first, b->first, at + ".key" + std::to_string(i));
      out += Differences(a->second, b->second, at + ".value" + std::to_string(i));
    }
  }
  return out;
}

TEST(LoadYaml, BuildsTheTreeYamlCppBuilds) {
  const char* const documents[] = {
      "",
      "# only a comment\n",
      "repos:\n  - name: shop\n    path: /srv/git/shop\n    description: The shop.\n",
      "repos:\n- name: shop\n  path: shop\n  include: [\"src/**\", '*.md']\n  listed: false\n",
      "limits: {answer_characters: 40000}\nrepos: [{name: a, path: b}, {name: c, path: d}]\n",
      "a:\nb: ~\nc: null\nd: Null\ne: NULL\nf: 'null'\ng: \"\"\nh: nil\n",
      "text: |\n  line one\n  line two\nfolded: >\n  one\n  two\n\nplain: a\n  continued\n",
      "base: &b {name: shop, path: x}\nrepos:\n  - *b\n  - *b\n",
      "name: shop\nname: again\n",
      "tagged: !!str 12\nlocal: !thing x\n",
      "unicode: \"caf\\u00e9 — ok\"\nraw: café\n",
      "? complex key\n: value\n",
      "- 1\n- [2, 3]\n- {a: 4}\n-\n- - nested\n",
      "first: 1\n---\nsecond: 2\n",
      "---\nrepos: []\n...\n",
      "key: value # a comment\n# another\nother:   spaced   \n",
      "quoted: 'it''s'\ndouble: \"a\\tb\\nc\"\n",
      "empty_map: {}\nempty_seq: []\n",
  };
  for (const char* text : documents) {
    const YAML::Node ours = LoadYaml(text);
    const YAML::Node theirs = YAML::Load(text);
    EXPECT_EQ(Differences(ours, theirs, "root"), "") << "in:\n" << text;
  }
}

TEST(LoadYaml, AnEmptyValueIsPlacedWhereItWouldBeWritten) {
  const YAML::Node tree = LoadYaml("cache_folder:\nrepos:\n  -\n  - name: x\n");
  EXPECT_TRUE(tree["cache_folder"].IsNull());
  EXPECT_EQ(tree["cache_folder"].Mark().line, 0);
  EXPECT_EQ(tree["cache_folder"].Mark().column, 13);
  EXPECT_TRUE(tree["repos"][0].IsNull());
  EXPECT_EQ(tree["repos"][0].Mark().line, 2);
  // Null only when written plainly: quoted, it is text.
  EXPECT_TRUE(LoadYaml("a: ~\n")["a"].IsNull());
  EXPECT_TRUE(LoadYaml("a: 'null'\n")["a"].IsScalar());
}

TEST(LoadYaml, RefusesWhatIsNotYamlAsYamlCppDoes) {
  const char* const broken[] = {
      "repos: [\n", "repos: ]\n", "a: b: c\n", "repos:\n\t- name: shop\n", "x: *nowhere\n",
  };
  for (const char* text : broken) {
    EXPECT_THROW(YAML::Load(text), YAML::ParserException) << text;
    try {
      LoadYaml(text);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const YAML::ParserException& e) {
      EXPECT_FALSE(e.msg.empty()) << text;
      EXPECT_FALSE(e.mark.is_null()) << text;
    }
  }
  for (const char* text : {"a: 'unclosed\n", "- a\nb: c\n"}) {
    EXPECT_NO_THROW(YAML::Load(text)) << text;
    EXPECT_THROW(LoadYaml(text), YAML::ParserException) << text;
  }
}

// The bounds for text written by others: the tree is measured as if every alias were written
// out (a node counts one, a scalar its bytes too), and each bound is refused at the event that
// passes it, as YamlBoundsExceeded.
TEST(LoadYaml, BoundsMeasureTheTreeWithEveryAliasWrittenOut) {
  // map 1, key "a" 2, seq 1, "x" 2, "y" 2, key "b" 2, *a 5 (the sequence again): 15.
  const std::string text = "a: &a [x, y]\nb: *a\n";
  YamlBounds exact;
  exact.max_expanded = 15;
  const YAML::Node tree = LoadYaml(text, exact);
  EXPECT_EQ(tree["b"][1].Scalar(), "y");
  YamlBounds under = exact;
  under.max_expanded = 14;
  try {
    LoadYaml(text, under);
    ADD_FAILURE() << "15 bytes written out passed a bound of 14";
  } catch (const YamlBoundsExceeded& e) {
    EXPECT_EQ(e.msg, "larger than 14 bytes with every alias (*name) written out");
    EXPECT_EQ(e.mark.line, 1);  // at the alias
  }
  YamlBounds one_alias;
  one_alias.max_aliases = 1;
  EXPECT_NO_THROW(LoadYaml(text, one_alias));
  EXPECT_THROW(LoadYaml(text + "c: *a\n", one_alias), YamlBoundsExceeded);
  YamlBounds flat;
  flat.max_depth = 1;
  EXPECT_NO_THROW(LoadYaml("a: b\n", flat));
  EXPECT_THROW(LoadYaml("a: [b]\n", flat), YamlBoundsExceeded);
  // A cycle is refused whatever the bounds: nothing that walks the tree would end.
  EXPECT_THROW(LoadYaml("a: &a [*a]\n"), YamlBoundsExceeded);
  EXPECT_THROW(LoadYaml("a: &a {b: *a}\n"), YamlBoundsExceeded);
  // An alias bomb of nine levels (387 million strings written out, 300 bytes) is refused as
  // soon as it passes the bound, in no time.
  std::string bomb = "l0: &l0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n";
  for (int i = 1; i <= 9; ++i) {
    bomb += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) bomb += (k ? ",*l" : "*l") + std::to_string(i - 1);
    bomb += "]\n";
  }
  YamlBounds bounded;
  bounded.max_expanded = 1 << 20;
  EXPECT_THROW(LoadYaml(bomb, bounded), YamlBoundsExceeded);
  // Unbounded, the tree shares the node an alias names (yaml-cpp's own tree does too).
  EXPECT_EQ(LoadYaml(bomb)["l9"].size(), 9u);
}

TEST(LoadYaml, ALargeTreeIsFreedAsideAndTheNodeLetGo) {
  std::string text = "repos:\n";
  for (int i = 0; i < 20000; ++i) {
    text += "  - name: r" + std::to_string(i) + "\n    path: /srv/git/r" + std::to_string(i) + "\n";
  }
  YAML::Node tree = LoadYaml(text);
  ASSERT_EQ(tree["repos"].size(), 20000u);
  EXPECT_EQ(tree["repos"][19999]["path"].Scalar(), "/srv/git/r19999");
  FreeYaml(tree, text.size());
  EXPECT_FALSE(tree.IsDefined() && tree.IsMap());
  YAML::Node small = LoadYaml("a: 1\n");
  FreeYaml(small, 5);
  EXPECT_FALSE(small.IsDefined() && small.IsMap());
}

}  // namespace
}  // namespace yaml_load_test
}  // namespace rr::testing
