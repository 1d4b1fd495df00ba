// Front matter written to crash or inflate the server: a scalar of tens of thousands of digits,
// an alias bomb, a tree nested past any reader's depth, a front matter of megabytes. Each is read
// within bounds (core/guidance/guidance.h: kMaxFrontMatter*): the skill is not offered and
// skills/get says why, read_guidance keeps the piece with a note saying why, and no answer grows
// with the bomb. tests/e2e/hostile_skill_e2e_test.cc drives the binary with the same files.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/guidance/guidance.h"
#include "core/util/json_text.h"
#include "core/util/yaml_load.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace front_matter_bounds_test {
namespace {

// A SKILL.md whose front matter is an alias bomb of `levels` levels: nine aliases of the level
// below on each (9^levels copies of "lol" when written out), in a few hundred bytes.
std::string AliasBomb(const std::string& name, int levels) {
  std::string fm = "---\nname: " + name +
                   "\ndescription: Expands.\nl0: &l0 [lol,lol,lol,lol,lol,"
                   "lol,lol,lol,lol]\n";
  for (int i = 1; i <= levels; ++i) {
    const std::string below = "*l" + std::to_string(i - 1);
    fm += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) fm += (k ? "," : "") + below;
    fm += "]\n";
  }
  return fm + "---\nBody.\n";
}

std::string Stringify(const Poco::JSON::Object::Ptr& msg) {
  std::ostringstream out;
  if (msg) msg->stringify(out);
  return out.str();
}

class FrontMatterBounds : public ::testing::Test {
 protected:
  Poco::JSON::Object::Ptr Request(const std::string& method, const std::string& params) {
    const int id = next_++;
    return h_->Raw("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                       ",\"method\":" + JsonQuote(method) + ",\"params\":" + params + "}",
                   id);
  }
  void Serve() { h_ = std::make_unique<ToolHarness>(std::vector{Served("shop", repo_.path())}); }

  TempDir tmp_;
  TestRepo repo_{tmp_ / "shop"};
  std::unique_ptr<ToolHarness> h_;
  int next_ = 100;
};

