// McpServer in-process, spoken to through a Caller as the transports speak to it: each message
// carries its own reply sink and the caller's catalog. Numbers past 64 bits, capped echoes,
// progress notifications.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/mcp/server.h"
#include "core/tools/about.h"
#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace server_messages_test {
namespace {

using Json = Poco::JSON::Object::Ptr;

Json Parse(const std::string& text) {
  Poco::JSON::Parser parser;
  return parser.parse(text).extract<Json>();
}

std::shared_ptr<const Catalog> CatalogOf(std::vector<RepoConfig> repos) {
  Config config;
  config.source = "test";
  config.repos = std::move(repos);
  auto catalog = BuildCatalog(config);
  if (!catalog) throw std::runtime_error(catalog.error());
  return catalog.take();
}

// A server whose every message is answered on the calling thread, collected in order.
struct Server {
  std::unique_ptr<McpServer> server;
  std::mutex mu;
  std::vector<McpServer::Outgoing> sent;

  explicit Server(std::shared_ptr<const Catalog> catalog,
                  McpServer::Options options = McpServer::Options{}) {
    options.facts = FactsOf(BuiltinPlugins());
    server = std::make_unique<McpServer>(std::move(catalog),
                                         AnswerPipeline(40000, {}, BuiltinPlugins().secrets),
                                         nullptr, BuiltinTools(), options);
  }

  // Every message sent in answer to `message`, the response last.
  std::vector<McpServer::Outgoing> Send(const std::string& message,
                                        std::shared_ptr<const Catalog> catalog = nullptr,
                                        McpServer::Record* record = nullptr) {
    std::vector<McpServer::Outgoing> out;
    McpServer::Caller caller;
    caller.wait = true;
    caller.catalog = std::move(catalog);
    caller.record = record;
    caller.reply = [&out](const McpServer::Outgoing& o) { out.push_back(o); };
    server->Handle(message, caller);
    return out;
  }

  Json Response(const std::string& message, std::shared_ptr<const Catalog> catalog = nullptr) {
    auto out = Send(message, std::move(catalog));
    if (out.empty()) {
      ADD_FAILURE() << "no answer to " << message.substr(0, 200);
      return nullptr;
    }
    EXPECT_TRUE(out.back().final);
    return Parse(out.back().json);
  }
};

std::string ToolText(const Json& response) {
  return response->getObject("result")->getArray("content")->getObject(0)->getValue<std::string>(
      "text");
}

struct Shop {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  Shop() {
    std::string lines;
    for (int i = 1; i <= 5; ++i) lines += "line " + std::to_string(i) + "\n";
    repo.Write("notes.txt", lines);
    repo.Commit("Add notes");
  }
};

TEST(JsonNumbers, IntegerLiteralsPast64BitsAreWrittenAsDecimalsAndOthersLeftAlone) {
  EXPECT_FALSE(HugeIntegersAsDecimals(R"({"id":18446744073709551615,"x":-9223372036854775808})"));
  EXPECT_FALSE(HugeIntegersAsDecimals(R"({"a":"18446744073709551617","b":1.5e300})"));
  EXPECT_EQ(*HugeIntegersAsDecimals(R"({"id":18446744073709551616})"),
            R"({"id":18446744073709551616.0})");
  EXPECT_EQ(*HugeIntegersAsDecimals(R"([-9223372036854775809,"\"1",99999999999999999999999])"),
            R"([-9223372036854775809.0,"\"1",99999999999999999999999.0])");
}

TEST(ServerMessages, AnIdPast64BitsIsAParseErrorNeverAnotherId) {
  Shop shop;
  Server s(CatalogOf({Served("shop", shop.repo.path())}));
  // Read naively, 2^64 + 1 wraps to 1: the answer would name another request.
  auto r = s.Response(R"({"jsonrpc":"2.0","id":18446744073709551617,"method":"ping"})");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->get("id").isEmpty());
  EXPECT_EQ(r->getObject("error")->getValue<int>("code"), -32700);
  EXPECT_NE(r->getObject("error")->getValue<std::string>("message").find("`id`"),
            std::string::npos);
  // A large id that fits is answered as sent.
  r = s.Response(R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get("id").convert<std::string>(), "9223372036854775807");
}

TEST(ServerMessages, AnArgumentPast64BitsIsAnErrorNamingIt) {
  Shop shop;
  Server s(CatalogOf({Served("shop", shop.repo.path())}));
  auto r = s.Response(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file",)"
      R"("arguments":{"repo":"shop","path":"notes.txt","start_line":18446744073709551617}}})");
  ASSERT_TRUE(r);
  const std::string text = ToolText(r);
  EXPECT_TRUE(r->getObject("result")->getValue<bool>("isError")) << text;
  EXPECT_NE(text.find("`start_line`"), std::string::npos) << text;
  EXPECT_EQ(text.find("line 1"), std::string::npos) << text;
}

