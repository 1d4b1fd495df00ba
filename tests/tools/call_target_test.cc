// The call target (core/served/call_target.h): `repo`, `ref`, `path` and `paths` resolved once,
// before the tool runs, in the order and with the errors the tool's spec declares; the host link
// and the guidance join read that target and the spec's traits, never the tool's name. The tools
// here are the tests' own: the server knows them only by their specs.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/tools/common.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace call_target_test {
namespace {

// A tool that shows what its target resolved to, and nothing of its own.
class PeekTool : public Tool {
 public:
  PeekTool(std::string name, std::vector<ArgSpec> args, ToolTraits traits,
           std::function<void()> while_running = nullptr)
      : while_running_(std::move(while_running)) {
    spec_.name = std::move(name);
    spec_.title = "Peek";
    spec_.description = "What the call's target resolved to.";
    spec_.args = std::move(args);
    spec_.traits = std::move(traits);
  }
  const ToolSpec& spec() const override { return spec_; }
  Result<Draft> Call(const CallContext& ctx, const Args&) const override {
    if (while_running_) while_running_();
    const CallTarget& t = *ctx.target;
    Draft d;
    d.header = spec_.name + " · " + (t.repo ? t.repo->name() : std::string("-")) + " @ " +
               (t.at ? t.at->commit.id.Hex() : std::string("-")) +
               (t.base ? " from " + t.base->commit.id.Hex() : std::string()) + " · " +
               t.path.Display();
    d.lines.push_back("peeked");
    return d;
  }

 private:
  ToolSpec spec_;
  std::function<void()> while_running_;
};

ArgSpec Arg(const std::string& name) { return {name, ArgType::kString, name, false}; }

ToolTraits Traits(LinkKind link, std::vector<std::string> refs,
                  GuidanceWay guidance = GuidanceWay::kByPaths) {
  ToolTraits t;
  t.link = link;
  t.refs = std::move(refs);
  t.guidance = guidance;
  return t;
}

std::unique_ptr<const Tool> Peek(const std::string& name, std::vector<std::string> args,
                                 ToolTraits traits, std::function<void()> while_running = nullptr) {
  std::vector<ArgSpec> specs;
  for (const auto& a : args) specs.push_back(Arg(a));
  return std::make_unique<PeekTool>(name, std::move(specs), std::move(traits),
                                    std::move(while_running));
}

std::string SecondLine(const std::string& text) {
  const auto lines = Lines(text);
  return lines.size() > 1 ? lines[1] : "";
}

class CallTargetTest : public ::testing::Test {
 protected:
  CallTargetTest() : repo_(dir_.path() + "/shop") {
    repo_.Write("AGENTS.md", "Be careful.\n");
    repo_.Write("src/AGENTS.md", "Prices are in cents.\n");
    repo_.Write("src/app.py", "print('hi')\n");
    repo_.Write("secret/key.txt", "not served\n");
    base_ = repo_.Commit("first");
    repo_.Write("src/app.py", "print('hello')\n");
    head_ = repo_.Commit("second");
  }

  // The test repository as a synced mirror of GitHub's acme/shop.
  Config Mirrored() {
    Config c;
    c.source = "test";
    MirrorConfig m;
    m.name = "shop";
    m.url = "https://github.com/acme/shop.git";
    m.host_kind = "github";
    m.dir = repo_.path();
    m.state = std::make_shared<MirrorState>(m.url, "", "");
    m.state->set_host_kind("github");
    m.state->Succeeded(static_cast<int64_t>(std::time(nullptr)));
    c.mirrors.push_back(m);
    return c;
  }

  // The test repository served locally as `shop` (excluding secret/), and `names` more.
  std::shared_ptr<const Catalog> Local(const std::vector<std::string>& more = {}) {
    Config c;
    c.source = "test";
    RepoConfig shop = Served("shop", repo_.path());
    shop.exclude = {"secret/**"};
    c.repos.push_back(shop);
    for (const auto& n : more) c.repos.push_back(Served(n, repo_.path()));
    auto catalog = BuildCatalog(c);
    if (!catalog) throw std::runtime_error(catalog.error());
    return catalog.take();
  }

  static Result<CallTarget> Resolve(const ToolSpec& spec, const std::string& json,
                                    const Catalog& catalog) {
    Poco::JSON::Parser parser;
    auto args = Args::Check(spec, parser.parse(json).extract<Poco::JSON::Object::Ptr>());
    if (!args) return Error{"args: " + args.error()};
    return ResolveTarget(spec, *args, catalog);
  }

