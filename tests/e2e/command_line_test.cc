// End-to-end: the repo-reader command's options and configuration files, run as a user runs
// them. Each test is named for the promise it proves.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/version.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace command_line_test {
namespace {

using std::chrono::seconds;

CommandResult RunBinary(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<std::string> argv = {RR_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, cwd);
}

// Two repositories with a commit each, a plain folder, and room for configuration files.
struct Site {
  TempDir tmp;
  TestRepo shop{tmp / "shop"};
  TestRepo docs{tmp / "docs"};
  std::string shop_commit, docs_commit;
  int configs = 0;
  Site() {
    shop.Write("README.md", "# Shop\n");
    shop.Write("src/app.py", "print('hello')\n");
    shop_commit = shop.Commit("Add the shop");
    docs.Write("index.md", "# Docs\n");
    docs_commit = docs.Commit("Add the docs");
    std::filesystem::create_directories(tmp / "plain/inside");
    std::ofstream(tmp / "plain/inside/file.txt") << "not in a repository\n";
  }
  // Writes a configuration file (a new one each time) and returns its path.
  std::string Config(const std::string& yaml) {
    const std::string path = tmp / ("repo-reader-" + std::to_string(++configs) + ".yaml");
    std::ofstream(path, std::ios::binary) << yaml;
    return path;
  }
};

// The tests of a suite share one Site (building repositories is the slow part); each writes its
// own configuration files and changes nothing else.
class WithSite : public ::testing::Test {
 public:
  static void SetUpTestSuite() { shared_ = std::make_unique<Site>(); }
  static void TearDownTestSuite() { shared_.reset(); }

 protected:
  Site& site = *shared_;

 private:
  static inline std::unique_ptr<Site> shared_;
};

class CommandLineCheck : public WithSite {};
class CommandLineServe : public WithSite {};
class CommandLineOptions : public WithSite {};

// Runs --check on `yaml` and expects a refusal naming FILE:LINE:COLUMN and every one of `parts`.
void ExpectRefused(Site& site, const std::string& yaml, int line, int column,
                   std::initializer_list<const char*> parts) {
  const std::string file = site.Config(yaml);
  const std::string where = file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check ? "with --check" : "serving");
    std::vector<std::string> args = {"--config", file};
    if (check) args.push_back("--check");
    const CommandResult r = RunBinary(args, site.tmp.path());
    EXPECT_GT(r.status, 0) << "a bad configuration must exit non-zero\n" << r.out << r.err;
    EXPECT_TRUE(Has(r.err, where)) << "expected `" << where << "` in:\n" << r.err;
    for (const char* part : parts) EXPECT_TRUE(Has(r.err, part)) << part << "\nin:\n" << r.err;
    EXPECT_FALSE(Has(r.out, "OK")) << r.out;
    if (!check) {
      EXPECT_EQ(r.out, "") << "nothing may reach stdout when nothing is served";
    }
  }
}

// ---------------------------------------------------------------------------------------------
// --check

TEST_F(CommandLineCheck, AGoodConfigurationPrintsWhatWouldBeServed) {
  const std::string file = site.Config(
      "repos:\n"
      "  - name: shop\n"
      "    path: shop\n"
      "    description: The shop\n"
      "  - name: team/docs\n"
      "    path: " +
      site.docs.path() +
      "\n"
      "    listed: false\n"
      "    exclude: [\"*.secret\"]\n"
      "limits:\n"
      "  answer_characters: 20000\n");
  const CommandResult r = RunBinary({"--check", "--config", file}, site.tmp.path() + "/plain");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, file)) << r.out;
  EXPECT_TRUE(Has(r.out, "20,000")) << r.out;
  EXPECT_TRUE(Has(r.out, "2 repositories")) << r.out;
  EXPECT_TRUE(Has(r.out, "shop — " + site.shop.path())) << r.out;
  EXPECT_TRUE(Has(r.out, "team/docs — " + site.docs.path())) << r.out;
  EXPECT_TRUE(Has(r.out, "(not listed)")) << r.out;
  EXPECT_TRUE(Has(r.out, "(only part served)")) << r.out;
  EXPECT_TRUE(Has(r.out, "main @ " + site.shop_commit.substr(0, 12))) << r.out;
  EXPECT_TRUE(Has(r.out, "main @ " + site.docs_commit.substr(0, 12))) << r.out;
  EXPECT_TRUE(Has(r.out, "OK")) << r.out;
}

