// Guidance for agents on repositories that carry each kind of it: what read_guidance shows, the
// first line of every tool's answer, the scoped rules joined for the paths a call names, the
// half-answer limit, a front matter that cannot be read, the operator's guidance repository, and
// the marks of list_repos, search, find_files and find_commits.
#include "core/guidance/guidance.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/guidance/guidance_join.h"
#include "core/tools/read_guidance.h"
#include "tests/guidance/guidance_kit.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace guidance_test {
namespace {

const char* const kFirstLine =
    "shop carries guidance for agents — read_guidance {\"repo\":\"shop\"} reads it";

class Guidance : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo shop{tmp / "shop"};
    std::string head;
  };
  static void SetUpTestSuite() {
    s_ = new Shared;
    WriteEveryKind(s_->shop);
    s_->shop.Write(".claude/rules/broken.md", "---\npaths: [src/**\n---\nBroken rule text.\n");
    s_->head = s_->shop.Commit("Guidance of every kind");
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }
  static std::string Where() { return "shop · main @ " + Short(s_->head) + " (2026-01-01)"; }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->shop.path())}};
};
Guidance::Shared* Guidance::s_ = nullptr;

TEST_F(Guidance, ReadGuidanceShowsWhatIsInForceThenTheSkills) {
  auto a = h_.Call("read_guidance", R"({"repo":"shop"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            Where() +
                " · guidance for agents — 5 for the whole repository, 4 for some paths, 1 skill\n"
                "=== AGENTS.md — for the whole repository ===\n"
                "Run the tests before you commit.\n"
                "=== CLAUDE.md — for the whole repository ===\n"
                "See AGENTS.md.\n"
                "=== .github/copilot-instructions.md — for the whole repository ===\n"
                "Write small commits.\n"
                "=== .claude/rules/broken.md — for the whole repository ===\n"
                "[Its front matter cannot be read (not valid YAML: did not find expected ',' or "
                "']' while parsing a flow sequence at line 3), so it is shown as written and "
                "taken as in force for the whole repository.]\n"
                "---\n"
                "paths: [src/**\n"
                "---\n"
                "Broken rule text.\n"
                "=== .cursor/rules/always.mdc — for the whole repository ===\n"
                "Be brief.\n"
                "=== src/payments/AGENTS.md — for src/payments/ ===\n"
                "Never log card numbers.\n"
                "=== .claude/rules/pricing.md — for src/pricing/** ===\n"
                "Prices are integers, in cents.\n"
                "=== .cursor/rules/style.mdc — for web/**/*.{ts,tsx} ===\n"
                "Indent with two spaces.\n"
                "=== .github/instructions/python.instructions.md — for **/*.py ===\n"
                "Type-hint every function.\n"
                "=== Skills — read one when it fits the task ===\n"
                "refund-flow — Issue a refund for one order. — read_guidance "
                "{\"repo\":\"shop\",\"name\":\"refund-flow\"}");
}

TEST_F(Guidance, ReadGuidanceReadsOnePieceASkillAndASkillsFile) {
  auto rule = h_.Call("read_guidance", R"({"repo":"shop","name":".claude/rules/pricing.md"})");
  ASSERT_FALSE(rule.is_error) << rule.text;
  EXPECT_EQ(rule.text,
            Where() +
                " · guidance for agents · .claude/rules/pricing.md — for src/pricing/**\n"
                "---\npaths:\n  - \"src/pricing/**\"\n---\n"
                "Prices are integers, in cents.");
  // A leading slash is as good as none.
  auto slash = h_.Call("read_guidance", R"({"repo":"shop","name":"/.claude/rules/pricing.md"})");
  EXPECT_EQ(slash.text, rule.text);

  auto skill = h_.Call("read_guidance", R"({"repo":"shop","name":"refund-flow"})");
  ASSERT_FALSE(skill.is_error) << skill.text;
  EXPECT_EQ(skill.text,
            Where() +
                " · guidance for agents · skill refund-flow "
                "(.claude/skills/refund-flow/SKILL.md)\n"
                "---\nname: refund-flow\ndescription: Issue a refund for one order.\n---\n"
                "# Refunds\nCall the refund API; see reference.md.\n"
                "\n"
                "Files of this skill, each read with read_guidance "
                "{\"repo\":\"shop\",\"name\":\"<file>\"}:\n"
                ".claude/skills/refund-flow/reference.md");
  auto file = h_.Call("read_guidance",
                      R"({"repo":"shop","name":".claude/skills/refund-flow/reference.md"})");
  ASSERT_FALSE(file.is_error) << file.text;
  EXPECT_EQ(file.text, Where() +
                           " · guidance for agents · .claude/skills/refund-flow/reference.md "
                           "(a file of skill refund-flow)\nPOST /refunds {order, cents}");
}

