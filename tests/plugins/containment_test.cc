// Containment through the server in-process: with a plugin whose detector throws, or reports
// a span past the end of the text, an answer it fails on is withheld — never shown unfiltered —
// and the operator is told which detector failed; answers it is not called on are filtered as
// usual by the other detectors in force.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/app/wiring.h"
#include "core/mcp/server.h"
#include "core/plugins/loader.h"
#include "core/tools/tool.h"
#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace containment_test {
namespace {

constexpr const char* kPlanted = "PLANTED-0123456789abcdef";
constexpr const char* kWithheld =
    "[This answer is withheld: the secret filter could not check it, so nothing of it is shown.";

std::string TestPlugin(const std::string& name) {
  return std::string(RR_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

// The server in-process, its answers passing the secret filter of the plugins at `paths` (the
// built-in detectors off), as main.cc wires it.
class PluginServer {
 public:
  PluginServer(const std::string& repo, std::initializer_list<std::string> paths) {
    PluginsConfig pc;
    pc.builtin_detectors = false;
    for (const auto& p : paths) {
      PluginSpec spec;
      spec.path = p;
      pc.plugins.push_back(spec);
    }
    auto plugins = LoadPlugins(pc);
    if (!plugins) throw std::runtime_error(plugins.error());
    Config config;
    config.source = "test";
    config.repos = {Served("shop", repo)};
    auto catalog = BuildCatalog(config);
    if (!catalog) throw std::runtime_error(catalog.error());
    // Only the SecretFilter is handed on: it alone must keep the plugins' libraries loaded.
    server_ = std::make_unique<McpServer>(
        catalog.take(), AnswerPipeline(config.answer_characters, {}, plugins->secrets),
        [this](const std::string& m) {
          std::lock_guard<std::mutex> lock(mu_);
          sent_.push_back(m);
          cv_.notify_all();
        },
        BuiltinTools(), McpServer::Options{});
  }
  ~PluginServer() { server_.reset(); }

  ToolHarness::Answer Call(const std::string& tool, const std::string& args_json) {
    const int id = next_id_++;
    server_->Handle("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                    ",\"method\":\"tools/call\",\"params\":{\"name\":" + JsonQuote(tool) +
                    ",\"arguments\":" + args_json + "}}");
    std::unique_lock<std::mutex> lock(mu_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (size_t seen = 0;;) {
      for (; seen < sent_.size(); ++seen) {
        auto msg = Poco::JSON::Parser().parse(sent_[seen]).extract<Poco::JSON::Object::Ptr>();
        if (!msg->has("id") || msg->getValue<int>("id") != id) continue;
        auto result = msg->getObject("result");
        return {result->getArray("content")->getObject(0)->getValue<std::string>("text"),
                result->getValue<bool>("isError")};
      }
      if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
        ADD_FAILURE() << "no answer to request " << id;
        return {};
      }
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> sent_;
  std::unique_ptr<McpServer> server_;
  int next_id_ = 1;
};

// A repository whose files hold the planted value, some beside a failing detector's keyword.
class PluginContainment : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_ = new Shared;
    TestRepo& r = shared_->repo;
    r.Write("plain.txt", std::string("stamp: ") + kPlanted + "\nnothing else here\n");
    r.Write("throws.txt", std::string("stamp: ") + kPlanted + "\nexplode-here\ntail text\n");
    r.Write("overruns.txt", std::string("stamp: ") + kPlanted + "\nbad-span-here\ntail text\n");
    r.Commit("Add the files");
    r.Write("notes.txt", "a note\n");
    r.Commit("Note where it broke: explode-here");
  }
  static void TearDownTestSuite() { delete shared_; }
  const std::string& repo() const { return shared_->repo.path(); }

 private:
  struct Shared {
    TempDir tmp;
    TestRepo repo{tmp / "shop"};
  };
  static inline Shared* shared_ = nullptr;
};

// The answer says it was withheld, and nothing of the file reaches it.
void ExpectWithheld(const ToolHarness::Answer& a) {
  EXPECT_TRUE(Has(a.text, kWithheld));
  EXPECT_TRUE(Has(a.text, "The operator has been told which detector failed."));
  EXPECT_TRUE(HasNot(a.text, kPlanted));
  EXPECT_TRUE(HasNot(a.text, "0123456789abcdef"));
  EXPECT_TRUE(HasNot(a.text, "stamp"));
  EXPECT_TRUE(HasNot(a.text, "tail text"));
}

TEST_F(PluginContainment, ADetectorThatThrowsWithholdsTheAnswerAndTellsTheOperator) {
  PluginServer server(repo(), {TestPlugin("planted"), TestPlugin("throws-in-scan")});
  ::testing::internal::CaptureStderr();
  const auto a = server.Call("read_file", R"({"repo":"shop","path":"throws.txt"})");
  const std::string log = ::testing::internal::GetCapturedStderr();
  ExpectWithheld(a);
  EXPECT_TRUE(Has(log,
                  "an answer was withheld: secret detector `explodes` of plugin "
                  "`throws-in-scan` threw: the detector broke on its keyword"));
}

// Over the C boundary a failure is data (RR_FAILED and a sentence), not an exception: it is
// contained the same way.
TEST_F(PluginContainment, ADetectorThatAnswersFailedWithholdsTheAnswerAndTellsTheOperator) {
  PluginServer server(repo(), {TestPlugin("c-failing-scan")});
  ::testing::internal::CaptureStderr();
  const auto a = server.Call("read_file", R"({"repo":"shop","path":"throws.txt"})");
  const std::string log = ::testing::internal::GetCapturedStderr();
  ExpectWithheld(a);
  EXPECT_TRUE(Has(log,
                  "an answer was withheld: secret detector `c-planted-token` of plugin "
                  "`c-failing-scan` failed: the C detector could not read the text"))
      << log;
}

TEST_F(PluginContainment, ADetectorWithASpanPastTheEndWithholdsTheAnswerAndTellsTheOperator) {
  PluginServer server(repo(), {TestPlugin("planted"), TestPlugin("bad-span")});
  ::testing::internal::CaptureStderr();
  const auto a = server.Call("read_file", R"({"repo":"shop","path":"overruns.txt"})");
  const std::string log = ::testing::internal::GetCapturedStderr();
  ExpectWithheld(a);
  EXPECT_TRUE(Has(log,
                  "an answer was withheld: secret detector `overruns` of plugin `bad-span` "
                  "reported a span outside the text"));
}

TEST_F(PluginContainment, AnErrorTheDetectorFailsOnIsWithheldToo) {
  for (const char* plugin : {"throws-in-scan", "bad-span"}) {
    SCOPED_TRACE(plugin);
    PluginServer server(repo(), {TestPlugin("planted"), TestPlugin(plugin)});
    ::testing::internal::CaptureStderr();
    const auto a = server.Call(
        "read_file",
        R"({"repo":"shop","path":"explode-here/bad-span-here/PLANTED-0123456789abcdef"})");
    ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(a.is_error);
    EXPECT_TRUE(Has(a.text, kWithheld));
    EXPECT_TRUE(HasNot(a.text, kPlanted));
    EXPECT_TRUE(HasNot(a.text, "explode-here"));
  }
}

// grep, search, log and find_commits read texts the answer does not show whole (every file
// searched, every message matched): a detector failing on one of them withholds the whole
// answer as read_file's is withheld, and the log names the detector and its plugin. Before,
// grep and search left such files out as "over 10 MB, or not in the local copy" and log left
// the commit out, and the operator heard nothing.
TEST_F(PluginContainment, EveryToolWithholdsItsAnswerWhenADetectorFailsOnWhatItRead) {
  PluginServer server(repo(), {TestPlugin("planted"), TestPlugin("throws-in-scan")});
  const std::vector<std::pair<std::string, std::string>> calls = {
      {"grep", R"({"repo":"shop","pattern":"tail text"})"},
      {"grep", R"({"repo":"shop","pattern":"tail","regex":true,"files_only":true})"},
      {"search", R"({"pattern":"tail text"})"},
      {"search", R"({"pattern":"tail text","repos":["shop"]})"},
      {"log", R"({"repo":"shop","message":"broke"})"},
      {"find_commits", R"({"message":"broke"})"},
  };
  for (const auto& [tool, args] : calls) {
    SCOPED_TRACE(tool + " " + args);
    ::testing::internal::CaptureStderr();
    const auto a = server.Call(tool, args);
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(Has(a.text, kWithheld)) << a.text;
    EXPECT_TRUE(Has(a.text, "The operator has been told which detector failed."));
    EXPECT_TRUE(HasNot(a.text, "not searched"));
    EXPECT_TRUE(HasNot(a.text, "No line matches"));
    EXPECT_TRUE(HasNot(a.text, "No commit matches"));
    EXPECT_TRUE(HasNot(a.text, "tail text"));
    EXPECT_TRUE(Has(log,
                    "an answer was withheld: secret detector `explodes` of plugin "
                    "`throws-in-scan` threw: the detector broke on its keyword"))
        << log;
  }
  // What the failing detector is never called on is searched and filtered as usual.
  const auto plain = server.Call("grep", R"({"repo":"shop","pattern":"nothing else"})");
  EXPECT_FALSE(plain.is_error) << plain.text;
  EXPECT_TRUE(Has(plain.text, "plain.txt")) << plain.text;
  EXPECT_TRUE(HasNot(plain.text, kWithheld));
}

TEST_F(PluginContainment, AnswersWithoutTheKeywordAreFilteredByTheOtherDetectors) {
  for (const char* plugin : {"throws-in-scan", "bad-span"}) {
    SCOPED_TRACE(plugin);
    PluginServer server(repo(), {TestPlugin("planted"), TestPlugin(plugin)});
    const auto a = server.Call("read_file", R"({"repo":"shop","path":"plain.txt"})");
    EXPECT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(Has(a.text, "stamp: [hidden: planted token]"));
    EXPECT_TRUE(Has(a.text, "nothing else here"));
    EXPECT_TRUE(HasNot(a.text, kPlanted));
    EXPECT_TRUE(Has(a.text, "[1 value that looks like a secret is hidden as `[hidden: …]`"));
  }
}

}  // namespace
}  // namespace containment_test
}  // namespace rr::testing
