// What is served: include / exclude and files named for credentials, applied by every tool;
// an excluded path answers the same whether or not it exists; a folder of excluded files is a
// folder that isn't there; a file's id given as a ref tells nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/policy/glob.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_paths {
namespace {

const char* const kCredentialFiles[] = {".env",
                                        ".env.local",
                                        ".env.production",
                                        "config/prod.pem",
                                        "deploy/id_rsa",
                                        "id_ed25519_work",
                                        ".netrc",
                                        "keys/server.key",
                                        "prod.env",
                                        ".envrc",
                                        ".pgpass",
                                        ".git-credentials",
                                        "infra/terraform.tfstate",
                                        "certs/store.p12",
                                        "ID_RSA",
                                        "secrets/.ENV"};
const char* const kServedLookalikes[] = {".env.example", ".env.sample",     ".env.template",
                                         "id_rsa.pub",   "config/app.yaml", "README.md"};

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

struct SecretsRepo {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  SecretsRepo() {
    for (const char* f : kCredentialFiles) repo.Write(f, std::string("SECRET IN ") + f + "\n");
    for (const char* f : kServedLookalikes) repo.Write(f, std::string("served: ") + f + "\n");
    repo.Write("only-secrets/.env", "SECRET\n");
    repo.Write("only-secrets/nested/prod.pem", "SECRET\n");
    repo.Write("private/notes.md", "PRIVATE NOTES\n");
    repo.Write("vendor/lib/code.c", "int vendored;\n");
    repo.Write("src/app.py", "print('app')\n");
    repo.Commit("Everything");
  }
};

TEST(HostilePaths, CredentialFilesAreNeverListedOrRead) {
  SecretsRepo r;
  ToolHarness h({Served("shop", r.repo.path())});
  for (const std::string args : {R"({"repo":"shop"})", R"({"repo":"shop","recursive":true})",
                                 R"({"repo":"shop","path":"config"})"}) {
    auto list = h.Call("list_files", args);
    ASSERT_FALSE(list.is_error) << args << ": " << list.text;
    for (const auto& line : Lines(list.text)) {
      for (const char* f : kCredentialFiles) {
        EXPECT_NE(line, f) << args << ":\n" << list.text;
      }
      EXPECT_FALSE(Has(line, "only-secrets")) << list.text;
    }
  }
  // deploy/ holds only id_rsa: a folder that isn't there.
  auto deploy = h.Call("list_files", R"({"repo":"shop","path":"deploy"})");
  EXPECT_TRUE(deploy.is_error);
  EXPECT_TRUE(Has(deploy.text, "no file or folder `deploy`")) << deploy.text;
  auto all = h.Call("list_files", R"({"repo":"shop","recursive":true})");
  for (const char* f : kServedLookalikes) {
    EXPECT_TRUE(Has(all.text, "\n" + std::string(f))) << f << " not listed:\n" << all.text;
  }
  for (const char* f : kCredentialFiles) {
    auto a = h.Call("read_file", R"({"repo":"shop","path":")" + std::string(f) + "\"}");
    EXPECT_TRUE(a.is_error) << f << ": " << a.text;
    EXPECT_EQ(a.text, "path `" + std::string(f) + "` is outside what this server serves in `shop`")
        << a.text;
  }
  for (const char* f : kServedLookalikes) {
    auto a = h.Call("read_file", R"({"repo":"shop","path":")" + std::string(f) + "\"}");
    ASSERT_FALSE(a.is_error) << f << ": " << a.text;
    EXPECT_TRUE(Has(a.text, std::string("served: ") + f)) << a.text;
  }
  for (const auto& c : CallEveryTool(h, "shop", {"README.md", ".env.example"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "SECRET")) << c.answer.text;
  }
}

TEST(HostilePaths, ServeCredentialFilesTrueServesThem) {
  SecretsRepo r;
  RepoConfig rc = Served("shop", r.repo.path());
  rc.serve_credential_files = true;
  ToolHarness h({rc});
  auto all = h.Call("list_files", R"({"repo":"shop","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  for (const char* f : kCredentialFiles) {
    EXPECT_TRUE(Has(all.text, "\n" + std::string(f))) << f << " not listed:\n" << all.text;
    auto a = h.Call("read_file", R"({"repo":"shop","path":")" + std::string(f) + "\"}");
    ASSERT_FALSE(a.is_error) << f << ": " << a.text;
    EXPECT_TRUE(Has(a.text, std::string("SECRET IN ") + f)) << a.text;
  }
}

