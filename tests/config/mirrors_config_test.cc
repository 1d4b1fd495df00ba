// mirrors: and mirror_folder: in the configuration: what is refused and why, and where each
// mirror is kept.
#include <gtest/gtest.h>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace mirrors_config_test {
namespace {

Result<Config> Parse(const TempDir& dir, const std::string& mirrors) {
  return ParseConfig("mirror_folder: " + dir.path() + "/mirrors\nmirrors:\n" + mirrors, "c.yaml",
                     dir.path());
}

TEST(MirrorsConfig, AMirrorAloneIsAConfigurationKeptUnderTheMirrorFolder) {
  TempDir dir;
  auto c = Parse(dir, "  - name: shop\n    url: https://github.com/acme/shop.git\n");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->mirrors.size(), 1u);
  const MirrorConfig& m = c->mirrors[0];
  EXPECT_EQ(m.host_kind, "github");
  EXPECT_EQ(m.sync_every, 15 * 60);
  EXPECT_EQ(m.dir, dir.path() + "/mirrors/" + MirrorDigest(m) + ".git");
  ASSERT_TRUE(m.state);
  EXPECT_FALSE(m.state->Mirrored());
  auto catalog = BuildCatalog(*c);
  ASSERT_TRUE(catalog) << catalog.error();
  ASSERT_EQ((*catalog)->all().size(), 1u);
  EXPECT_EQ((*catalog)->all()[0]->settings().path, m.dir);
}

TEST(MirrorsConfig, URLsThatCouldLeakOrMisleadAreRefused) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"https://user:pw@github.com/acme/shop.git", "holds credentials"},
      {"https://ghp_abc@github.com/acme/shop.git", "holds credentials"},
      {"https://github.com/acme/shop.git?token=x", "a query"},
      {"https://github.com/acme/shop.git#main", "a fragment"},
      {"http://github.com/acme/shop.git", "plain http to another machine"},
      {"http://127.0.0.2/shop.git", "plain http to another machine"},
      {"ssh://git@github.com/acme/shop.git", "must start with https://"},
      {"ext::sh -c touch% /tmp/x", "a space"},
      {"file:///srv/git/shop.git", "must start with https://"},
      {"https://github.com/acme/../other/shop.git", "`..`"},
      {"https://github.com", "must name a host and a repository's path"},
  };
  for (const auto& [url, why] : cases) {
    auto c = Parse(dir, std::string("  - name: shop\n    url: \"") + url + "\"\n");
    ASSERT_FALSE(c) << url;
    EXPECT_TRUE(Has(c.error(), why)) << url << ": " << c.error();
    EXPECT_TRUE(Has(c.error(), "c.yaml:4:10: mirrors[0].url")) << c.error();
  }
  for (const char* url : {"http://127.0.0.1:8080/shop.git", "http://localhost/shop",
                          "http://[::1]:9000/shop.git", "https://gitlab.example.com/g/s/app"}) {
    auto c = Parse(dir, std::string("  - name: shop\n    url: \"") + url + "\"\n");
    EXPECT_TRUE(c) << url << ": " << c.error();
  }
}

TEST(MirrorsConfig, ATokenIsNamedNeverWritten) {
  TempDir dir;
  auto c = Parse(dir,
                 "  - name: shop\n    url: https://github.com/acme/shop.git\n    token_env: "
                 "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB-\n");
  ASSERT_FALSE(c);
  EXPECT_TRUE(Has(c.error(), "must be the NAME of an environment variable")) << c.error();
  // The value is not repeated in the error.
  EXPECT_FALSE(Has(c.error(), "0123456789abcdefghij")) << c.error();
  auto ok = Parse(dir,
                  "  - name: shop\n    url: https://github.com/acme/shop.git\n    token_env: "
                  "GITHUB_TOKEN\n");
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->mirrors[0].token_env, "GITHUB_TOKEN");
}

TEST(MirrorsConfig, EachConfigurationGetsAMirrorOfItsOwn) {
  TempDir dir;
  auto a = Parse(dir, "  - name: shop\n    url: https://github.com/acme/shop.git\n");
  auto b = Parse(dir,
                 "  - name: shop\n    url: https://github.com/acme/shop.git\n    exclude: "
                 "[secret]\n");
  auto t = Parse(dir,
                 "  - name: shop\n    url: https://github.com/acme/shop.git\n    token_env: "
                 "T\n");
  auto r =
      Parse(dir, "  - name: shop\n    url: https://github.com/acme/shop.git\n    refs: [v*]\n");
  auto same = Parse(dir, "  - name: other\n    url: https://github.com/acme/shop.git\n");
  ASSERT_TRUE(a && b && t && r && same);
  EXPECT_NE(a->mirrors[0].dir, b->mirrors[0].dir);
  EXPECT_NE(a->mirrors[0].dir, t->mirrors[0].dir);
  EXPECT_NE(a->mirrors[0].dir, r->mirrors[0].dir);
  // The name agents use does not change what is fetched.
  EXPECT_EQ(a->mirrors[0].dir, same->mirrors[0].dir);
}

TEST(MirrorsConfig, ProblemsAreReportedWithTheirPlace) {
  TempDir dir;
  TestRepo repo(dir / "shop");
  repo.Write("a", "a\n");
  repo.Commit("a");
  auto c = ParseConfig("repos:\n  - name: shop\n    path: " + repo.path() +
                           "\nmirror_folder: " + dir.path() +
                           "/m\nmirrors:\n  - name: shop\n"
                           "    url: https://github.com/acme/shop.git\n    sync_every: 5s\n"
                           "    host_kind: GitHub!\n    refs: [\"-x\"]\n    colour: red\n",
                       "c.yaml", dir.path());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Has(c.error(), "mirrors[0].name `shop` is used twice")) << c.error();
  EXPECT_TRUE(Has(c.error(), "sync_every `5s` must be a time of at least a minute")) << c.error();
  EXPECT_TRUE(Has(c.error(), "host_kind must be a host plugin's kind")) << c.error();
  EXPECT_TRUE(Has(c.error(), "refs `-x` is not a branch or tag glob")) << c.error();
  EXPECT_TRUE(Has(c.error(), "unknown key `colour`")) << c.error();
}

TEST(MirrorsConfig, TheMirrorFolderNeverLiesInsideAServedRepository) {
  TempDir dir;
  TestRepo repo(dir / "shop");
  repo.Write("a", "a\n");
  repo.Commit("a");
  auto c = ParseConfig("repos:\n  - name: local\n    path: " + repo.path() +
                           "\nmirror_folder: " + repo.path() +
                           "/mirrors\nmirrors:\n  - name: shop\n    url: "
                           "https://github.com/acme/shop.git\n",
                       "c.yaml", dir.path());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Has(c.error(), "lies inside repository `local`")) << c.error();
}

}  // namespace
}  // namespace mirrors_config_test
}  // namespace rr::testing
