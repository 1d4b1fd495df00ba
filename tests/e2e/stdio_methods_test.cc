// End-to-end over stdio: every method the server advertises answers in every era that advertises
// it (the 2025 revisions after initialize, 2026-07-28 with _meta on each request), each as its
// era spells it; list methods refuse a cursor they never gave; and JSON-RPC batches are read at
// 2025-03-26 — the one revision that requires it — and refused at every other.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/version.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing {
namespace stdio_methods_test {
namespace {

using Json = Poco::JSON::Object::Ptr;
using std::chrono::seconds;

const char* const kMeta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                          R"("io.modelcontextprotocol/clientCapabilities":{}})";
const char* const kSkillUri = "skill://shop/_owners/refund-flow/SKILL.md";

// `shop`, with a README and one skill of its owners'.
struct ShopWithASkill {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  ShopWithASkill() {
    repo.Write("README.md", "# Shop\n");
    repo.Write(
        ".claude/skills/refund-flow/SKILL.md",
        "---\nname: refund-flow\ndescription: Issue a refund.\n---\n# Refunds\nAsk first.\n");
    repo.Write(".claude/skills/refund-flow/notes.md", "Refunds over 100 need a second person.\n");
    repo.Commit("Add the shop and its refund skill");
  }
};

// One era as a client speaks it: legacy after initialize, modern with _meta on every request.
struct Era {
  bool modern;
  // The params of a request in this era: `members` (JSON object members, maybe empty) and,
  // for 2026-07-28, _meta.
  std::string Params(const std::string& members) const {
    if (!modern) return "{" + members + "}";
    return "{" + members + (members.empty() ? "" : ",") + kMeta + "}";
  }
};

Json Ask(McpProcess& p, int id, const std::string& method, const std::string& params) {
  p.Send("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"" + method +
         "\",\"params\":" + params + "}");
  while (true) {
    auto m = p.ReadMessage();
    if (!m) return nullptr;
    if (m->has("id") && !m->get("id").isEmpty() && m->getValue<int>("id") == id) return m;
  }
}

int Code(const Json& m) {
  return m && m->has("error") ? m->getObject("error")->getValue<int>("code") : 0;
}

// The result of `r`, checked to be one as `era` sends it.
Json ResultIn(const Era& era, const Json& r, const std::string& what) {
  if (!r || !r->has("result")) {
    ADD_FAILURE() << what << ": no result: "
                  << (r && r->has("error") ? r->getObject("error")->getValue<std::string>("message")
                                           : std::string("no answer"));
    return nullptr;
  }
  auto result = r->getObject("result");
  if (era.modern) {
    EXPECT_EQ(result->optValue<std::string>("resultType", ""), "complete") << what;
    auto meta = result->getObject("_meta");
    EXPECT_TRUE(meta && meta->getObject("io.modelcontextprotocol/serverInfo")) << what;
  } else {
    EXPECT_FALSE(result->has("resultType")) << what;
  }
  return result;
}

// The methods each capability commits a server to; a capability advertised here with no entry
// fails the test below, so a new one cannot be advertised untested.
const std::map<std::string, std::vector<std::string>> kMethodsOf = {
    {"tools", {"tools/list", "tools/call"}},
    {"resources", {"resources/list", "resources/read", "resources/templates/list"}},
    {"extensions/io.modelcontextprotocol/skills", {"skills/list", "skills/get"}},
};

// Every method the capabilities name, asked and checked in `era`.
void ExpectEveryAdvertisedMethodAnswers(const Era& era) {
  ShopWithASkill shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  Json caps;
  if (era.modern) {
    caps = ResultIn(era, Ask(p, 1, "server/discover", era.Params("")), "server/discover")
               ->getObject("capabilities");
  } else {
    auto init = p.Initialize("2025-11-25");
    ASSERT_TRUE(init && init->has("result"));
    caps = init->getObject("result")->getObject("capabilities");
  }
  ASSERT_TRUE(caps);
  std::set<std::string> advertised;
  for (const auto& [name, value] : *caps) {
    if (name != "extensions") {
      advertised.insert(name);
      continue;
    }
    for (const auto& [ext, settings] : *caps->getObject("extensions")) {
      advertised.insert("extensions/" + ext);
    }
  }
  std::set<std::string> methods;
  for (const std::string& capability : advertised) {
    auto it = kMethodsOf.find(capability);
    if (it == kMethodsOf.end()) {
      ADD_FAILURE() << "capability " << capability << " is advertised but no test asks its methods";
      continue;
    }
    methods.insert(it->second.begin(), it->second.end());
  }
  EXPECT_EQ(methods.size(), 7u);

  int id = 10;
  for (const std::string& method : methods) {
    SCOPED_TRACE(method + (era.modern ? " at 2026-07-28" : " at 2025-11-25"));
    if (method == "tools/list") {
      auto r = ResultIn(era, Ask(p, ++id, method, era.Params("")), method);
      ASSERT_TRUE(r);
      EXPECT_GT(r->getArray("tools")->size(), 5u);
      EXPECT_EQ(r->has("ttlMs"), era.modern);  // cache hints are 2026-07-28's
    } else if (method == "tools/call") {
      auto r = ResultIn(era,
                        Ask(p, ++id, method,
                            era.Params(R"("name":"read_file","arguments":{"path":"README.md"})")),
                        method);
      ASSERT_TRUE(r);
      EXPECT_FALSE(r->getValue<bool>("isError"));
      EXPECT_NE(r->getArray("content")->getObject(0)->getValue<std::string>("text").find("# Shop"),
                std::string::npos);
    } else if (method == "skills/list") {
      auto r = ResultIn(era, Ask(p, ++id, method, era.Params("")), method);
      ASSERT_TRUE(r);
      auto skills = r->getArray("skills");
      ASSERT_EQ(skills->size(), 1u);
      EXPECT_EQ(skills->getObject(0)->getValue<std::string>("uri"), kSkillUri);
      EXPECT_EQ(skills->getObject(0)->getArray("resources")->size(), 2u);
      EXPECT_EQ(r->getValue<int>("ttlMs"), 60000);
      EXPECT_EQ(r->getValue<std::string>("cacheScope"), "private");
    } else if (method == "skills/get") {
      auto r = ResultIn(
          era, Ask(p, ++id, method, era.Params(std::string("\"uri\":\"") + kSkillUri + "\"")),
          method);
      ASSERT_TRUE(r);
      EXPECT_EQ(r->getObject("skill")->getObject("frontmatter")->getValue<std::string>("name"),
                "refund-flow");
    } else if (method == "resources/list") {
      auto r = ResultIn(era, Ask(p, ++id, method, era.Params("")), method);
      ASSERT_TRUE(r);
      ASSERT_EQ(r->getArray("resources")->size(), 1u);
      EXPECT_EQ(r->getArray("resources")->getObject(0)->getValue<std::string>("uri"), kSkillUri);
      EXPECT_TRUE(r->has("ttlMs") && r->has("cacheScope"));
    } else if (method == "resources/read") {
      auto r = ResultIn(
          era, Ask(p, ++id, method, era.Params(std::string("\"uri\":\"") + kSkillUri + "\"")),
          method);
      ASSERT_TRUE(r);
      auto content = r->getArray("contents")->getObject(0);
      EXPECT_EQ(content->getValue<std::string>("uri"), kSkillUri);
      EXPECT_EQ(content->getValue<std::string>("mimeType"), "text/markdown");
      EXPECT_NE(content->getValue<std::string>("text").find("Ask first."), std::string::npos);
      EXPECT_TRUE(r->has("ttlMs") && r->has("cacheScope"));
    } else if (method == "resources/templates/list") {
      auto r = ResultIn(era, Ask(p, ++id, method, era.Params("")), method);
      ASSERT_TRUE(r);
      EXPECT_EQ(r->getArray("resourceTemplates")->size(), 0u);
      EXPECT_TRUE(r->has("ttlMs") && r->has("cacheScope"));
    } else {
      ADD_FAILURE() << "no check for " << method;
    }
  }
}

TEST(StdioMethods, EveryMethodAdvertisedIn2025Answers) {
  ExpectEveryAdvertisedMethodAnswers({false});
}

TEST(StdioMethods, EveryMethodAdvertisedIn20260728Answers) {
  ExpectEveryAdvertisedMethodAnswers({true});
}

TEST(StdioMethods, AResourceNotFoundIsSpeltAsEachEraSpellsIt) {
  ShopWithASkill shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  p.Initialize("2025-11-25");
  const std::string missing = "skill://shop/_owners/refund-flow/nothing.md";
  for (const Era era : {Era{false}, Era{true}}) {
    SCOPED_TRACE(era.modern ? "2026-07-28" : "2025-11-25");
    auto r =
        Ask(p, era.modern ? 2 : 1, "resources/read", era.Params("\"uri\":\"" + missing + "\""));
    // -32002 before 2026-07-28; -32602 there, which must not send -32002. Both name the URI.
    EXPECT_EQ(Code(r), era.modern ? -32602 : -32002);
    ASSERT_TRUE(r && r->has("error"));
    auto data = r->getObject("error")->getObject("data");
    ASSERT_TRUE(data);
    EXPECT_EQ(data->getValue<std::string>("uri"), missing);
    // skills/get of what is no skill is -32602 in both (the extension's rule).
    EXPECT_EQ(Code(Ask(p, era.modern ? 4 : 3, "skills/get",
                       era.Params("\"uri\":\"skill://shop/_owners/nothing/SKILL.md\""))),
              -32602);
  }
}

TEST(StdioMethods, EveryListMethodRefusesACursorItNeverGave) {
  ShopWithASkill shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  p.Initialize("2025-11-25");
  int id = 0;
  for (const Era era : {Era{false}, Era{true}}) {
    for (const std::string method :
         {"tools/list", "skills/list", "resources/list", "resources/templates/list"}) {
      SCOPED_TRACE(method + (era.modern ? " at 2026-07-28" : " at 2025-11-25"));
      for (const std::string cursor : {R"("nope")", R"("")", "7", R"("999999")"}) {
        auto r = Ask(p, ++id, method, era.Params("\"cursor\":" + cursor));
        EXPECT_EQ(Code(r), -32602) << cursor;
        ASSERT_TRUE(r && r->has("error"));
        EXPECT_NE(r->getObject("error")->getValue<std::string>("message").find("cursor"),
                  std::string::npos);
      }
      // No cursor, or null: the first page.
      EXPECT_TRUE(ResultIn(era, Ask(p, ++id, method, era.Params(R"("cursor":null)")), method));
    }
  }
}

TEST(StdioMethods, AMethodOfTheOtherEraIsNotFoundNamingThisErasMethods) {
  ShopWithASkill shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto r = Ask(p, 1, "ping", std::string("{") + kMeta + "}");
  EXPECT_EQ(Code(r), -32601);
  ASSERT_TRUE(r && r->has("error"));
  const std::string message = r->getObject("error")->getValue<std::string>("message");
  for (const char* m : {"server/discover", "tools/call", "skills/list", "resources/read"}) {
    EXPECT_NE(message.find(m), std::string::npos) << m << " not named in: " << message;
  }
  EXPECT_EQ(message.find("initialize"), std::string::npos) << message;
}

// ---------------------------------------------------------------------------------------------
// Batches

Poco::JSON::Array::Ptr ParseArray(const std::optional<std::string>& line) {
  if (!line) return nullptr;
  try {
    Poco::JSON::Parser parser;
    auto v = parser.parse(*line);
    return v.type() == typeid(Poco::JSON::Array::Ptr) ? v.extract<Poco::JSON::Array::Ptr>()
                                                      : nullptr;
  } catch (...) {
    return nullptr;
  }
}

TEST(StdioBatch, At20250326ABatchIsAnsweredWithOneArrayInTheOrderAsked) {
  ShopWithASkill shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto init = p.Initialize("2025-03-26");
  ASSERT_EQ(init->getObject("result")->getValue<std::string>("protocolVersion"), "2025-03-26");
  p.Send(R"([{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"read_file",)"
         R"("arguments":{"path":"README.md"}}},)"
         R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"zz"}},)"
         R"({"jsonrpc":"2.0","id":2,"method":"ping"},)"
         R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":")" +
         std::string(kSkillUri) +
         R"("}},)"
         R"({"jsonrpc":"2.0","id":4,"method":"no/such"},)"
         R"(7,)"
         R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"x"}}])");
  auto answers = ParseArray(p.ReadLine(seconds(20)));
  ASSERT_TRUE(answers) << "the batch was not answered with one JSON array";
  ASSERT_EQ(answers->size(), 6u);  // every request and the bad element; not the notification
  std::vector<std::string> ids;
  for (size_t i = 0; i < answers->size(); ++i) {
    auto a = answers->getObject(static_cast<unsigned>(i));
    ids.push_back(a->get("id").isEmpty() ? "null" : a->get("id").convert<std::string>());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "2", "3", "4", "null", "5"}));
  auto read = answers->getObject(0)->getObject("result");
  EXPECT_NE(read->getArray("content")->getObject(0)->getValue<std::string>("text").find("# Shop"),
            std::string::npos);
  EXPECT_TRUE(answers->getObject(1)->has("result"));
  EXPECT_NE(answers->getObject(2)
                ->getObject("result")
                ->getArray("contents")
                ->getObject(0)
                ->getValue<std::string>("text")
                .find("Ask first."),
            std::string::npos);
  EXPECT_EQ(Code(answers->getObject(3)), -32601);
  EXPECT_EQ(Code(answers->getObject(4)), -32600);
  EXPECT_EQ(Code(answers->getObject(5)), -32602);

  // Only notifications: nothing is answered; the next line is the ping sent after.
  p.Send(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  auto pong = Ask(p, 9, "ping", "{}");
  ASSERT_TRUE(pong && pong->has("result"));
  // An empty batch is one error, not an array; initialize is never part of one.
  p.Send("[]");
  auto empty = p.ReadMessage();
  EXPECT_EQ(Code(empty), -32600);
  p.Send(R"([{"jsonrpc":"2.0","id":11,"method":"initialize","params":{}}])");
  auto refused = ParseArray(p.ReadLine(seconds(20)));
  ASSERT_TRUE(refused && refused->size() == 1u);
  EXPECT_EQ(Code(refused->getObject(0)), -32600);
  p.CloseInput();
  EXPECT_EQ(p.Wait(), 0);
}