// --http refuses to start without its token variables; --check said OK all the same. It now
// fails, naming each variable unset or empty, and says OK only when every one is set.
TEST_F(CommandLineCheck, ATokenVariableUnsetOrEmptyFailsTheCheckNamingIt) {
  const std::string file = site.Config(
      "repos:\n  - name: shop\n    path: shop\n"
      "http:\n  token_env: RR_CHECK_TOKEN\n"
      "  tokens:\n    - token_env: RR_CHECK_SHOP_TOKEN\n      repos: [shop]\n");
  const std::vector<std::string> args = {RR_BINARY, "--config", file, "--check"};
  const CommandResult unset =
      rr::testing::Run(args, site.tmp.path(), {{"RR_CHECK_SHOP_TOKEN", "tok-two-4e1"}});
  EXPECT_EQ(unset.status, 1) << unset.out << unset.err;
  EXPECT_TRUE(Has(unset.out,
                  "HTTP token: the environment variable RR_CHECK_TOKEN (http token_env) is not "
                  "set"))
      << unset.out;
  EXPECT_TRUE(Has(unset.out, "Problems found.")) << unset.out;
  EXPECT_FALSE(Has(unset.out, "\nOK")) << unset.out;

  const CommandResult empty = rr::testing::Run(
      args, site.tmp.path(), {{"RR_CHECK_TOKEN", "tok-one-9f3"}, {"RR_CHECK_SHOP_TOKEN", ""}});
  EXPECT_EQ(empty.status, 1) << empty.out << empty.err;
  EXPECT_TRUE(Has(empty.out,
                  "the environment variable RR_CHECK_SHOP_TOKEN (http tokens[0] token_env) is "
                  "empty"))
      << empty.out;

  const CommandResult both =
      rr::testing::Run(args, site.tmp.path(),
                       {{"RR_CHECK_TOKEN", "tok-one-9f3"}, {"RR_CHECK_SHOP_TOKEN", "tok-two-4e1"}});
  EXPECT_EQ(both.status, 0) << both.out << both.err;
  EXPECT_TRUE(Has(both.out, "HTTP token: from $RR_CHECK_TOKEN (set)")) << both.out;
  EXPECT_FALSE(Has(both.out, "tok-one-9f3")) << "the token itself is never printed";
  EXPECT_TRUE(Has(both.out, "OK")) << both.out;
}

// /metrics' own token: --check fails while its variable is unset or empty, or holds a caller's
// token, naming variables and never a value.
TEST_F(CommandLineCheck, TheMetricsTokenVariableUnsetEmptyOrACallersFailsTheCheck) {
  const std::string file = site.Config(
      "repos:\n  - name: shop\n    path: shop\n"
      "http:\n  token_env: RR_CHECK_TOKEN\n  metrics: {token_env: RR_CHECK_METRICS_TOKEN}\n");
  const std::vector<std::string> args = {RR_BINARY, "--config", file, "--check"};
  for (const char* value : {"", "unset"}) {
    std::map<std::string, std::string> env = {{"RR_CHECK_TOKEN", "tok-one-9f3"}};
    if (std::string(value) != "unset") env["RR_CHECK_METRICS_TOKEN"] = value;
    const CommandResult r = rr::testing::Run(args, site.tmp.path(), env);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(Has(r.out,
                    "HTTP token: the environment variable RR_CHECK_METRICS_TOKEN (http "
                    "metrics token_env) is " +
                        std::string(*value ? "not set" : "empty")))
        << r.out;
    EXPECT_TRUE(Has(r.out, "Problems found.")) << r.out;
  }
  const CommandResult shared = rr::testing::Run(
      args, site.tmp.path(),
      {{"RR_CHECK_TOKEN", "tok-one-9f3"}, {"RR_CHECK_METRICS_TOKEN", "tok-one-9f3"}});
  EXPECT_EQ(shared.status, 1) << shared.out << shared.err;
  EXPECT_TRUE(Has(shared.out,
                  "$RR_CHECK_METRICS_TOKEN (http metrics token_env) holds the same token as "
                  "$RR_CHECK_TOKEN"))
      << shared.out;
  EXPECT_FALSE(Has(shared.out + shared.err, "tok-one-9f3"));
  const CommandResult good = rr::testing::Run(
      args, site.tmp.path(),
      {{"RR_CHECK_TOKEN", "tok-one-9f3"}, {"RR_CHECK_METRICS_TOKEN", "tok-metrics-2a7"}});
  EXPECT_EQ(good.status, 0) << good.out << good.err;
  EXPECT_TRUE(Has(good.out, "HTTP token: from $RR_CHECK_METRICS_TOKEN (set)")) << good.out;
  EXPECT_FALSE(Has(good.out + good.err, "tok-metrics-2a7"));
}

