// End-to-end over Streamable HTTP: the real binary with --http (or an http: section), spoken
// to with real HTTP requests. Who may call (tokens, Host, Origin), both protocol eras on one
// endpoint, the 2026-07-28 header rules, per-token repository sets, limits, shutdown.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"

namespace rr::testing::http {
namespace {

using Json = Poco::JSON::Object::Ptr;

Json Parse(const std::string& text) {
  try {
    Poco::JSON::Parser parser;
    auto v = parser.parse(text);
    return v.type() == typeid(Json) ? v.extract<Json>() : nullptr;
  } catch (...) {
    return nullptr;
  }
}

int Code(const HttpReply& r) {
  auto m = Parse(r.body);
  return m && m->has("error") ? m->getObject("error")->getValue<int>("code") : 0;
}

std::string ToolText(const HttpReply& r) {
  auto m = Parse(r.body);
  if (!m || !m->has("result")) return "";
  return m->getObject("result")->getArray("content")->getObject(0)->getValue<std::string>("text");
}

// Two repositories and a configuration serving them; `http` is the http: section's body.
struct Served {
  TempDir tmp;
  TestRepo shop{tmp / "shop"};
  TestRepo web{tmp / "web"};
  std::string config;
  explicit Served(const std::string& http = "") {
    shop.Write("README.md", "# Shop\n");
    shop.Commit("shop");
    web.Write("index.html", "<p>web</p>\n");
    web.Commit("web");
    config = tmp / "config.yaml";
    std::ofstream(config) << "repos:\n  - name: shop\n    path: " << shop.path()
                          << "\n  - name: web\n    path: " << web.path() << "\n"
                          << (http.empty() ? "" : "http:\n" + http);
  }
};

std::string ModernCall(int id, const std::string& tool, const std::string& args) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
         ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args +
         "," + ModernMeta() + "}}";
}

HttpReply CallModern(int port, const std::string& tool, const std::string& args,
                     std::map<std::string, std::string> extra = {}) {
  auto h = ModernHeaders("tools/call", tool);
  for (auto& [k, v] : extra) h[k] = v;
  return HttpRequest(port, "POST", "/mcp", ModernCall(1, tool, args), h);
}

TEST(Http, BothErasAreServedOnOneEndpointWithoutASession) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  // 2025: initialize, then calls with the header; no session is minted.
  auto init = HttpRequest(p.port(), "POST", "/mcp",
                          R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{)"
                          R"("protocolVersion":"2025-11-25","capabilities":{},)"
                          R"("clientInfo":{"name":"t","version":"1"}}})");
  EXPECT_EQ(init.status, 200);
  EXPECT_EQ(init.headers.count("mcp-session-id"), 0u);
  EXPECT_EQ(Parse(init.body)->getObject("result")->getValue<std::string>("protocolVersion"),
            "2025-11-25");
  auto note = HttpRequest(p.port(), "POST", "/mcp",
                          R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                          {{"MCP-Protocol-Version", "2025-11-25"}});
  EXPECT_EQ(note.status, 202);
  EXPECT_TRUE(note.body.empty());
  auto legacy =
      HttpRequest(p.port(), "POST", "/mcp",
                  R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":)"
                  R"({"name":"read_file","arguments":{"repo":"shop","path":"README.md"}}})",
                  {{"MCP-Protocol-Version", "2025-11-25"}});
  EXPECT_EQ(legacy.status, 200);
  EXPECT_NE(ToolText(legacy).find("# Shop"), std::string::npos) << legacy.body;
  // 2026-07-28 on the same endpoint, no handshake.
  auto modern = CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})");
  EXPECT_EQ(modern.status, 200);
  EXPECT_EQ(modern.headers["content-type"], "application/json");
  EXPECT_NE(ToolText(modern).find("# Shop"), std::string::npos) << modern.body;
  EXPECT_EQ(Parse(modern.body)->getObject("result")->getValue<std::string>("resultType"),
            "complete");
  // An unsupported 2025-style header version is 400.
  auto bad =
      HttpRequest(p.port(), "POST", "/mcp", R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})",
                  {{"MCP-Protocol-Version", "1999-01-01"}});
  EXPECT_EQ(bad.status, 400);
}

