// End-to-end with the official MCP Skills client: runs tests/e2e/skills/skills_client.mjs, which
// drives the repo-reader binary (over stdio, or serving HTTP with a token) with the TypeScript SDK
// v2's SkillsClient, in both protocol eras: the SDK's default (initialize, 2025-11-25) and pinned
// to 2026-07-28 (server/discover, _meta on every request) — that client verifies every file's
// size and SHA-256 digest, and SKILL.md's front matter, against the listing. Skipped, saying
// why, when Node.js 20+ or the client's node_modules are not installed (npm ci --prefix
// tests/e2e/skills installs them).
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"
#include "tests/testkit/node.h"

namespace rr::testing::skills_client {
namespace {

std::string Skill(const std::string& name, const std::string& description,
                  const std::string& body) {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body;
}

// The official client in one era over one transport.
struct Mode {
  bool modern;  // pinned to 2026-07-28; else the SDK's default (initialize: 2025-11-25)
  bool http;    // a server running with --http and a token; else the binary over stdio
};

// Skills in four repositories, as the tests below serve them: valid and refused ones, the
// operator's and the owners', one planted on a branch, one in an unlisted repository.
struct SkillsWorld {
  TempDir tmp;
  std::string token = "ghp_" + Chars(36, kBase62, 91);
  std::string config;
  std::vector<std::unique_ptr<TestRepo>> repos;

  SkillsWorld() {
    TestRepo& shop = Add("shop");
    shop.Write(".claude/skills/refund-flow/SKILL.md",
               "---\nname: refund-flow\ndescription: Issue a refund for one order.\nmetadata:\n  "
               "owner: payments\nversion: 1.0\n---\n# Refunds\nThe API token is " +
                   token + " (never paste it).\n");
    shop.Write(".claude/skills/refund-flow/reference.md", "POST /refunds {order, cents}\r\n");
    shop.Write(".claude/skills/refund-flow/scripts/run me.sh", "echo refund\n");
    shop.Write(".claude/skills/refund-flow/logo.png", std::string("\x89PNG\0\0\x01", 7));
    shop.Write(".claude/skills/Bad_Name/SKILL.md", Skill("Bad_Name", "Not a skill name.", "x\n"));
    shop.Write(".claude/skills/broken/SKILL.md", "---\nname: [broken\n---\nx\n");
    shop.Write(".claude/skills/secret-notes/SKILL.md",
               Skill("secret-notes", "Excluded by the configuration.", "x\n"));
    shop.Commit("Skills");
    shop.Git({"checkout", "-q", "-b", "feature"});
    shop.Write(".claude/skills/planted/SKILL.md", Skill("planted", "Planted on a branch.", "x\n"));
    shop.Commit("Plant a skill on a branch");
    shop.Git({"checkout", "-q", "main"});

    TestRepo& acme = Add("acme");
    acme.Write("shop/.claude/skills/house-style/SKILL.md",
               Skill("house-style", "\"The house style: short sentences.\"", "Be short.\n"));
    acme.Write("legacy/.claude/skills/legacy-notes/SKILL.md",
               Skill("legacy-notes", "How the legacy system is run.", "Ask ops first.\n"));
    acme.Commit("Operator's skills");
    TestRepo& legacy = Add("legacy");
    legacy.Write(".claude/skills/owners-only/SKILL.md",
                 Skill("owners-only", "Its owners are not trusted.", "x\n"));
    legacy.Commit("Owners' skill");
    TestRepo& hidden = Add("hidden");
    hidden.Write(".claude/skills/unlisted/SKILL.md", Skill("unlisted", "Not listed.", "x\n"));
    hidden.Commit("Unlisted skill");

    config = tmp / "repo-reader.yaml";
    std::ofstream(config) << "repos:\n"
                             "  - name: shop\n    path: "
                          << shop.path()
                          << "\n    exclude: [\".claude/skills/secret-notes\"]\n"
                             "  - name: acme-rules\n    path: "
                          << acme.path()
                          << "\n    listed: false\n"
                             "  - name: legacy\n    path: "
                          << legacy.path()
                          << "\n    own: false\n"
                             "  - name: hidden\n    path: "
                          << hidden.path()
                          << "\n    listed: false\n"
                             "guidance:\n  repo: acme-rules\n";
  }

