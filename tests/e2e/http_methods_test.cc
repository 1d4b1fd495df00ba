// End-to-end over Streamable HTTP: every method the server advertises answers in both eras on
// the one endpoint, with the status each era gives it; resources/read in 2026-07-28 carries
// Mcp-Name as tools/call does; list methods refuse a cursor they never gave; and a JSON-RPC
// batch is read at 2025-03-26 (a request without MCP-Protocol-Version, as 2025-03-26 clients
// send, or with that version) and refused at every other.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"

namespace rr::testing::http_methods {
namespace {

using Json = Poco::JSON::Object::Ptr;

const char* const kSkillUri = "skill://shop/_owners/refund-flow/SKILL.md";

Poco::Dynamic::Var ParseAny(const std::string& text) {
  try {
    Poco::JSON::Parser parser;
    return parser.parse(text);
  } catch (...) {
    return {};
  }
}

Json Parse(const std::string& text) {
  auto v = ParseAny(text);
  return v.type() == typeid(Json) ? v.extract<Json>() : nullptr;
}

int Code(const Json& m) {
  return m && m->has("error") ? m->getObject("error")->getValue<int>("code") : 0;
}

// `shop` with one skill, served over HTTP on loopback without a token.
struct Served {
  TempDir tmp;
  TestRepo shop{tmp / "shop"};
  std::string config;
  Served() {
    shop.Write("README.md", "# Shop\n");
    shop.Write(
        ".claude/skills/refund-flow/SKILL.md",
        "---\nname: refund-flow\ndescription: Issue a refund.\n---\n# Refunds\nAsk first.\n");
    shop.Commit("shop");
    config = tmp / "config.yaml";
    std::ofstream(config) << "repos:\n  - name: shop\n    path: " << shop.path() << "\n";
  }
};

// One request in one era: 2026-07-28 with _meta and its headers (Mcp-Name from `name`), or a
// 2025 one with MCP-Protocol-Version 2025-11-25.
HttpReply Ask(int port, bool modern, const std::string& method, const std::string& members,
              const std::string& name = "") {
  std::string params = "{" + members;
  if (modern) params += (members.empty() ? "" : ",") + ModernMeta();
  params += "}";
  const std::string body =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
  return HttpRequest(
      port, "POST", "/mcp", body,
      modern ? ModernHeaders(method, name)
             : std::map<std::string, std::string>{{"MCP-Protocol-Version", "2025-11-25"}});
}

TEST(HttpMethods, EveryAdvertisedMethodAnswersInBothErasOnOneEndpoint) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string uri = std::string("\"uri\":\"") + kSkillUri + "\"";
  for (const bool modern : {false, true}) {
    SCOPED_TRACE(modern ? "2026-07-28" : "2025-11-25");
    struct Case {
      std::string method, members, name, field;
    };
    const std::vector<Case> cases = {
        {"tools/list", "", "", "tools"},
        {"tools/call", R"("name":"read_file","arguments":{"path":"README.md"})", "read_file",
         "content"},
        {"skills/list", "", "", "skills"},
        {"skills/get", uri, "", "skill"},
        {"resources/list", "", "", "resources"},
        {"resources/read", uri, kSkillUri, "contents"},
        {"resources/templates/list", "", "", "resourceTemplates"},
    };
    for (const Case& c : cases) {
      SCOPED_TRACE(c.method);
      auto r = Ask(p.port(), modern, c.method, c.members, c.name);
      EXPECT_EQ(r.status, 200) << r.body;
      auto m = Parse(r.body);
      ASSERT_TRUE(m && m->has("result")) << r.body;
      auto result = m->getObject("result");
      EXPECT_TRUE(result->has(c.field)) << r.body;
      EXPECT_EQ(result->has("resultType"), modern) << r.body;
    }
  }
}

TEST(HttpMethods, ResourcesReadIn20260728NeedsMcpNameMatchingItsUri) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string uri = std::string("\"uri\":\"") + kSkillUri + "\"";
  // Missing, another URI, a broken encoding: 400 HeaderMismatch, nothing read.
  for (const std::string& name : {std::string(""), std::string("skill://shop/_owners/x/SKILL.md"),
                                  std::string("=?base64?!!!?=")}) {
    SCOPED_TRACE(name);
    auto r = Ask(p.port(), true, "resources/read", uri, name);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(Code(Parse(r.body)), -32020) << r.body;
    EXPECT_EQ(r.body.find("Ask first."), std::string::npos);
  }
  // The URI base64-encoded is the same name.
  auto r = Ask(p.port(), true, "resources/read", uri,
               "=?base64?c2tpbGw6Ly9zaG9wL19vd25lcnMvcmVmdW5kLWZsb3cvU0tJTEwubWQ=?=");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("Ask first."), std::string::npos) << r.body;
  // A resource not found is a method's error: 200, -32602 with data.uri (never -32002 here).
  const std::string missing = "skill://shop/_owners/refund-flow/none.md";
  r = Ask(p.port(), true, "resources/read", "\"uri\":\"" + missing + "\"", missing);
  EXPECT_EQ(r.status, 200) << r.body;
  auto m = Parse(r.body);
  EXPECT_EQ(Code(m), -32602) << r.body;
  ASSERT_TRUE(m && m->has("error"));
  EXPECT_EQ(m->getObject("error")->getObject("data")->getValue<std::string>("uri"), missing);
  // 2025: no header to match; -32002.
  r = Ask(p.port(), false, "resources/read", "\"uri\":\"" + missing + "\"");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Code(Parse(r.body)), -32002) << r.body;
}