TEST(Http, GetAndDeleteAre405AndUnknownPaths404) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  auto get = HttpRequest(p.port(), "GET", "/mcp", "", {{"Accept", "text/event-stream"}});
  EXPECT_EQ(get.status, 405);
  EXPECT_EQ(get.headers["allow"], "POST");
  EXPECT_EQ(HttpRequest(p.port(), "DELETE", "/mcp", "", {{"Mcp-Session-Id", "x"}}).status, 405);
  EXPECT_EQ(HttpRequest(p.port(), "GET", "/other").status, 404);
  auto health = HttpRequest(p.port(), "GET", "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  EXPECT_EQ(HttpRequest(p.port(), "GET", "/metrics").status, 404);  // off unless configured
}

TEST(Http, HeadersMustMatchTheBodyIn2026) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string list =
      "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{" + ModernMeta() + "}}";
  auto ok = HttpRequest(p.port(), "POST", "/mcp", list,
                        {{"mcp-protocol-version", "2026-07-28"}, {"MCP-METHOD", " tools/list "}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  auto r = HttpRequest(p.port(), "POST", "/mcp", list, ModernHeaders("prompts/list"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Code(r), -32020);
  EXPECT_EQ(Parse(r.body)->getValue<int>("id"), 5);
  r = HttpRequest(p.port(), "POST", "/mcp", list, {{"MCP-Protocol-Version", "2026-07-28"}});
  EXPECT_EQ(Code(r), -32020);
  r = HttpRequest(p.port(), "POST", "/mcp", list, ModernHeaders("TOOLS/LIST"));
  EXPECT_EQ(Code(r), -32020);
  r = CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})",
                 {{"Mcp-Name", "list_files"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Code(r), -32020);
  // Base64 form of the name is decoded before comparing.
  r = CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})",
                 {{"Mcp-Name", "=?base64?cmVhZF9maWxl?="}});
  EXPECT_EQ(r.status, 200) << r.body;
  auto missing = HttpRequest(p.port(), "POST", "/mcp", ModernCall(1, "read_file", "{}"),
                             ModernHeaders("tools/call"));
  EXPECT_EQ(Code(missing), -32020);
  // Unsupported version: 400 with the list.
  auto v = HttpRequest(p.port(), "POST", "/mcp",
                       R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{)"
                       R"("io.modelcontextprotocol/protocolVersion":"2099-01-01",)"
                       R"("io.modelcontextprotocol/clientCapabilities":{}}}})",
                       {{"MCP-Protocol-Version", "2099-01-01"}, {"Mcp-Method", "tools/list"}});
  EXPECT_EQ(v.status, 400);
  EXPECT_EQ(Code(v), -32022);
  // A header naming another version than the body is a mismatch, even when the body's version
  // is one this server does not speak.
  auto other = HttpRequest(p.port(), "POST", "/mcp",
                           R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)"
                           R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01",)"
                           R"("io.modelcontextprotocol/clientCapabilities":{}}}})",
                           ModernHeaders("server/discover"));
  EXPECT_EQ(other.status, 400);
  EXPECT_EQ(Code(other), -32020) << other.body;
  // Unknown method: 404 with -32601.
  auto unknown =
      HttpRequest(p.port(), "POST", "/mcp",
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{" +
                      ModernMeta() + "}}",
                  ModernHeaders("prompts/list"));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(Code(unknown), -32601);
}

