// Group listings against each host's API, faked on loopback (fake_host.h) and read by the real
// host plugins: pagination as each host documents it, and every rule of core/hosts/
// group_listing.h — each test here fails when its rule is taken out.
#include "core/hosts/group_listing.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "tests/hosts/fake_host.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace group_listing_test {
namespace {

const repo_reader::HostPlugin& Host(const std::string& kind) {
  for (const auto& h : BuiltinHostPlugins().hosts) {
    if (kind == h->kind()) return *h;
  }
  throw std::runtime_error("no host plugin " + kind);
}

std::string GitHubRepo(const std::string& full_name, bool archived = false, bool fork = false) {
  return R"({"full_name":")" + full_name + R"(","description":"about )" + full_name +
         R"(","default_branch":"main","archived":)" + (archived ? "true" : "false") +
         R"(,"fork":)" + (fork ? "true" : "false") + R"(,"clone_url":"https://evil.example/)" +
         full_name + R"(.git"})";
}

GroupQuerySpec Spec(const FakeHost& api, const std::string& owner,
                    const std::string& path = "/api") {
  GroupQuerySpec s;
  s.web = "https://github.example";
  s.api = api.base() + path;
  s.owner = owner;
  return s;
}

ListLimits Quick() {
  ListLimits l;
  l.request = std::chrono::milliseconds(3000);
  l.page = std::chrono::milliseconds(3000);
  return l;
}

TEST(GroupListing, GitHubPagesFollowTheLinkHeaderAndAddressesComeFromTheConfiguration) {
  std::string base;
  FakeHost api([&](const std::string& uri) {
    FakeHost::Reply r;
    if (uri.rfind("/api/orgs/acme/repos?", 0) == 0 && !Has(uri, "page=2")) {
      r.body = "[" + GitHubRepo("acme/shop") + "," + GitHubRepo("acme/old", true) + "," +
               GitHubRepo("acme/forked", false, true) + "]";
      r.headers = {{"Link", "<" + base + "/api/orgs/acme/repos?page=2>; rel=\"next\""}};
    } else if (uri == "/api/orgs/acme/repos?page=2") {
      r.body = "[" + GitHubRepo("acme/infra") + "]";
    } else {
      r.status = 404;
    }
    return r;
  });
  base = api.base();
  const HostToken token = HostToken::Of("tok-secret-123", "x-access-token");
  size_t pages_heard = 0;
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), &token, Quick(),
                           [&](size_t pages, size_t) { pages_heard = pages; });
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 2u);
  EXPECT_EQ(listing->repos[0].path, "acme/shop");
  EXPECT_EQ(listing->repos[0].url, "https://github.example/acme/shop.git");  // not clone_url
  EXPECT_EQ(listing->repos[0].description, "about acme/shop");
  EXPECT_EQ(listing->repos[1].path, "acme/infra");
  EXPECT_EQ(listing->left_out, 2u);  // archived, fork
  EXPECT_EQ(listing->pages, 2u);
  EXPECT_EQ(pages_heard, 2u);
  const auto seen = api.seen();
  ASSERT_EQ(seen.size(), 2u);
  for (const auto& s : seen) {
    EXPECT_EQ(s.headers.at("Authorization"), "Bearer tok-secret-123");
    EXPECT_EQ(s.headers.at("Accept"), "application/vnd.github+json");
  }
}

TEST(GroupListing, ArchivedAndForksWhenAskedAndNameGlobs) {
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/shop") + "," + GitHubRepo("acme/old", true) + "," +
             GitHubRepo("acme/forked", false, true) + "," + GitHubRepo("acme/shop-admin") + "]";
    return r;
  });
  auto spec = Spec(api, "acme");
  spec.archived = true;
  spec.forks = true;
  auto all = ListGroup(Host("github"), spec, nullptr, Quick());
  ASSERT_TRUE(all) << all.error();
  EXPECT_EQ(all->repos.size(), 4u);
  spec.names = {"shop*"};
  auto some = ListGroup(Host("github"), spec, nullptr, Quick());
  ASSERT_TRUE(some) << some.error();
  ASSERT_EQ(some->repos.size(), 2u);
  EXPECT_EQ(some->repos[1].path, "acme/shop-admin");
  // Without a token, no Authorization header at all.
  for (const auto& s : api.seen()) EXPECT_EQ(s.headers.count("Authorization"), 0u);
}