  static ToolSpec Spec(std::vector<std::string> args, ToolTraits traits) {
    ToolSpec s;
    s.name = "peek";
    for (const auto& a : args) s.args.push_back(Arg(a));
    s.traits = std::move(traits);
    return s;
  }

  TempDir dir_;
  TestRepo repo_;
  std::string base_, head_;
};

// A tool the server has never heard of gets the host page its spec's `link` trait names: the
// link is read from the target and the trait, not from a table of tool names. (Guidance is
// left out here, so that the link is the answer's second line.)
TEST_F(CallTargetTest, TheLinkIsTheOneTheSpecDeclares) {
  std::vector<std::unique_ptr<const Tool>> tools;
  tools.push_back(Peek("peek_folder", {"repo", "ref", "path"},
                       Traits(LinkKind::kFolder, {"ref"}, GuidanceWay::kNone)));
  tools.push_back(Peek("peek_file", {"repo", "ref", "path"},
                       Traits(LinkKind::kFile, {"ref"}, GuidanceWay::kNone)));
  tools.push_back(Peek("peek_commit", {"repo", "commit"},
                       Traits(LinkKind::kCommit, {"commit"}, GuidanceWay::kNone)));
  tools.push_back(Peek("peek_compare", {"repo", "base", "head"},
                       Traits(LinkKind::kCompare, {"base", "head"}, GuidanceWay::kNone)));
  tools.push_back(Peek("peek_plain", {"repo", "ref", "path"},
                       Traits(LinkKind::kNone, {"ref"}, GuidanceWay::kNone)));
  ToolHarness h(ToolHarness::FromConfig{}, Mirrored(), std::move(tools));
  const std::string web = "On GitHub: https://github.com/acme/shop";

  auto folder = h.Call("peek_folder", R"({"repo":"shop","path":"src/"})");
  ASSERT_FALSE(folder.is_error) << folder.text;
  EXPECT_EQ(Lines(folder.text).front(), "peek_folder · shop @ " + head_ + " · src");
  EXPECT_EQ(SecondLine(folder.text), web + "/tree/" + head_ + "/src");

  auto file = h.Call("peek_file", R"({"repo":"shop","path":"src/app.py","ref":"main~1"})");
  EXPECT_EQ(SecondLine(file.text), web + "/blob/" + base_ + "/src/app.py") << file.text;

  auto commit = h.Call("peek_commit", R"({"repo":"shop","commit":"main~1"})");
  EXPECT_EQ(SecondLine(commit.text), web + "/commit/" + base_) << commit.text;

  auto compare = h.Call("peek_compare", R"({"repo":"shop","base":"main~1","head":"main"})");
  EXPECT_EQ(Lines(compare.text).front(),
            "peek_compare · shop @ " + head_ + " from " + base_ + " · /");
  EXPECT_EQ(SecondLine(compare.text), web + "/compare/" + base_ + "..." + head_) << compare.text;

  auto plain = h.Call("peek_plain", R"({"repo":"shop","path":"src"})");
  ASSERT_FALSE(plain.is_error) << plain.text;
  EXPECT_TRUE(HasNot(plain.text, "On GitHub"));
}

// Guidance joins as the spec's `guidance` trait says: by default the repository's first line
// and the rules in force for the target's path; nothing for a tool that declares none; for a
// tool about many repositories, the first line only when `repo` names one.
TEST_F(CallTargetTest, GuidanceJoinsAsTheSpecDeclares) {
  std::vector<std::unique_ptr<const Tool>> tools;
  tools.push_back(Peek("peek", {"repo", "ref", "path"}, Traits(LinkKind::kNone, {"ref"})));
  tools.push_back(Peek("peek_quiet", {"repo", "ref", "path"},
                       Traits(LinkKind::kNone, {"ref"}, GuidanceWay::kNone)));
  tools.push_back(Peek("peek_many", {"repo", "repos", "ref", "path"},
                       Traits(LinkKind::kNone, {"ref"}, GuidanceWay::kMarksHeadings)));
  ToolHarness h(ToolHarness::FromConfig{}, Mirrored(), std::move(tools));
  const std::string line =
      "shop carries guidance for agents — read_guidance {\"repo\":\"shop\"} reads it";
  const std::string rule = "=== Guidance for src/app.py: src/AGENTS.md";

  auto peek = h.Call("peek", R"({"path":"src/app.py"})");
  ASSERT_FALSE(peek.is_error) << peek.text;
  EXPECT_TRUE(Has(peek.text, line));
  EXPECT_TRUE(Has(peek.text, rule));
  EXPECT_TRUE(Has(peek.text, "Prices are in cents."));

  auto quiet = h.Call("peek_quiet", R"({"path":"src/app.py"})");
  ASSERT_FALSE(quiet.is_error) << quiet.text;
  EXPECT_TRUE(HasNot(quiet.text, "guidance"));

  auto many = h.Call("peek_many", R"({"path":"src/app.py"})");
  ASSERT_FALSE(many.is_error) << many.text;
  EXPECT_TRUE(HasNot(many.text, "guidance"));
  auto named = h.Call("peek_many", R"({"repo":"shop","path":"src/app.py"})");
  EXPECT_TRUE(Has(named.text, line));
  EXPECT_TRUE(HasNot(named.text, rule));
}

// The branch moving while the tool runs changes nothing of the call: the tool, its header and
// its link all read the one commit the ref resolved to before it ran.
TEST_F(CallTargetTest, OneCallReadsOneCommitWhileTheBranchMoves) {
  std::string moved;
  std::vector<std::unique_ptr<const Tool>> tools;
  tools.push_back(Peek("peek_file", {"repo", "ref", "path"},
                       Traits(LinkKind::kFile, {"ref"}, GuidanceWay::kNone), [this, &moved] {
                         repo_.Write("src/app.py", "print('moved')\n");
                         moved = repo_.Commit("moved while the call ran");
                       }));
  ToolHarness h(ToolHarness::FromConfig{}, Mirrored(), std::move(tools));
  auto a = h.Call("peek_file", R"({"repo":"shop","path":"src/app.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  ASSERT_EQ(repo_.Rev("main"), moved);
  EXPECT_EQ(Lines(a.text).front(), "peek_file · shop @ " + head_ + " · src/app.py");
  EXPECT_EQ(SecondLine(a.text),
            "On GitHub: https://github.com/acme/shop/blob/" + head_ + "/src/app.py");
}

TEST_F(CallTargetTest, ResolvesRepositoryRefAndPathOnce) {
  auto catalog = Local();
  auto t = Resolve(Spec({"repo", "ref", "path"}, Traits(LinkKind::kNone, {"ref"})),
                   R"({"path":"/src/app.py/"})", *catalog);
  ASSERT_TRUE(t) << t.error();
  ASSERT_NE(t->repo, nullptr);
  EXPECT_EQ(t->repo->name(), "shop");
  EXPECT_FALSE(t->repo_named);  // the only one served
  ASSERT_NE(t->reader, nullptr);
  ASSERT_TRUE(t->at.has_value());
  EXPECT_EQ(t->at->commit.id.Hex(), head_);
  EXPECT_EQ(t->path.str(), "src/app.py");

  // Without refs or `open`, the repository is found but not opened.
  auto found =
      Resolve(Spec({"repo", "path"}, Traits(LinkKind::kNone, {})), R"({"repo":"shop"})", *catalog);
  ASSERT_TRUE(found) << found.error();
  EXPECT_TRUE(found->repo_named);
  EXPECT_EQ(found->reader, nullptr);
  EXPECT_FALSE(found->at.has_value());

  // `paths`: each parsed in place, errors kept for the tool to report.
  auto many = Resolve(Spec({"repo", "paths"}, Traits(LinkKind::kNone, {})), R"({})", *catalog);
  ASSERT_TRUE(many) << many.error();
  ToolSpec with_paths = Spec({"repo"}, Traits(LinkKind::kNone, {}));
  with_paths.args.push_back({"paths", ArgType::kStrings, "paths", false});
  auto listed =
      Resolve(with_paths, R"({"paths":["src/app.py","../x","src/app.py","/"]})", *catalog);
  ASSERT_TRUE(listed) << listed.error();
  ASSERT_EQ(listed->paths.size(), 4u);
  EXPECT_FALSE(listed->paths[1].ok());
  EXPECT_EQ(listed->NamedPaths(100), std::vector<RepoPath>{*RepoPath::Parse("src/app.py")});
}

TEST_F(CallTargetTest, ErrorsComeInTheOrderTheSpecDeclares) {
  auto catalog = Local({"billing"});
  const std::string outside = "path `secret/key.txt` is outside what this server serves in `shop`";

  // No `repo` with two served: named before anything about the ref.
  auto spec = Spec({"repo", "ref", "path"}, Traits(LinkKind::kNone, {"ref"}));
  auto needed = Resolve(spec, R"({"ref":"no-such-ref"})", *catalog);
  ASSERT_FALSE(needed);
  EXPECT_EQ(needed.error(),
            "argument `repo` is needed: this server serves 2 repositories; name one (list_repos "
            "lists them)");

  // A path the policy keeps out, with a ref that does not resolve: by default the ref's error;
  // with path_outside_first, the path's, and no ref is looked up.
  auto by_ref =
      Resolve(spec, R"({"repo":"shop","ref":"no-such-ref","path":"secret/key.txt"})", *catalog);
  ASSERT_FALSE(by_ref);
  EXPECT_NE(by_ref.error(), outside);
  EXPECT_TRUE(Has(by_ref.error(), "no-such-ref"));
  spec.traits.path_outside_first = true;
  auto by_path =
      Resolve(spec, R"({"repo":"shop","ref":"no-such-ref","path":"secret/key.txt"})", *catalog);
  ASSERT_FALSE(by_path);
  EXPECT_EQ(by_path.error(), outside);

  // The root refused, when the spec says so, before the repository is looked up.
  spec.traits.root_refused = "not the root";
  auto root = Resolve(spec, R"({"repo":"nowhere","path":"/"})", *catalog);
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error(), "not the root");
  auto no_path = Resolve(spec, R"({"repo":"shop"})", *catalog);
  EXPECT_TRUE(no_path) << no_path.error();

  // The tool's own checks come first of all.
  spec.traits.check_first = [](const Args&) -> Status { return Error{"the tool's own"}; };
  auto first = Resolve(spec, R"({"repo":"nowhere","path":"../x"})", *catalog);
  ASSERT_FALSE(first);
  EXPECT_EQ(first.error(), "the tool's own");

  // Two refs: an error names which.
  auto two = Spec({"repo", "base", "head"}, Traits(LinkKind::kNone, {"base", "head"}));
  auto base = Resolve(two, R"({"repo":"shop","base":"no-such-ref"})", *catalog);
  ASSERT_FALSE(base);
  EXPECT_EQ(base.error().rfind("base: ", 0), 0u) << base.error();
  auto head = Resolve(two, R"({"repo":"shop","base":"main","head":"no-such-ref"})", *catalog);
  ASSERT_FALSE(head);
  EXPECT_EQ(head.error().rfind("head: ", 0), 0u) << head.error();
}

// A tool that takes `repo` and `repos` reads one repository when `repo` or `ref` names it, and
// the repositories of `repos` otherwise (each once).
TEST_F(CallTargetTest, OneRepositoryOrSeveral) {
  auto catalog = Local({"billing"});
  auto spec = Spec({"repo", "ref"}, Traits(LinkKind::kNone, {"ref"}));
  spec.args.push_back({"repos", ArgType::kStrings, "repos", false});
  spec.args.back().comma_separated = true;
  auto several = Resolve(spec, R"({"repos":"billing, shop, billing"})", *catalog);
  ASSERT_TRUE(several) << several.error();
  EXPECT_EQ(several->repo, nullptr);
  ASSERT_EQ(several->repos.size(), 2u);
  EXPECT_EQ(several->repos[0]->name(), "billing");
  auto all = Resolve(spec, R"({})", *catalog);
  ASSERT_TRUE(all) << all.error();
  EXPECT_EQ(all->repos.size(), 2u);
  auto one = Resolve(spec, R"({"repo":"billing","ref":"main~1"})", *catalog);
  ASSERT_TRUE(one) << one.error();
  EXPECT_EQ(one->repo->name(), "billing");
  EXPECT_TRUE(one->repos.empty());
  EXPECT_EQ(one->at->commit.id.Hex(), base_);
  auto unknown = Resolve(spec, R"({"repos":["shop","nowhere"]})", *catalog);
  EXPECT_FALSE(unknown);
}

}  // namespace
}  // namespace call_target_test
}  // namespace rr::testing
