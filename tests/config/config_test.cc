#include "core/config/config.h"

#include <gtest/gtest.h>

#include "tests/testkit/git_fixture.h"

namespace rr {
namespace config_test {
namespace {

using testing::TempDir;
using testing::TestRepo;

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    repo_->Write("a.txt", "a\n");
    repo_->Commit("first");
  }
  Result<Config> Parse(const std::string& yaml) {
    return ParseConfig(yaml, "repo-reader.yaml", tmp_.path());
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
};

TEST_F(ConfigTest, AFullEntryIsRead) {
  auto c = Parse(R"(repos:
  - name: shop
    path: shop
    description: A made-up shop.
    include: ["src/**", "*.md"]
    exclude: config/prod.*
    listed: false
    own: false
    serve_credential_files: true
limits:
  answer_characters: 12000
)");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->repos.size(), 1u);
  const RepoConfig& r = c->repos[0];
  EXPECT_EQ(r.name, "shop");
  EXPECT_EQ(r.path, repo_->path());  // relative to the configuration's folder
  EXPECT_EQ(r.description, "A made-up shop.");
  EXPECT_EQ(r.include, (std::vector<std::string>{"src/**", "*.md"}));
  EXPECT_EQ(r.exclude, (std::vector<std::string>{"config/prod.*"}));
  EXPECT_FALSE(r.listed);
  EXPECT_FALSE(r.own);
  EXPECT_TRUE(r.serve_credential_files);
  EXPECT_EQ(c->answer_characters, 12000u);
}

struct BadCase {
  const char* yaml;
  const char* where;  // file:line:column expected in the message
  const char* says;   // part of the message
};

TEST_F(ConfigTest, EachProblemIsRefusedWithFileLineColumnAndWhatToWrite) {
  const BadCase cases[] = {
      {"repos:\n  - name: shop\n    path: shop\n    inclde: [x]\n", "repo-reader.yaml:4:5",
       "unknown key `inclde`"},
      {"repos:\n  - name: shop\n    path: shop\n    listed: maybe\n", "repo-reader.yaml:4:13",
       "must be true or false"},
      {"repos:\n  - name: shop\n    path: shop\n  - name: shop\n    path: shop\n",
       "repo-reader.yaml:4:11", "used twice"},
      {"repos:\n  - name: shop\n    path: nowhere\n", "repo-reader.yaml:3:11",
       "is not a git repository"},
      {"repos:\n  - name: shop\n", "repo-reader.yaml:2:5", "`path` is missing"},
      {"repos:\n  - name: -bad name\n    path: shop\n", "repo-reader.yaml:2:11",
       "not a valid name"},
      {"repos:\n  - name: shop\n    path: shop\nlimits:\n  answer_characters: 10\n",
       "repo-reader.yaml:5:22", "from 5,000 to 1,000,000"},
      {"repos:\n  - name: shop\n    path: shop\n    include: ['../x']\n", "repo-reader.yaml:4:14",
       "`..` part"},
      {"repos: [\n", "repo-reader.yaml:2:1", "not valid YAML"},
      {"repo:\n  - name: shop\n", "repo-reader.yaml:1:1", "unknown key `repo`"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  port: 8080\n", "repo-reader.yaml:5:3",
       "http: unknown key `port`"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  listen: somewhere\n",
       "repo-reader.yaml:5:11", "[ADDRESS:]PORT"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  tokens:\n    - token_env: A\n",
       "repo-reader.yaml:6:7", "`repos` is missing"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  max_calls: 0\n", "repo-reader.yaml:5:14",
       "from 1 to 4,096"},
      {"repos:\n  - name: shop\n    path: shop\n    name: again\n", "repo-reader.yaml:4:5",
       "given twice"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  metrics: maybe\n", "repo-reader.yaml:5:12",
       "http.metrics must be true, false, or /metrics' own token"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  metrics: {}\n", "repo-reader.yaml:5:12",
       "http.metrics: `token_env` is missing"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  metrics: {token_env: M, scrape: 1}\n",
       "repo-reader.yaml:5:27", "http.metrics: unknown key `scrape`"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  token_env: T\n  metrics: true\n",
       "repo-reader.yaml:6:12", "give /metrics a token of its own: metrics: {token_env:"},
      {"repos:\n  - name: shop\n    path: shop\nhttp:\n  tokens:\n    - token_env: T\n"
       "      repos: [shop]\n  metrics: {token_env: T}\n",
       "repo-reader.yaml:8:24", "/metrics needs a token of its own, in a variable of its own"},
      {"", "repo-reader.yaml", "empty"},
  };
  for (const auto& c : cases) {
    auto r = Parse(c.yaml);
    ASSERT_FALSE(r) << c.yaml;
    EXPECT_NE(r.error().find(c.where), std::string::npos) << c.yaml << "\n→ " << r.error();
    EXPECT_NE(r.error().find(c.says), std::string::npos) << c.yaml << "\n→ " << r.error();
  }
}

TEST_F(ConfigTest, EveryTokenEnvTakesOnlyAVariablesNameAndNeverRepeatsAnythingElse) {
  const char* const values[] = {"abc123def456", "github_token",
                                "Token",        "1TOKEN",
                                "A-B",          "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
                                "\"A B\"",      "\"\""};
  const std::string repo = "repos:\n  - name: shop\n    path: shop\n";
  for (const char* v : values) {
    const std::string value = v;
    for (const std::string& yaml : {
             repo + "http:\n  token_env: " + value + "\n",
             repo + "http:\n  tokens:\n    - token_env: " + value + "\n      repos: [shop]\n",
             repo + "http:\n  metrics:\n    token_env: " + value + "\n",
             repo +
                 "mirrors:\n  - name: web\n    url: https://github.com/acme/web.git\n"
                 "    token_env: " +
                 value + "\n",
             repo + "groups:\n  - host: https://github.com\n    owner: acme\n    token_env: " +
                 value + "\n",
         }) {
      auto r = Parse(yaml);
      ASSERT_FALSE(r) << yaml;
      EXPECT_NE(r.error().find("token_env must be the NAME of an environment variable"),
                std::string::npos)
          << yaml << "\n→ " << r.error();
      if (value.size() > 4) {
        EXPECT_EQ(r.error().find(value), std::string::npos) << r.error();
      }
    }
  }
  for (const char* name : {"REPO_READER_TOKEN", "_T", "T1", "GITHUB_TOKEN"}) {
    auto r = Parse(repo + "http:\n  metrics: {token_env: " + std::string(name) + "}\n");
    ASSERT_TRUE(r) << name << ": " << r.error();
    EXPECT_TRUE(r->http.metrics);
    EXPECT_EQ(r->http.metrics_token_env, name);
  }
  for (const char* name : {"REPO_READER_TOKEN", "_T", "T1", "GITHUB_TOKEN"}) {
    auto r = Parse(repo + "http:\n  token_env: " + std::string(name) + "\n");
    ASSERT_TRUE(r) << name << ": " << r.error();
    EXPECT_EQ(r->http.token_env, name);
  }
}

TEST_F(ConfigTest, AllProblemsAreReportedAtOnce) {
  auto r = Parse("repos:\n  - name: shop\n    path: nowhere\n    listed: 3\n");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find(":3:"), std::string::npos);
  EXPECT_NE(r.error().find(":4:"), std::string::npos);
}

TEST_F(ConfigTest, DefaultServesTheRepositoryOfTheCurrentFolderByItsFolderName) {
  repo_->Write("sub/deeper/x.txt", "x\n");
  auto c = DefaultConfig(repo_->path() + "/sub/deeper");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->repos.size(), 1u);
  EXPECT_EQ(c->repos[0].name, "shop");
  EXPECT_EQ(c->repos[0].path, repo_->path());
}

TEST_F(ConfigTest, DefaultOutsideARepositorySaysHowToConfigure) {
  auto c = DefaultConfig(tmp_.path());
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().find("--config"), std::string::npos) << c.error();
}

TEST(RepoNames, WhatIsAccepted) {
  for (const char* ok : {"shop", "acme/shop", "a.b_c-d", "X1"}) EXPECT_TRUE(IsValidRepoName(ok));
  for (const char* bad : {"", "-x", ".x", "a b", "a/", "/a", "a//b", "ü"}) {
    EXPECT_FALSE(IsValidRepoName(bad)) << bad;
  }
}

}  // namespace
}  // namespace config_test
}  // namespace rr