TEST_F(Guidance, AnUnknownNameAnswersWithTheNamesThereAre) {
  auto a = h_.Call("read_guidance", R"({"repo":"shop","name":"pricing"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text,
            "no guidance for agents named `pricing` in `shop`; the names there are: AGENTS.md, "
            "CLAUDE.md, src/payments/AGENTS.md, .github/copilot-instructions.md, "
            ".claude/rules/broken.md, .claude/rules/pricing.md, .cursor/rules/always.mdc, "
            ".cursor/rules/style.mdc, .github/instructions/python.instructions.md, refund-flow "
            "(read_guidance {\"repo\":\"shop\"} shows everything in force)");
}

TEST_F(Guidance, AnswerAboutAScopedPathCarriesEveryRuleInForceWhole) {
  auto a = h_.Call("read_file", R"({"repo":"shop","path":"src/pricing/cart.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            std::string(kFirstLine) +
                "\n"
                "=== Guidance for src/pricing/cart.py: .claude/rules/pricing.md (src/pricing/**) "
                "===\n"
                "Prices are integers, in cents.\n"
                "=== Guidance for src/pricing/cart.py: "
                ".github/instructions/python.instructions.md (**/*.py) ===\n"
                "Type-hint every function.\n"
                "=== End of guidance — the answer follows ===\n" +
                Where() +
                " · src/pricing/cart.py · lines 1–2 of 2\n"
                "1  def total(items):\n"
                "2      return sum(items)");
}

TEST_F(Guidance, AFoldersAgentsMdCoversItsFolderAndTheGlobsTheirFiles) {
  auto card = h_.Call("read_file", R"({"repo":"shop","path":"src/payments/card.py"})");
  EXPECT_TRUE(Has(card.text,
                  "=== Guidance for src/payments/card.py: src/payments/AGENTS.md "
                  "(src/payments/) ===\nNever log card numbers.\n"));
  EXPECT_TRUE(HasNot(card.text, "Prices are integers"));
  // The folder itself is covered by its own AGENTS.md.
  auto folder = h_.Call("list_files", R"({"repo":"shop","path":"src/payments"})");
  EXPECT_TRUE(Has(folder.text, "Never log card numbers."));
  // {ts,tsx} in a glob is either.
  for (const char* path : {"web/app.ts", "web/view.tsx"}) {
    auto a = h_.Call("read_file", std::string(R"({"repo":"shop","path":")") + path + "\"}");
    EXPECT_TRUE(Has(a.text, "(web/**/*.{ts,tsx}) ===\nIndent with two spaces.")) << path;
  }
  // A rule always in force, and one whose front matter cannot be read, are for the whole
  // repository: read_guidance shows them, no answer carries them.
  auto src = h_.Call("read_file", R"({"repo":"shop","path":"src/pricing/cart.py"})");
  EXPECT_TRUE(HasNot(src.text, "Be brief."));
  EXPECT_TRUE(HasNot(src.text, "Broken rule text."));
}

TEST_F(Guidance, APathNoRuleCoversGetsTheFirstLineOnly) {
  auto a = h_.Call("read_file", R"({"repo":"shop","path":"README.md"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, std::string(kFirstLine) + "\n" + Where() +
                        " · README.md · lines 1–1 of 1\n1  The shop.");
}

