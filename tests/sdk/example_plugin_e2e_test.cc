// End-to-end: the example plugin (sdk/examples/acme-tokens), built against the installed SDK by
// the sdk.build_example test, loaded by the real repo-reader binary from its configuration as an
// operator writes it, and spoken to over stdio as an MCP client would. Each test is named for
// the promise it proves.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing {
namespace example_plugin_e2e_test {
namespace {

// Acme tokens with valid checksums (the format: sdk/examples/acme-tokens/acme_tokens.cc).
constexpr const char* kLive = "acme_live_Ky9Pf34qY6Nb3wWD25RQ4F5ZR3qasWKa";
constexpr const char* kLive2 = "acme_live_7yEeeby3abP3E2Zs8IQ9Y7aJZqhBwnib";
constexpr const char* kTestToken = "acme_test_6baeCN6Zj4a3dDVhYRnKTbxTNJFos5kZ";
// kLive with its last character changed: the checksum fails, so it is not a token.
constexpr const char* kWrongChecksum = "acme_live_Ky9Pf34qY6Nb3wWD25RQ4F5ZR3qasWKb";

// The binary with `args`, run to its end (--check, or a start that fails).
CommandResult RunServer(std::vector<std::string> args, const std::string& cwd) {
  args.insert(args.begin(), RR_BINARY);
  return Run(args, cwd);
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A repository holding Acme tokens in a file's text, a file's name, a branch's name and a
// commit's message, and room for configuration files.
struct Site {
  TempDir tmp;
  TestRepo repo{tmp / "payments"};
  int configs = 0;
  Site() {
    repo.Write("docs/staging.md", std::string("# Staging\n\nThe demo calls were made with ") +
                                      kLive + " on the sandbox.\nThe old one, " + kWrongChecksum +
                                      ", was never valid.\nCI uses " + kTestToken + ".\n");
    repo.Write("config/acme.yml", std::string("acme:\n  base: https://api.acme.test\n  token: ") +
                                      kLive2 + "\n  placeholder: acme_live_<your-token>\n");
    repo.Write(std::string("keys/") + kLive + ".txt", "rotated\n");
    repo.Commit(std::string("Add the staging notes (demo token ") + kLive + ")");
    repo.Git({"branch", std::string("rotate-") + kLive2});
  }
  std::string Config(const std::string& yaml) {
    const std::string path = tmp / ("repo-reader-" + std::to_string(++configs) + ".yaml");
    std::ofstream(path, std::ios::binary) << yaml;
    return path;
  }
};

// Every line the server wrote on stdout, kept so a test can check that no token ever left it.
class Session {
 public:
  explicit Session(const std::string& config) : p_({RR_BINARY, "--config", config}, "/") {
    Exchange("initialize", R"({"protocolVersion":"2025-06-18","capabilities":{},)"
                           R"("clientInfo":{"name":"test","version":"1"}})");
    p_.Send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }

  // A tool's answer text; *is_error says whether it was a tool error.
  std::string Call(const std::string& tool, const std::string& args, bool* is_error = nullptr) {
    Poco::JSON::Object::Ptr r =
        Exchange("tools/call", R"({"name":")" + tool + R"(","arguments":)" + args + "}");
    if (!r || !r->has("result")) {
      ADD_FAILURE() << "tools/call " << tool << " got no result";
      return "";
    }
    auto result = r->getObject("result");
    if (is_error) *is_error = result->optValue<bool>("isError", false);
    return result->getArray("content")->getObject(0)->getValue<std::string>("text");
  }

  // Closes the server's input, waits for it to end, and answers everything it wrote: stdout
  // and its log on stderr.
  std::string Finish() {
    p_.CloseInput();
    EXPECT_EQ(p_.Wait(), 0);
    while (auto line = p_.ReadLine(std::chrono::milliseconds(200))) sent_ += *line + "\n";
    return sent_ + p_.Stderr();
  }

 private:
  Poco::JSON::Object::Ptr Exchange(const std::string& method, const std::string& params) {
    const int id = ++id_;
    p_.Send(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method +
            R"(","params":)" + params + "}");
    const std::string want = "\"id\":" + std::to_string(id);
    while (auto line = p_.ReadLine()) {
      sent_ += *line + "\n";
      Poco::JSON::Parser parser;
      auto v = parser.parse(*line);
      auto m = v.extract<Poco::JSON::Object::Ptr>();
      if (m->has("id") && !m->get("id").isEmpty() && m->getValue<int>("id") == id) return m;
    }
    ADD_FAILURE() << method << ": no answer with " << want;
    return nullptr;
  }

  McpProcess p_;
  int id_ = 0;
  std::string sent_;
};

class ExamplePlugin : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    if (std::filesystem::exists(RR_ACME_PLUGIN) &&
        std::filesystem::exists(RR_ACME_PLUGIN_FOLDER "/acme-tokens.so")) {
      shared_ = std::make_unique<Site>();
    }
  }
  static void TearDownTestSuite() { shared_.reset(); }

