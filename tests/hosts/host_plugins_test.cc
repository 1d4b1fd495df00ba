// The built-in host plugins (repo-reader-github, -gitlab, -bitbucket) through the SDK's test
// kit, loaded exactly as the server loads them: their links (percent-encoded, always naming a
// commit id) and their listings (each host's request, pagination and answers as the host
// documents them).
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>

namespace host_plugins_test {
namespace {

using repo_reader::GroupQuery;
using repo_reader::HostPlugin;
using repo_reader::HostRepo;
using repo_reader::HttpResponse;
using repo_reader::OwnerKind;

const std::string kCommit = "14a4c0422ae3c2f9e7b1d3a5c6e8f0a1b2c3d4e5";
const std::string kBase = "0123456789abcdef0123456789abcdef01234567";

class HostPlugins : public ::testing::Test {
 protected:
  static const HostPlugin* Load(repo_reader::testkit::LoadedPlugin& plugin) {
    EXPECT_TRUE(plugin.ok()) << plugin.error();
    if (!plugin.ok() || plugin.hosts().size() != 1) return nullptr;
    return plugin.hosts()[0];
  }
};

std::string Plugin(const std::string& kind) {
  return std::string(RR_PLUGIN_DIR) + "/repo-reader-" + kind + ".so";
}

TEST_F(HostPlugins, GitHubLinks) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("github"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  EXPECT_STREQ(h->kind(), "github");
  HostRepo repo{"https://github.com", "acme/shop"};
  EXPECT_EQ(h->RepoLink(repo), "https://github.com/acme/shop");
  EXPECT_EQ(h->FileLink(repo, kCommit, "src/app.py", 1, 40),
            "https://github.com/acme/shop/blob/" + kCommit + "/src/app.py#L1-L40");
  EXPECT_EQ(h->FileLink(repo, kCommit, "src/app.py", 7, 7),
            "https://github.com/acme/shop/blob/" + kCommit + "/src/app.py#L7");
  EXPECT_EQ(h->FileLink(repo, kCommit, "logo.png", 0, 0),
            "https://github.com/acme/shop/blob/" + kCommit + "/logo.png");
  EXPECT_EQ(h->FolderLink(repo, kCommit, "src/lib"),
            "https://github.com/acme/shop/tree/" + kCommit + "/src/lib");
  EXPECT_EQ(h->FolderLink(repo, kCommit, ""), "https://github.com/acme/shop/tree/" + kCommit);
  EXPECT_EQ(h->CommitLink(repo, kCommit), "https://github.com/acme/shop/commit/" + kCommit);
  EXPECT_EQ(h->CompareLink(repo, kBase, kCommit),
            "https://github.com/acme/shop/compare/" + kBase + "..." + kCommit);
}

TEST_F(HostPlugins, GitLabLinks) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("gitlab"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  EXPECT_STREQ(h->kind(), "gitlab");
  HostRepo repo{"https://gitlab.example.com", "platform/backend/api"};
  EXPECT_EQ(h->RepoLink(repo), "https://gitlab.example.com/platform/backend/api");
  EXPECT_EQ(
      h->FileLink(repo, kCommit, "src/app.py", 1, 40),
      "https://gitlab.example.com/platform/backend/api/-/blob/" + kCommit + "/src/app.py#L1-40");
  EXPECT_EQ(h->FolderLink(repo, kCommit, "src"),
            "https://gitlab.example.com/platform/backend/api/-/tree/" + kCommit + "/src");
  EXPECT_EQ(h->CommitLink(repo, kCommit),
            "https://gitlab.example.com/platform/backend/api/-/commit/" + kCommit);
  EXPECT_EQ(h->CompareLink(repo, kBase, kCommit),
            "https://gitlab.example.com/platform/backend/api/-/compare/" + kBase + "..." + kCommit);
}

TEST_F(HostPlugins, BitbucketLinks) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("bitbucket"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  EXPECT_STREQ(h->kind(), "bitbucket");
  HostRepo repo{"https://bitbucket.org", "acme/infra"};
  EXPECT_EQ(h->FileLink(repo, kCommit, "deploy/main.tf", 1, 40),
            "https://bitbucket.org/acme/infra/src/" + kCommit + "/deploy/main.tf#lines-1:40");
  EXPECT_EQ(h->FolderLink(repo, kCommit, "deploy"),
            "https://bitbucket.org/acme/infra/src/" + kCommit + "/deploy/");
  EXPECT_EQ(h->CommitLink(repo, kCommit), "https://bitbucket.org/acme/infra/commits/" + kCommit);
  EXPECT_EQ(h->CompareLink(repo, kBase, kCommit), "") << "Bitbucket has no comparison link";
}

TEST_F(HostPlugins, LinksPercentEncodePathsAndNameOnlyCommitIds) {
  for (const char* kind : {"github", "gitlab", "bitbucket"}) {
    SCOPED_TRACE(kind);
    repo_reader::testkit::LoadedPlugin plugin(Plugin(kind));
    const HostPlugin* h = Load(plugin);
    ASSERT_NE(h, nullptr);
    HostRepo repo{"https://host.example", "acme/shop"};
    // A path can hold what a URL reads otherwise: '#', '?', '%', spaces, non-ASCII.
    const std::string link = h->FileLink(repo, kCommit, "docs/a b#c?d%e/é.md", 2, 3);
    EXPECT_NE(link.find("docs/a%20b%23c%3Fd%25e/%C3%A9.md"), std::string::npos) << link;
    EXPECT_EQ(link.find(' '), std::string::npos);
    EXPECT_EQ(link.find('?'), std::string::npos);
    // A link names a commit id, never a branch that moves (or text that is not an id).
    EXPECT_EQ(h->FileLink(repo, "main", "src/app.py", 1, 2), "");
    EXPECT_EQ(h->FolderLink(repo, "main", "src"), "");
    EXPECT_EQ(h->CommitLink(repo, "HEAD~1"), "");
    EXPECT_EQ(h->CommitLink(repo, kCommit.substr(0, 12)), "");
    EXPECT_EQ(h->CompareLink(repo, "main", kCommit), "");
    // No repository path, no link.
    EXPECT_EQ(h->RepoLink(HostRepo{"https://host.example", ""}), "");
  }
}

TEST_F(HostPlugins, RefusesSettingsItDoesNotRead) {
  for (const char* kind : {"github", "gitlab", "bitbucket"}) {
    repo_reader::testkit::LoadedPlugin plugin(Plugin(kind), {{"colour", "blue"}});
    EXPECT_FALSE(plugin.ok()) << kind;
    EXPECT_NE(plugin.error().find("colour"), std::string::npos) << plugin.error();
  }
}

HttpResponse Answer(int status, std::string_view body,
                    std::vector<std::pair<std::string, std::string>> headers = {}) {
  HttpResponse r;
  r.status = status;
  r.body = body;
  r.headers = std::move(headers);
  return r;
}

TEST_F(HostPlugins, GitHubListsAnOrganisationPageByPage) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("github"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  GroupQuery q{"https://api.github.com", "acme", OwnerKind::kOrganisation, 100};
  auto first = h->FirstPage(q);
  EXPECT_EQ(first.method, "GET");
  EXPECT_EQ(first.url,
            "https://api.github.com/orgs/acme/repos?type=all&sort=full_name&per_page=100");
  GroupQuery user{"https://api.github.com", "octo", OwnerKind::kUser, 50};
  EXPECT_EQ(h->FirstPage(user).url,
            "https://api.github.com/users/octo/repos?type=owner&sort=full_name&per_page=50");
  EXPECT_EQ(h->auth_header().name, "Authorization");
  EXPECT_EQ(h->auth_header().prefix, "Bearer ");

  const std::string body = R"([
    {"full_name":"acme/shop","description":"The shop","default_branch":"main",
     "archived":false,"fork":false,"clone_url":"https://evil.example/x.git"},
    {"full_name":"acme/old","description":null,"default_branch":"master","archived":true,
     "fork":false},
    {"full_name":"acme/fork-of-x","default_branch":"main","archived":false,"fork":true}])";
  auto page = h->ParsePage(
      q, Answer(200, body,
                {{"link",
                  "<https://api.github.com/organizations/1/repos?page=2>; rel=\"next\", "
                  "<https://api.github.com/organizations/1/repos?page=5>; rel=\"last\""}}));
  ASSERT_TRUE(page.error.empty()) << page.error;
  ASSERT_EQ(page.repos.size(), 3u);
  EXPECT_EQ(page.repos[0].path, "acme/shop");
  EXPECT_EQ(page.repos[0].description, "The shop");
  EXPECT_EQ(page.repos[0].default_branch, "main");
  EXPECT_TRUE(page.repos[1].archived);
  EXPECT_EQ(page.repos[1].description, "");
  EXPECT_TRUE(page.repos[2].fork);
  ASSERT_TRUE(page.has_next);
  EXPECT_EQ(page.next.url, "https://api.github.com/organizations/1/repos?page=2");

