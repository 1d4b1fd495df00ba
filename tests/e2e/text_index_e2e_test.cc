// The real binary keeps the text index itself: started after the first answer, its text indexer
// indexes the served repositories in the background (`about` says so), and a search then uses the
// index (/metrics: repositories searched with it, files it passed over, repositories it answered
// without opening them). A commit made in a repository is found by the very next search, exactly
// as git grep finds it -- the index catching up or not -- and the index catches up with it within
// seconds (the indexer's glance at the refs), long before its next pass a minute later.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "tests/search/search_kit.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"

namespace rr::testing {
namespace text_index_e2e_test {
namespace {

using search::GitGrep;
using search::HitsIn;

std::string ToolText(const HttpReply& r) {
  try {
    Poco::JSON::Parser parser;
    auto m = parser.parse(r.body).extract<Poco::JSON::Object::Ptr>();
    return m->getObject("result")->getArray("content")->getObject(0)->getValue<std::string>("text");
  } catch (...) {
    return "";
  }
}

HttpReply Call(int port, const std::string& tool, const std::string& args) {
  static int id = 1;
  const std::string body = "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id++) +
                           ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool +
                           "\",\"arguments\":" + args + "," + ModernMeta() + "}}";
  return HttpRequest(port, "POST", "/mcp", body, ModernHeaders("tools/call", tool));
}

// A counter of /metrics.
uint64_t Metric(int port, const std::string& name) {
  const std::string body = HttpRequest(port, "GET", "/metrics").body;
  std::smatch m;
  if (!std::regex_search(body, m, std::regex("\n" + name + " ([0-9]+)\n"))) {
    ADD_FAILURE() << name << " not in /metrics:\n" << body;
    return 0;
  }
  return std::stoull(m[1].str());
}

// Waits up to `limit` for `done`, looking every 100 ms.
bool Within(std::chrono::seconds limit, const std::function<bool()>& done) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

TEST(TextIndexE2e, TheServerIndexesInTheBackgroundAndACommitIsFoundByTheNextSearch) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  for (int i = 0; i < 40; ++i) {
    shop.Write("src/part" + std::to_string(i) + ".c",
               "int part" + std::to_string(i) + "(void) { return " + std::to_string(i) + "; }\n");
  }
  shop.Write("README.md", "# Shop\nfirsttoken-1001 is here\n");
  shop.Commit("shop");
  TestRepo web(tmp / "web");
  web.Write("index.html", "<p>web</p>\n");
  web.Commit("web");
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "cache_folder: " << (tmp / "cache") << "\nrepos:\n  - name: shop\n"
                        << "    path: " << shop.path()
                        << "\n  - name: web\n    path: " << web.path()
                        << "\nhttp:\n  metrics: true\n";
  HttpServerProcess p({RR_BINARY, "--config", config, "--http", "127.0.0.1:0"}, tmp.path());
  ASSERT_TRUE(p.ok()) << p.Stderr();

  // The first answer starts the indexer; `about` says when both are indexed.
  ASSERT_TRUE(Within(
      std::chrono::seconds(60),
      [&] {
        return ToolText(Call(p.port(), "about", "{}")).find("text index: 2 of 2 repositories") !=
               std::string::npos;
      }))
      << ToolText(Call(p.port(), "about", "{}")) << p.Stderr();

  const uint64_t searches = Metric(p.port(), "rr_text_index_searches_total");
  const uint64_t passed = Metric(p.port(), "rr_text_index_files_passed_over_total");
  const uint64_t unopened = Metric(p.port(), "rr_text_index_searches_unopened_total");
  const std::string first = ToolText(Call(p.port(), "search", R"({"pattern":"firsttoken-1001"})"));
  EXPECT_EQ(HitsIn(first, "shop"), GitGrep(shop, "main", {"-F"}, "firsttoken-1001", {}, "5"))
      << first;
  EXPECT_EQ(Metric(p.port(), "rr_text_index_searches_total"), searches + 2);
  EXPECT_GE(Metric(p.port(), "rr_text_index_files_passed_over_total"), passed + 41);
  // web cannot hold the token: answered by its index alone.
  EXPECT_EQ(Metric(p.port(), "rr_text_index_searches_unopened_total"), unopened + 1);

  // A commit: the very next search finds it, exactly, whether the index has caught up or not.
  shop.Write("fresh.txt", "freshtoken-2002 arrived after the index\n");
  shop.Write("src/part7.c", "int part7(void) { return 7; }  // freshtoken-2002 too\n");
  shop.Commit("fresh");
  const std::string fresh = ToolText(Call(p.port(), "search", R"({"pattern":"freshtoken-2002"})"));
  const auto expected = GitGrep(shop, "main", {"-F"}, "freshtoken-2002", {}, "5");
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(HitsIn(fresh, "shop"), expected) << fresh;
  EXPECT_TRUE(HitsIn(fresh, "web").empty()) << fresh;

  // The index catches up within seconds: a search of shop is then at the index's own commit.
  // (The next whole pass is a minute after the first.)
  const auto committed = std::chrono::steady_clock::now();
  ASSERT_TRUE(Within(std::chrono::seconds(30), [&] {
    const uint64_t other = Metric(p.port(), "rr_text_index_searches_other_commit_total");
    const uint64_t used = Metric(p.port(), "rr_text_index_searches_total");
    const std::string again =
        ToolText(Call(p.port(), "search", R"({"pattern":"freshtoken-2002"})"));
    EXPECT_EQ(HitsIn(again, "shop"), expected) << again;
    return Metric(p.port(), "rr_text_index_searches_total") == used + 2 &&
           Metric(p.port(), "rr_text_index_searches_other_commit_total") == other;
  })) << p.Stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - committed, std::chrono::seconds(30));
  p.Terminate();
  EXPECT_EQ(p.Wait(), 0);
  EXPECT_NE(p.Stderr().find("text index of `shop`"), std::string::npos) << p.Stderr();
}

}  // namespace
}  // namespace text_index_e2e_test
}  // namespace rr::testing