TEST(GroupListing, PathsThatAreNotPlainOrOutsideTheOwnerAreLeftOut) {
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/ok") + "," + GitHubRepo("acme/..") + "," +
             GitHubRepo("acme/../other/x") + "," + GitHubRepo("other/shop") + "," +
             GitHubRepo("acme/a b") + "," + GitHubRepo("acme/x?y") + "," + GitHubRepo("acme") +
             "," + GitHubRepo("acme/.") + "," + GitHubRepo("ACME/.github") + "]";
    return r;
  });
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), nullptr, Quick());
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 2u);
  EXPECT_EQ(listing->repos[0].path, "acme/ok");
  EXPECT_EQ(listing->repos[1].path, "ACME/.github");  // the owner in any case; a dotted name
  EXPECT_EQ(listing->left_out, 7u);
}

// GitHub and Bitbucket names hold no '/': an entry one part deeper than owner/name is refused
// (and named, for the log); GitLab's groups have subgroups, so depth is its own (below).
TEST(GroupListing, OnGitHubAndBitbucketANameWithASlashIsRefusedAndNamed) {
  FakeHost github([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/ok") + "," + GitHubRepo("acme/evil/slash") + "]";
    return r;
  });
  auto listing = ListGroup(Host("github"), Spec(github, "acme"), nullptr, Quick());
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 1u);
  EXPECT_EQ(listing->repos[0].path, "acme/ok");
  EXPECT_EQ(listing->left_out, 1u);
  ASSERT_EQ(listing->refused.size(), 1u);
  EXPECT_TRUE(Has(listing->refused[0], "`acme/evil/slash`: a repository's name on this host"))
      << listing->refused[0];

  FakeHost bitbucket([&](const std::string&) {
    FakeHost::Reply r;
    r.body = R"({"values":[{"full_name":"acme/site"},{"full_name":"acme/evil/slash"}]})";
    return r;
  });
  GroupQuerySpec spec;
  spec.web = "https://bitbucket.org";
  spec.api = bitbucket.base() + "/2.0";
  spec.owner = "acme";
  auto bb = ListGroup(Host("bitbucket"), spec, nullptr, Quick());
  ASSERT_TRUE(bb) << bb.error();
  ASSERT_EQ(bb->repos.size(), 1u);
  EXPECT_EQ(bb->repos[0].path, "acme/site");
  EXPECT_EQ(bb->refused_count, 1u);
}

TEST(GroupListing, GitLabFollowsXNextPageThroughSubgroups) {
  FakeHost api([&](const std::string& uri) {
    FakeHost::Reply r;
    if (uri.rfind("/api/v4/groups/platform%2Fbackend/projects?include_subgroups=true", 0) != 0) {
      r.status = 404;
      return r;
    }
    if (!Has(uri, "&page=2")) {
      r.body = R"([{"path_with_namespace":"platform/backend/api","archived":false},
                   {"path_with_namespace":"platform/backend/deep/worker","archived":false}])";
      r.headers = {{"X-Next-Page", "2"}};
    } else {
      r.body = R"([{"path_with_namespace":"platform/frontend/web","archived":false},
                   {"path_with_namespace":"platform/backend/tools","archived":false}])";
      r.headers = {{"X-Next-Page", ""}};
    }
    return r;
  });
  GroupQuerySpec spec;
  spec.web = "https://gitlab.example.com";
  spec.api = api.base() + "/api/v4";
  spec.owner = "platform/backend";
  auto listing = ListGroup(Host("gitlab"), spec, nullptr, Quick());
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 3u);
  EXPECT_EQ(listing->repos[1].url, "https://gitlab.example.com/platform/backend/deep/worker.git");
  EXPECT_EQ(listing->repos[2].path, "platform/backend/tools");
  EXPECT_EQ(listing->left_out, 1u);  // platform/frontend/web: outside the group asked for
}

