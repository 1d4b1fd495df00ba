// End-to-end: the real repo-reader binary, started as an MCP client starts it (in a repository,
// or with --config), spoken to over stdio. Each test is named for the promise it proves.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "core/mcp/server.h"
#include "core/version.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing {
namespace stdio_protocol_test {
namespace {

using Json = Poco::JSON::Object::Ptr;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A small repository to serve: `shop` with a README and src/app.py on main.
struct ShopRepo {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  std::string commit;
  ShopRepo() {
    repo.Write("README.md", "# Shop\n\nSells things.\n");
    repo.Write("src/app.py", "print('hello')\n");
    commit = repo.Commit("Add the shop");
  }
};

// The binary started in `cwd` (no --config: it serves the repository there).
McpProcess Start(const std::string& cwd, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {RR_BINARY};
  args.insert(args.end(), extra.begin(), extra.end());
  return McpProcess(args, cwd);
}

// The id of a message as JSON text: "null" when absent or null.
std::string IdText(const Json& m) {
  if (!m || !m->has("id")) return "null";
  const Poco::Dynamic::Var v = m->get("id");
  if (v.isEmpty()) return "null";
  if (v.isString()) return "\"" + v.extract<std::string>() + "\"";
  return v.convert<std::string>();
}

Json ParseObject(const std::string& line) {
  try {
    Poco::JSON::Parser parser;
    auto v = parser.parse(line);
    if (v.type() != typeid(Json)) return nullptr;
    return v.extract<Json>();
  } catch (...) {
    return nullptr;
  }
}

// Reads messages until the one with id `id` (JSON text, e.g. "7", "\"a\"", "null"); the others
// read on the way go to `others`. Fails the test when it does not come within `timeout`.
Json AwaitId(McpProcess& p, const std::string& id, std::vector<Json>* others = nullptr,
             milliseconds timeout = seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left =
        std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    auto line = p.ReadLine(left);
    if (!line) break;
    Json m = ParseObject(*line);
    if (!m) {
      ADD_FAILURE() << "the server wrote a line that is not a JSON object: "
                    << line->substr(0, 300);
      continue;
    }
    if (IdText(m) == id) return m;
    if (others) others->push_back(m);
  }
  ADD_FAILURE() << "no message with id " << id << " within " << timeout.count() << " ms";
  return nullptr;
}

std::string Req(const std::string& id, const std::string& method, const std::string& params) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method +
         "\",\"params\":" + params + "}";
}

std::string CallReq(const std::string& id, const std::string& tool, const std::string& args) {
  return Req(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}");
}

std::string CancelNote(const std::string& id) {
  return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" +
         id + ",\"reason\":\"test\"}}";
}

int ErrorCode(const Json& m) {
  if (!m || !m->has("error")) return 0;
  return m->getObject("error")->getValue<int>("code");
}

std::string ErrorMessage(const Json& m) {
  if (!m || !m->has("error")) return "";
  return m->getObject("error")->getValue<std::string>("message");
}

// Sends a ping with `id` and expects its empty result within 10 s: the server is alive.
void ExpectAlive(McpProcess& p, const std::string& id) {
  p.Send(Req(id, "ping", "{}"));
  Json r = AwaitId(p, id);
  ASSERT_TRUE(r) << "the server stopped answering";
  EXPECT_TRUE(r->has("result")) << "ping was not answered with a result";
}

// A repository whose one commit holds 100^4 = 100,000,000 files (folders reused by id, so it is
// built in milliseconds): a recursive listing of it runs until its time budget (30 s) is spent.
struct HugeRepo {
  TempDir tmp;
  TestRepo repo{tmp / "huge"};
  HugeRepo() {
    const std::string blob = repo.Blob("x\n");
    std::vector<TestRepo::RawEntry> files;
    for (int i = 0; i < 100; ++i) {
      files.push_back({"100644", "f" + std::string(i < 10 ? "0" : "") + std::to_string(i), blob});
    }
    std::string tree = repo.RawTree(files);
    for (int level = 0; level < 3; ++level) {
      std::vector<TestRepo::RawEntry> dirs;
      for (int i = 0; i < 100; ++i) {
        dirs.push_back({"40000", "d" + std::string(i < 10 ? "0" : "") + std::to_string(i), tree});
      }
      tree = repo.RawTree(dirs);
    }
    const std::string commit = repo.CommitTree(tree, "A hundred million files");
    repo.Git({"update-ref", "refs/heads/main", commit});
  }
};

