#include "core/policy/path_policy.h"

#include <gtest/gtest.h>

namespace rr {
namespace path_policy_test {
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

TEST(Glob, AWholeNamePatternWithoutSlashNamesTheWholeName) {
  // A mirror's refs and an HTTP token's repos: `main` is the branch main, not feature/main.
  auto main = Glob::CompileWhole("main");
  ASSERT_TRUE(main) << main.error();
  EXPECT_TRUE(main->Matches(P("main").parts()));
  EXPECT_FALSE(main->Matches(P("feature/main").parts()));
  EXPECT_TRUE(Glob::Compile("main")->Matches(P("feature/main").parts()));  // a path's pattern
  auto release = Glob::CompileWhole("release/*");
  EXPECT_TRUE(release->Matches(P("release/1.0").parts()));
  EXPECT_FALSE(release->Matches(P("old/release/1.0").parts()));
  // The bound is the pattern's own, the '/' written before it not counted.
  EXPECT_TRUE(Glob::CompileWhole(std::string(Glob::kMaxBytes, 'a')));
  EXPECT_FALSE(Glob::CompileWhole(std::string(Glob::kMaxBytes + 1, 'a')));
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

TEST(Glob, APatternPastItsBoundsIsRefusedWithTheBoundAndNotEchoedWhole) {
  // At the bounds: 1,024 bytes, 64 parts.
  std::string longest = "src/" + std::string(Glob::kMaxBytes - 4, 'x');
  ASSERT_EQ(longest.size(), 1024u);
  EXPECT_TRUE(Glob::Compile(longest));
  std::string deepest = "**";
  for (size_t i = 1; i < Glob::kMaxParts; ++i) deepest += "/d";
  ASSERT_TRUE(Glob::Compile(deepest));
  std::string path = "top";
  for (size_t i = 1; i < Glob::kMaxParts; ++i) path += "/d";
  EXPECT_TRUE(Glob::Compile(deepest)->Matches(P(path.c_str()).parts()));
  EXPECT_FALSE(Glob::Compile(deepest)->Matches(P((path + "/e").c_str()).parts()));

  // A leading `/` is not counted: the server anchors a configured name pattern that has no `/`
  // (a mirror's refs, a token's repos) by writing one before it, after --check read it as
  // written.
  const std::string name_only(Glob::kMaxBytes, 'n');
  EXPECT_TRUE(Glob::Compile(name_only));
  EXPECT_TRUE(Glob::Compile("/" + name_only));
  EXPECT_FALSE(Glob::Compile("/" + name_only + "n"));

  auto too_long = Glob::Compile(longest + "x");
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().find("1,025 bytes long; a pattern is at most 1,024 bytes"),
            std::string::npos)
      << too_long.error();
  auto too_deep = Glob::Compile(deepest + "/d");
  ASSERT_FALSE(too_deep);
  EXPECT_NE(too_deep.error().find("more than 64 parts"), std::string::npos) << too_deep.error();
  // A megabyte pattern: refused before it is read part by part, and the error stays short.
  std::string huge;
  for (int i = 0; i < 200000; ++i) huge += "**/d/";
  auto refused = Glob::Compile(huge + "x");
  ASSERT_FALSE(refused);
  EXPECT_LT(refused.error().size(), 600u) << refused.error().size();
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

// Beyond the seed's list: package-manager and registry logins, web server password files, cloud
// and cluster credentials. Three of them are credentials only in a folder of a given name
// (.aws/credentials, .docker/config.json, .kube/config), at any depth.
const char* const kMoreCredentialFiles[] = {
    ".npmrc", "web/.npmrc", ".NPMRC", ".yarnrc.yml", "app/.Yarnrc.YML", ".htpasswd",
    "site/admin/.htpasswd", "credentials.json", "google/Credentials.JSON", "service-account.json",
    "gcp/my-service-account-key.json", "prod-Service-Account.JSON", "gcp/service_account.json",
    "Service_Account_prod.json", ".aws/credentials", "home/user/.aws/credentials",
    ".AWS/Credentials", ".docker/config.json", "ci/.docker/config.json", ".Docker/CONFIG.json",
    ".kube/config", "a/b/.kube/config", ".KUBE/Config",
    // A folder so named hides everything in it.
    ".kube/config/admin.yaml", "credentials.json/x.txt"};
// Near misses, served: the names only exactly, the folder-bound files only in their folder.
const char* const kMoreLookalikes[] = {".npmrc.example",
                                       "npmrc",
                                       ".yarnrc",
                                       ".yarnrc.yml.sample",
                                       "htpasswd.md",
                                       "credentials.json.example",
                                       "credentials.yaml",
                                       "my-credentials.json",
                                       "service-accounts.md",
                                       "service-account.yaml",
                                       "service-account.json.example",
                                       "docs/service-accounts/README.md",
                                       "config",
                                       "credentials",
                                       "config.json",
                                       ".aws/config",
                                       "aws/credentials",
                                       ".aws.bak/credentials",
                                       ".docker/daemon.json",
                                       "docker/config.json",
                                       "my.kube/config",
                                       ".kube/config.d/x",
                                       ".kube/cache/config.json",
                                       ".kube/kubeconfig",
                                       ".kube/x/config",
                                       "config/.kube",
                                       "credentials/.aws"};

TEST(PathPolicy, MoreCredentialFilesAreExcludedEverywhereUnlessServed) {
  auto p = PathPolicy::Default();
  for (const char* c : kMoreCredentialFiles) {
    EXPECT_FALSE(p.ServesFile(P(c))) << c;
    EXPECT_TRUE(p.Outside(P(c))) << c;
  }
  for (const char* ok : kMoreLookalikes) {
    EXPECT_TRUE(p.ServesFile(P(ok))) << ok;
    EXPECT_FALSE(p.Outside(P(ok))) << ok;
  }
  // The folders that hold them are served (they may hold other files).
  for (const char* folder : {".aws", ".docker", ".kube", "a/b/.kube"}) {
    EXPECT_FALSE(p.Outside(P(folder))) << folder;
  }
  // With patterns configured too (ServesFile and Outside then take the whole path).
  auto patterned = Make({}, {"vendor/**"});
  for (const char* c : kMoreCredentialFiles) {
    EXPECT_FALSE(patterned.ServesFile(P(c))) << c;
    EXPECT_TRUE(patterned.Outside(P(c))) << c;
  }
  for (const char* ok : kMoreLookalikes) EXPECT_TRUE(patterned.ServesFile(P(ok))) << ok;
  auto served = Make({}, {}, /*creds=*/true);
  for (const char* c : kMoreCredentialFiles) {
    EXPECT_TRUE(served.ServesFile(P(c))) << c;
    EXPECT_FALSE(served.Outside(P(c))) << c;
  }
}

TEST(PathPolicy, CredentialEntryTakesTheFolderNameForFolderBoundFiles) {
  EXPECT_TRUE(PathPolicy::IsCredentialEntry(".kube", "config"));
  EXPECT_TRUE(PathPolicy::IsCredentialEntry(".Aws", "CREDENTIALS"));
  EXPECT_TRUE(PathPolicy::IsCredentialEntry(".docker", "config.json"));
  EXPECT_TRUE(PathPolicy::IsCredentialEntry("", ".npmrc"));
  EXPECT_TRUE(PathPolicy::IsCredentialEntry("src", "id_rsa"));
  EXPECT_FALSE(PathPolicy::IsCredentialEntry("", "config"));
  EXPECT_FALSE(PathPolicy::IsCredentialEntry(".kube", "config.json"));
  EXPECT_FALSE(PathPolicy::IsCredentialEntry(".docker", "config"));
  EXPECT_FALSE(PathPolicy::IsCredentialEntry("kube", "config"));
  // The name alone does not know its folder.
  EXPECT_FALSE(PathPolicy::IsCredentialName("config"));
  EXPECT_TRUE(PathPolicy::IsCredentialName("credentials.json"));
}

// The fast paths a walk takes (only the new name, and for .kube/config and the like its folder's
// name, are looked at) agree with judging the whole path, for every name above.
TEST(PathPolicy, ChildFastPathsAgreeWithTheWholePath) {
  std::vector<std::string> paths;
  for (const char* c : kMoreCredentialFiles) paths.push_back(c);
  for (const char* c : kMoreLookalikes) paths.push_back(c);
  for (const char* c : {".env", "deploy/id_rsa", "README.md", "x/.env.example", ".aws",
                        "deep/er/.docker", "config/config", ".kube/.kube/config"}) {
    paths.push_back(c);
  }
  for (bool creds : {false, true}) {
    auto p = Make({}, {}, creds);
    ASSERT_FALSE(p.partial());
    for (const auto& s : paths) {
      const RepoPath path = P(s.c_str());
      // Every folder on the way is not Outside (the walk would not have gone into it); the fast
      // paths are only asked then.
      bool reachable = true;
      for (RepoPath up = path.Parent(); !up.is_root(); up = up.Parent()) {
        reachable = reachable && !p.Outside(up);
      }
      if (!reachable) continue;
      EXPECT_EQ(p.ServesChild(path, path.name()), p.ServesFile(path)) << s << " creds=" << creds;
      EXPECT_EQ(p.ChildOutside(path, path.name()), p.Outside(path)) << s << " creds=" << creds;
    }
  }
  auto p = PathPolicy::Default();
  EXPECT_FALSE(p.ServesChild(P("a/b/.kube/config"), "config"));
  EXPECT_TRUE(p.ChildOutside(P("a/b/.kube/config"), "config"));
  EXPECT_TRUE(p.ServesChild(P("a/b/my.kube/config"), "config"));
  EXPECT_FALSE(p.ChildOutside(P("config"), "config"));
  EXPECT_FALSE(p.ServesChild(P(".aws/credentials"), "credentials"));
}

}  // namespace
}  // namespace path_policy_test
}  // namespace rr