TEST(GroupListing, BitbucketFollowsTheBodysNext) {
  std::string base;
  FakeHost api([&](const std::string& uri) {
    FakeHost::Reply r;
    if (!Has(uri, "page=2")) {
      r.body = R"({"values":[{"full_name":"acme/infra","mainbranch":{"name":"trunk"}}],"next":")" +
               base + R"(/2.0/repositories/acme?page=2"})";
    } else {
      r.body = R"({"values":[{"full_name":"acme/site"}]})";
    }
    return r;
  });
  base = api.base();
  GroupQuerySpec spec;
  spec.web = "https://bitbucket.org";
  spec.api = api.base() + "/2.0";
  spec.owner = "acme";
  auto listing = ListGroup(Host("bitbucket"), spec, nullptr, Quick());
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 2u);
  EXPECT_EQ(listing->repos[0].default_branch, "trunk");
  EXPECT_EQ(listing->repos[1].url, "https://bitbucket.org/acme/site.git");
}

TEST(GroupListing, ARedirectIsNotFollowedAndTheOtherHostHearsNothing) {
  FakeHost elsewhere([](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/planted") + "]";
    return r;
  });
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.status = 302;
    r.headers = {{"Location", elsewhere.base() + "/api/orgs/acme/repos"}};
    return r;
  });
  const HostToken token = HostToken::Of("tok-secret-123", "x-access-token");
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), &token, Quick());
  ASSERT_FALSE(listing);
  EXPECT_TRUE(Has(listing.error(), "no redirect is followed")) << listing.error();
  EXPECT_TRUE(elsewhere.seen().empty());
}

TEST(GroupListing, ANextPageOutsideTheApiIsRefused) {
  FakeHost elsewhere([](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/planted") + "]";
    return r;
  });
  std::string next;
  FakeHost api([&](const std::string& uri) {
    FakeHost::Reply r;
    if (Has(uri, "/orgs/")) {
      r.body = "[" + GitHubRepo("acme/shop") + "]";
      r.headers = {{"Link", "<" + next + ">; rel=\"next\""}};
    } else {
      r.body = "[" + GitHubRepo("acme/planted") + "]";
    }
    return r;
  });
  const HostToken token = HostToken::Of("tok-secret-123", "x-access-token");
  // Another host, another path on the same host, and a path climbing out of the API.
  for (const std::string& where :
       {elsewhere.base() + "/api/orgs/acme/repos?page=2", api.base() + "/other/orgs/acme?page=2",
        api.base() + "/api/../other?page=2",
        "http://user@127.0.0.1:" + std::to_string(api.port()) + "/api/x?page=2"}) {
    SCOPED_TRACE(where);
    next = where;
    auto listing = ListGroup(Host("github"), Spec(api, "acme"), &token, Quick());
    ASSERT_FALSE(listing);
    EXPECT_TRUE(Has(listing.error(), "outside its API")) << listing.error();
  }
  EXPECT_TRUE(elsewhere.seen().empty());
  for (const auto& s : api.seen()) EXPECT_TRUE(Has(s.uri, "/api/orgs/")) << s.uri;
}

TEST(GroupListing, NoProxyTheEnvironmentNamesIsUsed) {
  FakeHost proxy([](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/planted") + "]";
    return r;
  });
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/shop") + "]";
    return r;
  });
  for (const char* name : {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"}) {
    setenv(name, proxy.base().c_str(), 1);
  }
  unsetenv("no_proxy");
  unsetenv("NO_PROXY");
  const HostToken token = HostToken::Of("tok-secret-123", "x-access-token");
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), &token, Quick());
  for (const char* name : {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"}) unsetenv(name);
  ASSERT_TRUE(listing) << listing.error();
  ASSERT_EQ(listing->repos.size(), 1u);
  EXPECT_EQ(listing->repos[0].path, "acme/shop");
  EXPECT_TRUE(proxy.seen().empty());
  EXPECT_EQ(api.seen().size(), 1u);
}

TEST(GroupListing, HostErrorsFailTheListingAndNeverShowTheToken) {
  int status = 401;
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.status = status;
    r.body = R"({"message":"Bad credentials: tok-secret-123"})";
    if (status == 429) r.headers = {{"Retry-After", "120"}};
    return r;
  });
  const HostToken token = HostToken::Of("tok-secret-123", "x-access-token");
  for (int s : {401, 403, 404, 429, 500}) {
    SCOPED_TRACE(s);
    status = s;
    auto listing = ListGroup(Host("github"), Spec(api, "acme"), &token, Quick());
    ASSERT_FALSE(listing);
    EXPECT_TRUE(Has(listing.error(), "HTTP " + std::to_string(s))) << listing.error();
    EXPECT_FALSE(Has(listing.error(), "tok-secret-123")) << listing.error();
    if (s == 429) {
      EXPECT_TRUE(Has(listing.error(), "Retry-After: 120")) << listing.error();
    }
  }
}

