// End-to-end: the 2026-07-28 revision over stdio, beside the 2025 ones on the same process.
// No handshake: every request carries its version and the client's capabilities in _meta.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/version.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing::stdio_modern {
namespace {

using Json = Poco::JSON::Object::Ptr;

const char* const kMeta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                          R"("io.modelcontextprotocol/clientCapabilities":{},)"
                          R"("io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}})";

struct Shop {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  Shop() {
    repo.Write("README.md", "# Shop\n");
    repo.Commit("Add the shop");
  }
};

// The response to one request (sent now), skipping any notification before it.
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

void ExpectModernResult(const Json& r) {
  ASSERT_TRUE(r && r->has("result")) << "no result";
  auto result = r->getObject("result");
  EXPECT_EQ(result->getValue<std::string>("resultType"), "complete");
  auto info = result->getObject("_meta")->getObject("io.modelcontextprotocol/serverInfo");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->getValue<std::string>("name"), kServerName);
  EXPECT_EQ(info->getValue<std::string>("version"), kServerVersion);
}

TEST(StdioModern, ServerDiscoverNamesEveryVersionCapabilitiesAndCacheHints) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto r = Ask(p, 1, "server/discover", std::string("{") + kMeta + "}");
  ExpectModernResult(r);
  auto result = r->getObject("result");
  auto versions = result->getArray("supportedVersions");
  ASSERT_TRUE(versions);
  std::vector<std::string> v;
  for (size_t i = 0; i < versions->size(); ++i) v.push_back(versions->getElement<std::string>(i));
  EXPECT_EQ(v, (std::vector<std::string>{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26",
                                         "2024-11-05"}));
  EXPECT_TRUE(result->getObject("capabilities")->has("tools"));
  EXPECT_FALSE(result->getValue<std::string>("instructions").empty());
  EXPECT_GE(result->getValue<int64_t>("ttlMs"), 0);
  EXPECT_EQ(result->getValue<std::string>("cacheScope"), "public");
}

TEST(StdioModern, ToolsListAndCallWorkWithoutAHandshake) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto list = Ask(p, 1, "tools/list", std::string("{") + kMeta + "}");
  ExpectModernResult(list);
  auto result = list->getObject("result");
  EXPECT_EQ(result->getValue<int64_t>("ttlMs"), 3600000);
  EXPECT_EQ(result->getValue<std::string>("cacheScope"), "public");
  auto tools = result->getArray("tools");
  ASSERT_TRUE(tools && tools->size() > 5);
  // The same order every time.
  auto again = Ask(p, 2, "tools/list", std::string("{") + kMeta + "}");
  auto tools2 = again->getObject("result")->getArray("tools");
  ASSERT_EQ(tools->size(), tools2->size());
  for (size_t i = 0; i < tools->size(); ++i) {
    EXPECT_EQ(tools->getObject(i)->getValue<std::string>("name"),
              tools2->getObject(i)->getValue<std::string>("name"));
  }
  auto call =
      Ask(p, 3, "tools/call",
          std::string(R"({"name":"read_file","arguments":{"path":"README.md"},)") + kMeta + "}");
  ExpectModernResult(call);
  auto c = call->getObject("result");
  EXPECT_FALSE(c->getValue<bool>("isError"));
  EXPECT_NE(c->getArray("content")->getObject(0)->getValue<std::string>("text").find("# Shop"),
            std::string::npos);
}

TEST(StdioModern, AnUnsupportedVersionIsRefusedListingTheSupportedOnes) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto r = Ask(p, 1, "tools/list",
               R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01",)"
               R"("io.modelcontextprotocol/clientCapabilities":{}}})");
  EXPECT_EQ(Code(r), -32022);
  auto data = r->getObject("error")->getObject("data");
  ASSERT_TRUE(data);
  EXPECT_EQ(data->getValue<std::string>("requested"), "1900-01-01");
  EXPECT_EQ(data->getArray("supported")->getElement<std::string>(0), "2026-07-28");
}