TEST(Http, OnLoopbackWithoutATokenOnlyItsOwnNamesAndOriginsAreAnswered) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string port = std::to_string(p.port());
  const std::string body = ModernCall(1, "read_file", R"({"repo":"shop","path":"README.md"})");
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
    auto h = ModernHeaders("tools/call", "read_file");
    h["Host"] = host;
    EXPECT_EQ(HttpRequest(p.port(), "POST", "/mcp", body, h).status, 200) << host;
  }
  // A name that resolves here (DNS rebinding), another loopback address, no port: refused.
  for (const std::string& host :
       std::vector<std::string>{"evil.example.com:" + port, "evil.example.com", "127.0.0.2:" + port,
                                "127.0.0.1", "localhost:1"}) {
    auto h = ModernHeaders("tools/call", "read_file");
    h["Host"] = host;
    auto r = HttpRequest(p.port(), "POST", "/mcp", body, h);
    EXPECT_EQ(r.status, 403) << host;
    EXPECT_EQ(ToolText(r), "") << host;
  }
  auto h = ModernHeaders("tools/call", "read_file");
  h["Origin"] = "http://evil.example.com";
  EXPECT_EQ(HttpRequest(p.port(), "POST", "/mcp", body, h).status, 403);
  h["Origin"] = "http://localhost:" + port;
  EXPECT_EQ(HttpRequest(p.port(), "POST", "/mcp", body, h).status, 200);
}

// Requests one after another on one kept-alive connection: the status of each (0 when no answer
// came).
std::vector<int> OnOneConnection(int port,
                                 const std::vector<std::map<std::string, std::string>>& headers,
                                 const std::string& body) {
  std::vector<int> statuses;
  Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
  session.setKeepAlive(true);
  session.setTimeout(Poco::Timespan(10, 0));
  for (const auto& h : headers) {
    try {
      Poco::Net::HTTPRequest req("POST", "/mcp", Poco::Net::HTTPMessage::HTTP_1_1);
      req.setKeepAlive(true);
      for (const auto& [k, v] : h) {
        if (k == "Host") {
          req.setHost(v);
        } else {
          req.set(k, v);
        }
      }
      req.setContentType("application/json");
      req.set("Accept", "application/json, text/event-stream");
      req.setContentLength(static_cast<std::streamsize>(body.size()));
      session.sendRequest(req) << body;
      Poco::Net::HTTPResponse res;
      std::istream& in = session.receiveResponse(res);
      std::string ignored(std::istreambuf_iterator<char>(in), {});
      statuses.push_back(res.getStatus());
      // A connection the server keeps: the next request goes on it.
      EXPECT_TRUE(res.getKeepAlive()) << res.getStatus();
    } catch (const std::exception&) {
      statuses.push_back(0);
    }
  }
  return statuses;
}

TEST(Http, ARefusedRequestsBodyIsNotReadAsTheNextRequestOnItsConnection) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string body = ModernCall(1, "read_file", R"({"repo":"shop","path":"README.md"})");
  auto good = ModernHeaders("tools/call", "read_file");
  good["Host"] = "127.0.0.1:" + std::to_string(p.port());
  auto foreign = good;
  foreign["Host"] = "evil.example.com";
  EXPECT_EQ(OnOneConnection(p.port(), {foreign, good, foreign, good}, body),
            (std::vector<int>{403, 200, 403, 200}));

  Served t("  token_env: RR_TOKEN\n");
  HttpServerProcess q({RR_BINARY, "--config", t.config, "--http", "127.0.0.1:0"}, t.tmp.path(),
                      {{"RR_TOKEN", "the-token"}});
  ASSERT_TRUE(q.ok()) << q.Stderr();
  auto with = ModernHeaders("tools/call", "read_file");
  with["Authorization"] = "Bearer the-token";
  EXPECT_EQ(OnOneConnection(q.port(), {ModernHeaders("tools/call", "read_file"), with}, body),
            (std::vector<int>{401, 200}));
}