TEST(GroupListing, AnAnswerThatIsNotJsonFailsTheListing) {
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "<html>maintenance</html>";
    return r;
  });
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), nullptr, Quick());
  ASSERT_FALSE(listing);
  EXPECT_TRUE(Has(listing.error(), "not JSON")) << listing.error();
}

TEST(GroupListing, AnAnswerThatIsNotHttpFailsTheListing) {
  // A server that answers with something other than HTTP: a plain socket writing text.
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  std::thread peer([&] {
    Poco::Net::StreamSocket s = socket.acceptConnection();
    char buf[1024];
    s.receiveBytes(buf, sizeof buf);
    const std::string junk = "SSH-2.0-OpenSSH_9.2\r\n\r\n";
    s.sendBytes(junk.data(), static_cast<int>(junk.size()));
    s.close();
  });
  GroupQuerySpec spec;
  spec.web = "https://github.example";
  spec.api = "http://127.0.0.1:" + std::to_string(socket.address().port()) + "/api";
  spec.owner = "acme";
  auto listing = ListGroup(Host("github"), spec, nullptr, Quick());
  peer.join();
  ASSERT_FALSE(listing);
  EXPECT_TRUE(Has(listing.error(), "not be read as HTTP")) << listing.error();
}

TEST(GroupListing, APageThatTricklesIsStoppedAtItsDeadline) {
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body = "[" + GitHubRepo("acme/shop") + "]";
    r.trickle = std::chrono::milliseconds(50);  // about 9 seconds for the whole page
    return r;
  });
  ListLimits limits = Quick();
  limits.request = std::chrono::milliseconds(1000);  // each byte comes well within it
  limits.page = std::chrono::milliseconds(1000);
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), nullptr, limits);
  ASSERT_FALSE(listing);
  EXPECT_TRUE(Has(listing.error(), "took longer than")) << listing.error();
}

TEST(GroupListing, APageLargerThanTheLimitIsNotRead) {
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.body =
        "[" + GitHubRepo("acme/shop") + "," + std::string(4000, ' ') + GitHubRepo("acme/x") + "]";
    return r;
  });
  ListLimits limits = Quick();
  limits.page_bytes = 2048;
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), nullptr, limits);
  ASSERT_FALSE(listing);
  EXPECT_TRUE(Has(listing.error(), "larger than")) << listing.error();
}

TEST(GroupListing, AGroupListsAtMostTheCap) {
  std::string base;
  FakeHost api([&](const std::string& uri) {
    FakeHost::Reply r;
    const int page = Has(uri, "page=") ? std::stoi(uri.substr(uri.rfind('=') + 1)) : 1;
    r.body = "[";
    for (int i = 0; i < 3; ++i) {
      r.body += (i ? "," : "") + GitHubRepo("acme/r" + std::to_string(page * 10 + i));
    }
    r.body += "]";
    r.headers = {
        {"Link", "<" + base + "/api/next?page=" + std::to_string(page + 1) + ">; rel=\"next\""}};
    return r;
  });
  base = api.base();
  ListLimits limits = Quick();
  limits.max_repos = 7;
  auto listing = ListGroup(Host("github"), Spec(api, "acme"), nullptr, limits);
  ASSERT_TRUE(listing) << listing.error();
  EXPECT_EQ(listing->repos.size(), 7u);
  EXPECT_TRUE(listing->capped);
  EXPECT_EQ(api.seen().size(), 3u);  // no page past the cap is asked for
}

}  // namespace
}  // namespace group_listing_test
}  // namespace rr::testing