TEST_F(Guidance, EveryToolAboutTheRepositoryStartsWithTheLine) {
  const std::string head = s_->head;
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"list_refs", R"({"repo":"shop"})"},
           {"list_files", R"({"repo":"shop"})"},
           {"log", R"({"repo":"shop"})"},
           {"show_commit", R"({"repo":"shop","commit":"main","files_only":true})"},
           {"diff", R"({"repo":"shop","base":"main","head":"main"})"},
           {"blame", R"({"repo":"shop","path":"README.md"})"},
           {"grep", R"({"repo":"shop","pattern":"shop"})"},
           {"find_files", R"({"repo":"shop","pattern":"*.py"})"},
           // The only repository served: `repo` may be left out, and the line is there still.
           {"list_refs", "{}"},
       }) {
    auto a = h_.Call(tool, args);
    ASSERT_FALSE(a.is_error) << tool << ": " << a.text;
    EXPECT_EQ(Lines(a.text).front(), kFirstLine) << tool << "\n" << a.text;
  }
  // Not about one repository: no first line.
  auto about = h_.Call("about");
  EXPECT_TRUE(HasNot(about.text, "carries guidance")) << about.text;
  // read_guidance's own answer does not point at itself.
  auto g = h_.Call("read_guidance", R"({"repo":"shop"})");
  EXPECT_NE(Lines(g.text).front(), kFirstLine);
  // An error carries none.
  auto missing = h_.Call("read_file", R"({"repo":"shop","path":"nope.txt"})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(HasNot(missing.text, "carries guidance"));
}

TEST_F(Guidance, ToolsAboutManyRepositoriesMarkTheirHeadings) {
  const std::string mark =
      " · carries guidance for agents — read_guidance {\"repo\":\"shop\"} reads it";
  auto search = h_.Call("search", R"({"pattern":"def total"})");
  EXPECT_TRUE(Has(search.text, "\n## " + Where() + mark + "\n")) << search.text;
  EXPECT_NE(Lines(search.text).front(), kFirstLine);
  auto files = h_.Call("find_files", R"({"pattern":"*.py"})");
  EXPECT_TRUE(Has(files.text, "\n## " + Where() + " · 2 files" + mark + "\n")) << files.text;
  auto commits = h_.Call("find_commits", R"({"message":"every kind"})");
  EXPECT_TRUE(Has(commits.text, "\n## shop · 1 commit" + mark + "\n")) << commits.text;
  auto repos = h_.Call("list_repos");
  EXPECT_TRUE(Has(repos.text,
                  "\nCarries guidance for agents: AGENTS.md, CLAUDE.md, src/payments/AGENTS.md, "
                  ".github/copilot-instructions.md, .claude/rules/broken.md and 5 more."))
      << repos.text;
}

// The paths of `paths` (read_file's array) are looked up as `path` is: the join reads them from
// the call's target, whichever tool takes them (a path that does not parse, or named twice,
// adds nothing).
TEST_F(Guidance, EveryPathOfAPathsArgumentGetsItsRules) {
  Config config;
  config.repos = {Served("shop", s_->shop.path())};
  auto catalog = BuildCatalog(config);
  ASSERT_TRUE(catalog) << catalog.error();
  CallTarget target;
  target.repo = (*catalog)->all().front();
  target.repo_named = true;
  for (const char* p : {"src/pricing/cart.py", "web/app.ts", "src/pricing/cart.py", "../x"}) {
    target.paths_asked.push_back(p);
    target.paths.push_back(RepoPath::Parse(p));
  }
  Draft d;
  d.header = "answer";
  JoinGuidance(target, GuidanceJoin{GuidanceWay::kByPaths, "read_guidance"}, StopToken(), &d);
  EXPECT_EQ(d.guidance_line, kFirstLine);
  std::vector<std::string> openers;
  for (const auto& r : d.guidance) openers.push_back(r.opener);
  EXPECT_EQ(openers,
            (std::vector<std::string>{
                "=== Guidance for src/pricing/cart.py: .claude/rules/pricing.md (src/pricing/**) "
                "===",
                "=== Guidance for web/app.ts: .cursor/rules/style.mdc (web/**/*.{ts,tsx}) ===",
                "=== Guidance for src/pricing/cart.py: .github/instructions/python.instructions.md "
                "(**/*.py) ==="}));
}

