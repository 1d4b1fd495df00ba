// End-to-end: detector plugins through the real repo-reader binary, configured as an operator
// configures them (plugins: in a YAML file). A good plugin hides its values in answers and is
// named by --check and `about`; a plugin of another ABI stops --check and the server; the
// built-in detectors missing stops the server; turning them off is said at start, in --check
// and in `about`; a detector that fails withholds the answer. Test plugins: tests/plugins/.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/util/sanitizers.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace plugins_e2e_test {
namespace {

using std::chrono::seconds;

constexpr const char* kPlanted = "PLANTED-0123456789abcdef";

std::string TestPlugin(const std::string& name) {
  return std::filesystem::canonical(std::string(RR_TEST_PLUGIN_DIR) + "/" + name + ".so").string();
}

CommandResult RunBinary(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<std::string> argv = {RR_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, cwd);
}

// A repository whose files hold a planted value, and room for configuration files.
struct Site {
  TempDir tmp;
  TestRepo shop{tmp / "shop"};
  int configs = 0;
  Site() {
    shop.Write("notes.txt", std::string("release stamp: ") + kPlanted + "\nplain line\n");
    shop.Write("throws.txt", std::string("release stamp: ") + kPlanted + "\nexplode-here\n");
    shop.Write("crash.txt", "all fine until crash-here\n");
    shop.Commit("Add the notes");
    std::filesystem::create_directories(tmp / "empty-plugin-folder");
  }
  // A configuration serving `shop`, with `more` (YAML) after it; returns its path.
  std::string Config(const std::string& more) {
    const std::string path = tmp / ("repo-reader-" + std::to_string(++configs) + ".yaml");
    std::ofstream(path, std::ios::binary) << "repos:\n  - name: shop\n    path: shop\n" << more;
    return path;
  }
};

class PluginsEndToEnd : public ::testing::Test {
 public:
  static void SetUpTestSuite() { shared_ = std::make_unique<Site>(); }
  static void TearDownTestSuite() { shared_.reset(); }

 protected:
  Site& site = *shared_;

 private:
  static inline std::unique_ptr<Site> shared_;
};

std::string PluginsYaml(const std::string& plugin) {
  return "plugins:\n  - path: " + TestPlugin(plugin) + "\n";
}

constexpr const char* kBuiltinsOff = "secrets: {builtin_detectors: false}\n";

TEST_F(PluginsEndToEnd, AConfiguredPluginHidesItsValuesInAnswers) {
  McpProcess p({RR_BINARY, "--config", site.Config(PluginsYaml("planted"))}, site.tmp.path());
  p.Initialize();
  bool error = true;
  const std::string text = p.Call("read_file", R"({"repo":"shop","path":"notes.txt"})", &error);
  EXPECT_FALSE(error) << text;
  EXPECT_TRUE(Has(text, "release stamp: [hidden: planted token]")) << text;
  EXPECT_TRUE(Has(text, "plain line")) << text;
  EXPECT_FALSE(Has(text, kPlanted)) << text;
  EXPECT_TRUE(Has(text,
                  "\n[1 value that looks like a secret is hidden as `[hidden: …]` — this "
                  "server never shows it.]"))
      << text;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST_F(PluginsEndToEnd, CheckListsThePluginAndExitsZero) {
  const CommandResult r =
      RunBinary({"--check", "--config", site.Config(PluginsYaml("planted"))}, site.tmp.path());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "2 plugins:")) << r.out;
  EXPECT_TRUE(Has(r.out, "  repo-reader-secrets ")) << r.out;
  EXPECT_TRUE(Has(r.out, "  planted 1.0.0 — " + TestPlugin("planted"))) << r.out;
  EXPECT_TRUE(Has(r.out, "    a test plugin of the loader's tests")) << r.out;
  EXPECT_TRUE(Has(r.out, ", planted 1.0.0 (2 detectors).")) << r.out;
  EXPECT_TRUE(Has(r.out, "OK")) << r.out;
}

TEST_F(PluginsEndToEnd, APluginOfAnotherAbiStopsCheckAndTheServer) {
  const std::string file = site.Config(PluginsYaml("wrong-abi"));
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check ? "with --check" : "serving");
    std::vector<std::string> args = {"--config", file};
    if (check) args.push_back("--check");
    const CommandResult r = RunBinary(args, site.tmp.path());
    EXPECT_GT(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(Has(r.err, check ? "repo-reader: the plugins have problems:\n"
                                 : "repo-reader: not started: the plugins have problems:\n"))
        << r.err;
    EXPECT_TRUE(Has(r.err, file + ":5:5: plugin `" + TestPlugin("wrong-abi") + "`: ")) << r.err;
    EXPECT_TRUE(Has(r.err, "was built against the plugin SDK's ABI version")) << r.err;
    EXPECT_TRUE(Has(r.err, "newer than this server knows (it loads versions ")) << r.err;
    EXPECT_TRUE(Has(r.err, "rebuild the plugin against this server's SDK")) << r.err;
    EXPECT_FALSE(Has(r.out, "OK")) << r.out;
    if (!check) {
      EXPECT_EQ(r.out, "") << "nothing may reach stdout when nothing is served";
    }
  }
}