TEST(StdioModern, RequiredMetaFieldsMissingAreInvalidParams) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  EXPECT_EQ(Code(Ask(p, 1, "server/discover", "{}")), -32602);
  EXPECT_EQ(Code(Ask(p, 2, "server/discover",
                     R"({"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}})")),
            -32602);
  EXPECT_EQ(Code(Ask(p, 3, "tools/list",
                     R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}})")),
            -32602);
  // clientInfo is optional.
  auto r = Ask(p, 4, "server/discover",
               R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
               R"("io.modelcontextprotocol/clientCapabilities":{}}})");
  ExpectModernResult(r);
}

TEST(StdioModern, PingAndInitializeAreNotPartOf2026) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  EXPECT_EQ(Code(Ask(p, 1, "ping", std::string("{") + kMeta + "}")), -32601);
  EXPECT_EQ(Code(Ask(p, 2, "initialize", std::string("{") + kMeta + "}")), -32601);
}

TEST(StdioModern, BothErasAreServedOnOneProcessChosenPerRequest) {
  Shop shop;
  McpProcess p({RR_BINARY}, shop.repo.path());
  auto init = p.Initialize("2025-11-25");
  ASSERT_TRUE(init && init->has("result"));
  auto legacy = Ask(p, 10, "tools/list", "{}");
  ASSERT_TRUE(legacy && legacy->has("result"));
  EXPECT_FALSE(legacy->getObject("result")->has("resultType"));
  EXPECT_FALSE(legacy->getObject("result")->has("ttlMs"));
  auto modern = Ask(p, 11, "tools/list", std::string("{") + kMeta + "}");
  ExpectModernResult(modern);
  auto legacy_again = Ask(p, 12, "ping", "{}");
  ASSERT_TRUE(legacy_again && legacy_again->has("result"));
}

TEST(StdioModern, ProgressAndCancellationWorkAsTheRevisionDefinesThem) {
  TempDir tmp;
  TestRepo repo(tmp / "big");
  const std::string blob = repo.Blob("x\n");
  std::vector<TestRepo::RawEntry> files;
  for (int i = 0; i < 100; ++i) files.push_back({"100644", "f" + std::to_string(i), blob});
  std::string tree = repo.RawTree(files);
  for (int level = 0; level < 3; ++level) {
    std::vector<TestRepo::RawEntry> dirs;
    for (int i = 0; i < 100; ++i) dirs.push_back({"40000", "d" + std::to_string(i), tree});
    tree = repo.RawTree(dirs);
  }
  repo.Git({"update-ref", "refs/heads/main", repo.CommitTree(tree, "Many")});
  McpProcess p({RR_BINARY}, repo.path());
  p.Send(
      std::string(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{)") +
      R"("name":"list_files","arguments":{"recursive":true},)" +
      R"("_meta":{"progressToken":"p5","io.modelcontextprotocol/protocolVersion":"2026-07-28",)" +
      R"("io.modelcontextprotocol/clientCapabilities":{}}}})");
  auto first = p.ReadMessage();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->getValue<std::string>("method"), "notifications/progress");
  EXPECT_EQ(first->getObject("params")->getValue<std::string>("progressToken"), "p5");
  p.Send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}})");
  // No answer to request 5 ever: the next answer is the discover sent after it.
  p.Send(std::string(R"({"jsonrpc":"2.0","id":6,"method":"server/discover","params":{)") + kMeta +
         "}}");
  Json r;
  while ((r = p.ReadMessage())) {
    ASSERT_FALSE(r->has("id") && !r->get("id").isEmpty() && r->getValue<int>("id") == 5)
        << "a cancelled call was answered";
    if (r->has("id")) break;
  }
  ExpectModernResult(r);
  p.CloseInput();
  EXPECT_EQ(p.Wait(), 0);
}

}  // namespace
}  // namespace rr::testing::stdio_modern