TEST(Http, WithATokenEveryOtherRequestGets401AndNothingElse) {
  Served s("  token_env: RR_TOKEN\n");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path(),
                      {{"RR_TOKEN", "s3cret-token-value"}});
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string body = ModernCall(1, "read_file", R"({"repo":"shop","path":"README.md"})");
  std::string first_body;
  for (const std::string& auth : std::vector<std::string>{
           "", "Bearer wrong-7f3a9c", "Bearer s3cret-token-valu", "Bearer s3cret-token-value2",
           "Basic s3cret-token-value", "Bearer \"},\"injected\":{\"x\":\"y"}) {
    auto h = ModernHeaders("tools/call", "read_file");
    if (!auth.empty()) h["Authorization"] = auth;
    auto r = HttpRequest(p.port(), "POST", "/mcp", body, h);
    EXPECT_EQ(r.status, 401) << auth;
    // RFC 6750: the Bearer challenge; invalid_token when something was sent.
    EXPECT_EQ(r.headers["www-authenticate"],
              auth.empty() ? "Bearer" : "Bearer error=\"invalid_token\"")
        << auth;
    EXPECT_EQ(r.headers["content-type"], "application/json") << auth;
    // The body says, in JSON, what to send: the header and the scheme.
    auto m = Parse(r.body);
    ASSERT_TRUE(m && m->has("error")) << auth << ": " << r.body;
    auto error = m->getObject("error");
    EXPECT_EQ(error->getValue<int>("code"), -32600) << r.body;
    EXPECT_NE(error->getValue<std::string>("message").find("Authorization: Bearer <token>"),
              std::string::npos)
        << r.body;
    ASSERT_TRUE(error->has("data")) << r.body;
    EXPECT_EQ(error->getObject("data")->getValue<std::string>("header"), "Authorization");
    EXPECT_EQ(error->getObject("data")->getValue<std::string>("scheme"), "Bearer");
    EXPECT_FALSE(m->has("injected")) << r.body;
    // Never a word of what was sent, nor of the token it should have been.
    const std::string sent = auth.substr(auth.find(' ') + 1);
    if (!auth.empty()) {
      EXPECT_EQ(r.body.find(sent), std::string::npos) << r.body;
    }
    EXPECT_EQ(r.body.find("s3cret"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("shop"), std::string::npos) << r.body;
    if (auth.empty()) first_body = r.body;
  }
  // Every path answers the same 401: nothing tells one from another, or /metrics' existence.
  for (const char* path : {"/healthz", "/mcp", "/metrics", "/nowhere"}) {
    auto r = HttpRequest(p.port(), "GET", path);
    EXPECT_EQ(r.status, 401) << path;
    EXPECT_EQ(r.body, first_body) << path;
  }
  auto h = ModernHeaders("tools/call", "read_file");
  h["Authorization"] = "Bearer s3cret-token-value";
  auto r = HttpRequest(p.port(), "POST", "/mcp", body, h);
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(ToolText(r).find("# Shop"), std::string::npos);
  // The access log never holds the token, nor any token sent.
  p.Terminate();
  EXPECT_EQ(p.Wait(), 0);
  EXPECT_EQ(p.Stderr().find("s3cret-token-value"), std::string::npos) << p.Stderr();
  EXPECT_EQ(p.Stderr().find("s3cret-token-valu"), std::string::npos) << p.Stderr();
  EXPECT_EQ(p.Stderr().find("wrong-7f3a9c"), std::string::npos) << p.Stderr();
  EXPECT_EQ(p.Stderr().find("injected"), std::string::npos) << p.Stderr();
  EXPECT_NE(p.Stderr().find("http: POST /mcp 401"), std::string::npos) << p.Stderr();
  EXPECT_NE(p.Stderr().find("http: POST /mcp 200 tools/call read_file repo=shop ok"),
            std::string::npos)
      << p.Stderr();
}

TEST(Http, ATokensRepositorySetIsAllItsBearerSees) {
  Served s(
      "  tokens:\n    - token_env: SHOP_TOKEN\n      repos: [shop]\n"
      "    - token_env: ALL_TOKEN\n      repos: [\"*\"]\n");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path(),
                      {{"SHOP_TOKEN", "token-for-shop"}, {"ALL_TOKEN", "token-for-all"}});
  ASSERT_TRUE(p.ok()) << p.Stderr();
  auto as = [&](const std::string& token, const std::string& tool, const std::string& args) {
    return CallModern(p.port(), tool, args, {{"Authorization", "Bearer " + token}});
  };
  const std::string shop_sees = ToolText(as("token-for-shop", "list_repos", "{}"));
  EXPECT_NE(shop_sees.find("shop"), std::string::npos) << shop_sees;
  EXPECT_EQ(shop_sees.find("web"), std::string::npos) << shop_sees;
  auto denied = as("token-for-shop", "read_file", R"({"repo":"web","path":"index.html"})");
  EXPECT_EQ(ToolText(denied).find("<p>web</p>"), std::string::npos) << denied.body;
  EXPECT_NE(ToolText(denied).find("web"), std::string::npos);  // answered as an unknown one
  auto allowed = as("token-for-all", "read_file", R"({"repo":"web","path":"index.html"})");
  EXPECT_NE(ToolText(allowed).find("<p>web</p>"), std::string::npos) << allowed.body;
}

