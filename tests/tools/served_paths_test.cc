// include / exclude and credential files, through the tools: what is kept out is never listed or
// read; asked for by name, it is "outside what this server serves"; a folder holding only what
// is kept out is answered as not there.
#include <gtest/gtest.h>

#include <string>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace served_paths_test {
namespace {

class ServedPaths : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
    std::string head;
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    TestRepo& r = s_->repo;
    r.Write("README.md", "shop\n");
    r.Write("src/app.py", "app\n");
    r.Write("src/lib/util.py", "util\n");
    r.Write("docs/guide.md", "guide\n");
    r.Write("config/dev.yml", "mode: dev\n");
    r.Write("config/prod.yml", "mode: prod\n");
    r.Write("logs/a.log", "a\n");
    r.Write("logs/b.log", "b\n");
    r.Write("keys/id_rsa", "-----BEGIN KEY-----\n");
    r.Write(".env", "TOKEN=1\n");
    s_->head = r.Commit("Everything");  // 2026-01-01
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static RepoConfig With(const std::string& name, std::vector<std::string> include,
                         std::vector<std::string> exclude) {
    RepoConfig rc = Served(name, s_->repo.path());
    rc.include = std::move(include);
    rc.exclude = std::move(exclude);
    return rc;
  }
  static std::string Where(const std::string& repo) {
    return repo + " · main @ " + Short(s_->head) + " (2026-01-01) · ";
  }
  static std::string Outside(const std::string& repo, const std::string& path) {
    return "path `" + path + "` is outside what this server serves in `" + repo + "`";
  }
  static std::string NotThere(const std::string& repo, const std::string& path) {
    return "no file or folder `" + path + "` in `" + repo + "` at main (" + Short(s_->head) +
           "); list_files shows what is there";
  }

  static Shared* s_;
  ToolHarness h_{{With("inc", {"src/**"}, {}), With("exc", {}, {"config/prod.*", "*.log"}),
                  Served("whole", s_->repo.path())}};
};
ServedPaths::Shared* ServedPaths::s_ = nullptr;

TEST_F(ServedPaths, IncludeServesOnlyWhatItNames) {
  auto root = h_.Call("list_files", R"({"repo":"inc"})");
  ASSERT_FALSE(root.is_error) << root.text;
  EXPECT_EQ(root.text, Where("inc") + "/ — 1 folder, 0 files\nsrc/");

  auto all = h_.Call("list_files", R"({"repo":"inc","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  EXPECT_EQ(all.text, Where("inc") + "/ — 2 files, at any depth\nsrc/app.py\nsrc/lib/util.py");

  auto app = h_.Call("read_file", R"({"repo":"inc","path":"src/app.py"})");
  ASSERT_FALSE(app.is_error) << app.text;
  EXPECT_EQ(app.text, Where("inc") + "src/app.py · lines 1–1 of 1\n1  app");

  for (const char* path : {"README.md", "docs/guide.md", "docs/never-existed.md"}) {
    auto a = h_.Call("read_file", std::string(R"({"repo":"inc","path":")") + path + "\"}");
    EXPECT_TRUE(a.is_error) << path;
    EXPECT_EQ(a.text, Outside("inc", path));
  }
  auto docs = h_.Call("list_files", R"({"repo":"inc","path":"docs"})");
  EXPECT_TRUE(docs.is_error);
  EXPECT_EQ(docs.text, Outside("inc", "docs"));
}

TEST_F(ServedPaths, ExcludeHidesWhatItNames) {
  auto config = h_.Call("list_files", R"({"repo":"exc","path":"config"})");
  ASSERT_FALSE(config.is_error) << config.text;
  EXPECT_EQ(config.text, Where("exc") + "config/ — 0 folders, 1 file\nconfig/dev.yml");

  auto prod = h_.Call("read_file", R"({"repo":"exc","path":"config/prod.yml"})");
  EXPECT_TRUE(prod.is_error);
  EXPECT_EQ(prod.text, Outside("exc", "config/prod.yml"));
  EXPECT_TRUE(HasNot(prod.text, "mode: prod"));

  // Judged by the path alone, whether or not it exists.
  auto absent = h_.Call("read_file", R"({"repo":"exc","path":"config/prod.json"})");
  EXPECT_TRUE(absent.is_error);
  EXPECT_EQ(absent.text, Outside("exc", "config/prod.json"));

  auto log = h_.Call("read_file", R"({"repo":"exc","path":"logs/a.log"})");
  EXPECT_TRUE(log.is_error);
  EXPECT_EQ(log.text, Outside("exc", "logs/a.log"));

  // Not at an older ref either.
  auto at_ref =
      h_.Call("read_file", R"({"repo":"exc","path":"config/prod.yml","ref":")" + s_->head + "\"}");
  EXPECT_TRUE(at_ref.is_error);
  EXPECT_EQ(at_ref.text, Outside("exc", "config/prod.yml"));
}