TEST_F(CommandLineCheck, WithoutAConfigurationChecksTheRepositoryOfTheCurrentFolder) {
  const CommandResult r = RunBinary({"--check"}, site.shop.path() + "/src");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "1 repository")) << r.out;
  EXPECT_TRUE(Has(r.out, "shop — " + site.shop.path())) << r.out;
  EXPECT_TRUE(Has(r.out, "OK")) << r.out;
}

TEST_F(CommandLineCheck, UnknownKeyIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: shop\n"
                "    colour: blue\n",
                4, 5, {"unknown key `colour`", "expected one of: name, path"});
}

TEST_F(CommandLineCheck, UnknownTopLevelKeyIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: shop\n"
                "limit:\n"
                "  answer_characters: 40000\n",
                4, 1, {"unknown key `limit`", "expected: repos, limits"});
}

TEST_F(CommandLineCheck, WrongTypeIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: shop\n"
                "    listed: maybe\n",
                4, 13, {"listed", "must be true or false"});
}

TEST_F(CommandLineCheck, TextGivenAsAListIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: [shop, store]\n"
                "    path: shop\n",
                2, 11, {"name", "must be text"});
}

TEST_F(CommandLineCheck, DuplicateNameIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: shop\n"
                "  - name: shop\n"
                "    path: docs\n",
                4, 11, {"`shop` is used twice", "names must differ"});
}

TEST_F(CommandLineCheck, MissingPathIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    description: no path here\n",
                2, 5, {"`path` is missing", "e.g. path: "});
}

TEST_F(CommandLineCheck, PathThatDoesNotExistIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: no-such-folder\n",
                3, 11, {"`no-such-folder` is not a git repository", "give a repository's folder"});
}

TEST_F(CommandLineCheck, PathThatIsNotARepositoryIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "    path: plain/inside\n",
                3, 11, {"`plain/inside` is not a git repository", "give a repository's folder"});
}

TEST_F(CommandLineCheck, InvalidNameIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: \"-shop here\"\n"
                "    path: shop\n",
                2, 11, {"is not a valid name", "use letters, digits"});
}

TEST_F(CommandLineCheck, AnswerCharactersOutOfRangeIsRefusedWithItsPlace) {
  for (const char* value : {"10", "4999", "1000001", "lots", "-5"}) {
    SCOPED_TRACE(value);
    ExpectRefused(site,
                  std::string("repos:\n"
                              "  - name: shop\n"
                              "    path: shop\n"
                              "limits:\n"
                              "  answer_characters: ") +
                      value + "\n",
                  5, 22, {"answer_characters must be a whole number from 5,000 to 1,000,000"});
  }
}

TEST_F(CommandLineCheck, YamlSyntaxErrorIsRefusedWithItsPlace) {
  ExpectRefused(site,
                "repos:\n"
                "  - name: shop\n"
                "\tpath: shop\n",
                3, 1, {"not valid YAML", "tab"});
  ExpectRefused(site, "repos: ]\n", 1, 8, {"not valid YAML"});
}