  auto last = h->ParsePage(
      q, Answer(200, "[]", {{"Link", "<https://api.github.com/x?page=1>; rel=\"prev\""}}));
  EXPECT_TRUE(last.error.empty());
  EXPECT_FALSE(last.has_next);
}

TEST_F(HostPlugins, GitLabListsAGroupWithItsSubgroups) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("gitlab"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  GroupQuery q{"https://gitlab.example.com/api/v4", "platform/backend", OwnerKind::kOrganisation,
               100};
  EXPECT_EQ(h->FirstPage(q).url,
            "https://gitlab.example.com/api/v4/groups/platform%2Fbackend/projects?"
            "include_subgroups=true&order_by=id&sort=asc&per_page=100");
  const std::string body = R"([
    {"path_with_namespace":"platform/backend/api","description":"API","default_branch":"main",
     "archived":false,"empty_repo":false},
    {"path_with_namespace":"platform/backend/deep/worker","default_branch":"main",
     "archived":false,"forked_from_project":{"id":7},"empty_repo":true}])";
  // Without a Link header, X-Next-Page names the next page.
  auto page = h->ParsePage(q, Answer(200, body, {{"X-Next-Page", "2"}, {"X-Page", "1"}}));
  ASSERT_TRUE(page.error.empty()) << page.error;
  ASSERT_EQ(page.repos.size(), 2u);
  EXPECT_EQ(page.repos[1].path, "platform/backend/deep/worker");
  EXPECT_TRUE(page.repos[1].fork);
  EXPECT_TRUE(page.repos[1].empty);
  ASSERT_TRUE(page.has_next);
  EXPECT_EQ(page.next.url, h->FirstPage(q).url + "&page=2");
  // The last page: X-Next-Page empty.
  EXPECT_FALSE(h->ParsePage(q, Answer(200, "[]", {{"X-Next-Page", ""}})).has_next);
  // A Link header wins.
  auto linked = h->ParsePage(q, Answer(200, "[]",
                                       {{"Link",
                                         "<https://gitlab.example.com/api/v4/groups/9/projects?"
                                         "page=3>; rel=\"next\""},
                                        {"X-Next-Page", "2"}}));
  EXPECT_EQ(linked.next.url, "https://gitlab.example.com/api/v4/groups/9/projects?page=3");
  EXPECT_FALSE(h->ParsePage(q, Answer(200, "[]", {{"X-Next-Page", "2&x=y"}})).error.empty());
}

