// The live catalog (core/served/live_catalog.h): a swap changes what calls from then on read,
// never what a snapshot holds, and an HTTP token's repository set is made again from each new
// whole (the real HttpTransport, in-process, spoken to over HTTP).
#include "core/served/live_catalog.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "core/app/wiring.h"
#include "core/mcp/http_transport.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace live_catalog_test {
namespace {

std::shared_ptr<const Catalog> CatalogOf(std::vector<RepoConfig> repos) {
  Config c;
  c.source = "test";
  c.repos = std::move(repos);
  auto catalog = BuildCatalog(c);
  if (!catalog) throw std::runtime_error(catalog.error());
  return catalog.take();
}

struct Repos {
  TempDir tmp;
  TestRepo shop{tmp / "shop"}, web{tmp / "web"}, shop2{tmp / "shop2"};
  Repos() {
    shop.Write("README.md", "# Shop one\n");
    shop.Commit("shop");
    web.Write("index.html", "<p>web</p>\n");
    web.Commit("web");
    shop2.Write("README.md", "# Shop two\n");
    shop2.Commit("shop2");
  }
  std::shared_ptr<const Catalog> Before() const {
    return CatalogOf({Served("shop", shop.path()), Served("web", web.path())});
  }
  std::shared_ptr<const Catalog> After() const {
    return CatalogOf({Served("shop2", shop2.path()), Served("web", web.path())});
  }
};

TEST(LiveCatalog, ASwapLeavesEverySnapshotAsItWas) {
  Repos r;
  LiveCatalog live(r.Before(), true);
  const size_t view = live.AddView([](const Catalog& whole) {
    std::vector<std::shared_ptr<const ServedRepo>> web;
    for (const auto& repo : whole.all()) {
      if (repo->name() == "web") web.push_back(repo);
    }
    return std::make_shared<const Catalog>(std::move(web));
  });
  const auto snapshot = live.Get();
  const auto view_snapshot = live.View(view);
  live.Set(r.After());
  EXPECT_EQ(live.generation(), 1u);
  EXPECT_TRUE(snapshot->Find("shop"));
  EXPECT_FALSE(snapshot->Find("shop2"));
  EXPECT_FALSE(live.Get()->Find("shop"));
  EXPECT_TRUE(live.Get()->Find("shop2"));
  // The view was made again from the new whole: its `web` is the new whole's.
  EXPECT_EQ(live.View(view)->Find("web").value(), live.Get()->Find("web").value());
  EXPECT_NE(live.View(view)->Find("web").value(), view_snapshot->Find("web").value());
}

TEST(LiveCatalog, CallsReadTheSetAsItIsWhenTheyBegin) {
  Repos r;
  auto live = std::make_shared<LiveCatalog>(r.Before(), true);
  ToolHarness h(ToolHarness::Live{}, live);
  EXPECT_TRUE(Has(h.Call("read_file", R"({"repo":"shop","path":"README.md"})").text, "Shop one"));
  live->Set(r.After());
  auto gone = h.Call("read_file", R"({"repo":"shop","path":"README.md"})");
  EXPECT_TRUE(gone.is_error);
  EXPECT_TRUE(Has(gone.text, "no repository named `shop` is served")) << gone.text;
  EXPECT_TRUE(Has(h.Call("read_file", R"({"repo":"shop2","path":"README.md"})").text, "Shop two"));
}

std::string ToolText(const HttpReply& r) {
  try {
    Poco::JSON::Parser parser;
    auto m = parser.parse(r.body).extract<Poco::JSON::Object::Ptr>();
    if (!m->has("result")) return "";
    return m->getObject("result")->getArray("content")->getObject(0)->getValue<std::string>("text");
  } catch (...) {
    return "";
  }
}

TEST(LiveCatalog, AnHttpTokensSetFollowsTheSwap) {
  Repos r;
  auto live = std::make_shared<LiveCatalog>(r.Before(), true);
  HttpTransport::Setup setup;
  setup.host = "127.0.0.1";
  HttpTokenConfig shops{"SHOPS_TOKEN", {"shop*"}};
  auto select = HttpTransport::TokenSet(shops);
  ASSERT_TRUE(select) << select.error();
  const size_t view = live->AddView(select.take());
  HttpTransport::Token shops_token;
  shops_token.value = "token-for-shops";
  shops_token.live = [live, view] { return live->View(view); };
  setup.tokens.push_back(shops_token);
  HttpTransport::Token all_token;
  all_token.value = "token-for-all";
  all_token.live = [live] { return live->Get(); };
  setup.tokens.push_back(all_token);

  McpServer::Options options;
  options.workers = 0;
  McpServer server(live,
                   AnswerPipeline(40000, {}, BuiltinPlugins().secrets,
                                  std::make_shared<HostLinks>(BuiltinHostPlugins().hosts)),
                   nullptr, BuiltinTools(), options);
  HttpTransport transport(server, setup);
  std::thread serving([&] { transport.Run(); });
  auto call = [&](const std::string& token, const std::string& tool, const std::string& args) {
    auto headers = ModernHeaders("tools/call", tool);
    headers["Authorization"] = "Bearer " + token;
    return ToolText(
        HttpRequest(transport.port(), "POST", "/mcp",
                    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
                        R"(","arguments":)" + args + "," + ModernMeta() + "}}",
                    headers));
  };

  const std::string before = call("token-for-shops", "list_repos", "{}");
  EXPECT_TRUE(Has(before, "## shop\n")) << before;
  EXPECT_FALSE(Has(before, "## web")) << before;
  EXPECT_FALSE(Has(before, "## shop2")) << before;

  live->Set(r.After());
  const std::string after = call("token-for-shops", "list_repos", "{}");
  EXPECT_TRUE(Has(after, "## shop2\n")) << after;
  EXPECT_FALSE(Has(after, "## shop\n")) << after;
  EXPECT_FALSE(Has(after, "## web")) << after;
  EXPECT_TRUE(Has(call("token-for-shops", "read_file", R"({"repo":"shop2","path":"README.md"})"),
                  "Shop two"));
  EXPECT_TRUE(Has(call("token-for-shops", "read_file", R"({"repo":"shop","path":"README.md"})"),
                  "no repository named `shop` is served"));
  const std::string all = call("token-for-all", "list_repos", "{}");
  EXPECT_TRUE(Has(all, "## shop2\n")) << all;
  EXPECT_TRUE(Has(all, "## web\n")) << all;

  transport.Stop();
  serving.join();
}

}  // namespace
}  // namespace live_catalog_test
}  // namespace rr::testing