const char* const kSlowArgs = R"({"repo":"huge","recursive":true})";

// ---------------------------------------------------------------------------------------------
// initialize

TEST(StdioInitialize, AnswersTheClientsProtocolVersionWhenSupported) {
  ShopRepo shop;
  for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    SCOPED_TRACE(version);
    McpProcess p = Start(shop.repo.path());
    Json r = p.Initialize(version);
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->has("result"));
    EXPECT_EQ(r->getObject("result")->getValue<std::string>("protocolVersion"), version);
    p.CloseInput();
    EXPECT_EQ(p.Wait(seconds(10)), 0);
  }
}

TEST(StdioInitialize, AnswersTheNewestVersionForAnUnsupportedOne) {
  ShopRepo shop;
  for (const char* version : {"1999-01-01", "2026-12-31", ""}) {
    SCOPED_TRACE(version);
    McpProcess p = Start(shop.repo.path());
    Json r = p.Initialize(version);
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->has("result"));
    EXPECT_EQ(r->getObject("result")->getValue<std::string>("protocolVersion"), "2025-11-25");
    EXPECT_STREQ(kProtocolVersions[0], "2025-11-25");
  }
}

TEST(StdioInitialize, GivesServerInfoToolsCapabilityAndInstructions) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  Json r = p.Initialize("2025-06-18");
  ASSERT_TRUE(r);
  EXPECT_EQ(IdText(r), "0");
  EXPECT_EQ(r->getValue<std::string>("jsonrpc"), "2.0");
  ASSERT_TRUE(r->has("result"));
  Json result = r->getObject("result");
  Json info = result->getObject("serverInfo");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->getValue<std::string>("name"), kServerName);
  EXPECT_EQ(info->getValue<std::string>("version"), kServerVersion);
  Json caps = result->getObject("capabilities");
  ASSERT_TRUE(caps);
  EXPECT_TRUE(caps->getObject("tools")) << "capabilities.tools must be an object";
  ASSERT_TRUE(result->has("instructions"));
  const std::string instructions = result->getValue<std::string>("instructions");
  EXPECT_NE(instructions.find("list_repos"), std::string::npos) << instructions;
}

// ---------------------------------------------------------------------------------------------
// tools/list

TEST(StdioToolsList, EveryToolIsFullyDescribedAndReadOnly) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  Json r = p.Request("tools/list", "{}", 1);
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->has("result"));
  auto tools = r->getObject("result")->getArray("tools");
  ASSERT_TRUE(tools);
  std::set<std::string> names;
  for (size_t i = 0; i < tools->size(); ++i) {
    Json t = tools->getObject(static_cast<unsigned>(i));
    ASSERT_TRUE(t);
    const std::string name = t->optValue<std::string>("name", "");
    SCOPED_TRACE(name);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << "tool named twice";
    EXPECT_FALSE(t->optValue<std::string>("title", "").empty());
    EXPECT_FALSE(t->optValue<std::string>("description", "").empty());

    Json schema = t->getObject("inputSchema");
    ASSERT_TRUE(schema);
    EXPECT_EQ(schema->optValue<std::string>("type", ""), "object");
    ASSERT_TRUE(schema->has("additionalProperties"));
    EXPECT_EQ(schema->get("additionalProperties").toString(), "false");
    Json props = schema->getObject("properties");
    ASSERT_TRUE(props) << "inputSchema.properties must be an object";
    for (const auto& [prop, value] : *props) {
      SCOPED_TRACE(prop);
      ASSERT_EQ(value.type(), typeid(Json)) << "a property must be described by an object";
      Json d = value.extract<Json>();
      const std::string type = d->optValue<std::string>("type", "");
      EXPECT_TRUE(type == "string" || type == "integer" || type == "boolean" || type == "number" ||
                  type == "array" || type == "object")
          << "type: `" << type << "`";
      EXPECT_FALSE(d->optValue<std::string>("description", "").empty());
    }
    auto required = schema->getArray("required");
    ASSERT_TRUE(required) << "inputSchema.required must be listed (an array, maybe empty)";
    for (size_t k = 0; k < required->size(); ++k) {
      const std::string req = required->getElement<std::string>(static_cast<unsigned>(k));
      EXPECT_TRUE(props->has(req)) << "required `" << req << "` is not a property";
    }

    Json a = t->getObject("annotations");
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->has("readOnlyHint") && a->has("destructiveHint") && a->has("idempotentHint") &&
                a->has("openWorldHint"));
    EXPECT_EQ(a->get("readOnlyHint").toString(), "true");
    EXPECT_EQ(a->get("destructiveHint").toString(), "false");
    EXPECT_EQ(a->get("idempotentHint").toString(), "true");
    EXPECT_EQ(a->get("openWorldHint").toString(), "false");
  }
  for (const char* expected : {"list_repos", "list_refs", "list_files", "read_file"}) {
    EXPECT_TRUE(names.count(expected)) << expected << " is not listed";
  }
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC errors

