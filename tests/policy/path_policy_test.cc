#include "core/policy/path_policy.h"

#include <gtest/gtest.h>

namespace rr {
namespace {

RepoPath P(const char* s) { return *RepoPath::Parse(s); }

PathPolicy Make(std::vector<std::string> include, std::vector<std::string> exclude,
                bool creds = false) {
  auto p = PathPolicy::Make(include, exclude, creds);
  EXPECT_TRUE(p) << p.error();
  return p.take();
}

TEST(Glob, StarStaysInOnePartAndDoubleStarCrossesFolders) {
  auto g = Glob::Compile("src/*.py");
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->Matches(P("src/app.py").parts()));
  EXPECT_FALSE(g->Matches(P("src/api/app.py").parts()));
  auto gg = Glob::Compile("src/**/*.py");
  EXPECT_TRUE(gg->Matches(P("src/app.py").parts()));
  EXPECT_TRUE(gg->Matches(P("src/a/b/c.py").parts()));
  EXPECT_FALSE(gg->Matches(P("lib/a.py").parts()));
}

TEST(Glob, PatternWithoutSlashMatchesANameAtAnyDepth) {
  auto g = Glob::Compile("*.md");
  EXPECT_TRUE(g->Matches(P("README.md").parts()));
  EXPECT_TRUE(g->Matches(P("docs/deep/guide.md").parts()));
  EXPECT_FALSE(g->Matches(P("docs/guide.mdx").parts()));
  auto anchored = Glob::Compile("/README.md");
  EXPECT_TRUE(anchored->Matches(P("README.md").parts()));
  EXPECT_FALSE(anchored->Matches(P("docs/README.md").parts()));
}

TEST(Glob, ClassesQuestionMarksAndEscapes) {
  EXPECT_TRUE(MatchPart("v[0-9].?", "v1.x", false));
  EXPECT_FALSE(MatchPart("v[!0-9]*", "v1", false));
  EXPECT_TRUE(MatchPart("a\\*b", "a*b", false));
  EXPECT_FALSE(MatchPart("a\\*b", "axb", false));
  EXPECT_TRUE(MatchPart("*.PEM", "key.pem", true));
}

TEST(Glob, BadPatternsAreRefusedWithAReason) {
  for (const char* bad : {"", "a//b", "../x", "src/a**", "[abc", "/"}) {
    auto g = Glob::Compile(bad);
    EXPECT_FALSE(g) << bad;
    EXPECT_FALSE(g.error().empty());
  }
}

TEST(Glob, CouldMatchBelowPrunesFoldersNoPatternReaches) {
  auto g = Glob::Compile("src/api/*.py");
  EXPECT_TRUE(g->CouldMatchBelow(P("src").parts()));
  EXPECT_TRUE(g->CouldMatchBelow(P("src/api").parts()));
  EXPECT_FALSE(g->CouldMatchBelow(P("docs").parts()));
  EXPECT_FALSE(g->CouldMatchBelow(P("src/db").parts()));
  EXPECT_TRUE(Glob::Compile("**/*.py")->CouldMatchBelow(P("anything/deep").parts()));
}

TEST(PathPolicy, IncludeServesOnlyWhatItNames) {
  auto p = Make({"src/**", "*.md"}, {});
  EXPECT_TRUE(p.ServesFile(P("src/app.py")));
  EXPECT_TRUE(p.ServesFile(P("docs/guide.md")));
  EXPECT_FALSE(p.ServesFile(P("config/settings.yml")));
  EXPECT_FALSE(p.Outside(P("config")));  // a *.md could be below
  EXPECT_TRUE(p.partial());
  auto only_src = Make({"src/**"}, {});
  EXPECT_TRUE(only_src.Outside(P("config")));
  EXPECT_TRUE(only_src.Outside(P("config/settings.yml")));
  EXPECT_FALSE(only_src.Outside(P("src")));
}

TEST(PathPolicy, ExcludeWinsOverIncludeAndCoversEverythingBelow) {
  auto p = Make({"config/**"}, {"config/prod.*"});
  EXPECT_TRUE(p.ServesFile(P("config/dev.yml")));
  EXPECT_FALSE(p.ServesFile(P("config/prod.yml")));
  EXPECT_TRUE(p.Outside(P("config/prod.d/secrets.yml")));
}

TEST(PathPolicy, CredentialFilesAreExcludedEverywhereUnlessServed) {
  auto p = PathPolicy::Default();
  EXPECT_FALSE(p.partial());
  for (const char* c : {".env",
                        "app/.env",
                        ".env.local",
                        ".env.production",
                        "prod.env",
                        ".envrc",
                        "certs/server.pem",
                        "tls.key",
                        "a.p12",
                        "a.pfx",
                        "a.jks",
                        "a.keystore",
                        "vault.kdbx",
                        "putty.ppk",
                        "infra/terraform.tfstate",
                        "id_rsa",
                        "home/.ssh/id_ed25519",
                        "id_rsa_github",
                        "id_ecdsa.bak",
                        "id_dsa",
                        ".netrc",
                        ".pgpass",
                        ".pypirc",
                        ".git-credentials",
                        ".ENV"}) {
    EXPECT_FALSE(p.ServesFile(P(c))) << c;
    EXPECT_TRUE(p.Outside(P(c))) << c;
  }
  for (const char* ok : {".env.example", ".env.sample", ".env.template", "id_rsa.pub",
                         "environment.md", "keys.txt", "src/env.py", "README.md"}) {
    EXPECT_TRUE(p.ServesFile(P(ok))) << ok;
  }
  auto served = Make({}, {}, /*creds=*/true);
  EXPECT_TRUE(served.ServesFile(P(".env")));
  EXPECT_TRUE(served.ServesFile(P("id_rsa")));
}

}  // namespace
}  // namespace rr
