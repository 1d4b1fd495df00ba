// Each section of the configuration read by its own reader (core/config/sections.h), without the
// rest of the file: what a valid section becomes, and what a wrong or hostile one is refused
// with -- the whole message, with its place -- while the reader leaves its values as they were
// (or empty, for a pasted token) and writes nothing on disk.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/config/sections.h"
#include "core/served/mirror_state.h"
#include "core/util/yaml_load.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing::section_readers {
namespace {

namespace fs = std::filesystem;
using cfg::Problems;
using testing::TempDir;
using testing::TestRepo;

class SectionReaders : public ::testing::Test {
 protected:
  void SetUp() override {
    TestRepo shop(tmp_ / "shop");
    shop.Write("a.txt", "a\n");
    shop.Commit("first");
    TestRepo rules(tmp_ / "rules", /*bare=*/true);
    root_ = fs::canonical(tmp_.path()).string();
  }
  // The file's tree; `p` is fresh for each.
  YAML::Node Root(const std::string& yaml) {
    p_ = Problems("c.yaml");
    return LoadYaml(yaml);
  }
  TempDir tmp_;
  std::string root_;
  Problems p_{"c.yaml"};
};

// --- repos -----------------------------------------------------------------------------------

TEST_F(SectionReaders, ReposAValidListBecomesItsEntries) {
  std::vector<RepoConfig> repos;
  cfg::ReadRepos(Root("repos:\n"
                      "  - name: shop\n"
                      "    path: shop\n"
                      "    description: The shop\n"
                      "    include: [\"src/**\", \"*.md\"]\n"
                      "    exclude: \"secrets/**\"\n"
                      "    listed: false\n"
                      "    own: false\n"
                      "    serve_credential_files: true\n"
                      "    guidance: {repo: rules, folder: teams/shop}\n"
                      "  - name: acme/rules\n"
                      "    path: rules\n"),
                 tmp_.path(), p_, &repos);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  ASSERT_EQ(repos.size(), 2u);
  EXPECT_EQ(repos[0].name, "shop");
  EXPECT_EQ(repos[0].path, root_ + "/shop");
  EXPECT_EQ(repos[0].description, "The shop");
  EXPECT_EQ(repos[0].include, (std::vector<std::string>{"src/**", "*.md"}));
  EXPECT_EQ(repos[0].exclude, (std::vector<std::string>{"secrets/**"}));
  EXPECT_FALSE(repos[0].listed);
  EXPECT_FALSE(repos[0].own);
  EXPECT_TRUE(repos[0].serve_credential_files);
  EXPECT_EQ(repos[0].guidance_repo, "rules");
  EXPECT_EQ(repos[0].guidance_folder, "teams/shop");
  EXPECT_EQ(repos[1].name, "acme/rules");
  EXPECT_EQ(repos[1].path, root_ + "/rules");
  EXPECT_TRUE(repos[1].listed);
}

TEST_F(SectionReaders, ReposEachWrongEntryIsRefusedWithItsPlaceAndWhatToWrite) {
  std::vector<RepoConfig> repos;
  cfg::ReadRepos(Root("repos:\n"
                      "  - name: shop\n"
                      "    path: shop\n"
                      "    inclde: [x]\n"
                      "  - name: shop\n"
                      "    path: nowhere\n"
                      "  - name: \"../up\"\n"
                      "    path: shop\n"
                      "    listed: maybe\n"
                      "  - just a word\n"),
                 tmp_.path(), p_, &repos);
  EXPECT_EQ(p_.Text(),
            "c.yaml:4:5: repos[0]: unknown key `inclde`; expected one of: name, path, "
            "description, include, exclude, listed, own, serve_credential_files, guidance\n"
            "c.yaml:5:11: repos[1].name `shop` is used twice; names must differ\n"
            "c.yaml:6:11: repos[1].path `nowhere` is not a git repository (resolved to " +
                tmp_ / "nowhere" +
                "); give a repository's folder, bare or with a work tree\n"
                "c.yaml:7:11: repos[2].name `../up` is not a valid name; use letters, digits, "
                "'.', '_' and '-' (owner/name allowed), starting with a letter or digit\n"
                "c.yaml:9:13: repos[2].listed must be true or false\n"
                "c.yaml:10:5: repos[3] must be a mapping with name and path");
  EXPECT_FALSE(fs::exists(tmp_ / "nowhere"));  // probing a path never makes it
}

TEST_F(SectionReaders, ReposMissingOrEmptyIsRefusedUnlessMirrorsOrGroupsServe) {
  std::vector<RepoConfig> repos;
  cfg::ReadRepos(Root("limits: {}\n"), tmp_.path(), p_, &repos);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:1: `repos:` is missing; list the repositories to serve, e.g.\n"
            "  repos:\n    - name: shop\n      path: /srv/git/shop");
  cfg::ReadRepos(Root("repos: []\n"), tmp_.path(), p_, &repos);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:8: `repos` must be a list with at least one repository (- name: …, path: "
            "…)");
  cfg::ReadRepos(Root("mirrors: []\n"), tmp_.path(), p_, &repos);
  EXPECT_TRUE(p_.empty()) << p_.Text();
  EXPECT_TRUE(repos.empty());
}