TEST_F(HostPlugins, BitbucketFollowsTheBodysNext) {
  repo_reader::testkit::LoadedPlugin plugin(Plugin("bitbucket"));
  const HostPlugin* h = Load(plugin);
  ASSERT_NE(h, nullptr);
  GroupQuery q{"https://api.bitbucket.org/2.0", "acme", OwnerKind::kOrganisation, 100};
  EXPECT_EQ(h->FirstPage(q).url,
            "https://api.bitbucket.org/2.0/repositories/acme?sort=full_name&pagelen=100");
  const std::string body = R"({"pagelen":100,"values":[
    {"full_name":"acme/infra","description":"","mainbranch":{"name":"trunk"}},
    {"full_name":"acme/copy","mainbranch":{"name":"main"},"parent":{"full_name":"x/y"}}],
    "next":"https://api.bitbucket.org/2.0/repositories/acme?page=2"})";
  auto page = h->ParsePage(q, Answer(200, body));
  ASSERT_TRUE(page.error.empty()) << page.error;
  ASSERT_EQ(page.repos.size(), 2u);
  EXPECT_EQ(page.repos[0].default_branch, "trunk");
  EXPECT_TRUE(page.repos[1].fork);
  ASSERT_TRUE(page.has_next);
  EXPECT_EQ(page.next.url, "https://api.bitbucket.org/2.0/repositories/acme?page=2");
  EXPECT_FALSE(h->ParsePage(q, Answer(200, R"({"values":[]})")).has_next);
}