TEST(Http, AnAddressOtherThanLoopbackNeedsATokenOrAGateway) {
  Served s;
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "0.0.0.0:0"}, s.tmp.path());
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.Wait(), 1);
  EXPECT_NE(p.Stderr().find("not started"), std::string::npos) << p.Stderr();
  HttpServerProcess q({RR_BINARY, "--config", s.config, "--http", "127.0.0.2:0"}, s.tmp.path());
  EXPECT_FALSE(q.ok());
  Served g("  behind_gateway: true\n");
  HttpServerProcess r({RR_BINARY, "--config", g.config, "--http", "127.0.0.2:0"}, g.tmp.path());
  EXPECT_TRUE(r.ok()) << r.Stderr();
}

TEST(Http, ABodyPastTheLimitIs413) {
  Served s("  max_body_bytes: 2048\n");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string big =
      ModernCall(1, "read_file", "{\"path\":\"" + std::string(4000, 'a') + "\"}");
  const HttpReply refused =
      HttpRequest(p.port(), "POST", "/mcp", big, ModernHeaders("tools/call", "read_file"));
  EXPECT_EQ(refused.status, 413);
  // Answered with the request's id, read from the body's first bytes: no client waits on it.
  const Json error = Parse(refused.body);
  ASSERT_TRUE(error) << refused.body;
  EXPECT_EQ(error->getValue<int>("id"), 1) << refused.body;
  EXPECT_NE(refused.body.find("larger than 2,048 bytes"), std::string::npos) << refused.body;
  EXPECT_EQ(CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})").status, 200);
}

// A repository whose recursive listing takes until its time limit (100^4 files, few objects).
void Huge(TestRepo& repo) {
  const std::string blob = repo.Blob("x\n");
  std::vector<TestRepo::RawEntry> files;
  for (int i = 0; i < 100; ++i) files.push_back({"100644", "f" + std::to_string(i), blob});
  std::string tree = repo.RawTree(files);
  for (int level = 0; level < 3; ++level) {
    std::vector<TestRepo::RawEntry> dirs;
    for (int i = 0; i < 100; ++i) dirs.push_back({"40000", "d" + std::to_string(i), tree});
    tree = repo.RawTree(dirs);
  }
  repo.Git({"update-ref", "refs/heads/main", repo.CommitTree(tree, "huge")});
}