// --- http ------------------------------------------------------------------------------------

TEST_F(SectionReaders, HttpAValidSectionBecomesItsSettings) {
  HttpConfig h;
  cfg::ReadHttp(Root("http:\n"
                     "  listen: \"127.0.0.1:8080\"\n"
                     "  tokens:\n"
                     "    - token_env: TEAM_A_TOKEN\n"
                     "      repos: [shop, \"web/*\"]\n"
                     "  allowed_origins: [\"https://tools.example.com\"]\n"
                     "  max_calls: 8\n"
                     "  drain_seconds: 0\n"
                     "  metrics: {token_env: RR_METRICS_TOKEN}\n"),
                p_, &h);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  EXPECT_EQ(h.listen, "127.0.0.1:8080");
  ASSERT_EQ(h.tokens.size(), 1u);
  EXPECT_EQ(h.tokens[0].token_env, "TEAM_A_TOKEN");
  EXPECT_EQ(h.tokens[0].repos, (std::vector<std::string>{"shop", "web/*"}));
  EXPECT_EQ(h.allowed_origins, (std::vector<std::string>{"https://tools.example.com"}));
  EXPECT_EQ(h.max_calls, 8u);
  EXPECT_EQ(h.drain_seconds, 0u);
  EXPECT_TRUE(h.metrics);
  EXPECT_EQ(h.metrics_token_env, "RR_METRICS_TOKEN");
  EXPECT_EQ(h.max_body_bytes, 1048576u);  // untouched defaults
  EXPECT_EQ(h.idle_seconds, 60u);
}

TEST_F(SectionReaders, HttpAPastedTokenIsRefusedNeverRepeatedAndNeverKept) {
  const std::string token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
  HttpConfig h;
  cfg::ReadHttp(Root("http:\n  token_env: " + token + "\n  listen: 99999\n  max_calls: 0\n"), p_,
                &h);
  EXPECT_EQ(p_.Text(),
            "c.yaml:3:11: http.listen must be [ADDRESS:]PORT, e.g. \"127.0.0.1:8080\" or 8080\n"
            "c.yaml:2:14: http.token_env must be the NAME of an environment variable holding the "
            "token (capital letters, digits and _, not starting with a digit: token_env: "
            "GITHUB_TOKEN), never the token itself; the value given is not repeated here\n"
            "c.yaml:4:14: http.max_calls must be a whole number from 1 to 4,096");
  EXPECT_FALSE(Has(p_.Text(), token));
  EXPECT_EQ(h.token_env, "");
  EXPECT_EQ(h.max_calls, 32u);  // the default stays
}

TEST_F(SectionReaders, HttpMetricsReadableByACallersTokenIsRefused) {
  HttpConfig h;
  cfg::ReadHttp(Root("http:\n  token_env: T\n  metrics: true\n  port: 1\n"), p_, &h);
  EXPECT_EQ(p_.Text(),
            "c.yaml:4:3: http: unknown key `port`; expected one of: listen, token_env, tokens, "
            "behind_gateway, allowed_origins, max_body_bytes, idle_seconds, call_seconds, "
            "max_calls, max_connections, drain_seconds, metrics, request_seconds, "
            "max_connections_per_address\n"
            "c.yaml:3:12: http.metrics: true would let every caller's token read /metrics (every "
            "token's calls, every repository counted); give /metrics a token of its own: "
            "metrics: {token_env: RR_METRICS_TOKEN}");
}

// --- plugins ---------------------------------------------------------------------------------