TEST_F(FrontMatterBounds, ALongNumberCrashesNothingAndTheSkillsBesideItAreServed) {
  // Plain scalars were typed with std::regex, which recurses once a digit: a long number ended
  // the process. The first is under the front matter's size cap, the second over it.
  repo_.Write(".claude/skills/digits/SKILL.md",
              "---\nname: digits\ndescription: Counts.\nversion: " + std::string(60000, '1') +
                  "\n---\nBody.\n");
  repo_.Write(".claude/skills/more-digits/SKILL.md",
              "---\nname: more-digits\ndescription: Counts.\nversion: " + std::string(200000, '1') +
                  "\n---\nBody.\n");
  repo_.Write(".claude/skills/long-name/SKILL.md",
              "---\nname: " + std::string(60000, 'a') + "\ndescription: Long.\n---\nBody.\n");
  repo_.Write(".claude/skills/fine/SKILL.md", "---\nname: fine\ndescription: Fine.\n---\nBody.\n");
  repo_.Commit("Skills");
  Serve();
  for (const char* method : {"skills/list", "resources/list"}) {
    const std::string listed = Stringify(Request(method, "{}"));
    EXPECT_TRUE(Has(listed, "skill://shop/_owners/fine/SKILL.md")) << listed;
    EXPECT_FALSE(Has(listed, "more-digits")) << "a front matter over 64 KB is not offered";
    EXPECT_LT(listed.size(), 4000u);
  }
  for (const char* skill : {"digits", "more-digits", "long-name"}) {
    const std::string uri = std::string("skill://shop/_owners/") + skill + "/SKILL.md";
    const auto get = Request("skills/get", "{\"uri\":" + JsonQuote(uri) + "}");
    ASSERT_TRUE(get) << skill;
    EXPECT_TRUE(get->has("error")) << Stringify(get).substr(0, 400);
    const auto read = Request("resources/read", "{\"uri\":" + JsonQuote(uri) + "}");
    ASSERT_TRUE(read) << skill;
    EXPECT_TRUE(read->has("error")) << Stringify(read).substr(0, 400);
  }
  const auto over =
      Stringify(Request("skills/get", R"({"uri":"skill://shop/_owners/more-digits/SKILL.md"})"));
  EXPECT_TRUE(Has(over, "larger than 65,536 bytes")) << over;
  const auto a = h_->Call("read_guidance", R"({"repo":"shop"})");
  EXPECT_FALSE(a.is_error) << a.text.substr(0, 400);
  EXPECT_TRUE(Has(a.text, "fine")) << a.text.substr(0, 2000);
}

TEST_F(FrontMatterBounds, AnAliasBombIsRefusedWithANoteAndNoAnswerGrowsWithIt) {
  // Six levels: 531,441 copies when written out, 3 MB of JSON in skills/get unbounded.
  repo_.Write(".claude/skills/bomb/SKILL.md", AliasBomb("bomb", 6));
  // An alias used inside the node its anchor names never ends when written out.
  repo_.Write(".claude/skills/cycle/SKILL.md",
              "---\nname: cycle\ndescription: Loops.\nx: &x [*x]\n---\nBody.\n");
  // Rules keep their pieces, in force everywhere, with the note.
  repo_.Write(".claude/rules/bomb.md", AliasBomb("rule", 6));
  repo_.Write(".claude/skills/fine/SKILL.md",
              "---\nname: fine\ndescription: Fine.\nmetadata: {a: &v one, b: *v}\n---\nBody.\n");
  repo_.Commit("Bombs");
  Serve();
  const std::string listed = Stringify(Request("skills/list", "{}"));
  EXPECT_LT(listed.size(), 4000u) << listed.substr(0, 400);
  EXPECT_TRUE(Has(listed, "skill://shop/_owners/fine/SKILL.md")) << listed;
  EXPECT_TRUE(Has(listed, R"("metadata":{"a":"one","b":"one"})")) << "a few aliases are read";
  EXPECT_FALSE(Has(listed, "bomb")) << listed.substr(0, 400);
  const std::string bomb =
      Stringify(Request("skills/get", R"({"uri":"skill://shop/_owners/bomb/SKILL.md"})"));
  EXPECT_LT(bomb.size(), 1000u) << bomb.substr(0, 400);
  EXPECT_TRUE(Has(bomb, "is not offered: its front matter cannot be read")) << bomb;
  EXPECT_TRUE(Has(bomb, "with every alias (*name) written out")) << bomb;
  const std::string cycle =
      Stringify(Request("skills/get", R"({"uri":"skill://shop/_owners/cycle/SKILL.md"})"));
  EXPECT_TRUE(Has(cycle, "an alias inside the node its anchor names")) << cycle;
  const std::string read =
      Stringify(Request("resources/read", R"({"uri":"skill://shop/_owners/bomb/SKILL.md"})"));
  EXPECT_LT(read.size(), 1000u) << read.substr(0, 400);

  const auto g = h_->Call("read_guidance", R"({"repo":"shop"})");
  EXPECT_FALSE(g.is_error) << g.text.substr(0, 400);
  EXPECT_LT(g.text.size(), 40000u);
  const auto piece = h_->Call("read_guidance", R"({"repo":"shop","name":".claude/rules/bomb.md"})");
  EXPECT_TRUE(Has(piece.text, "Its front matter cannot be read (")) << piece.text.substr(0, 800);
  EXPECT_TRUE(Has(piece.text, "in force for the whole repository")) << piece.text.substr(0, 800);
}

// The bounds themselves, where the front matter is parsed.
TEST(FrontMatterParse, EachBoundIsRefusedByNameAndWhatIsWithinThemIsRead) {
  auto refused = [](const std::string& yaml) -> std::string {
    try {
      LoadFrontMatter(yaml);
    } catch (const YamlBoundsExceeded& e) {
      return e.msg;
    } catch (const YAML::Exception& e) {
      return "not a bound: " + e.msg;
    }
    return "";
  };
  // Aliases: count.
  std::string many = "a: &a x\nb: [";
  for (size_t i = 0; i <= kMaxFrontMatterAliases; ++i) many += (i ? ",*a" : "*a");
  EXPECT_TRUE(Has(refused(many + "]\n"), "more than 100 aliases")) << refused(many + "]\n");
  // Aliases: size written out (five levels is 59,049 copies in 400 bytes).
  std::string bomb = AliasBomb("x", 5);
  bomb = bomb.substr(4, bomb.find("---\nBody") - 4);
  EXPECT_TRUE(Has(refused(bomb), "larger than 65,536 bytes with every alias")) << refused(bomb);
  // A cycle.
  EXPECT_TRUE(Has(refused("x: &x [a, *x]\n"), "anchor names")) << refused("x: &x [a, *x]\n");
  // Depth.
  std::string deep = "a: " + std::string(kMaxFrontMatterDepth + 1, '[') +
                     std::string(kMaxFrontMatterDepth + 1, ']') + "\n";
  EXPECT_TRUE(Has(refused(deep), "nested more than 32 deep")) << refused(deep);
  std::string deepest = "a: " + std::string(30000, '[') + std::string(30000, ']') + "\n";
  EXPECT_TRUE(Has(refused(deepest), "nested more than 32 deep")) << refused(deepest);
  // Size.
  EXPECT_TRUE(Has(refused("a: " + std::string(kMaxFrontMatterBytes, 'x') + "\n"), "larger than"));
  const FrontMatter split =
      SplitFrontMatter("---\na: " + std::string(kMaxFrontMatterBytes, 'x') + "\n---\nBody\n");
  EXPECT_TRUE(split.present);
  EXPECT_TRUE(Has(split.problem, "larger than 65,536 bytes")) << split.problem;
  EXPECT_TRUE(split.yaml.empty());
  // Within every bound.
  const std::string fine = "name: x\nlist: &l [a, b]\nagain: *l\nnested: [[[[1]]]]\n";
  EXPECT_EQ(refused(fine), "");
  const YAML::Node n = LoadFrontMatter(fine);
  EXPECT_EQ(n["again"][1].Scalar(), "b");
  // Not YAML is not a bound.
  EXPECT_TRUE(Has(refused("a: [\n"), "not a bound")) << refused("a: [\n");
}

}  // namespace
}  // namespace front_matter_bounds_test
}  // namespace rr::testing