// Beyond the seed's list: registry logins, web server password files, cloud and cluster
// credentials — three of them credentials only in a folder of a given name, at any depth.
const char* const kCloudCredentialFiles[] = {".npmrc",
                                             "web/.NPMRC",
                                             ".yarnrc.yml",
                                             "site/.htpasswd",
                                             "credentials.json",
                                             "gcp/Prod-Service-Account.JSON",
                                             "service-account.json",
                                             ".aws/credentials",
                                             "home/.aws/credentials",
                                             "ci/.docker/config.json",
                                             ".kube/config",
                                             "deploy/prod/.KUBE/config"};
// Served, in sorted order as a recursive listing shows them: look-alikes, and the files that
// share a folder with the credentials.
const char* const kCloudLookalikes[] = {".aws/config",
                                        ".npmrc.example",
                                        "ci/.docker/daemon.json",
                                        "credentials.json.example",
                                        "docs/service-accounts.md",
                                        "kube/.kube/config.d/dev.yaml",
                                        "my.kube/config",
                                        "web/index.html"};

struct CloudSecretsRepo {
  TempDir tmp;
  TestRepo repo{tmp / "cloud"};
  CloudSecretsRepo() {
    for (const char* f : kCloudCredentialFiles) repo.Write(f, std::string("SECRET IN ") + f + "\n");
    for (const char* f : kCloudLookalikes) repo.Write(f, std::string("served: ") + f + "\n");
    repo.Commit("Everything");
  }
};

std::vector<std::string> ListedPaths(ToolHarness& h, const std::string& args) {
  auto a = h.Call("list_files", args);
  EXPECT_FALSE(a.is_error) << args << ": " << a.text;
  auto lines = Lines(a.text);
  return std::vector<std::string>(lines.begin() + 1, lines.end());
}

TEST(HostilePaths, CloudAndRegistryCredentialFilesAreNeverListedOrRead) {
  CloudSecretsRepo r;
  ToolHarness h({Served("cloud", r.repo.path())});
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud","recursive":true})"),
            std::vector<std::string>(std::begin(kCloudLookalikes), std::end(kCloudLookalikes)));
  // home/, deploy/ and .kube/ hold only credential files: not shown.
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud"})"),
            (std::vector<std::string>{".aws/", "ci/", "docs/", "kube/", "my.kube/", "web/",
                                      ".npmrc.example", "credentials.json.example"}));
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud","path":".aws"})"),
            (std::vector<std::string>{".aws/config"}));
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud","path":"ci/.docker"})"),
            (std::vector<std::string>{"ci/.docker/daemon.json"}));
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud","path":"web","recursive":true})"),
            (std::vector<std::string>{"web/index.html"}));

  // A folder holding only them answers exactly as a folder that does not exist.
  auto missing = h.Call("list_files", R"({"repo":"cloud","path":"no-such-folder"})");
  ASSERT_TRUE(missing.is_error) << missing.text;
  for (const std::string folder :
       {".kube", "home", "home/.aws", "deploy", "deploy/prod/.KUBE", "gcp", "site"}) {
    for (const std::string rec : {"false", "true"}) {
      auto a = h.Call("list_files",
                      R"({"repo":"cloud","recursive":)" + rec + R"(,"path":")" + folder + "\"}");
      EXPECT_TRUE(a.is_error) << folder << ": " << a.text;
      EXPECT_EQ(ReplaceAll(a.text, folder, "no-such-folder"), missing.text) << folder;
    }
  }
  for (const char* f : kCloudCredentialFiles) {
    auto a = h.Call("read_file", R"({"repo":"cloud","path":")" + std::string(f) + "\"}");
    EXPECT_TRUE(a.is_error) << f << ": " << a.text;
    EXPECT_EQ(a.text, "path `" + std::string(f) + "` is outside what this server serves in `cloud`")
        << a.text;
  }
  for (const char* f : kCloudLookalikes) {
    auto a = h.Call("read_file", R"({"repo":"cloud","path":")" + std::string(f) + "\"}");
    ASSERT_FALSE(a.is_error) << f << ": " << a.text;
    EXPECT_TRUE(Has(a.text, std::string("served: ") + f)) << a.text;
  }
  for (const auto& c : CallEveryTool(h, "cloud", {".aws/config", "my.kube/config"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "SECRET")) << c.answer.text;
  }
}

TEST(HostilePaths, ServeCredentialFilesTrueServesCloudAndRegistryCredentialFiles) {
  CloudSecretsRepo r;
  RepoConfig rc = Served("cloud", r.repo.path());
  rc.serve_credential_files = true;
  ToolHarness h({rc});
  const auto all = ListedPaths(h, R"({"repo":"cloud","recursive":true})");
  for (const char* f : kCloudCredentialFiles) {
    EXPECT_NE(std::find(all.begin(), all.end(), f), all.end()) << f << " not listed";
    auto a = h.Call("read_file", R"({"repo":"cloud","path":")" + std::string(f) + "\"}");
    ASSERT_FALSE(a.is_error) << f << ": " << a.text;
    EXPECT_TRUE(Has(a.text, std::string("SECRET IN ") + f)) << a.text;
  }
  EXPECT_EQ(ListedPaths(h, R"({"repo":"cloud","path":".kube"})"),
            (std::vector<std::string>{".kube/config"}));
}