TEST(ServerMessages, MethodNotFoundRepeatsOnlyTheStartOfALongName) {
  Shop shop;
  Server s(CatalogOf({Served("shop", shop.repo.path())}));
  const std::string name(100000, 'm');
  auto out = s.Send(R"({"jsonrpc":"2.0","id":1,"method":")" + name + R"("})");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LT(out[0].json.size(), 1000u);
  auto r = Parse(out[0].json);
  EXPECT_EQ(r->getObject("error")->getValue<int>("code"), -32601);
  EXPECT_NE(r->getObject("error")->getValue<std::string>("message").find(std::string(100, 'm')),
            std::string::npos);
}

TEST(ServerMessages, AnUnknownToolNameIsCappedToo) {
  Shop shop;
  Server s(CatalogOf({Served("shop", shop.repo.path())}));
  const std::string name(50000, 't');
  auto out = s.Send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + name +
                    R"("}})");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LT(out[0].json.size(), 2000u);
}

TEST(ServerMessages, EachCallerReadsItsOwnCatalog) {
  Shop shop;
  TempDir tmp;
  TestRepo other(tmp / "other");
  other.Write("a.txt", "a\n");
  other.Commit("a");
  Server s(CatalogOf({Served("shop", shop.repo.path()), Served("other", other.path())}));
  const std::string list =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos"}})";
  const std::string all = ToolText(s.Response(list));
  EXPECT_NE(all.find("shop"), std::string::npos) << all;
  EXPECT_NE(all.find("other"), std::string::npos) << all;
  auto only_other = CatalogOf({Served("other", other.path())});
  const std::string mine = ToolText(s.Response(list, only_other));
  EXPECT_EQ(mine.find("shop"), std::string::npos) << mine;
  EXPECT_NE(mine.find("other"), std::string::npos) << mine;
  auto r =
      s.Response(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file",)"
                 R"("arguments":{"repo":"shop","path":"notes.txt"}}})",
                 only_other);
  EXPECT_TRUE(r->getObject("result")->getValue<bool>("isError"));
  EXPECT_EQ(ToolText(r).find("line 1"), std::string::npos);
}

TEST(ServerMessages, TheRecordNamesToolRepositoryAndOutcome) {
  Shop shop;
  Server s(CatalogOf({Served("shop", shop.repo.path())}));
  McpServer::Record rec;
  s.Send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file",)"
         R"("arguments":{"repo":"shop","path":"notes.txt"}}})",
         nullptr, &rec);
  EXPECT_EQ(rec.method, "tools/call");
  EXPECT_EQ(rec.tool, "read_file");
  EXPECT_EQ(rec.repo, "shop");
  EXPECT_EQ(rec.outcome, "ok");
  EXPECT_GT(rec.answer_bytes, 0u);
  McpServer::Record bad;
  s.Send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file",)"
         R"("arguments":{"repo":"shop","path":"missing.txt"}}})",
         nullptr, &bad);
  EXPECT_EQ(bad.outcome, "tool error");
}

// A tree of `n` files in folders of 100.
void ManyFiles(TestRepo& repo, int n) {
  const std::string blob = repo.Blob("x\n");
  std::vector<TestRepo::RawEntry> folders;
  for (int d = 0; d < n / 100; ++d) {
    std::vector<TestRepo::RawEntry> files;
    for (int f = 0; f < 100; ++f) files.push_back({"100644", "f" + std::to_string(f), blob});
    folders.push_back({"40000", "d" + std::to_string(d), repo.RawTree(files)});
  }
  const std::string commit = repo.CommitTree(repo.RawTree(folders), "Many files");
  repo.Git({"update-ref", "refs/heads/main", commit});
}

// Every notifications/progress among `out` (the response last), checked as any must be: for the
// token, without an id, each with more done than the last. Returns their params.
std::vector<Json> ProgressOf(const std::vector<McpServer::Outgoing>& out,
                             const std::string& token) {
  std::vector<Json> params;
  double last = 0;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    EXPECT_FALSE(out[i].final);
    auto n = Parse(out[i].json);
    EXPECT_EQ(n->getValue<std::string>("method"), "notifications/progress");
    EXPECT_FALSE(n->has("id"));
    auto p = n->getObject("params");
    EXPECT_EQ(p->getValue<std::string>("progressToken"), token);
    const double progress = p->getValue<double>("progress");
    EXPECT_GT(progress, last);
    last = progress;
    if (p->has("total")) {
      EXPECT_LE(progress, p->getValue<double>("total"));
    }
    params.push_back(p);
  }
  if (!out.empty()) {
    EXPECT_TRUE(out.back().final);
  }
  return params;
}