 protected:
  void SetUp() override {
    if (!shared_) {
      GTEST_SKIP() << "the example plugin has not been built (" RR_ACME_PLUGIN
                      "); the CTest fixture sdk.build_example builds it: run `ctest -R sdk` in "
                      "the build folder";
    }
  }
  Site& site() { return *shared_; }

  // The operator's configuration: the built-in detectors as by default, and acme-tokens named
  // by the path of the file built against the installed SDK.
  std::string ByPathConfig() {
    return site().Config("repos:\n  - name: payments\n    path: " + site().repo.path() +
                         "\nplugins:\n  - path: " RR_ACME_PLUGIN "\n");
  }

 private:
  static inline std::unique_ptr<Site> shared_;
};

TEST_F(ExamplePlugin, ReadFileHidesAnAcmeTokenAndNoTokenIsEverSent) {
  Session s(ByPathConfig());
  bool error = true;
  const std::string notes =
      s.Call("read_file", R"({"repo":"payments","path":"docs/staging.md"})", &error);
  EXPECT_FALSE(error) << notes;
  EXPECT_TRUE(Has(notes, "made with [hidden: Acme token] on the sandbox.")) << notes;
  EXPECT_TRUE(Has(notes, "CI uses [hidden: Acme token].")) << notes;
  // Not a token: its checksum fails, so it is shown as written.
  EXPECT_TRUE(Has(notes, std::string("The old one, ") + kWrongChecksum + ", was")) << notes;

  const std::string config =
      s.Call("read_file", R"({"repo":"payments","path":"config/acme.yml"})", &error);
  EXPECT_FALSE(error) << config;
  EXPECT_TRUE(Has(config, "placeholder: acme_live_<your-token>")) << config;

  // Every other place a token could leave the server: a file's name, a branch, a commit's
  // message, an error echoing a path.
  const std::string files = s.Call("list_files", R"({"repo":"payments","path":"keys"})", &error);
  EXPECT_FALSE(error) << files;
  EXPECT_TRUE(Has(files, "[hidden: Acme token]")) << files;
  const std::string refs = s.Call("list_refs", R"({"repo":"payments"})", &error);
  EXPECT_FALSE(error) << refs;
  EXPECT_TRUE(Has(refs, "rotate-[hidden: Acme token]")) << refs;
  const std::string missing =
      s.Call("read_file", std::string(R"({"repo":"payments","path":"old/)") + kLive2 + R"(.txt"})",
             &error);
  EXPECT_TRUE(error) << missing;
  s.Call("about", "{}");

  const std::string everything = s.Finish();
  for (const char* token : {kLive, kLive2, kTestToken}) {
    EXPECT_FALSE(Has(everything, token)) << token << " was sent:\n" << everything;
  }
}

TEST_F(ExamplePlugin, AboutAndCheckNameThePlugin) {
  const std::string config = ByPathConfig();
  Session s(config);
  const std::string about = s.Call("about", "{}");
  EXPECT_TRUE(Has(about, "plugin: acme-tokens 1.0.0 — hides Acme Corp API tokens")) << about;
  EXPECT_TRUE(Has(about, "acme-tokens 1.0.0 (1 detector)")) << about;
  EXPECT_TRUE(Has(about, "repo-reader-secrets")) << about;
  s.Finish();

  const CommandResult check = RunServer({"--config", config, "--check"}, site().tmp.path());
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  const std::string real = std::filesystem::canonical(RR_ACME_PLUGIN).string();
  EXPECT_TRUE(Has(check.out, "  acme-tokens 1.0.0 — " + real)) << check.out;
  EXPECT_TRUE(Has(check.out, "acme-tokens 1.0.0 (1 detector)")) << check.out;
  EXPECT_TRUE(Has(check.out, "OK\n")) << check.out;
}

// An installed plugin named by name from a plugin folder, with its settings, and the built-in
// detectors turned off: the server says so, and the plugin alone hides its tokens.
TEST_F(ExamplePlugin, ByNameFromThePluginFolderWithItsSettingsAndNoBuiltins) {
  const std::string config =
      site().Config("repos:\n  - name: payments\n    path: " + site().repo.path() +
                    "\nplugin_folder: " RR_ACME_PLUGIN_FOLDER
                    "\nsecrets:\n  builtin_detectors: false\nplugins:\n  - name: acme-tokens\n"
                    "    settings:\n      test_tokens: show\n");
  Session s(config);
  const std::string notes = s.Call("read_file", R"({"repo":"payments","path":"docs/staging.md"})");
  EXPECT_TRUE(Has(notes, "made with [hidden: Acme token] on the sandbox.")) << notes;
  EXPECT_TRUE(Has(notes, std::string("CI uses ") + kTestToken + ".")) << notes;
  const std::string about = s.Call("about", "{}");
  EXPECT_TRUE(Has(about, "the built-in detectors are turned off")) << about;
  EXPECT_TRUE(Has(about, "in force: acme-tokens 1.0.0 (1 detector)")) << about;
  EXPECT_FALSE(Has(about, "repo-reader-secrets")) << about;
  EXPECT_FALSE(Has(s.Finish(), kLive));

  const CommandResult check = RunServer({"--config", config, "--check"}, site().tmp.path());
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_TRUE(Has(check.out, "Plugin folder: ")) << check.out;
  EXPECT_TRUE(Has(check.out, "the built-in detectors are turned off")) << check.out;
  EXPECT_TRUE(Has(check.out, "/acme-tokens.so")) << check.out;
}

// A setting the plugin does not know stops the server at start and --check, with the plugin's
// own sentence and where the entry is.
TEST_F(ExamplePlugin, ASettingThePluginRefusesStopsTheServerWithItsReason) {
  const std::string config = site().Config(
      "repos:\n  - name: payments\n    path: " + site().repo.path() +
      "\nplugins:\n  - path: " RR_ACME_PLUGIN "\n    settings:\n      test_token: show\n");
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check ? "with --check" : "serving");
    std::vector<std::string> args = {"--config", config};
    if (check) args.push_back("--check");
    const CommandResult r = RunServer(args, site().tmp.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(Has(r.err, config + ":5:5: plugin `")) << r.err;
    EXPECT_TRUE(Has(r.err, "make_secret_detectors failed: unknown setting `test_token`")) << r.err;
  }
}