TEST(HostilePaths, FolderHoldingOnlyExcludedFilesAnswersAsNotThere) {
  SecretsRepo r;
  RepoConfig rc = Served("shop", r.repo.path());
  rc.exclude = {"vendor/**/*.c"};
  ToolHarness h({rc});
  auto top = h.Call("list_files", R"({"repo":"shop"})");
  ASSERT_FALSE(top.is_error) << top.text;
  EXPECT_FALSE(Has(top.text, "only-secrets")) << top.text;
  EXPECT_FALSE(Has(top.text, "vendor")) << top.text;
  EXPECT_TRUE(Has(top.text, "\nsrc/\n")) << top.text;

  // The same words as for a folder that does not exist, the name aside.
  auto missing = h.Call("list_files", R"({"repo":"shop","path":"no-such-folder"})");
  ASSERT_TRUE(missing.is_error) << missing.text;
  EXPECT_TRUE(Has(missing.text, "no file or folder `no-such-folder`")) << missing.text;
  for (const std::string folder : {"only-secrets", "only-secrets/nested", "vendor", "vendor/lib"}) {
    auto a = h.Call("list_files", R"({"repo":"shop","path":")" + folder + "\"}");
    EXPECT_TRUE(a.is_error) << folder << ": " << a.text;
    EXPECT_EQ(ReplaceAll(a.text, folder, "no-such-folder"), missing.text);
    auto rec = h.Call("list_files", R"({"repo":"shop","recursive":true,"path":")" + folder + "\"}");
    EXPECT_EQ(ReplaceAll(rec.text, folder, "no-such-folder"), missing.text);
  }
}

TEST(HostilePaths, ExcludedPathAnswersTheSameWhetherOrNotItExists) {
  SecretsRepo r;
  RepoConfig rc = Served("shop", r.repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc});
  // Pairs: one that exists, one that doesn't; the answers differ only by the name asked.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {".env", ".env.staging"},           {"config/prod.pem", "config/other.pem"},
      {"deploy/id_rsa", "deploy/id_dsa"}, {"private/notes.md", "private/plans.md"},
      {"private", "private/none/deeper"}, {"only-secrets/.env", "nothing-here/.env"},
  };
  for (const auto& [exists, absent] : pairs) {
    for (const std::string tool : {"read_file", "list_files"}) {
      auto a = h.Call(tool, R"({"repo":"shop","path":")" + exists + "\"}");
      auto b = h.Call(tool, R"({"repo":"shop","path":")" + absent + "\"}");
      EXPECT_TRUE(a.is_error && b.is_error) << a.text << " / " << b.text;
      EXPECT_TRUE(Has(a.text, "outside what this server serves")) << a.text;
      EXPECT_EQ(ReplaceAll(a.text, exists, absent), b.text) << tool << " " << exists;
      // At another ref too: judged by the path alone.
      auto c = h.Call(tool, R"({"repo":"shop","ref":"main","path":")" + exists + "\"}");
      auto d = h.Call(tool, R"({"repo":"shop","ref":"main","path":")" + absent + "\"}");
      EXPECT_EQ(ReplaceAll(c.text, exists, absent), d.text) << tool << " " << exists;
    }
  }
  auto all = h.Call("list_files", R"({"repo":"shop","recursive":true})");
  EXPECT_FALSE(Has(all.text, "private")) << all.text;
  EXPECT_TRUE(Has(all.text, "\nvendor/lib/code.c")) << all.text;
}

TEST(HostilePaths, IncludeServesOnlyWhatItNames) {
  SecretsRepo r;
  RepoConfig rc = Served("shop", r.repo.path());
  rc.include = {"src/**", "*.md"};
  ToolHarness h({rc});
  auto all = h.Call("list_files", R"({"repo":"shop","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  const auto lines = Lines(all.text);
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 1, lines.end()),
            (std::vector<std::string>{"README.md", "private/notes.md", "src/app.py"}))
      << all.text;
  // A file include leaves out, a folder holding only such files, and a path that isn't there
  // answer alike: nothing tells which exists.
  for (const std::string tool : {"read_file", "list_files"}) {
    auto config = h.Call(tool, R"({"repo":"shop","path":"config/app.yaml"})");
    auto nothing = h.Call(tool, R"({"repo":"shop","path":"config/none.yaml"})");
    EXPECT_TRUE(Has(config.text, "outside what this server serves")) << config.text;
    EXPECT_EQ(ReplaceAll(config.text, "app.yaml", "none.yaml"), nothing.text);
    auto folder = h.Call(tool, R"({"repo":"shop","path":"config"})");
    auto no_folder = h.Call(tool, R"({"repo":"shop","path":"nowhere"})");
    EXPECT_TRUE(folder.is_error) << folder.text;
    EXPECT_EQ(ReplaceAll(folder.text, "config", "nowhere"), no_folder.text);
  }
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(Has(repos.text, "Only part of it is served")) << repos.text;
}