TEST_F(CommandLineCheck, EveryProblemIsReportedAtOnce) {
  const std::string file = site.Config(
      "repos:\n"
      "  - name: shop\n"
      "    path: shop\n"
      "    colour: blue\n"
      "  - name: shop\n"
      "    path: plain\n");
  const CommandResult r = RunBinary({"--check", "--config", file}, site.tmp.path());
  EXPECT_GT(r.status, 0);
  EXPECT_TRUE(Has(r.err, file + ":4:5: ")) << r.err;
  EXPECT_TRUE(Has(r.err, file + ":5:11: ")) << r.err;
  EXPECT_TRUE(Has(r.err, file + ":6:11: ")) << r.err;
}

TEST_F(CommandLineCheck, ATokenPastedWhereItsVariablesNameBelongsIsRefusedAndNeverShown) {
  // A value of no known token format, lowercase: only the variable's name rule catches it.
  const std::string token = "abc123def456abc123def456abc123def456abcd";
  ExpectRefused(site, "repos:\n  - name: shop\n    path: shop\nhttp:\n  token_env: " + token + "\n",
                5, 14, {"http.token_env must be the NAME of an environment variable"});
  for (const std::string& yaml : {
           "repos:\n  - name: shop\n    path: shop\nhttp:\n  token_env: " + token + "\n",
           "repos:\n  - name: shop\n    path: shop\nhttp:\n  tokens:\n    - token_env: " + token +
               "\n      repos: [shop]\n",
           "mirrors:\n  - name: web\n    url: https://github.com/acme/web.git\n    token_env: " +
               token + "\n",
           "groups:\n  - host: https://github.com\n    owner: acme\n    token_env: " + token + "\n",
       }) {
    const CommandResult r = RunBinary({"--check", "--config", site.Config(yaml)}, site.tmp.path());
    EXPECT_GT(r.status, 0) << yaml << r.out << r.err;
    EXPECT_TRUE(Has(r.err, "token_env must be the NAME of an environment variable")) << r.err;
    EXPECT_FALSE(Has(r.out + r.err, token.substr(0, 12))) << r.out << r.err;
  }
}

TEST_F(CommandLineCheck, AMissingConfigurationFileIsRefused) {
  const CommandResult r =
      RunBinary({"--check", "--config", site.tmp / "absent.yaml"}, site.tmp.path());
  EXPECT_GT(r.status, 0);
  EXPECT_TRUE(Has(r.err, site.tmp / "absent.yaml")) << r.err;
  EXPECT_TRUE(Has(r.err, "cannot be read")) << r.err;
}

// ---------------------------------------------------------------------------------------------
// serving with --config

TEST_F(CommandLineServe, ServesTheRepositoriesOfTheConfigurationFile) {
  const std::string file = site.Config(
      "repos:\n"
      "  - name: shop\n"
      "    path: shop\n"
      "  - name: team/docs\n"
      "    path: docs\n");
  // Started in a folder that is no repository: the configuration decides.
  McpProcess p({RR_BINARY, "--config", file}, site.tmp / "plain");
  p.Initialize();
  bool error = true;
  const std::string repos = p.Call("list_repos", "{}", &error);
  EXPECT_FALSE(error) << repos;
  EXPECT_TRUE(Has(repos, "## shop")) << repos;
  EXPECT_TRUE(Has(repos, "## team/docs")) << repos;
  const std::string index =
      p.Call("read_file", R"({"repo":"team/docs","path":"index.md"})", &error);
  EXPECT_FALSE(error) << index;
  EXPECT_TRUE(Has(index, "# Docs")) << index;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  EXPECT_TRUE(Has(p.Stderr(), "serving 2 repositories from " + file));
}