TEST(Http, PastTheCallLimit503WithRetryAfterAndSigtermLetsCallsFinish) {
  TempDir tmp;
  TestRepo huge(tmp / "huge");
  Huge(huge);
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "repos:\n  - name: huge\n    path: " << huge.path()
                        << "\nhttp:\n  max_calls: 1\n  call_seconds: 2\n";
  HttpServerProcess p({RR_BINARY, "--config", config, "--http", "127.0.0.1:0"}, tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  // The slow call retries until it is the one running; then the probe is refused.
  HttpReply slow;
  std::thread t([&] {
    do {
      slow = CallModern(p.port(), "list_files", R"({"repo":"huge","recursive":true})");
    } while (slow.status == 503);
  });
  HttpReply busy;
  do {
    busy = CallModern(p.port(), "list_repos", "{}");
  } while (busy.status == 200);
  EXPECT_EQ(busy.status, 503) << busy.body << "\nthe server's log:\n" << p.Stderr();
  EXPECT_EQ(busy.headers["retry-after"], "1");
  p.Terminate();
  t.join();
  // The call in flight was answered (stopped at its time limit), and then the server exited.
  EXPECT_EQ(slow.status, 200);
  EXPECT_NE(ToolText(slow).find("time limit"), std::string::npos) << slow.body;
  EXPECT_EQ(p.Wait(), 0) << "the server's log:\n" << p.Stderr();
}

TEST(Http, ACallWithAProgressTokenIsAnsweredAsAnEventStream) {
  TempDir tmp;
  TestRepo huge(tmp / "huge");
  Huge(huge);
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "repos:\n  - name: huge\n    path: " << huge.path()
                        << "\nhttp:\n  call_seconds: 1\n";
  HttpServerProcess p({RR_BINARY, "--config", config, "--http", "127.0.0.1:0"}, tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  const std::string body =
      R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_files",)"
      R"("arguments":{"repo":"huge","recursive":true},"_meta":{"progressToken":"t9",)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
  auto r = HttpRequest(p.port(), "POST", "/mcp", body, ModernHeaders("tools/call", "list_files"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-type"], "text/event-stream");
  EXPECT_NE(r.body.find("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                        "progress\",\"params\":{\"progressToken\":\"t9\""),
            std::string::npos)
      << r.body.substr(0, 500);
  // The response is the last event.
  const size_t last = r.body.rfind("data: ");
  auto final = Parse(r.body.substr(last + 6));
  ASSERT_TRUE(final) << r.body.substr(last);
  EXPECT_EQ(final->getValue<int>("id"), 9);
}

TEST(Http, MetricsWhenConfiguredCountCallsByToolAndOutcome) {
  Served s("  metrics: true\n");
  // A file longer than an answer, and one holding a token the secret filter hides.
  std::string big;
  for (int i = 0; i < 2000; ++i) big += "line " + std::to_string(i) + " of a long file\n";
  s.shop.Write("big.txt", big);
  s.shop.Write("key.txt", "token = ghp_" + Chars(36, kBase62, 7) + "\n");
  s.shop.Commit("more");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})");
  CallModern(p.port(), "read_file", R"({"repo":"shop","path":"missing"})");
  auto before = HttpRequest(p.port(), "GET", "/metrics");
  EXPECT_NE(before.body.find("rr_answers_cut_total 0\n"), std::string::npos) << before.body;
  EXPECT_NE(before.body.find("rr_secrets_hidden_total 0\n"), std::string::npos);
  auto cut = CallModern(p.port(), "read_file", R"({"repo":"shop","path":"big.txt"})");
  EXPECT_NE(cut.body.find("not shown"), std::string::npos) << cut.body;
  auto key = CallModern(p.port(), "read_file", R"({"repo":"shop","path":"key.txt"})");
  EXPECT_NE(key.body.find("[hidden: "), std::string::npos) << key.body;
  auto m = HttpRequest(p.port(), "GET", "/metrics");
  EXPECT_NE(m.body.find("rr_answers_total 4\n"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("rr_answers_cut_total 1\n"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("rr_secrets_hidden_total 1\n"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("rr_answers_withheld_total 0\n"), std::string::npos) << m.body;
  EXPECT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("rr_tool_calls_total{tool=\"read_file\",outcome=\"ok\"} 3"),
            std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find("rr_tool_calls_total{tool=\"read_file\",outcome=\"tool error\"} 1"),
            std::string::npos);
  EXPECT_NE(m.body.find("rr_tool_call_seconds_count{tool=\"read_file\"} 4"), std::string::npos);
  EXPECT_EQ(m.body.find("shop"), std::string::npos);  // nothing about repositories by name
}

// /metrics' lines with their values left out: what makes its size.
std::vector<std::string> MetricsSeries(const std::string& text) {
  std::vector<std::string> series;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    series.push_back(line.substr(0, line.rfind(' ')));
    at = end + 1;
  }
  return series;
}

// By attack: each made-up tool name was a label of its own (sixteen lines each), so any caller
// could grow /metrics without bound. Now every name the server does not have is "(unknown)".
TEST(Http, MetricsStayTheSameSizeHoweverManyUnknownNamesAreCalled) {
  Served s("  metrics: true\n");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();
  auto unknown = [&](const std::string& name) {
    return HttpRequest(p.port(), "POST", "/mcp", ModernCall(1, name, "{}"),
                       ModernHeaders("tools/call", name));
  };
  auto unknown_method = [&](const std::string& method) {
    return HttpRequest(p.port(), "POST", "/mcp",
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":{" +
                           ModernMeta() + "}}",
                       ModernHeaders(method));
  };
  // Every kind of answer once, so that each series that can appear has.
  CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})");
  CallModern(p.port(), "read_file", R"({"repo":"shop","path":"missing"})");
  EXPECT_NE(unknown("made_up_0").body.find("unknown tool"), std::string::npos);
  unknown_method("made/up/0");
  const auto before = HttpRequest(p.port(), "GET", "/metrics");
  ASSERT_EQ(before.status, 200);
  for (int i = 1; i <= 500; ++i) {
    const std::string name =
        i % 50 == 0 ? "we}ird,le=x<" + std::to_string(i) + ">" : "made_up_" + std::to_string(i);
    const auto r = unknown(name);
    ASSERT_EQ(r.status, 200) << r.body;  // 2026-07-28: an unknown tool is a -32602 error, 200
    if (i % 5 == 0) unknown_method("made/up/" + std::to_string(i));
  }
  const auto after = HttpRequest(p.port(), "GET", "/metrics");
  ASSERT_EQ(after.status, 200);
  EXPECT_EQ(MetricsSeries(after.body), MetricsSeries(before.body)) << after.body;
  EXPECT_LT(after.body.size(), before.body.size() + 256) << after.body;
  EXPECT_EQ(after.body.find("made_up"), std::string::npos) << after.body;
  EXPECT_EQ(after.body.find("made/up"), std::string::npos) << after.body;
  EXPECT_EQ(after.body.find("ird"), std::string::npos) << after.body;
  EXPECT_NE(after.body.find("rr_tool_calls_total{tool=\"(unknown)\",outcome=\"error -32602\"} 501"),
            std::string::npos)
      << after.body;
  EXPECT_NE(after.body.find("rr_tool_call_seconds_count{tool=\"(unknown)\"} 501"),
            std::string::npos);
  EXPECT_NE(after.body.find("rr_tool_calls_total{tool=\"read_file\",outcome=\"ok\"} 1"),
            std::string::npos);
}

// By attack: /metrics tells every token's calls and counts every repository, so a caller's
// token must not read it, and its own token must open nothing else.
TEST(Http, MetricsAreReadWithTheirOwnTokenAndNoCallersToken) {
  Served s(
      "  token_env: RR_TOKEN\n"
      "  tokens:\n    - token_env: SHOP_TOKEN\n      repos: [shop]\n"
      "  metrics:\n    token_env: RR_METRICS_TOKEN\n");
  HttpServerProcess p({RR_BINARY, "--config", s.config, "--http", "127.0.0.1:0"}, s.tmp.path(),
                      {{"RR_TOKEN", "token-for-all-5b1"},
                       {"SHOP_TOKEN", "token-for-shop-0c4"},
                       {"RR_METRICS_TOKEN", "token-for-metrics-9e2"}});
  ASSERT_TRUE(p.ok()) << p.Stderr();
  auto bearer = [](const std::string& t) {
    return std::map<std::string, std::string>{{"Authorization", "Bearer " + t}};
  };
  EXPECT_EQ(CallModern(p.port(), "read_file", R"({"repo":"shop","path":"README.md"})",
                       bearer("token-for-shop-0c4"))
                .status,
            200);
  // A caller's token, either one: 403, and no metrics.
  for (const char* caller : {"token-for-all-5b1", "token-for-shop-0c4"}) {
    auto r = HttpRequest(p.port(), "GET", "/metrics", "", bearer(caller));
    EXPECT_EQ(r.status, 403) << caller;
    EXPECT_EQ(r.headers["www-authenticate"], "Bearer error=\"insufficient_scope\"");
    EXPECT_EQ(r.body.find("rr_"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find(caller), std::string::npos) << r.body;
  }
  // No token, a wrong one: 401.
  for (const std::string& t : {std::string(), std::string("token-for-metrics-9e"),
                               std::string("token-for-metrics-9e2x")}) {
    auto r = HttpRequest(p.port(), "GET", "/metrics", "",
                         t.empty() ? std::map<std::string, std::string>{} : bearer(t));
    EXPECT_EQ(r.status, 401) << t;
    EXPECT_EQ(r.body.find("rr_"), std::string::npos) << r.body;
  }
  // The metrics token: the metrics.
  auto m = HttpRequest(p.port(), "GET", "/metrics", "", bearer("token-for-metrics-9e2"));
  EXPECT_EQ(m.status, 200) << m.body;
  EXPECT_NE(m.body.find("rr_tool_calls_total{tool=\"read_file\",outcome=\"ok\"} 1"),
            std::string::npos)
      << m.body;
  // ... and nothing else: no call, no health, no listing.
  for (const std::string tool : {"read_file", "list_repos"}) {
    auto r = CallModern(p.port(), tool, R"({"repo":"shop","path":"README.md"})",
                        bearer("token-for-metrics-9e2"));
    EXPECT_EQ(r.status, 401) << tool << ": " << r.body;
    EXPECT_EQ(r.body.find("Shop"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("shop"), std::string::npos) << r.body;
  }
  EXPECT_EQ(HttpRequest(p.port(), "GET", "/healthz", "", bearer("token-for-metrics-9e2")).status,
            401);
  p.Terminate();
  EXPECT_EQ(p.Wait(), 0);
  for (const char* t : {"token-for-all", "token-for-shop", "token-for-metrics"}) {
    EXPECT_EQ(p.Stderr().find(t), std::string::npos) << p.Stderr();
  }
  // One POST ran a tool; the three the metrics token tried were refused before anything ran.
  EXPECT_NE(p.Stderr().find("http: POST /mcp 200 tools/call read_file"), std::string::npos);
  EXPECT_EQ(p.Stderr().find("list_repos"), std::string::npos) << p.Stderr();
}

// /metrics' token may not be a caller's: the same value, or `metrics: true` beside callers'
// tokens, and the server does not start, saying why and never the value.
TEST(Http, AMetricsTokenSharedWithCallersIsRefusedAtStart) {
  Served same("  token_env: RR_TOKEN\n  metrics: {token_env: RR_METRICS_TOKEN}\n");
  HttpServerProcess p({RR_BINARY, "--config", same.config, "--http", "127.0.0.1:0"},
                      same.tmp.path(),
                      {{"RR_TOKEN", "one-token-3d8"}, {"RR_METRICS_TOKEN", "one-token-3d8"}});
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.Wait(), 1);
  EXPECT_NE(p.Stderr().find("$RR_METRICS_TOKEN (http metrics token_env) holds the same token as "
                            "$RR_TOKEN"),
            std::string::npos)
      << p.Stderr();
  EXPECT_EQ(p.Stderr().find("one-token-3d8"), std::string::npos) << p.Stderr();

  Served open("  token_env: RR_TOKEN\n  metrics: true\n");
  HttpServerProcess q({RR_BINARY, "--config", open.config, "--http", "127.0.0.1:0"},
                      open.tmp.path(), {{"RR_TOKEN", "one-token-3d8"}});
  EXPECT_FALSE(q.ok());
  EXPECT_EQ(q.Wait(), 1);
  EXPECT_NE(q.Stderr().find("give /metrics a token of its own"), std::string::npos) << q.Stderr();

  Served unset("  token_env: RR_TOKEN\n  metrics: {token_env: RR_METRICS_TOKEN}\n");
  HttpServerProcess r({RR_BINARY, "--config", unset.config, "--http", "127.0.0.1:0"},
                      unset.tmp.path(), {{"RR_TOKEN", "one-token-3d8"}});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.Wait(), 1);
  EXPECT_NE(r.Stderr().find("RR_METRICS_TOKEN (http metrics token_env) is not set"),
            std::string::npos)
      << r.Stderr();
}

}  // namespace
}  // namespace rr::testing::http