TEST(StdioJsonRpc, MalformedJsonIsAParseErrorWithIdNullAndServingGoesOn) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  for (const std::string& bad :
       {std::string("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\""), std::string("not json"),
        std::string("{\"jsonrpc\":\"2.0\",\"id\":2,,}"), std::string("\xff\xfe{}")}) {
    SCOPED_TRACE(bad);
    p.Send(bad);
    Json r = p.ReadMessage(seconds(10));
    ASSERT_TRUE(r);
    EXPECT_EQ(IdText(r), "null");
    EXPECT_EQ(ErrorCode(r), -32700) << ErrorMessage(r);
    ExpectAlive(p, "50");
  }
}

TEST(StdioJsonRpc, InvalidRequestsAreRefusedWithInvalidRequest) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  struct Case {
    std::string message, id;
  };
  const std::vector<Case> cases = {
      {R"({"id":3,"method":"ping"})", "3"},                           // jsonrpc missing
      {R"({"jsonrpc":"1.0","id":4,"method":"ping"})", "4"},           // jsonrpc not 2.0
      {R"({"jsonrpc":"2.0","id":5,"method":42})", "5"},               // method not a string
      {R"({"jsonrpc":"2.0","id":6,"method":null})", "6"},             // method not a string
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", "null"},  // id an object
      {R"({"jsonrpc":"2.0","id":[7],"method":"ping"})", "null"},      // id an array
      {R"({"jsonrpc":"2.0","id":true,"method":"ping"})", "null"},     // id a boolean
      {R"({"jsonrpc":"2.0","id":false,"method":"ping"})", "null"},    // id a boolean
      {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", "null"},      // id a fraction
      {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", "null"},     // id null
      {R"({"jsonrpc":"2.0","id":8})", "8"},                           // no method, no result
      {R"([1,2,3])", "null"},                                         // not an object
      {R"("ping")", "null"},                                          // not an object
      {R"(42)", "null"},                                              // not an object
      {R"(null)", "null"},                                            // not an object
      {R"(true)", "null"},                                            // not an object
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    p.Send(c.message);
    Json r = p.ReadMessage(seconds(10));
    ASSERT_TRUE(r);
    EXPECT_EQ(ErrorCode(r), -32600) << ErrorMessage(r);
    EXPECT_EQ(IdText(r), c.id);
    EXPECT_FALSE(ErrorMessage(r).empty());
  }
  ExpectAlive(p, "60");
}

TEST(StdioJsonRpc, UnknownMethodIsMethodNotFound) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.Send(Req("9", "prompts/list", "{}"));  // resources/list is the skills extension's
  Json r = AwaitId(p, "9");
  ASSERT_TRUE(r);
  EXPECT_EQ(ErrorCode(r), -32601) << ErrorMessage(r);
  p.Send(Req("10", "no/such/method", "{}"));
  r = AwaitId(p, "10");
  ASSERT_TRUE(r);
  EXPECT_EQ(ErrorCode(r), -32601) << ErrorMessage(r);
  ExpectAlive(p, "11");
}

TEST(StdioJsonRpc, UnknownToolIsAnError) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.Send(CallReq("12", "write_file", R"({"path":"x"})"));
  Json r = AwaitId(p, "12");
  ASSERT_TRUE(r);
  // The MCP specification: an unknown tool is a protocol error, invalid params.
  EXPECT_EQ(ErrorCode(r), -32602);
  EXPECT_NE(ErrorMessage(r).find("write_file"), std::string::npos) << ErrorMessage(r);
  EXPECT_NE(ErrorMessage(r).find("read_file"), std::string::npos)
      << "the error should name the tools there are: " << ErrorMessage(r);
  ExpectAlive(p, "13");
}