// The server runs on jemalloc with the settings main.cc gives it (two arenas; core/util/
// heap_trim.h says why), and its start-up lines say so; a sanitizer build keeps its own.
TEST_F(CommandLineServe, RunsOnTheAllocatorItIsBuiltWith) {
  const std::string file = site.Config(
      "repos:\n"
      "  - name: shop\n"
      "    path: shop\n");
  McpProcess p({RR_BINARY, "--config", file}, site.tmp / "plain");
  p.Initialize();
  std::ifstream maps("/proc/" + std::to_string(p.pid()) + "/maps");
  const std::string mapped((std::istreambuf_iterator<char>(maps)),
                           std::istreambuf_iterator<char>());
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  const std::string log = p.Stderr();
  if (RR_SERVER_JEMALLOC) {
    EXPECT_TRUE(Has(mapped, "libjemalloc")) << "jemalloc is not mapped into the server";
    EXPECT_TRUE(Has(log, "repo-reader: memory: jemalloc 5.")) << log;
    EXPECT_TRUE(Has(log, ", 2 arenas\n")) << log;
  } else {
    EXPECT_FALSE(Has(mapped, "libjemalloc"));
    EXPECT_TRUE(Has(log, "repo-reader: memory: the ")) << log;
  }
}

// ---------------------------------------------------------------------------------------------
// other options

TEST_F(CommandLineOptions, VersionPrintsTheVersion) {
  for (const char* option : {"--version", "-v"}) {
    SCOPED_TRACE(option);
    const CommandResult r = RunBinary({option}, site.tmp.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, std::string(kServerName) + " " + kServerVersion + "\n");
  }
}

TEST_F(CommandLineOptions, HelpDescribesEveryOption) {
  for (const char* option : {"--help", "-h"}) {
    SCOPED_TRACE(option);
    const CommandResult r = RunBinary({option}, site.tmp.path());
    EXPECT_EQ(r.status, 0) << r.err;
    for (const char* part : {"--config", "--check", "--version", "--help", "repo-reader"}) {
      EXPECT_TRUE(Has(r.out, part)) << part << "\nin:\n" << r.out;
    }
    // Where the rest is, once installed: the man page and the package's docs.
    for (const char* part : {"man repo-reader", "/usr/share/doc/repo-reader/"}) {
      EXPECT_TRUE(Has(r.out, part)) << part << "\nin:\n" << r.out;
    }
  }
}

TEST_F(CommandLineOptions, AnUnknownOptionExitsNonZeroWithAClearMessage) {
  const CommandResult r = RunBinary({"--frobnicate"}, site.shop.path());
  EXPECT_GT(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(Has(r.err, "frobnicate")) << r.err;
  EXPECT_TRUE(Has(r.err, "--help")) << r.err;
}

TEST_F(CommandLineOptions, AnUnexpectedArgumentExitsNonZeroWithAClearMessage) {
  const CommandResult r = RunBinary({"serve"}, site.shop.path());
  EXPECT_GT(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(Has(r.err, "`serve`")) << r.err;
  EXPECT_TRUE(Has(r.err, "--config")) << r.err;
}

TEST_F(CommandLineOptions, ConfigWithoutItsFileExitsNonZeroWithAClearMessage) {
  const CommandResult r = RunBinary({"--config"}, site.shop.path());
  EXPECT_GT(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(Has(r.err, "config")) << r.err;
  EXPECT_TRUE(Has(r.err, "--help")) << r.err;
}

TEST_F(CommandLineOptions, OutsideAnyRepositoryWithoutConfigSaysHowToConfigure) {
  for (const bool check : {false, true}) {
    SCOPED_TRACE(check ? "with --check" : "serving");
    std::vector<std::string> args;
    if (check) args.push_back("--check");
    const CommandResult r = RunBinary(args, site.tmp / "plain/inside");
    EXPECT_GT(r.status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(Has(r.err, "not inside a git repository")) << r.err;
    EXPECT_TRUE(Has(r.err, "--config")) << r.err;
    EXPECT_TRUE(Has(r.err, "repos:")) << r.err;
  }
}

}  // namespace
}  // namespace command_line_test
}  // namespace rr::testing
