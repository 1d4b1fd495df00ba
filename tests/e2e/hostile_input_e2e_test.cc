// End-to-end, by attack: the real binary over stdio, serving a real repository where someone
// committed SKILL.md files built to end or inflate the server (a number of 200,000 digits, a
// number just under the front matter's size cap, an alias bomb of a few hundred bytes), and
// spoken to with requests built to inflate its answers (a 1 MiB path, a 1 MiB URI) or to leave
// the client waiting (a 10 MiB request). The process survives every one, each answer is bounded,
// and the oversized request is answered with its id.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <string>

#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace hostile_input_e2e_test {
namespace {

using std::chrono::seconds;

// The alias bomb of the report: nine aliases of the level below on each of seven levels, 560
// bytes that write out as 4.8 million strings.
std::string AliasBomb() {
  std::string fm =
      "---\nname: bomb\ndescription: Expands.\nl0: &l0 [lol,lol,lol,lol,lol,lol,lol,"
      "lol,lol]\n";
  for (int i = 1; i <= 7; ++i) {
    const std::string below = "*l" + std::to_string(i - 1);
    fm += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) fm += (k ? "," : "") + below;
    fm += "]\n";
  }
  return fm + "---\nBody.\n";
}

struct HostileRepo {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  HostileRepo() {
    repo.Write("README.md", "# Shop\n");
    repo.Write(".claude/skills/digits/SKILL.md",
               "---\nname: digits\ndescription: Counts.\nversion: " + std::string(200000, '1') +
                   "\n---\nBody.\n");
    repo.Write(".claude/skills/fewer-digits/SKILL.md",
               "---\nname: fewer-digits\ndescription: Counts.\nversion: " +
                   std::string(60000, '1') + "\n---\nBody.\n");
    repo.Write(".claude/skills/bomb/SKILL.md", AliasBomb());
    repo.Write(".claude/skills/fine/SKILL.md", "---\nname: fine\ndescription: Fine.\n---\nOk.\n");
    repo.Commit("Skills");
  }
};

// Sends one request and returns the line answering it (by its id), or "" when none came.
std::string Ask(McpProcess& p, const std::string& id, const std::string& method,
                const std::string& params) {
  p.Send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":" + JsonQuote(method) +
         ",\"params\":" + params + "}");
  while (auto line = p.ReadLine(seconds(60))) {
    if (Has(*line, "\"id\":" + id + ",") || Has(*line, "\"id\":" + id + "}")) return *line;
  }
  return "";
}

TEST(HostileInputE2e, CommittedSkillsAndHugeArgumentsNeitherEndTheServerNorInflateItsAnswers) {
  HostileRepo r;
  McpProcess p({RR_BINARY}, r.repo.path());
  ASSERT_TRUE(p.Initialize());
  const std::string list = Ask(p, "1", "skills/list", "{}");
  ASSERT_FALSE(list.empty()) << "skills/list: no answer; stderr:\n" << p.Stderr();
  EXPECT_TRUE(Has(list, "skill://shop/_owners/fine/SKILL.md")) << list.substr(0, 600);
  EXPECT_LT(list.size(), 4000u);
  const std::string resources = Ask(p, "2", "resources/list", "{}");
  ASSERT_FALSE(resources.empty()) << p.Stderr();
  EXPECT_LT(resources.size(), 4000u);
  int id = 10;
  for (const char* skill : {"digits", "fewer-digits", "bomb"}) {
    const std::string uri = std::string("skill://shop/_owners/") + skill + "/SKILL.md";
    for (const char* method : {"skills/get", "resources/read"}) {
      const std::string a =
          Ask(p, std::to_string(++id), method, "{\"uri\":" + JsonQuote(uri) + "}");
      ASSERT_FALSE(a.empty()) << method << " " << skill << ": no answer; stderr:\n" << p.Stderr();
      EXPECT_LT(a.size(), 2000u) << method << " " << skill << ": " << a.substr(0, 600);
      EXPECT_TRUE(Has(a, "\"error\"")) << method << " " << skill << ": " << a.substr(0, 600);
    }
  }
  const std::string bomb =
      Ask(p, "30", "skills/get", R"({"uri":"skill://shop/_owners/bomb/SKILL.md"})");
  EXPECT_TRUE(Has(bomb, "its front matter cannot be read")) << bomb;
  const std::string guidance =
      Ask(p, "31", "tools/call",
          R"({"name":"read_guidance","arguments":{"repo":"shop","name":"bomb"}})");
  EXPECT_TRUE(Has(guidance, "front matter cannot be read")) << guidance.substr(0, 600);
  EXPECT_LT(guidance.size(), 45000u);

  // A 1 MiB path among paths, a 1 MiB URI.
  const std::string huge(1u << 20, 'Q');
  const std::string read =
      Ask(p, "40", "tools/call",
          "{\"name\":\"read_file\",\"arguments\":{\"repo\":\"shop\",\"paths\":[\"README.md\"," +
              JsonQuote(huge) + "]}}");
  ASSERT_FALSE(read.empty()) << p.Stderr();
  EXPECT_TRUE(Has(read, "# Shop")) << read.substr(0, 600);
  EXPECT_TRUE(Has(read, "(1,048,576 characters)")) << read.substr(0, 600);
  EXPECT_LT(read.size(), 2000u) << read.substr(0, 600);
  const std::string uri = Ask(p, "41", "resources/read", "{\"uri\":" + JsonQuote(huge) + "}");
  ASSERT_FALSE(uri.empty()) << p.Stderr();
  EXPECT_LT(uri.size(), 1000u) << uri.substr(0, 600);

  // A 10 MiB request is refused with its id, and serving goes on.
  const std::string big =
      "{\"jsonrpc\":\"2.0\",\"id\":\"big-1\",\"method\":\"tools/call\","
      "\"params\":{\"name\":\"read_file\",\"arguments\":{\"repo\":\"shop\","
      "\"path\":" +
      JsonQuote(std::string(10u << 20, 'x')) + "}}}";
  p.Send(big);
  const auto refused = p.ReadLine(seconds(60));
  ASSERT_TRUE(refused) << p.Stderr();
  EXPECT_TRUE(Has(*refused, "\"id\":\"big-1\"")) << *refused;
  EXPECT_TRUE(Has(*refused, "larger than 8,388,608 bytes")) << *refused;

  const std::string ping = Ask(p, "50", "ping", "{}");
  EXPECT_TRUE(Has(ping, "\"result\"")) << ping;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(30)), 0) << "the server did not end normally; stderr:\n" << p.Stderr();
}

}  // namespace
}  // namespace hostile_input_e2e_test
}  // namespace rr::testing
