// groups: in the configuration, listed through the real host plugins against a fake of the
// host's API (fake_host.h), become mirrors: each listed repository once, a repository also
// configured one by one left out, the kept listing served when a listing fails and checked
// again when read.
#include "core/hosts/groups.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>

#include "core/app/wiring.h"
#include "tests/hosts/fake_host.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace groups_test {
namespace {

std::string Repo(const std::string& full_name, bool archived = false) {
  return R"({"full_name":")" + full_name + R"(","description":"about )" + full_name +
         R"(","default_branch":"main","archived":)" + (archived ? "true" : "false") +
         R"(,"fork":false})";
}

Result<Config> Parse(const TempDir& dir, const std::string& text) {
  return ParseConfig("mirror_folder: " + dir.path() + "\n" + text, dir / "c.yaml", dir.path());
}

TEST(GroupsConfig, AGroupIsAConfigurationOfItsOwn) {
  TempDir dir;
  auto c = Parse(dir,
                 "groups:\n"
                 "  - host: https://github.com\n    owner: acme\n    token_env: GH_TOKEN\n"
                 "    names: [\"shop*\"]\n    archived: true\n"
                 "  - host: https://gitlab.example.com\n    owner: platform/backend\n"
                 "    host_kind: gitlab\n"
                 "  - host: https://bitbucket.org\n    owner: acme\n    kind: user\n");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->groups.size(), 3u);
  EXPECT_EQ(c->groups[0].api, "https://api.github.com");
  EXPECT_EQ(c->groups[0].label, "github.com/acme");
  EXPECT_TRUE(c->groups[0].archived);
  EXPECT_EQ(c->groups[1].api, "https://gitlab.example.com/api/v4");
  EXPECT_EQ(c->groups[2].api, "https://api.bitbucket.org/2.0");
  EXPECT_TRUE(c->groups[2].user);
  EXPECT_EQ(c->plugins.builtin_hosts, (std::vector<std::string>{"github", "gitlab", "bitbucket"}));
}

TEST(GroupsConfig, MistakesAreSaidWithWhatToWrite) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"  - owner: acme\n", "`host` is missing"},
      {"  - host: https://github.com\n", "`owner` is missing"},
      {"  - host: https://github.com/acme\n    owner: acme\n", "without a path"},
      {"  - host: http://github.com\n    owner: acme\n", ".host"},
      {"  - host: https://tok@github.com\n    owner: acme\n", ".host"},
      {"  - host: https://github.com\n    owner: ../x\n", "not an owner's name"},
      {"  - host: https://git.example.com\n    owner: acme\n", "needs the host's kind"},
      {"  - host: https://github.com\n    owner: acme\n    token_env: \"ghp-abc:123\"\n", "NAME"},
      {"  - host: https://github.com\n    owner: acme\n    kind: team\n", "organisation"},
      {"  - host: https://github.com\n    owner: acme\n    colour: blue\n", "colour"},
  };
  for (const auto& [text, expected] : cases) {
    auto c = Parse(dir, std::string("groups:\n") + text);
    ASSERT_FALSE(c) << "accepted: " << text;
    EXPECT_TRUE(Has(c.error(), expected)) << text << "\n" << c.error();
  }
}

class GroupsTest : public ::testing::Test {
 protected:
  GroupsTest()
      : api_([this](const std::string& uri) {
          FakeHost::Reply r;
          if (fail_) {
            r.status = 503;
            return r;
          }
          if (!Has(uri, "/api/orgs/acme/repos")) {
            r.status = 404;
            return r;
          }
          r.body = "[" + Repo("acme/shop") + "," + Repo("acme/infra") + "," +
                   Repo("acme/old", true) + (slash_ ? "," + Repo("acme/evil/slash") : "") + "]";
          return r;
        }) {}