TEST(StdioBatch, AtEveryOtherVersionABatchIsRefusedAsOneError) {
  ShopWithASkill shop;
  const std::string batch =
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])";
  {
    McpProcess p({RR_BINARY}, shop.repo.path());  // no initialize: no version negotiated
    p.Send(batch);
    auto r = p.ReadMessage();
    EXPECT_EQ(Code(r), -32600);
    ASSERT_TRUE(r && r->has("error"));
    EXPECT_NE(r->getObject("error")->getValue<std::string>("message").find("2025-03-26"),
              std::string::npos);
  }
  for (const char* version : {"2025-06-18", "2025-11-25", "2024-11-05"}) {
    SCOPED_TRACE(version);
    McpProcess p({RR_BINARY}, shop.repo.path());
    p.Initialize(version);
    p.Send(batch);
    auto r = p.ReadMessage();
    EXPECT_EQ(Code(r), -32600);
    auto pong = Ask(p, 3, "ping", "{}");
    ASSERT_TRUE(pong && pong->has("result")) << "the server stopped answering";
  }
  // At 2025-03-26 too, a 2026-07-28 request is sent alone, never in a batch.
  McpProcess p({RR_BINARY}, shop.repo.path());
  p.Initialize("2025-03-26");
  p.Send(std::string(R"([{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)") + kMeta +
         "}}]");
  auto refused = ParseArray(p.ReadLine(seconds(20)));
  ASSERT_TRUE(refused && refused->size() == 1u);
  EXPECT_EQ(Code(refused->getObject(0)), -32600);
}

}  // namespace
}  // namespace stdio_methods_test
}  // namespace rr::testing