TEST(HttpMethods, EveryListMethodRefusesACursorItNeverGave) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  for (const bool modern : {false, true}) {
    for (const std::string method :
         {"tools/list", "skills/list", "resources/list", "resources/templates/list"}) {
      SCOPED_TRACE(method + (modern ? " at 2026-07-28" : " at 2025-11-25"));
      auto r = Ask(p.port(), modern, method, R"("cursor":"not-a-cursor")");
      EXPECT_EQ(r.status, 200) << r.body;  // a method's error, not a malformed request
      EXPECT_EQ(Code(Parse(r.body)), -32602) << r.body;
    }
  }
}

const char* const kBatch =
    R"([{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file",)"
    R"("arguments":{"repo":"shop","path":"README.md"}}},)"
    R"({"jsonrpc":"2.0","method":"notifications/initialized"},)"
    R"({"jsonrpc":"2.0","id":2,"method":"ping"}])";

TEST(HttpBatch, At20250326ABatchIsAnsweredWithOneArray) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  // Without MCP-Protocol-Version (2025-03-26 had none: a server may take it as 2025-03-26), and
  // with it naming 2025-03-26.
  for (const auto& headers :
       {std::map<std::string, std::string>{},
        std::map<std::string, std::string>{{"MCP-Protocol-Version", "2025-03-26"}}}) {
    SCOPED_TRACE(headers.empty() ? "no header" : "header 2025-03-26");
    auto r = HttpRequest(p.port(), "POST", "/mcp", kBatch, headers);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.headers["content-type"], "application/json");
    auto v = ParseAny(r.body);
    ASSERT_EQ(v.type(), typeid(Poco::JSON::Array::Ptr)) << r.body;
    auto answers = v.extract<Poco::JSON::Array::Ptr>();
    ASSERT_EQ(answers->size(), 2u) << r.body;
    EXPECT_EQ(answers->getObject(0)->getValue<int>("id"), 1);
    EXPECT_NE(r.body.find("# Shop"), std::string::npos) << r.body;
    EXPECT_EQ(answers->getObject(1)->getValue<int>("id"), 2);
    EXPECT_TRUE(answers->getObject(1)->has("result"));
  }
  // Only notifications: 202, no body.
  auto note = HttpRequest(p.port(), "POST", "/mcp",
                          R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  EXPECT_EQ(note.status, 202) << note.body;
  EXPECT_TRUE(note.body.empty());
  // The access log names it. A request's line is written after its answer is sent: the server
  // stops first, so that every line is written.
  p.Terminate();
  EXPECT_EQ(p.Wait(), 0);
  EXPECT_NE(p.Stderr().find(" batch "), std::string::npos) << p.Stderr();
}

TEST(HttpBatch, AtEveryOtherVersionABatchIs400) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  for (const char* version : {"2025-06-18", "2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(version);
    auto r = HttpRequest(p.port(), "POST", "/mcp", kBatch, {{"MCP-Protocol-Version", version}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(Code(Parse(r.body)), -32600) << r.body;
    EXPECT_EQ(r.body.find("# Shop"), std::string::npos) << "a refused batch ran a call";
  }
}

}  // namespace
}  // namespace rr::testing::http_methods