// Guidance takes at most half of an answer; a rule that does not fit is named, never cut.
TEST(GuidanceLimit, AHugeRuleIsNamedAndTheAnswerStillFits) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  std::string huge;
  for (int i = 0; i < 400; ++i)
    huge += "Rule line " + std::to_string(i) + " of the pricing rules.\n";
  shop.Write(".claude/rules/huge.md", "---\npaths: src/**\n---\n" + huge);
  shop.Write(".claude/rules/small.md", "---\npaths: src/**\n---\nSmall rule.\n");
  std::string file;
  for (int i = 0; i < 2000; ++i) file += "line " + std::to_string(i) + "\n";
  shop.Write("src/big.txt", file);
  shop.Commit("A huge rule");
  const size_t limit = 10000;
  ToolHarness h({Served("shop", shop.path())}, limit);
  auto a = h.Call("read_file", R"({"repo":"shop","path":"src/big.txt"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_LE(CodePointsOf(a.text), limit);
  const size_t end = a.text.find(kEndOfGuidance);
  ASSERT_NE(end, std::string::npos) << a.text;
  EXPECT_LE(CodePointsOf(a.text.substr(0, end + std::string(kEndOfGuidance).size())), limit / 2);
  // The small rule is carried; the huge one is named with the call that reads it, not cut.
  EXPECT_TRUE(Has(a.text,
                  "=== Guidance for src/big.txt: .claude/rules/small.md (src/**) ===\n"
                  "Small rule.\n"));
  EXPECT_TRUE(HasNot(a.text, "Rule line 0 "));
  EXPECT_TRUE(Has(a.text,
                  "[Also in force, not shown here for room (guidance takes at most half of an "
                  "answer): .claude/rules/huge.md — read_guidance "
                  "{\"repo\":\"shop\",\"name\":\".claude/rules/huge.md\"} reads it]\n" +
                      std::string(kEndOfGuidance) + "\n"));
  // The answer follows in the room left, cut as usual with how to continue.
  EXPECT_TRUE(Has(a.text, "\n   1  line 0\n"));
  EXPECT_TRUE(Has(a.text, "start_line"));

  // read_guidance shows the huge rule, cut where the answer is full, with the call that goes on.
  auto rule = h.Call("read_guidance", R"({"repo":"shop","name":".claude/rules/huge.md"})");
  ASSERT_FALSE(rule.is_error) << rule.text;
  EXPECT_LE(CodePointsOf(rule.text), limit);
  EXPECT_TRUE(Has(rule.text, "— read on with read_file {\"repo\":\"shop\",\"ref\":\"" +
                                 Short(shop.Rev("main")) +
                                 "\",\"path\":\".claude/rules/huge.md\",\"start_line\":"));
}

TEST(GuidanceNone, ARepositoryWithNoneSaysSo) {
  TempDir tmp;
  TestRepo plain(tmp / "plain");
  plain.Write("README.md", "Nothing for agents.\n");
  const std::string head = plain.Commit("Plain");
  ToolHarness h({Served("plain", plain.path())});
  auto a = h.Call("read_guidance", R"({"repo":"plain"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "plain · main @ " + Short(head) +
                        " (2026-01-01) · guidance for agents\nplain carries no guidance for "
                        "agents: none of AGENTS.md, CLAUDE.md, .claude/rules, .cursor/rules, "
                        ".github/instructions, .github/copilot-instructions.md or .claude/skills "
                        "is served on its default branch.");
  auto named = h.Call("read_guidance", R"({"repo":"plain","name":"AGENTS.md"})");
  EXPECT_TRUE(named.is_error);
  auto r = h.Call("read_file", R"({"repo":"plain","path":"README.md"})");
  EXPECT_TRUE(HasNot(r.text, "guidance")) << r.text;
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(HasNot(repos.text, "guidance")) << repos.text;
}