TEST(HostilePaths, FileIdGivenAsARefAnswersExactlyLikeAnUnknownRef) {
  SecretsRepo r;
  const std::string env_blob = r.repo.Rev("HEAD:.env");
  const std::string private_blob = r.repo.Rev("HEAD:private/notes.md");
  const std::string tree = r.repo.Rev("HEAD:config");
  const std::string unknown = "0123456789abcdef0123456789abcdef01234567";
  ASSERT_EQ(env_blob.size(), unknown.size());
  r.repo.Git({"update-ref", "refs/tags/env-file", env_blob});
  RepoConfig rc = Served("shop", r.repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc});

  auto answer = [&](const std::string& ref) {
    return h.Call("read_file", R"({"repo":"shop","path":"README.md","ref":")" + ref + "\"}");
  };
  const auto unknown_full = answer(unknown);
  const auto unknown_short = answer(unknown.substr(0, 12));
  ASSERT_TRUE(unknown_full.is_error);
  EXPECT_TRUE(Has(unknown_full.text, "is not a branch, tag or commit")) << unknown_full.text;
  for (const std::string& id : {env_blob, private_blob, tree}) {
    auto full = answer(id);
    EXPECT_TRUE(full.is_error);
    EXPECT_EQ(ReplaceAll(full.text, id, unknown), unknown_full.text);
    auto abbreviated = answer(id.substr(0, 12));
    EXPECT_EQ(ReplaceAll(abbreviated.text, id.substr(0, 12), unknown.substr(0, 12)),
              unknown_short.text);
    auto listed = h.Call("list_files", R"({"repo":"shop","ref":")" + id + "\"}");
    auto listed_unknown = h.Call("list_files", R"({"repo":"shop","ref":")" + unknown + "\"}");
    EXPECT_EQ(ReplaceAll(listed.text, id, unknown), listed_unknown.text);
  }
  // A tag of a file's contents: not listed, and read as an unknown name is.
  auto tag = answer("env-file");
  auto no_tag = answer("no-such-tag");
  EXPECT_EQ(ReplaceAll(tag.text, "env-file", "no-such-tag"), no_tag.text);
  auto refs = h.Call("list_refs", R"({"repo":"shop"})");
  EXPECT_FALSE(Has(refs.text, "env-file")) << refs.text;
  EXPECT_TRUE(Has(refs.text, "0 tags")) << refs.text;
}

// The policy's matching of a path and its folders is one pass over the path (a tree thousands of
// folders deep must not cost the square of its depth per path); it agrees with matching each of
// the path's folders in turn.
TEST(HostilePaths, MatchingAPathOrItsFoldersAgreesWithMatchingEachFolder) {
  const std::vector<std::string> patterns = {
      "*.pem", "private/**", "**/secret/**", "src/*/test", "/README.md", "a/**/b/*.c",
      "**",    "**/**/x",    "a/b",          "[a-c]*/d?",  "docs/**/",   "a/**/**/b"};
  const std::vector<std::vector<std::string_view>> paths = {
      {"a"},
      {"a", "b"},
      {"a", "b", "c.c"},
      {"a", "x", "b", "y.c"},
      {"a", "x", "y", "b", "z.c", "more"},
      {"private"},
      {"private", "notes.md"},
      {"src", "lib", "test"},
      {"src", "lib", "test", "deep", "file"},
      {"x", "secret", "y"},
      {"secret"},
      {"README.md"},
      {"sub", "README.md"},
      {"keys", "prod.pem"},
      {"bob", "do"},
      {"x", "x", "x"},
      {"docs"},
      {"docs", "a", "b"},
  };
  for (const auto& p : patterns) {
    auto g = Glob::Compile(p);
    ASSERT_TRUE(g) << g.error();
    for (const auto& path : paths) {
      bool expected = false;
      std::vector<std::string_view> prefix;
      for (auto part : path) {
        prefix.push_back(part);
        expected = expected || g->Matches(prefix);
      }
      std::string shown;
      for (auto part : path) shown += "/" + std::string(part);
      EXPECT_EQ(g->MatchesPathOrFolder(path), expected) << p << " on " << shown;
    }
  }
}

}  // namespace
}  // namespace rr::testing::safety::hostile_paths