TEST_F(HostPlugins, AnAnswerThatIsNotTheExpectedJsonFailsThePage) {
  struct Case {
    const char* kind;
    const char* body;
  };
  for (const Case& c : {Case{"github", "{not json"}, Case{"github", R"({"message":"hi"})"},
                        Case{"github", R"([{"name":"x"}])"}, Case{"gitlab", "<html>"},
                        Case{"gitlab", R"([{"path_with_namespace":7}])"}, Case{"bitbucket", "[]"},
                        Case{"bitbucket", R"({"values":[{}]})"}}) {
    SCOPED_TRACE(std::string(c.kind) + ": " + c.body);
    repo_reader::testkit::LoadedPlugin plugin(Plugin(c.kind));
    const HostPlugin* h = Load(plugin);
    ASSERT_NE(h, nullptr);
    GroupQuery q{"https://api.example", "acme", OwnerKind::kOrganisation, 100};
    auto page = h->ParsePage(q, Answer(200, c.body));
    EXPECT_FALSE(page.error.empty());
    EXPECT_TRUE(page.repos.empty());
    EXPECT_FALSE(page.has_next);
  }
}

TEST_F(HostPlugins, StatusesSayWhatTheyMean) {
  for (const char* kind : {"github", "gitlab", "bitbucket"}) {
    SCOPED_TRACE(kind);
    repo_reader::testkit::LoadedPlugin plugin(Plugin(kind));
    const HostPlugin* h = Load(plugin);
    ASSERT_NE(h, nullptr);
    GroupQuery q{"https://api.example", "acme", OwnerKind::kOrganisation, 100};
    EXPECT_NE(h->ParsePage(q, Answer(401, "{}")).error.find("refused the token"),
              std::string::npos);
    EXPECT_NE(h->ParsePage(q, Answer(404, "{}")).error.find("knows no"), std::string::npos);
    const auto slow = h->ParsePage(q, Answer(429, "{}", {{"retry-after", "30"}})).error;
    EXPECT_NE(slow.find("Retry-After: 30"), std::string::npos) << slow;
    EXPECT_NE(h->ParsePage(q, Answer(403, "{}", {{"X-RateLimit-Remaining", "0"}}))
                  .error.find("rate limit"),
              std::string::npos);
    // A page answered with an error never lists anything, even with a list in its body.
    auto denied = h->ParsePage(q, Answer(403, R"([{"full_name":"acme/x"}])"));
    EXPECT_TRUE(denied.repos.empty());
    EXPECT_FALSE(denied.error.empty());
  }
}

}  // namespace
}  // namespace host_plugins_test