// The operator's guidance repository: its folder for a repository is laid out as a repository's
// own guidance, and its pieces are named after it.
TEST(GuidanceOperator, TheOperatorsFolderForARepositoryIsItsGuidanceToo) {
  TempDir tmp;
  TestRepo shop(tmp / "shop"), acme(tmp / "acme");
  shop.Write("AGENTS.md", "Owners: run the tests.\n");
  shop.Write("src/pricing/cart.py", "x = 1\n");
  const std::string shop_head = shop.Commit("Shop");
  acme.Write("shop/AGENTS.md", "Operator: never deploy on Fridays.\n");
  acme.Write("shop/src/pricing/AGENTS.md", "Operator: prices change only with a ticket.\n");
  acme.Write("shop/.claude/skills/house-style/SKILL.md",
             "---\nname: house-style\ndescription: Short sentences.\n---\nBe short.\n");
  acme.Write("billing/AGENTS.md", "For billing only.\n");
  const std::string acme_head = acme.Commit("Operator's guidance");
  RepoConfig s = Served("shop", shop.path());
  s.guidance_repo = "acme-rules";
  RepoConfig g = Served("acme-rules", acme.path());
  g.listed = false;
  ToolHarness h({s, g});

  auto all = h.Call("read_guidance", R"({"repo":"shop"})");
  ASSERT_FALSE(all.is_error) << all.text;
  EXPECT_EQ(all.text,
            "shop · main @ " + Short(shop_head) +
                " (2026-01-01) · guidance for agents, with the operator's from acme-rules · main "
                "@ " +
                Short(acme_head) +
                " (2026-01-01) — 2 for the whole repository, 1 for some paths, 1 skill\n"
                "=== acme-rules:shop/AGENTS.md — for the whole repository ===\n"
                "Operator: never deploy on Fridays.\n"
                "=== AGENTS.md — for the whole repository ===\n"
                "Owners: run the tests.\n"
                "=== acme-rules:shop/src/pricing/AGENTS.md — for src/pricing/ ===\n"
                "Operator: prices change only with a ticket.\n"
                "=== Skills — read one when it fits the task ===\n"
                "acme-rules:house-style — Short sentences. — read_guidance "
                "{\"repo\":\"shop\",\"name\":\"acme-rules:house-style\"}");
  auto cart = h.Call("read_file", R"({"repo":"shop","path":"src/pricing/cart.py"})");
  EXPECT_TRUE(Has(cart.text,
                  "=== Guidance for src/pricing/cart.py: "
                  "acme-rules:shop/src/pricing/AGENTS.md (src/pricing/) ===\n"
                  "Operator: prices change only with a ticket.\n"));
  auto one = h.Call("read_guidance", R"({"repo":"shop","name":"acme-rules:shop/AGENTS.md"})");
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_TRUE(Has(one.text, "\nOperator: never deploy on Fridays."));
  EXPECT_TRUE(HasNot(all.text, "billing"));
}

TEST(GuidanceConfig, TheGuidanceRepositoryIsNamedOnceAndEachEntryMayNameItsOwn) {
  TempDir tmp;
  TestRepo shop(tmp / "shop"), acme(tmp / "acme"), other(tmp / "other");
  auto c = ParseConfig(
      "repos:\n"
      "  - name: shop\n    path: shop\n"
      "  - name: billing\n    path: shop\n    guidance: {folder: teams/billing}\n"
      "  - name: acme-rules\n    path: acme\n    listed: false\n"
      "  - name: other-rules\n    path: other\n"
      "  - name: legacy\n    path: shop\n    guidance: {repo: other-rules}\n"
      "guidance:\n  repo: acme-rules\n",
      "test.yaml", tmp.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->repos[0].guidance_repo, "acme-rules");
  EXPECT_EQ(c->repos[0].guidance_folder, "");
  EXPECT_EQ(c->repos[1].guidance_repo, "acme-rules");
  EXPECT_EQ(c->repos[1].guidance_folder, "teams/billing");
  EXPECT_EQ(c->repos[2].guidance_repo, "");  // a guidance repository takes none
  EXPECT_EQ(c->repos[4].guidance_repo, "other-rules");
  auto catalog = BuildCatalog(*c);
  ASSERT_TRUE(catalog) << catalog.error();

  auto unknown = ParseConfig("repos:\n  - name: shop\n    path: shop\nguidance: {repo: nope}\n",
                             "test.yaml", tmp.path());
  ASSERT_FALSE(unknown);
  EXPECT_TRUE(Has(unknown.error(), "guidance: `nope` is not a repository of `repos`"));
  auto bad = ParseConfig(
      "repos:\n  - name: shop\n    path: shop\n    guidance: {folder: ../x, "
      "colour: red}\nguidance: rules\n",
      "test.yaml", tmp.path());
  ASSERT_FALSE(bad);
  EXPECT_TRUE(
      Has(bad.error(), "repos[0].guidance: unknown key `colour`; expected one of: repo, folder"));
  EXPECT_TRUE(Has(bad.error(), "repos[0].guidance.folder `../x` is not a folder's path"));
  EXPECT_TRUE(Has(bad.error(), "`guidance` must be a mapping, e.g. guidance: {repo: acme-rules}"));
  auto chained = ParseConfig(
      "repos:\n  - name: shop\n    path: shop\n"
      "  - name: acme-rules\n    path: acme\n    guidance: {repo: other}\n"
      "  - name: other\n    path: other\n"
      "guidance: {repo: acme-rules}\n",
      "test.yaml", tmp.path());
  auto no_repo = ParseConfig("repos:\n  - name: shop\n    path: shop\n    guidance: {folder: x}\n",
                             "test.yaml", tmp.path());
  ASSERT_FALSE(no_repo);
  EXPECT_TRUE(Has(no_repo.error(), "guidance.folder names a folder of no guidance repository"));
  ASSERT_FALSE(chained);
  EXPECT_TRUE(Has(chained.error(),
                  "repository `acme-rules` holds guidance for others, so it "
                  "takes none from a guidance repository itself"));
}