TEST_F(ServedPaths, AFolderHoldingOnlyWhatIsKeptOutIsNotThere) {
  // logs/ holds only excluded files; keys/ only a credential file.
  auto root = h_.Call("list_files", R"({"repo":"exc"})");
  ASSERT_FALSE(root.is_error) << root.text;
  EXPECT_EQ(root.text, Where("exc") + "/ — 3 folders, 1 file\nconfig/\ndocs/\nsrc/\nREADME.md");

  auto all = h_.Call("list_files", R"({"repo":"exc","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  EXPECT_EQ(all.text, Where("exc") +
                          "/ — 5 files, at any depth\n"
                          "README.md\n"
                          "config/dev.yml\n"
                          "docs/guide.md\n"
                          "src/app.py\n"
                          "src/lib/util.py");

  for (const char* folder : {"logs", "keys"}) {
    auto a = h_.Call("list_files", std::string(R"({"repo":"exc","path":")") + folder + "\"}");
    EXPECT_TRUE(a.is_error) << folder;
    EXPECT_EQ(a.text, NotThere("exc", folder));
    auto r = h_.Call("list_files",
                     std::string(R"({"repo":"exc","recursive":true,"path":")") + folder + "\"}");
    EXPECT_TRUE(r.is_error) << folder;
    EXPECT_EQ(r.text, NotThere("exc", folder));
    auto f = h_.Call("read_file", std::string(R"({"repo":"exc","path":")") + folder + "\"}");
    EXPECT_TRUE(f.is_error) << folder;
    EXPECT_EQ(f.text, NotThere("exc", folder));
  }
}

TEST_F(ServedPaths, CredentialFilesAreNeverServedUnlessConfigured) {
  auto root = h_.Call("list_files", R"({"repo":"whole","recursive":true})");
  ASSERT_FALSE(root.is_error) << root.text;
  EXPECT_TRUE(HasNot(root.text, "id_rsa"));
  EXPECT_TRUE(HasNot(root.text, ".env"));
  EXPECT_TRUE(Has(root.text, "logs/a.log"));

  for (const char* path : {"keys/id_rsa", ".env"}) {
    auto a = h_.Call("read_file", std::string(R"({"repo":"whole","path":")") + path + "\"}");
    EXPECT_TRUE(a.is_error) << path;
    EXPECT_EQ(a.text, Outside("whole", path));
  }

  RepoConfig creds = Served("creds", s_->repo.path());
  creds.serve_credential_files = true;
  ToolHarness h({creds});
  auto key = h.Call("read_file", R"({"repo":"creds","path":"keys/id_rsa"})");
  ASSERT_FALSE(key.is_error) << key.text;
  EXPECT_TRUE(Has(key.text, "keys/id_rsa · lines 1–1 of 1\n"));
}

TEST_F(ServedPaths, OnlyPartServedIsSaidByListRepos) {
  auto a = h_.Call("list_repos");
  ASSERT_FALSE(a.is_error) << a.text;
  const std::string partial = "Only part of it is served (include / exclude in the configuration).";
  const size_t inc = a.text.find("## inc\n"), exc = a.text.find("## exc\n"),
               whole = a.text.find("## whole\n");
  ASSERT_NE(inc, std::string::npos);
  ASSERT_NE(exc, std::string::npos);
  ASSERT_NE(whole, std::string::npos);
  EXPECT_TRUE(Has(a.text.substr(inc, exc - inc), partial));
  EXPECT_TRUE(Has(a.text.substr(exc, whole - exc), partial));
  EXPECT_TRUE(HasNot(a.text.substr(whole), partial));
}

}  // namespace
}  // namespace served_paths_test
}  // namespace rr::testing