TEST(StdioJsonRpc, RequestIdZeroIsAValidId) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.Send(Req("0", "ping", "{}"));
  Json r = AwaitId(p, "0");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has("result"));
  EXPECT_FALSE(r->has("error"));
  p.Send(CallReq("0", "list_repos", "{}"));
  r = AwaitId(p, "0");
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->has("result"));
  EXPECT_EQ(r->getObject("result")->get("isError").toString(), "false");
}

TEST(StdioJsonRpc, AStringIdIsEchoed) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  // Each id as written in the request, and as the client means it.
  const std::vector<std::pair<std::string, std::string>> ids = {
      {"abc", "abc"},
      {"", ""},
      {"7", "7"},
      {"a \\\"quoted\\\" id", "a \"quoted\" id"},
      {"\\u00fcn\\u00efcode", "\u00fcn\u00efcode"}};
  for (const auto& [written, meant] : ids) {
    SCOPED_TRACE(written);
    p.Send(Req("\"" + written + "\"", "ping", "{}"));
    auto line = p.ReadLine(seconds(10));
    ASSERT_TRUE(line);
    Json r = ParseObject(*line);
    ASSERT_TRUE(r) << *line;
    ASSERT_TRUE(r->has("id"));
    ASSERT_TRUE(r->get("id").isString()) << "a string id must come back a string: " << *line;
    EXPECT_EQ(r->getValue<std::string>("id"), meant);
    EXPECT_TRUE(r->has("result"));
  }
  p.Send(CallReq("\"call-1\"", "read_file", R"({"repo":"shop","path":"README.md"})"));
  Json r = AwaitId(p, "\"call-1\"");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has("result"));
}

TEST(StdioJsonRpc, AnOversizedMessageIsRefusedAndServingGoesOn) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  const size_t limit = 8u * 1024 * 1024;
  // A valid request, but over 8 MiB on one line.
  const std::string big = Req("20", "ping", "{\"pad\":\"" + std::string(limit + 1024, 'x') + "\"}");
  ASSERT_GT(big.size(), limit);
  p.Send(big);
  Json r = p.ReadMessage(seconds(20));
  ASSERT_TRUE(r);
  EXPECT_NE(ErrorCode(r), 0) << "an oversized message must be refused with an error";
  EXPECT_EQ(IdText(r), "20") << "its id is read from its first bytes: the client is not left "
                                "waiting";
  EXPECT_NE(ErrorMessage(r).find("larger than"), std::string::npos) << ErrorMessage(r);
  ExpectAlive(p, "21");
  // No answer for the refused request ever comes.
  p.Send(Req("22", "ping", "{}"));
  std::vector<Json> others;
  ASSERT_TRUE(AwaitId(p, "22", &others));
  for (const auto& o : others) EXPECT_NE(IdText(o), "20");
}

TEST(StdioJsonRpc, AMessageJustUnderTheLimitIsServed) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  const std::string big =
      Req("23", "ping", "{\"pad\":\"" + std::string(7u * 1024 * 1024, 'x') + "\"}");
  p.Send(big);
  Json r = AwaitId(p, "23", nullptr, seconds(20));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has("result")) << ErrorMessage(r);
}