TEST_F(PluginsEndToEnd, WithoutTheBuiltInDetectorsInstalledTheServerRefusesToStart) {
  const std::string file = site.Config("plugin_folder: empty-plugin-folder\n");
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check ? "with --check" : "serving");
    std::vector<std::string> args = {"--config", file};
    if (check) args.push_back("--check");
    const CommandResult r = RunBinary(args, site.tmp.path());
    EXPECT_GT(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(Has(r.err, "the built-in secret detectors are not installed")) << r.err;
    EXPECT_TRUE(Has(r.err, "turn them off explicitly (secrets: {builtin_detectors: false})"))
        << r.err;
    if (!check) {
      EXPECT_EQ(r.out, "");
    }
  }
}

// The server's own lines pass the filter too: a repository whose folder, and a configuration
// whose file, are named after a value a detector hides, are shown hidden by --check and in the
// start line.
TEST_F(PluginsEndToEnd, CheckAndTheLogHideValuesInTheServersOwnLines) {
  TestRepo vault(site.tmp / (std::string("vault-") + kPlanted));
  vault.Write("a.txt", "a\n");
  vault.Commit("A");
  const std::string file = site.tmp / (std::string(kPlanted) + ".yaml");
  std::ofstream(file, std::ios::binary)
      << "repos:\n  - name: vault\n    path: " << vault.path() << "\n"
      << PluginsYaml("planted");
  const CommandResult check = RunBinary({"--check", "--config", file}, site.tmp.path());
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_TRUE(Has(check.out, "vault-[hidden: planted token]")) << check.out;
  EXPECT_FALSE(Has(check.out + check.err, kPlanted)) << check.out << check.err;

  McpProcess p({RR_BINARY, "--config", file}, site.tmp.path());
  p.Initialize();
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  const std::string log = p.Stderr();
  EXPECT_TRUE(Has(log, "[hidden: planted token].yaml over stdio")) << log;
  EXPECT_FALSE(Has(log, kPlanted)) << log;
}

TEST_F(PluginsEndToEnd, AboutAndTheStartLineNameTheDetectorPluginsInForce) {
  McpProcess p({RR_BINARY, "--config", site.Config(PluginsYaml("planted"))}, site.tmp.path());
  p.Initialize();
  const std::string about = p.Call("about", "{}");
  EXPECT_TRUE(Has(about, "secret filter: repo-reader-secrets ")) << about;
  EXPECT_TRUE(Has(about, ", planted 1.0.0 (2 detectors)")) << about;
  EXPECT_TRUE(Has(about, "plugin: planted 1.0.0 — a test plugin of the loader's tests")) << about;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  const std::string log = p.Stderr();
  EXPECT_TRUE(Has(log, "repo-reader: secret filter: repo-reader-secrets ")) << log;
  EXPECT_TRUE(Has(log, ", planted 1.0.0 (2 detectors)")) << log;
}

TEST_F(PluginsEndToEnd, WithTheBuiltInDetectorsOffAndNoPluginTheFilterIsSaidToBeOff) {
  const std::string file = site.Config(kBuiltinsOff);
  const std::string off = "secret filter OFF: the built-in detectors are turned off";

  const CommandResult check = RunBinary({"--check", "--config", file}, site.tmp.path());
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_TRUE(Has(check.out, "0 plugins:")) << check.out;
  EXPECT_TRUE(Has(check.out, off)) << check.out;

  McpProcess p({RR_BINARY, "--config", file}, site.tmp.path());
  p.Initialize();
  const std::string about = p.Call("about", "{}");
  EXPECT_TRUE(Has(about, off)) << about;
  EXPECT_FALSE(Has(about, "plugin: ")) << about;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  const std::string log = p.Stderr();
  EXPECT_TRUE(Has(log, "repo-reader: " + off)) << log;
}

TEST_F(PluginsEndToEnd, WithTheBuiltInDetectorsOffAPluginAloneIsInForce) {
  const std::string file = site.Config(std::string(kBuiltinsOff) + PluginsYaml("planted"));
  McpProcess p({RR_BINARY, "--config", file}, site.tmp.path());
  p.Initialize();
  const std::string about = p.Call("about", "{}");
  EXPECT_TRUE(Has(about,
                  "secret filter: the built-in detectors are turned off (secrets: "
                  "{builtin_detectors: false}); in force: planted 1.0.0 (2 detectors)"))
      << about;
  const std::string text = p.Call("read_file", R"({"repo":"shop","path":"notes.txt"})");
  EXPECT_TRUE(Has(text, "release stamp: [hidden: planted token]")) << text;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
}