TEST(ServerProgress, ARecursiveListingSendsProgressWithTheClientsToken) {
  TempDir tmp;
  TestRepo repo(tmp / "big");
  ManyFiles(repo, 20000);
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  Server s(CatalogOf({Served("big", repo.path())}), options);
  auto out =
      s.Send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_files",)"
             R"("arguments":{"repo":"big","recursive":true},"_meta":{"progressToken":"tok-1"}}})");
  ASSERT_GE(out.size(), 2u);
  const auto params = ProgressOf(out, "tok-1");  // each more than the last, the answer last
  EXPECT_EQ(Parse(out.back().json)->getValue<int>("id"), 7);
  EXPECT_LE(params.back()->getValue<uint64_t>("progress"), 20000u);

  // Without a token, only the answer.
  auto quiet =
      s.Send(R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_files",)"
             R"("arguments":{"repo":"big","recursive":true}}})");
  ASSERT_EQ(quiet.size(), 1u);
  EXPECT_TRUE(quiet[0].final);
}

TEST(ServerProgress, AnIntegerTokenIsEchoedAsAnInteger) {
  TempDir tmp;
  TestRepo repo(tmp / "big");
  ManyFiles(repo, 5000);
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  Server s(CatalogOf({Served("big", repo.path())}), options);
  auto out =
      s.Send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_files",)"
             R"("arguments":{"repo":"big","recursive":true},"_meta":{"progressToken":42}}})");
  ASSERT_GE(out.size(), 2u);
  auto p = Parse(out[0].json)->getObject("params");
  EXPECT_TRUE(p->get("progressToken").isInteger());
  EXPECT_EQ(p->getValue<int>("progressToken"), 42);
}

std::string ToolCall(int id, const std::string& tool, const std::string& arguments,
                     const std::string& token) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments +
         R"(,"_meta":{"progressToken":")" + token + R"("}}})";
}

TEST(ServerProgress, GrepSaysHowManyFilesAreSearchedOfHowMany) {
  TempDir tmp;
  TestRepo repo(tmp / "big");
  ManyFiles(repo, 5000);
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  Server s(CatalogOf({Served("big", repo.path())}), options);
  auto params = ProgressOf(
      s.Send(ToolCall(3, "grep", R"({"repo":"big","pattern":"no such text"})", "g")), "g");
  ASSERT_GE(params.size(), 2u);
  // The files are searched as the tree is walked: the total comes once every file is listed.
  for (const auto& p : params) {
    if (p->has("total")) {
      EXPECT_EQ(p->getValue<uint64_t>("total"), 5000u);
    }
    EXPECT_NE(p->getValue<std::string>("message").find("files searched"), std::string::npos);
  }
  // The last one: every file searched.
  EXPECT_EQ(params.back()->getValue<uint64_t>("progress"), 5000u);
  EXPECT_EQ(params.back()->getValue<std::string>("message"), "5,000 of 5,000 files searched");
}

TEST(ServerProgress, SearchCountsTheRepositoriesOpenedThenTheFilesSearched) {
  TempDir tmp;
  TestRepo repo(tmp / "one");
  ManyFiles(repo, 300);
  std::vector<RepoConfig> repos;
  for (int i = 0; i < 130; ++i) repos.push_back(Served("r" + std::to_string(i), repo.path()));
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  options.call_budget = std::chrono::minutes(10);  // every file searched, however slow the build
  Server s(CatalogOf(repos), options);
  auto params =
      ProgressOf(s.Send(ToolCall(4, "search", R"({"pattern":"no such text"})", "s")), "s");
  std::vector<std::string> messages;
  for (const auto& p : params) messages.push_back(p->getValue<std::string>("message"));
  ASSERT_GE(messages.size(), 3u);
  // First the repositories opened (their count, without a total) ...
  EXPECT_EQ(messages[0], "64 of 130 repositories opened");
  EXPECT_FALSE(params[0]->has("total"));
  EXPECT_EQ(messages[1], "128 of 130 repositories opened");
  // ... then the files searched, counted on past the repositories, the last one all of them.
  EXPECT_NE(messages[2].find("files searched"), std::string::npos);
  EXPECT_EQ(messages.back(), "39,000 of 39,000 files searched");
  EXPECT_EQ(params.back()->getValue<uint64_t>("progress"), 130u + 39000u);
  EXPECT_EQ(params.back()->getValue<uint64_t>("total"), 130u + 39000u);
}