TEST(StdioJsonRpc, DeeplyNestedMessagesDoNotCrashIt) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  const size_t depth = 100000;
  // A bare message of nested arrays.
  p.Send(std::string(depth, '[') + std::string(depth, ']'));
  Json r = p.ReadMessage(seconds(10));
  ASSERT_TRUE(r);
  EXPECT_NE(ErrorCode(r), 0);
  EXPECT_EQ(IdText(r), "null");
  ExpectAlive(p, "30");
  // Nested arrays and objects inside a request's params: answered, or refused with id null.
  p.Send(Req("31", "ping", "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}"));
  r = p.ReadMessage(seconds(10));
  ASSERT_TRUE(r);
  EXPECT_TRUE(IdText(r) == "31" || (IdText(r) == "null" && ErrorCode(r) != 0)) << IdText(r);
  ExpectAlive(p, "32");
  std::string objects;
  for (size_t i = 0; i < depth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(depth, '}');
  p.Send(CallReq("33", "list_repos", objects));
  r = p.ReadMessage(seconds(10));
  ASSERT_TRUE(r);
  EXPECT_TRUE(IdText(r) == "33" || (IdText(r) == "null" && ErrorCode(r) != 0)) << IdText(r);
  ExpectAlive(p, "34");
  // Unbalanced: it never closes.
  p.Send(std::string(depth, '['));
  r = p.ReadMessage(seconds(10));
  ASSERT_TRUE(r);
  EXPECT_EQ(IdText(r), "null");
  EXPECT_NE(ErrorCode(r), 0);
  ExpectAlive(p, "35");
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

// ---------------------------------------------------------------------------------------------
// stdout carries protocol only

TEST(StdioOutput, EveryLineOnStdoutIsAJsonObjectAndTheLogGoesToStderr) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  // A whole session, errors included, sent at once.
  const std::vector<std::string> session = {
      Req("1", "initialize",
          R"({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}})"),
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
      Req("2", "tools/list", "{}"),
      Req("3", "ping", "{}"),
      CallReq("4", "about", "{}"),
      CallReq("5", "list_repos", "{}"),
      CallReq("6", "list_files", R"({"repo":"shop","recursive":true})"),
      CallReq("7", "read_file", R"({"repo":"shop","path":"src/app.py"})"),
      CallReq("8", "read_file", R"({"repo":"shop","path":"no/such/file"})"),
      CallReq("9", "read_file", R"({"repo":"nope","path":"x"})"),
      CallReq("10", "list_refs", R"({"repo":"shop"})"),
      CallReq("11", "read_file", R"({"repo":"shop","path":"README.md","bogus":1})"),
      CallReq("12", "nope", "{}"),
      "{broken",
      Req("13", "unknown/method", "{}"),
      R"({"jsonrpc":"2.0","method":"notifications/unknown"})",
      R"({"jsonrpc":"2.0","id":99,"result":{}})",  // a response: nothing to answer
      Req("14", "ping", "{}"),
  };
  for (const auto& m : session) p.Send(m);
  p.CloseInput();
  std::vector<std::string> lines;
  while (auto line = p.ReadLine(seconds(20))) lines.push_back(*line);
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  std::set<std::string> ids;
  size_t null_ids = 0;
  for (const auto& line : lines) {
    Json m = ParseObject(line);
    ASSERT_TRUE(m) << "stdout carried a line that is not a JSON object: " << line.substr(0, 300);
    EXPECT_EQ(m->optValue<std::string>("jsonrpc", ""), "2.0") << line.substr(0, 300);
    const std::string id = IdText(m);
    if (id == "null") {
      ++null_ids;
    } else {
      EXPECT_TRUE(ids.insert(id).second) << "answered twice: " << id;
    }
  }
  EXPECT_EQ(ids.size(), 14u);  // every request, once
  EXPECT_EQ(null_ids, 1u);     // the parse error
  EXPECT_EQ(lines.size(), 15u);

  const std::string err = p.Stderr();
  EXPECT_NE(err.find("repo-reader " + std::string(kServerVersion) + ": serving"), std::string::npos)
      << "stderr: " << err;
  EXPECT_NE(err.find("over stdio"), std::string::npos) << "stderr: " << err;
}

// ---------------------------------------------------------------------------------------------
// concurrency and cancellation