// ---------------------------------------------------------------------------------------------
// The same plugin built by clang++ against libc++ (sdk.build_example_libcxx), in this server
// built by g++ against libstdc++. Nothing of either C++ library crosses the plugin boundary (it
// is C: plugin_abi.h), so settings go in, spans and sentences come out, and the token is hidden.

// The shared libraries `file` names as NEEDED (readelf -d).
std::vector<std::string> Needed(const std::string& file) {
  const CommandResult r = Run({"readelf", "-d", file}, "/");
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::string> out;
  const std::string mark = "(NEEDED)";
  for (size_t at = r.out.find(mark); at != std::string::npos; at = r.out.find(mark, at + 1)) {
    const size_t open = r.out.find('[', at), close = r.out.find(']', open);
    if (open != std::string::npos && close != std::string::npos) {
      out.push_back(r.out.substr(open + 1, close - open - 1));
    }
  }
  return out;
}

bool NeedsOne(const std::vector<std::string>& needed, const std::string& prefix) {
  for (const auto& n : needed) {
    if (n.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

class ExamplePluginLibcxx : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    if (std::filesystem::exists(RR_ACME_LIBCXX_PLUGIN)) shared_ = std::make_unique<Site>();
  }
  static void TearDownTestSuite() { shared_.reset(); }

 protected:
  void SetUp() override {
    if (!shared_) {
      GTEST_SKIP() << "the example plugin has not been built with libc++ (" RR_ACME_LIBCXX_PLUGIN
                      "); the CTest fixture sdk.build_example_libcxx builds it: run `ctest -R "
                      "sdk` in the build folder";
    }
  }
  Site& site() { return *shared_; }

  // Only the plugin's detector in force: a token it hides is hidden by nothing else.
  std::string Config(const std::string& settings = "") {
    return site().Config("repos:\n  - name: payments\n    path: " + site().repo.path() +
                         "\nsecrets:\n  builtin_detectors: false\nplugins:\n  - path: " +
                         RR_ACME_LIBCXX_PLUGIN + "\n" + settings);
  }

 private:
  static inline std::unique_ptr<Site> shared_;
};

TEST_F(ExamplePluginLibcxx, ThePluginUsesLibcxxAndTheServerLibstdcxx) {
  const auto plugin = Needed(RR_ACME_LIBCXX_PLUGIN);
  EXPECT_TRUE(NeedsOne(plugin, "libc++.so")) << ::testing::PrintToString(plugin);
  EXPECT_FALSE(NeedsOne(plugin, "libstdc++")) << ::testing::PrintToString(plugin);
  const auto server = Needed(RR_BINARY);
  EXPECT_TRUE(NeedsOne(server, "libstdc++")) << ::testing::PrintToString(server);
  EXPECT_FALSE(NeedsOne(server, "libc++.so")) << ::testing::PrintToString(server);
}

TEST_F(ExamplePluginLibcxx, ReadFileHidesATokenOnlyThePluginDetects) {
  Session s(Config("    settings:\n      test_tokens: show\n"));
  bool error = true;
  const std::string notes =
      s.Call("read_file", R"({"repo":"payments","path":"docs/staging.md"})", &error);
  EXPECT_FALSE(error) << notes;
  EXPECT_TRUE(Has(notes, "made with [hidden: Acme token] on the sandbox.")) << notes;
  EXPECT_TRUE(Has(notes, std::string("The old one, ") + kWrongChecksum + ", was")) << notes;
  // The setting reached the plugin: test tokens are shown.
  EXPECT_TRUE(Has(notes, std::string("CI uses ") + kTestToken + ".")) << notes;
  const std::string config =
      s.Call("read_file", R"({"repo":"payments","path":"config/acme.yml"})", &error);
  EXPECT_FALSE(error) << config;
  EXPECT_TRUE(Has(config, "token: [hidden: Acme token]")) << config;
  const std::string about = s.Call("about", "{}");
  EXPECT_TRUE(Has(about, "in force: acme-tokens 1.0.0 (1 detector)")) << about;
  const std::string everything = s.Finish();
  for (const char* token : {kLive, kLive2}) {
    EXPECT_FALSE(Has(everything, token)) << token << " was sent:\n" << everything;
  }
}

TEST_F(ExamplePluginLibcxx, ASettingThePluginRefusesStopsTheServerWithItsReason) {
  const std::string config = Config("    settings:\n      test_token: show\n");
  const CommandResult r = RunServer({"--config", config, "--check"}, site().tmp.path());
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Has(r.err, "make_secret_detectors failed: unknown setting `test_token`")) << r.err;
}

}  // namespace
}  // namespace example_plugin_e2e_test
}  // namespace rr::testing