TEST(SearchTime, RepositoriesNotOpenedBeforeTheCallsTimeRanOutAreNamed) {
  TempDir tmp;
  TestRepo repo(tmp / "one");
  ManyFiles(repo, 100);
  std::vector<RepoConfig> repos;
  for (int i = 0; i < 20; ++i) repos.push_back(Served("r" + std::to_string(i), repo.path()));
  McpServer::Options options;
  options.call_budget = std::chrono::milliseconds(0);  // out of time from the start
  Server s(CatalogOf(repos), options);
  auto r = s.Response(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search",)"
                      R"("arguments":{"pattern":"x"}}})");
  ASSERT_TRUE(r);
  const std::string text = ToolText(r);
  EXPECT_NE(text.find("20 repositories not searched: r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, … "
                      "(or name fewer with repos)]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("its time limit"), std::string::npos) << text;
  EXPECT_NE(text.find("Nothing was searched."), std::string::npos) << text;
  EXPECT_EQ(text.find("No line matches."), std::string::npos) << text;
  EXPECT_EQ(text.find("## r0"), std::string::npos) << text;
}

// A history of `n` commits on main, each changing one file.
void LongHistory(TestRepo& repo, int n) {
  std::string stream;
  for (int i = 1; i <= n; ++i) {
    const std::string content = "version " + std::to_string(i) + "\n";
    const std::string message = "Change " + std::to_string(i) + "\n";
    stream += "commit refs/heads/main\ncommitter A <a@example.com> " +
              std::to_string(1767225600 + i * 60) + " +0000\ndata " +
              std::to_string(message.size()) + "\n" + message + "M 100644 inline file.txt\ndata " +
              std::to_string(content.size()) + "\n" + content + "\n";
  }
  auto env = repo.Env();
  auto r = Run({"git", "fast-import", "--quiet"}, repo.path(), env, stream);
  ASSERT_EQ(r.status, 0) << r.err;
}

TEST(ServerProgress, LogAndFindCommitsCountTheCommitsWalked) {
  TempDir tmp;
  TestRepo repo(tmp / "long", /*bare=*/true);
  LongHistory(repo, 9000);
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  Server s(CatalogOf({Served("long", repo.path())}), options);

  // An author nobody is: log walks the whole history to say so.
  auto log = ProgressOf(
      s.Send(ToolCall(6, "log", R"({"repo":"long","author":"nobody at all"})", "l")), "l");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0]->getValue<uint64_t>("progress"), 4096u);
  EXPECT_EQ(log[0]->getValue<std::string>("message"), "4,096 commits walked");
  EXPECT_EQ(log[1]->getValue<std::string>("message"), "8,192 commits walked");
  EXPECT_FALSE(log[0]->has("total"));

  auto found =
      ProgressOf(s.Send(ToolCall(7, "find_commits", R"({"message":"no such message"})", "f")), "f");
  // Every 4,096, then the whole walk when it ends.
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[1]->getValue<std::string>("message"), "8,192 commits walked");
  EXPECT_EQ(found[2]->getValue<uint64_t>("progress"), 9000u);
  EXPECT_EQ(found[2]->getValue<std::string>("message"), "9,000 commits walked");

  // Over several repositories the count adds up: the second one's walk goes on from 9,000.
  Server two(CatalogOf({Served("long", repo.path()), Served("again", repo.path())}), options);
  auto both = ProgressOf(
      two.Send(ToolCall(9, "find_commits", R"({"message":"no such message"})", "f2")), "f2");
  ASSERT_FALSE(both.empty());
  EXPECT_EQ(both.back()->getValue<uint64_t>("progress"), 18000u);
  EXPECT_EQ(both.back()->getValue<std::string>("message"),
            "18,000 commits walked (repository 2 of 2)");
}

TEST(ServerProgress, BlameSaysHowManyLinesHaveTheirCommit) {
  TempDir tmp;
  TestRepo repo(tmp / "grown");
  std::string text;
  for (int i = 1; i <= 5; ++i) {  // each commit adds a line: each line its own commit
    text += "line " + std::to_string(i) + "\n";
    repo.Write("notes.txt", text);
    repo.Commit("Line " + std::to_string(i));
  }
  McpServer::Options options;
  options.progress_interval = std::chrono::milliseconds(0);
  Server s(CatalogOf({Served("grown", repo.path())}), options);
  auto params =
      ProgressOf(s.Send(ToolCall(8, "blame", R"({"repo":"grown","path":"notes.txt"})", "b")), "b");
  std::vector<std::string> messages;
  for (const auto& p : params) {
    EXPECT_EQ(p->getValue<uint64_t>("total"), 5u);
    messages.push_back(p->getValue<std::string>("message"));
  }
  EXPECT_EQ(messages, (std::vector<std::string>{"1 of 5 lines blamed", "2 of 5 lines blamed",
                                                "3 of 5 lines blamed", "4 of 5 lines blamed",
                                                "5 of 5 lines blamed"}));
}

}  // namespace
}  // namespace server_messages_test
}  // namespace rr::testing