TEST(StdioConcurrency, ASlowCallDoesNotHoldUpPing) {
  HugeRepo huge;
  McpProcess p = Start(huge.repo.path());
  p.Initialize();
  p.Send(CallReq("100", "list_files", kSlowArgs));
  p.Send(Req("101", "ping", "{}"));
  std::vector<Json> before;
  Json pong = AwaitId(p, "101", &before, seconds(10));
  ASSERT_TRUE(pong) << "ping was held up by the slow call";
  EXPECT_TRUE(pong->has("result"));
  for (const auto& m : before) {
    EXPECT_NE(IdText(m), "100") << "the slow call answered before ping";
  }
  // Another tool call is not held up either.
  p.Send(CallReq("102", "read_file", R"({"repo":"huge","path":"d00/d00/d00/f00"})"));
  std::vector<Json> others;
  Json read = AwaitId(p, "102", &others, seconds(10));
  ASSERT_TRUE(read) << "a quick call was held up by the slow call";
  ASSERT_TRUE(read->has("result"));
  EXPECT_EQ(read->getObject("result")->get("isError").toString(), "false");
  for (const auto& m : others) EXPECT_NE(IdText(m), "100") << "the slow call was not slow";

  p.Send(CancelNote("100"));
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioConcurrency, ManyCallsInFlightDoNotHoldUpPing) {
  HugeRepo huge;
  McpProcess p = Start(huge.repo.path());
  p.Initialize();
  // More slow calls than the server has workers: some wait in its queue.
  for (int i = 0; i < 20; ++i) p.Send(CallReq(std::to_string(200 + i), "list_files", kSlowArgs));
  p.Send(Req("300", "ping", "{}"));
  std::vector<Json> before;
  Json pong = AwaitId(p, "300", &before, seconds(10));
  ASSERT_TRUE(pong);
  EXPECT_TRUE(before.empty()) << "a slow call answered before ping";
  for (int i = 0; i < 20; ++i) p.Send(CancelNote(std::to_string(200 + i)));
  ExpectAlive(p, "301");
  p.CloseInput();
  std::vector<std::string> rest;
  while (auto line = p.ReadLine(seconds(15))) rest.push_back(*line);
  EXPECT_TRUE(rest.empty()) << "a cancelled call answered: " << rest.front().substr(0, 300);
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioCancellation, ACancelledCallNeverAnswers) {
  HugeRepo huge;
  McpProcess p = Start(huge.repo.path());
  p.Initialize();
  p.Send(CallReq("400", "list_files", kSlowArgs));
  p.Send(CallReq("\"slow-string-id\"", "list_files", kSlowArgs));
  p.Send(CancelNote("400"));
  p.Send(CancelNote("\"slow-string-id\""));
  // Nothing at all for a while (a bounded wait)...
  auto line = p.ReadLine(seconds(3));
  EXPECT_FALSE(line) << "unexpected message after cancellation: " << line->substr(0, 300);
  // ... then the server is alive, and the cancelled calls still have not answered.
  p.Send(Req("401", "ping", "{}"));
  std::vector<Json> before;
  ASSERT_TRUE(AwaitId(p, "401", &before));
  for (const auto& m : before) ADD_FAILURE() << "unexpected message: id " << IdText(m);
  // After end of input every call under way ends; still no answer for the cancelled ones.
  p.CloseInput();
  while (auto rest = p.ReadLine(seconds(15))) {
    ADD_FAILURE() << "a cancelled call answered: " << rest->substr(0, 300);
  }
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioCancellation, CancellingAnUnknownOrFinishedRequestIsHarmless) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.Send(CallReq("500", "list_repos", "{}"));
  ASSERT_TRUE(AwaitId(p, "500"));
  p.Send(CancelNote("500"));
  p.Send(CancelNote("12345"));
  p.Send(CancelNote("{\"x\":1}"));
  p.Send(R"({"jsonrpc":"2.0","method":"notifications/cancelled"})");
  p.Send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})");
  p.Send(Req("501", "ping", "{}"));
  std::vector<Json> before;
  ASSERT_TRUE(AwaitId(p, "501", &before));
  EXPECT_TRUE(before.empty()) << "a notification was answered: " << IdText(before.front());
}

// ---------------------------------------------------------------------------------------------
// ending

TEST(StdioExit, EndOfInputExitsWithStatusZero) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioExit, EndOfInputRightAwayExitsWithStatusZero) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  EXPECT_FALSE(p.ReadLine(seconds(1))) << "nothing should be written without a request";
}

TEST(StdioExit, EndOfInputAnswersWhatWasAskedFirst) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  p.Send(CallReq("600", "read_file", R"({"repo":"shop","path":"src/app.py"})"));
  p.CloseInput();
  Json r = AwaitId(p, "600");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has("result"));
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioExit, SigtermExitsWithStatusZeroPromptly) {
  ShopRepo shop;
  McpProcess p = Start(shop.repo.path());
  p.Initialize();
  ASSERT_EQ(kill(p.pid(), SIGTERM), 0);
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST(StdioExit, SigtermDuringASlowCallExitsWithStatusZeroPromptly) {
  HugeRepo huge;
  McpProcess p = Start(huge.repo.path());
  p.Initialize();
  p.Send(CallReq("700", "list_files", kSlowArgs));
  ExpectAlive(p, "701");  // the call is under way
  ASSERT_EQ(kill(p.pid(), SIGTERM), 0);
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

}  // namespace
}  // namespace stdio_protocol_test
}  // namespace rr::testing