  Result<Config> Configure(const std::string& extra = "") {
    return Parse(dir_,
                 "groups:\n  - host: https://github.example\n    host_kind: github\n"
                 "    owner: acme\n    api: " +
                     api_.base() + "/api\n" + extra);
  }

  std::vector<GroupOutcome> Expand(Config* c) {
    ListLimits limits;
    limits.request = std::chrono::milliseconds(3000);
    limits.page = std::chrono::milliseconds(3000);
    return ExpandGroups(
        c, BuiltinHostPlugins(), [this](const std::string& l) { log_ += l + "\n"; }, limits);
  }

  TempDir dir_;
  bool fail_ = false;
  bool slash_ = false;  // the listing also holds `acme/evil/slash`
  std::string log_;
  FakeHost api_;
};

TEST_F(GroupsTest, EachListedRepositoryBecomesAMirror) {
  auto c = Configure();
  ASSERT_TRUE(c) << c.error();
  auto outcomes = Expand(c.operator->());
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].error.empty()) << outcomes[0].error;
  ASSERT_EQ(c->mirrors.size(), 2u);
  EXPECT_EQ(c->mirrors[0].name, "acme/shop");
  EXPECT_EQ(c->mirrors[0].url, "https://github.example/acme/shop.git");
  EXPECT_EQ(c->mirrors[0].group, "github.example/acme");
  EXPECT_EQ(c->mirrors[0].host_kind, "github");
  EXPECT_EQ(c->mirrors[0].description, "about acme/shop");
  ASSERT_TRUE(c->mirrors[0].state);
  EXPECT_EQ(c->mirrors[1].name, "acme/infra");
  EXPECT_TRUE(Has(log_, "group 1 of 1, github.example/acme: page 1")) << log_;
  auto catalog = BuildCatalog(*c);
  ASSERT_TRUE(catalog) << catalog.error();
  EXPECT_EQ((*catalog)->all().size(), 2u);
}

// A GitHub repository's name holds no '/': `acme/evil/slash` in a listing is no repository of
// acme, so it is not mirrored (it was, as `acme/evil/slash`), and the log says it was refused;
// a kept listing holding it is refused the same way.
TEST_F(GroupsTest, AListedNameWithASlashIsRefusedOnAHostWhoseNamesHaveNone) {
  slash_ = true;
  auto c = Configure();
  ASSERT_TRUE(c) << c.error();
  Expand(c.operator->());
  ASSERT_EQ(c->mirrors.size(), 2u);
  for (const auto& m : c->mirrors) EXPECT_EQ(m.name.find("evil"), std::string::npos) << m.name;
  EXPECT_TRUE(Has(log_,
                  "group 1 of 1, github.example/acme: a listed entry is left out: "
                  "`acme/evil/slash`: a repository's name on this host holds no `/` (it is "
                  "acme/<name>)"))
      << log_;
  {
    std::ofstream out(KeptListingFile(*c, c->groups[0]), std::ios::trunc);
    out << R"([{"path":"acme/evil/slash"},{"path":"acme/ok"}])";
  }
  fail_ = true;
  auto again = Configure();
  ASSERT_TRUE(again) << again.error();
  Expand(again.operator->());
  ASSERT_EQ(again->mirrors.size(), 1u);
  EXPECT_EQ(again->mirrors[0].name, "acme/ok");
}

TEST_F(GroupsTest, ARepositoryAlsoConfiguredOneByOneIsServedOnce) {
  auto c = Parse(dir_,
                 "mirrors:\n  - name: shop\n    url: https://GITHUB.example/Acme/Shop/\n"
                 "    exclude: [\"secrets/**\"]\n"
                 "groups:\n  - host: https://github.example\n    host_kind: github\n"
                 "    owner: acme\n    api: " +
                     api_.base() + "/api\n");
  ASSERT_TRUE(c) << c.error();
  auto outcomes = Expand(c.operator->());
  ASSERT_EQ(c->mirrors.size(), 2u);
  EXPECT_EQ(c->mirrors[0].name, "shop");  // its own entry, with its exclude
  EXPECT_EQ(c->mirrors[1].name, "acme/infra");
  EXPECT_EQ(outcomes[0].served_once, 1u);
}