// What is found is kept per default-branch commit, and read again when the branch moves.
TEST(GuidanceCache, TheDefaultBranchMovingChangesWhatIsShown) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  shop.Write("AGENTS.md", "First rule.\n");
  shop.Write("src/a.py", "a\n");
  shop.Commit("One");
  ToolHarness h({Served("shop", shop.path())});
  EXPECT_TRUE(Has(h.Call("read_guidance", R"({"repo":"shop"})").text, "First rule."));
  shop.Write("AGENTS.md", "Second rule.\n");
  shop.Write("src/AGENTS.md", "For src.\n");
  shop.Commit("Two");
  auto g = h.Call("read_guidance", R"({"repo":"shop"})");
  EXPECT_TRUE(Has(g.text, "Second rule."));
  EXPECT_TRUE(HasNot(g.text, "First rule."));
  EXPECT_TRUE(Has(h.Call("read_file", R"({"repo":"shop","path":"src/a.py"})").text,
                  "=== Guidance for src/a.py: src/AGENTS.md (src/) ===\nFor src.\n"));
  // Back to a repository with none.
  shop.Git({"rm", "-q", "AGENTS.md", "src/AGENTS.md"});
  shop.Commit("Three");
  auto r = h.Call("read_file", R"({"repo":"shop","path":"src/a.py"})");
  EXPECT_TRUE(HasNot(r.text, "guidance")) << r.text;
}

// A caller that resolved the default branch itself (a search over many repositories, whose
// headings carry the mark) passes the commit: what is kept for it answers without the
// repository being opened -- here it could not be, its folder moved away -- and a commit not
// seen before is read from the repository, as without it.
TEST(GuidanceCache, ACallerThatKnowsTheCommitIsAnsweredWithoutOpeningTheRepository) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  shop.Write("AGENTS.md", "First rule.\n");
  const std::string first = shop.Commit("One");
  RepoSettings settings;
  settings.name = "shop";
  settings.path = shop.path();
  const ServedRepo repo(settings);
  StopToken stop;
  auto warm = GuidanceOf(repo, stop);
  ASSERT_TRUE(warm) << warm.error();
  ASSERT_EQ((*warm)->pieces.size(), 1u);
  git_oid oid;
  ASSERT_EQ(git_oid_fromstr(&oid, first.c_str()), 0);
  const CommitId at(oid);
  const std::string moved = tmp / "moved";
  ASSERT_EQ(std::rename(shop.path().c_str(), moved.c_str()), 0);
  auto kept = GuidanceOf(repo, stop, nullptr, at);
  ASSERT_TRUE(kept) << kept.error();
  EXPECT_EQ(kept->get(), warm->get());
  EXPECT_EQ((*kept)->pieces.size(), 1u);
  EXPECT_FALSE(GuidanceMark(repo, stop, at).empty());
  // Back in place, a commit not seen before is read from the repository.
  ASSERT_EQ(std::rename(moved.c_str(), shop.path().c_str()), 0);
  shop.Write("AGENTS.md", "Second rule.\n");
  shop.Write("src/AGENTS.md", "For src.\n");
  const std::string second = shop.Commit("Two");
  ASSERT_EQ(git_oid_fromstr(&oid, second.c_str()), 0);
  auto next = GuidanceOf(repo, stop, nullptr, CommitId(oid));
  ASSERT_TRUE(next) << next.error();
  EXPECT_EQ((*next)->pieces.size(), 2u);
}

}  // namespace
}  // namespace guidance_test
}  // namespace rr::testing