TEST_F(SectionReaders, PluginsAValidSectionBecomesItsSpecs) {
  fs::create_directories(tmp_ / "plugins");
  PluginsConfig out;
  cfg::ReadPlugins(Root("plugin_folder: plugins\n"
                        "secrets: {builtin_detectors: false}\n"
                        "plugins:\n"
                        "  - name: acme-tokens\n"
                        "    settings: {level: strict}\n"
                        "  - path: lib/other.so\n"),
                   tmp_.path(), p_, &out);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  EXPECT_EQ(out.folder, root_ + "/plugins");
  EXPECT_FALSE(out.builtin_detectors);
  ASSERT_EQ(out.plugins.size(), 2u);
  EXPECT_EQ(out.plugins[0].name, "acme-tokens");
  EXPECT_EQ(out.plugins[0].where, "c.yaml:4:5");
  EXPECT_EQ(out.plugins[0].settings.at("level"), "strict");
  EXPECT_EQ(out.plugins[1].path, tmp_ / "lib/other.so");  // resolved where it exists only
}

TEST_F(SectionReaders, PluginsAHostileNameOrAnAmbiguousEntryLoadsNothing) {
  PluginsConfig out;
  cfg::ReadPlugins(Root("plugin_folder: nowhere\n"
                        "plugins:\n"
                        "  - name: ../../tmp/evil\n"
                        "  - name: a\n"
                        "    path: /opt/a.so\n"
                        "  - name: ok\n"
                        "    settings: [x]\n"),
                   tmp_.path(), p_, &out);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:16: plugin_folder `nowhere` is not a folder (resolved to " +
                tmp_ / "nowhere" +
                ")\n"
                "c.yaml:3:11: plugins[0].name `../../tmp/evil` is not a plugin's name; use "
                "letters, digits, '.', '_' and '-', or give its file with path:\n"
                "c.yaml:4:5: plugins[1]: give exactly one of `name` (a plugin in the plugin "
                "folder, e.g. name: acme-tokens) and `path` (its file, e.g. path: "
                "/opt/acme/acme-tokens.so)\n"
                "c.yaml:7:15: plugins[2].settings must be a mapping of names to values");
  ASSERT_EQ(out.plugins.size(), 1u);  // only the entry whose name is a plugin's
  EXPECT_EQ(out.plugins[0].name, "ok");
  EXPECT_TRUE(out.plugins[0].settings.empty());
  EXPECT_FALSE(fs::exists(tmp_ / "nowhere"));
}

// --- mirrors ---------------------------------------------------------------------------------

TEST_F(SectionReaders, MirrorsAValidSectionIsKeptUnderTheMirrorFolderAndNamesItsHostPlugin) {
  Config c;
  cfg::ReadMirrors(Root("mirror_folder: " + tmp_ / "kept" +
                        "\n"
                        "mirrors:\n"
                        "  - name: shop\n"
                        "    url: https://github.com/acme/shop.git\n"
                        "    refs: [main, \"release/*\"]\n"
                        "    token_env: GITHUB_TOKEN\n"
                        "    sync_every: 1h\n"),
                   p_, &c);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  EXPECT_EQ(c.mirror_folder, tmp_ / "kept");
  ASSERT_EQ(c.mirrors.size(), 1u);
  const MirrorConfig& m = c.mirrors[0];
  EXPECT_EQ(m.host_kind, "github");
  EXPECT_EQ(m.sync_every, 3600);
  EXPECT_EQ(m.token_env, "GITHUB_TOKEN");
  EXPECT_EQ(m.dir, tmp_ / "kept/" + MirrorDigest(m) + ".git");
  ASSERT_TRUE(m.state);
  EXPECT_FALSE(m.state->Mirrored());
  EXPECT_EQ(c.plugins.builtin_hosts, std::vector<std::string>{"github"});
  EXPECT_FALSE(fs::exists(tmp_ / "kept"));  // made by the sync, never by reading
}