TEST_F(GroupsTest, AFailedListingKeepsWhatTheGroupHad) {
  {
    auto c = Configure();
    ASSERT_TRUE(c) << c.error();
    Expand(c.operator->());
    ASSERT_EQ(c->mirrors.size(), 2u);
  }
  fail_ = true;
  auto c = Configure();
  ASSERT_TRUE(c) << c.error();
  auto outcomes = Expand(c.operator->());
  EXPECT_TRUE(Has(outcomes[0].error, "HTTP 503")) << outcomes[0].error;
  EXPECT_TRUE(outcomes[0].from_kept);
  EXPECT_EQ(c->mirrors.size(), 2u);
  EXPECT_TRUE(Has(log_, "the kept listing (2 repositories) is served")) << log_;
}

TEST_F(GroupsTest, TheKeptListingIsCheckedAgainWhenRead) {
  auto c = Configure();
  ASSERT_TRUE(c) << c.error();
  const std::string kept = KeptListingFile(*c, c->groups[0]);
  Expand(c.operator->());
  // Something else writes the kept listing: a repository outside the owner, one with `..`, an
  // archived one the entry does not take, and one it does.
  {
    std::ofstream out(kept, std::ios::trunc);
    out << R"([{"path":"other/planted"},{"path":"acme/../other/x"},)"
        << R"({"path":"acme/old","archived":true},{"path":"acme/ok"}])";
  }
  fail_ = true;
  auto again = Configure();
  ASSERT_TRUE(again) << again.error();
  Expand(again.operator->());
  ASSERT_EQ(again->mirrors.size(), 1u);
  EXPECT_EQ(again->mirrors[0].name, "acme/ok");
}

TEST_F(GroupsTest, AGroupThatNeverListedServesNothingAndSaysWhy) {
  fail_ = true;
  auto c = Configure();
  ASSERT_TRUE(c) << c.error();
  auto outcomes = Expand(c.operator->());
  EXPECT_TRUE(c->mirrors.empty());
  EXPECT_FALSE(outcomes[0].from_kept);
  EXPECT_TRUE(Has(log_, "nothing of it is served until a listing succeeds")) << log_;
}

TEST_F(GroupsTest, AMissingTokenFailsTheListingNamingTheVariable) {
  unsetenv("RR_TEST_NO_SUCH_TOKEN");
  auto c = Configure("    token_env: RR_TEST_NO_SUCH_TOKEN\n");
  ASSERT_TRUE(c) << c.error();
  auto outcomes = Expand(c.operator->());
  EXPECT_TRUE(Has(outcomes[0].error, "RR_TEST_NO_SUCH_TOKEN")) << outcomes[0].error;
  EXPECT_TRUE(api_.seen().empty());
}

TEST_F(GroupsTest, TheTokenGoesToTheApiAndNowhereInTheKeptListing) {
  setenv("RR_TEST_GROUP_TOKEN", "tok-group-secret-42", 1);
  auto c = Configure("    token_env: RR_TEST_GROUP_TOKEN\n");
  ASSERT_TRUE(c) << c.error();
  Expand(c.operator->());
  unsetenv("RR_TEST_GROUP_TOKEN");
  ASSERT_FALSE(api_.seen().empty());
  EXPECT_EQ(api_.seen()[0].headers.at("Authorization"), "Bearer tok-group-secret-42");
  std::ifstream in(KeptListingFile(*c, c->groups[0]));
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(Has(kept, "acme/shop"));
  EXPECT_FALSE(Has(kept, "tok-group-secret-42"));
  EXPECT_FALSE(Has(log_, "tok-group-secret-42"));
}

}  // namespace
}  // namespace groups_test
}  // namespace rr::testing