TEST_F(PluginsEndToEnd, ADetectorThatFailsWithholdsTheAnswerAndTellsTheOperator) {
  const std::string file = site.Config("plugins:\n  - path: " + TestPlugin("planted") +
                                       "\n  - path: " + TestPlugin("throws-in-scan") + "\n");
  McpProcess p({RR_BINARY, "--config", file}, site.tmp.path());
  p.Initialize();
  const std::string text = p.Call("read_file", R"({"repo":"shop","path":"throws.txt"})");
  EXPECT_TRUE(Has(text, "[This answer is withheld: the secret filter could not check it")) << text;
  EXPECT_FALSE(Has(text, kPlanted)) << text;
  EXPECT_FALSE(Has(text, "release stamp")) << text;
  p.CloseInput();
  EXPECT_EQ(p.Wait(seconds(10)), 0);
  EXPECT_TRUE(Has(p.Stderr(),
                  "repo-reader: an answer was withheld: secret detector `explodes` "
                  "of plugin `throws-in-scan` threw"));
}

// A problem line may quote what the operator wrote, and that may hold a secret: the lines
// written before the configured filter is in force (a plugin refused, a configuration not
// read, a command line not taken) pass the built-in detectors too. Before, --check and the
// start printed `postgres://admin:<password>@db` of a plugin's path as it was.
TEST_F(PluginsEndToEnd, ProblemLinesHideTheSecretsTheyQuote) {
  constexpr const char* kPassword = "Hunter2Qx9zLm";
  const std::string secret = std::string("postgres://admin:") + kPassword + "@db";
  const std::string plugin = site.tmp.path() + "/" + secret + "/plugin.so";
  struct Case {
    std::string name;
    std::vector<std::string> args;
  };
  const std::vector<Case> cases = {
      {"a plugin refused, --check",
       {"--config", site.Config("plugins:\n  - path: " + plugin + "\n"), "--check"}},
      {"a plugin refused, serving",
       {"--config", site.Config("plugins:\n  - path: " + plugin + "\n")}},
      {"a configuration not read",
       {"--config", site.Config("plugins:\n  - name: \"" + secret + "\"\n"), "--check"}},
      {"an argument not taken", {secret}},
      {"an option not taken", {"--password=" + secret}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const CommandResult r = RunBinary(c.args, site.tmp.path());
    EXPECT_NE(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(Has(r.err + r.out, kPassword)) << r.err << r.out;
    EXPECT_TRUE(Has(r.err, "postgres://admin:[hidden: ")) << r.err;
  }
}

// A detector that crashes the process (a bad memory access, as a plugin with a bad pointer
// makes) cannot be contained: it runs inside the server. The process ends on SIGSEGV, as it
// would without the report, and its last line names the detector and the plugin, whichever
// tool and thread ran it (read_file on the call's thread, grep on the search's pool).
TEST_F(PluginsEndToEnd, ADetectorThatCrashesTheProcessIsNamedInItsLastLine) {
  const std::string file = site.Config("plugins:\n  - path: " + TestPlugin("planted") +
                                       "\n  - path: " + TestPlugin("segfaults-in-scan") + "\n");
  for (const std::string call :
       {R"({"name":"read_file","arguments":{"repo":"shop","path":"crash.txt"}})",
        R"({"name":"grep","arguments":{"repo":"shop","pattern":"fine"}})"}) {
    SCOPED_TRACE(call);
    McpProcess p({RR_BINARY, "--config", file}, site.tmp.path());
    p.Initialize();
    // Files without the keyword are read as usual.
    const std::string fine = p.Call("read_file", R"({"repo":"shop","path":"notes.txt"})");
    EXPECT_TRUE(Has(fine, "release stamp: [hidden: planted token]")) << fine;
    p.Send(R"({"jsonrpc":"2.0","id":77,"method":"tools/call","params":)" + call + "}");
    p.Wait(seconds(20));
#if defined(RR_ASAN)
    // Under AddressSanitizer (the test suite's second build, with abort_on_error=1) ASan's own
    // report of the fault ends the process with SIGABRT once the line below is written.
    EXPECT_TRUE(p.term_signal() == SIGSEGV || p.term_signal() == SIGABRT) << p.term_signal();
#else
    EXPECT_EQ(p.term_signal(), SIGSEGV);
#endif
    const std::string log = p.Stderr();
    EXPECT_TRUE(Has(log,
                    "repo-reader: the process ends on SIGSEGV (a bad memory access) in plugin "
                    "code: secret detector `crashes` of plugin `segfaults-in-scan` was running "
                    "on the thread that faulted"))
        << log;
  }
}

}  // namespace
}  // namespace plugins_e2e_test
}  // namespace rr::testing