TEST_F(SectionReaders, MirrorsAURLWithCredentialsOrANameTakenIsRefusedAndNotRepeated) {
  Config c;
  RepoConfig shop;
  shop.name = "shop";
  shop.path = root_ + "/shop";
  c.repos.push_back(shop);
  cfg::ReadMirrors(Root("mirror_folder: " + root_ +
                        "/shop/mirrors\n"
                        "mirrors:\n"
                        "  - name: shop\n"
                        "    url: https://x:hunter2@github.com/acme/shop.git\n"
                        "    sync_every: 10s\n"),
                   p_, &c);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:16: mirror_folder " + root_ +
                "/shop/mirrors lies inside repository `shop`; the server never writes inside a "
                "repository: choose a folder outside every served one\n"
                "c.yaml:3:11: mirrors[0].name `shop` is used twice (by a repository or a "
                "mirror); names must differ\n"
                "c.yaml:4:10: mirrors[0].url holds credentials (user@ or user:password@); remove "
                "them and name the token's environment variable with token_env\n"
                "c.yaml:5:17: mirrors[0].sync_every `10s` must be a time of at least a minute: a "
                "number and s, m, h or d (15m, 1h)");
  EXPECT_FALSE(Has(p_.Text(), "hunter2"));
  EXPECT_EQ(c.mirror_folder, "");
  ASSERT_EQ(c.mirrors.size(), 1u);
  EXPECT_FALSE(c.mirrors[0].state);  // no folder, no state: nothing to sync into
  EXPECT_FALSE(fs::exists(root_ + "/shop/mirrors"));
}

// --- groups ----------------------------------------------------------------------------------

TEST_F(SectionReaders, GroupsAValidGroupGetsItsAPIAndLabel) {
  Config c;
  cfg::ReadGroups(Root("mirror_folder: " + tmp_ / "kept" +
                       "\n"
                       "groups:\n"
                       "  - host: https://gitlab.example.com/\n"
                       "    owner: platform/backend\n"
                       "    host_kind: gitlab\n"
                       "    names: [\"svc-*\"]\n"
                       "    list_every: 1d\n"
                       "    description: Backend services\n"),
                  "c.yaml", p_, &c);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  ASSERT_EQ(c.groups.size(), 1u);
  const GroupConfig& g = c.groups[0];
  EXPECT_EQ(g.host, "https://gitlab.example.com");
  EXPECT_EQ(g.api, "https://gitlab.example.com/api/v4");
  EXPECT_EQ(g.label, "gitlab.example.com/platform/backend");
  EXPECT_EQ(g.where, "c.yaml:3:5");
  EXPECT_EQ(g.list_every, 86400);
  EXPECT_EQ(g.description, "Backend services");
  EXPECT_EQ(c.mirror_folder, tmp_ / "kept");
  EXPECT_EQ(c.plugins.builtin_hosts, std::vector<std::string>{"gitlab"});
}

TEST_F(SectionReaders, GroupsAHostWithAPathAnUnknownKindOrAnOwnerThatClimbsIsRefused) {
  Config c;
  cfg::ReadGroups(Root("mirror_folder: " + tmp_ / "kept" +
                       "\n"
                       "groups:\n"
                       "  - host: https://git.example.com/evil\n"
                       "    owner: ../acme\n"
                       "  - host: https://git.example.com\n"
                       "    owner: acme\n"),
                  "c.yaml", p_, &c);
  EXPECT_EQ(p_.Text(),
            "c.yaml:3:11: groups[0].host must be a web address without a path, e.g. "
            "https://gitlab.example.com\n"
            "c.yaml:4:12: groups[0].owner `../acme` is not an owner's name: letters, digits, "
            "'.', '_', '-', and '/' between a GitLab group's parts\n"
            "c.yaml:3:11: groups[0]: a group needs the host's kind to be listed: host_kind: "
            "github, gitlab or bitbucket (guessed only for github.com, gitlab.com and "
            "bitbucket.org)\n"
            "c.yaml:5:11: groups[1]: a group needs the host's kind to be listed: host_kind: "
            "github, gitlab or bitbucket (guessed only for github.com, gitlab.com and "
            "bitbucket.org)");
  EXPECT_TRUE(c.plugins.builtin_hosts.empty());  // no host plugin is loaded for them
}