  TestRepo& Add(const std::string& name) {
    repos.push_back(std::make_unique<TestRepo>(tmp / name));
    return *repos.back();
  }
};

// Runs tests/e2e/skills/skills_client.mjs in `mode` against the world's skills and checks what
// the official client saw: every listed skill and each of its files verified, nothing it must
// not see, and the probes of what is not served refused as the era spells it.
void ExpectTheClientVerifiesEverySkill(const Mode& mode) {
  const std::string dir = std::string(RR_SOURCE_DIR) + "/tests/e2e/skills";
  // Node.js 22 as tests/e2e/sdk installs it (the npm package node@22), else the one on PATH.
  const std::string node = FindNode(std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk");
  if (node.empty()) GTEST_SKIP() << "Node.js (node) is not on PATH; this test needs it";
  const CommandResult version =
      rr::testing::Run({node, "-p", "process.versions.node.split('.')[0]"}, dir);
  if (version.status != 0 || std::atoi(version.out.c_str()) < 20) {
    GTEST_SKIP() << "the MCP TypeScript SDK v2 needs Node.js 20 or later; this one is "
                 << version.out;
  }
  if (!std::filesystem::is_directory(dir + "/node_modules/@modelcontextprotocol/client")) {
    GTEST_SKIP() << "the MCP client is not installed in tests/e2e/skills/node_modules; run "
                    "`npm ci --prefix tests/e2e/skills` from the source folder";
  }

  SkillsWorld world;
  const std::string& token = world.token;
  std::vector<std::string> command = {node, dir + "/skills_client.mjs"};
  if (mode.modern) command.insert(command.end(), {"--pin", "2026-07-28"});
  std::unique_ptr<HttpServerProcess> server;
  if (mode.http) {
    const std::string config = world.tmp / "http.yaml";
    std::ifstream in(world.config);
    std::ofstream(config) << in.rdbuf() << "http:\n  token_env: RR_TEST_TOKEN\n";
    server = std::make_unique<HttpServerProcess>(
        std::vector<std::string>{RR_BINARY, "--config", config, "--http", "127.0.0.1:0"},
        world.tmp.path(), std::map<std::string, std::string>{{"RR_TEST_TOKEN", "skills-token"}});
    ASSERT_TRUE(server->ok()) << server->Stderr();
    command.insert(command.begin(), {"/usr/bin/env", "RR_TEST_TOKEN=skills-token"});
    command.insert(command.end(), {"--http", server->url()});
  } else {
    command.insert(command.end(), {RR_BINARY, world.config});
  }
  command.insert(
      command.end(),
      {"skill://shop/_owners/refund-flow/logo.png", "skill://shop/_owners/planted/SKILL.md",
       "skill://shop/_owners/secret-notes/SKILL.md", "skill://hidden/_owners/unlisted/SKILL.md",
       "skill://legacy/_owners/owners-only/SKILL.md"});
  const CommandResult r = rr::testing::Run(command, dir);
  ASSERT_EQ(r.status, 0) << "skills_client.mjs failed\nstdout:\n"
                         << r.out << "\nstderr:\n"
                         << r.err << (server ? "\nserver:\n" + server->Stderr() : "");
  Poco::JSON::Parser parser;
  auto report = parser.parse(r.out).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(report->getValue<std::string>("negotiated"), mode.modern ? "2026-07-28" : "2025-11-25");
  EXPECT_TRUE(report->getValue<bool>("supported"));
  EXPECT_EQ(report->getValue<int>("ttlMs"), 60000);

  std::map<std::string, Poco::JSON::Object::Ptr> skills;
  auto list = report->getArray("skills");
  for (size_t i = 0; i < list->size(); ++i) {
    auto s = list->getObject(static_cast<unsigned>(i));
    skills[s->getValue<std::string>("uri")] = s;
    EXPECT_TRUE(s->getValue<bool>("get_matches")) << s->getValue<std::string>("uri");
  }
  // The owners' valid skill, the operator's for shop and for legacy (own: false) — nothing
  // planted on a branch, excluded, refused by the extension, unlisted or from untrusted owners.
  std::set<std::string> uris;
  for (const auto& [uri, _] : skills) uris.insert(uri);
  EXPECT_EQ(uris, (std::set<std::string>{"skill://legacy/_operator/legacy-notes/SKILL.md",
                                         "skill://shop/_operator/house-style/SKILL.md",
                                         "skill://shop/_owners/refund-flow/SKILL.md"}));

  auto refund = skills["skill://shop/_owners/refund-flow/SKILL.md"];
  ASSERT_TRUE(refund);
  auto fm = refund->getObject("frontmatter");
  EXPECT_EQ(fm->getValue<std::string>("name"), "refund-flow");
  EXPECT_EQ(fm->getObject("metadata")->getValue<std::string>("owner"), "payments");
  EXPECT_EQ(fm->getValue<double>("version"), 1.0);  // typed as YAML's core schema types it
  std::map<std::string, std::string> files;
  auto fl = refund->getArray("files");
  for (size_t i = 0; i < fl->size(); ++i) {
    auto f = fl->getObject(static_cast<unsigned>(i));
    EXPECT_TRUE(f->getValue<bool>("verified")) << f->getValue<std::string>("uri");
    files[f->getValue<std::string>("uri")] = f->getValue<std::string>("text");
  }
  // Every text file, as committed but for the hidden value; the binary file is not served.
  EXPECT_EQ(files.size(), 3u);
  const std::string manifest = files["skill://shop/_owners/refund-flow/SKILL.md"];
  EXPECT_NE(manifest.find("The API token is [hidden: GitHub token] (never paste it)."),
            std::string::npos)
      << manifest;
  EXPECT_EQ(manifest.find(token), std::string::npos);
  EXPECT_EQ(files["skill://shop/_owners/refund-flow/reference.md"],
            "POST /refunds {order, cents}\r\n");
  EXPECT_EQ(files["skill://shop/_owners/refund-flow/scripts/run%20me.sh"], "echo refund\n");

  auto probes = report->getArray("probes");
  ASSERT_EQ(probes->size(), 5u);
  for (size_t i = 0; i < probes->size(); ++i) {
    auto p = probes->getObject(static_cast<unsigned>(i));
    EXPECT_FALSE(p->getValue<bool>("answered")) << p->getValue<std::string>("uri");
    // A resource not found, as the SDK reports it in either era (it reads 2025's -32002 as
    // -32602; the codes on the wire: StdioMethods.AResourceNotFoundIsSpeltAsEachEraSpellsIt).
    EXPECT_EQ(p->getValue<int>("code"), -32602)
        << p->getValue<std::string>("uri") << ": " << p->getValue<std::string>("error");
  }
}

TEST(SkillsClientE2e, TheOfficialSkillsClientVerifiesEverySkillFileServed) {
  ExpectTheClientVerifiesEverySkill({false, false});
}

TEST(SkillsClientE2e, At20260728OverStdioTheClientListsGetsAndVerifiesEverySkill) {
  ExpectTheClientVerifiesEverySkill({true, false});
}

TEST(SkillsClientE2e, At20260728OverHttpTheClientListsGetsAndVerifiesEverySkill) {
  ExpectTheClientVerifiesEverySkill({true, true});
}

TEST(SkillsClientE2e, In2025OverHttpTheClientListsGetsAndVerifiesEverySkill) {
  ExpectTheClientVerifiesEverySkill({false, true});
}

}  // namespace
}  // namespace rr::testing::skills_client