// Without HOME or XDG_STATE_HOME no mirror folder is known. A group with no `mirrors:` beside it
// used to make the reader ask for the place of `mirrors:` and fail with yaml-cpp's "invalid node"
// (exit 70) when the file also had `repos:`; the problem is now reported with the file's name.
TEST_F(SectionReaders, GroupsWithNoMirrorFolderKnownSayHowToSetOne) {
  struct Unset {  // the server's environment, for this test only
    std::string home, state;
    Unset()
        : home(std::getenv("HOME") ? std::getenv("HOME") : ""),
          state(std::getenv("XDG_STATE_HOME") ? std::getenv("XDG_STATE_HOME") : "") {
      unsetenv("HOME");
      unsetenv("XDG_STATE_HOME");
    }
    ~Unset() {
      if (!home.empty()) setenv("HOME", home.c_str(), 1);
      if (!state.empty()) setenv("XDG_STATE_HOME", state.c_str(), 1);
    }
  } unset;
  const std::string said =
      "c.yaml: mirrors need a folder to be kept in and none is known (neither XDG_STATE_HOME "
      "nor HOME is set); set mirror_folder: /var/lib/repo-reader/mirrors";
  for (const std::string& yaml :
       {std::string("groups:\n  - host: https://github.com\n    owner: acme\n"),
        std::string("repos:\n  - name: shop\n    path: shop\ngroups:\n  - host: "
                    "https://github.com\n    owner: acme\n")}) {
    auto c = ParseConfig(yaml, "c.yaml", tmp_.path());
    ASSERT_FALSE(c) << yaml;
    EXPECT_EQ(c.error(), said) << yaml;
  }
}

// --- guidance --------------------------------------------------------------------------------

TEST_F(SectionReaders, GuidanceTheTopLevelRepositoryIsEveryOthersDefault) {
  Config c;
  for (const char* name : {"shop", "web", "rules"}) {
    RepoConfig r;
    r.name = name;
    c.repos.push_back(r);
  }
  c.repos[1].guidance_folder = "web";
  cfg::ReadGuidance(Root("guidance: {repo: rules}\n"), p_, &c);
  ASSERT_TRUE(p_.empty()) << p_.Text();
  EXPECT_EQ(c.guidance_repo, "rules");
  EXPECT_EQ(c.repos[0].guidance_repo, "rules");
  EXPECT_EQ(c.repos[1].guidance_repo, "rules");
  EXPECT_EQ(c.repos[1].guidance_folder, "web");
  EXPECT_EQ(c.repos[2].guidance_repo, "");  // the guidance repository takes none itself
}

TEST_F(SectionReaders, GuidanceNamingNoServedRepositoryOrAFolderThatClimbsIsRefused) {
  RepoConfig rc;
  cfg::ReadRepoGuidance(Root("guidance: {repo: rules, folder: ../../etc}\n")["guidance"],
                        "repos[0]", p_, &rc);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:33: repos[0].guidance.folder `../../etc` is not a folder's path; write one "
            "such as shop or teams/shop");
  Config c;
  RepoConfig shop;
  shop.name = "shop";
  c.repos.push_back(shop);
  cfg::ReadGuidance(Root("guidance: {repo: elsewhere, extra: 1}\n"), p_, &c);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:29: guidance: unknown key `extra`; expected one of: repo\n"
            "c.yaml:1:11: guidance: `elsewhere` is not a repository of `repos`; list the "
            "guidance repository there too (listed: false keeps it out of list_repos)");
}

// --- limits and the cache folder -------------------------------------------------------------

TEST_F(SectionReaders, LimitsOutOfRangeKeepsTheDefault) {
  size_t answer = 40000;
  cfg::ReadLimits(Root("limits: {answer_characters: 60000}\n"), p_, &answer);
  EXPECT_TRUE(p_.empty()) << p_.Text();
  EXPECT_EQ(answer, 60000u);
  cfg::ReadLimits(Root("limits: {answer_characters: 4999}\n"), p_, &answer);
  EXPECT_EQ(p_.Text(),
            "c.yaml:1:29: limits.answer_characters must be a whole number from 5,000 to "
            "1,000,000");
  EXPECT_EQ(answer, 60000u);
}

TEST_F(SectionReaders, CacheAFolderInsideARepositoryIsRefusedAndNotMade) {
  Config c;
  RepoConfig shop;
  shop.name = "shop";
  shop.path = root_ + "/shop";
  c.repos.push_back(shop);
  cfg::ReadCache(Root("cache_folder: " + root_ + "/shop/.cache\nhistory_index: sometimes\n"), p_,
                 &c);
  EXPECT_EQ(p_.Text(),
            "c.yaml:2:16: history_index must be true or false\n"
            "c.yaml:1:15: cache_folder `" +
                root_ + "/shop/.cache` lies inside repository `shop` (" + root_ +
                "/shop); the server never writes inside a repository: choose a folder outside "
                "every served one");
  EXPECT_EQ(c.cache_folder, "");
  EXPECT_FALSE(fs::exists(root_ + "/shop/.cache"));
}

}  // namespace
}  // namespace rr::testing::section_readers
