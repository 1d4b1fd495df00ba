#include "tests/testkit/tool_harness.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>

#include "core/app/wiring.h"
#include "core/plugins/loader.h"
#include "core/tools/about.h"
#include "core/tools/tool.h"
#include "core/util/json_text.h"

namespace rr::testing {

RepoConfig Served(const std::string& name, const std::string& path) {
  RepoConfig rc;
  rc.name = name;
  rc.path = path;
  return rc;
}

const Plugins& BuiltinPlugins() {
  static const Plugins plugins = [] {
    PluginsConfig pc;
    pc.folder = RR_PLUGIN_DIR;
    auto loaded = LoadPlugins(pc);
    if (!loaded) throw std::runtime_error(loaded.error());
    return loaded.take();
  }();
  return plugins;
}

const Plugins& BuiltinHostPlugins() {
  static const Plugins plugins = [] {
    PluginsConfig pc;
    pc.folder = RR_PLUGIN_DIR;
    pc.builtin_detectors = false;
    pc.builtin_hosts = {"github", "gitlab", "bitbucket"};
    auto loaded = LoadPlugins(pc);
    if (!loaded) throw std::runtime_error(loaded.error());
    return loaded.take();
  }();
  return plugins;
}

ToolHarness::ToolHarness(std::vector<RepoConfig> repos, size_t answer_characters,
                         std::vector<std::shared_ptr<const OutputFilter>> filters,
                         McpServer::Options options) {
  Config config;
  config.source = "test";
  config.repos = std::move(repos);
  config.answer_characters = answer_characters;
  Start(config, std::move(filters), std::move(options));
}

ToolHarness::ToolHarness(FromConfig, const Config& config,
                         std::vector<std::unique_ptr<const Tool>> extra,
                         McpServer::Options options) {
  Start(config, {}, std::move(options), std::move(extra));
}

void ToolHarness::Start(const Config& config,
                        std::vector<std::shared_ptr<const OutputFilter>> filters,
                        McpServer::Options options,
                        std::vector<std::unique_ptr<const Tool>> extra) {
  const size_t answer_characters = config.answer_characters;
  LinkRepositories(config, HostLinks(BuiltinHostPlugins().hosts));
  auto catalog = BuildCatalog(config);
  if (!catalog) throw std::runtime_error(catalog.error());
  if (!options.facts) options.facts = FactsOf(BuiltinPlugins());
  server_ = std::make_unique<McpServer>(
      catalog.take(),
      AnswerPipeline(answer_characters, std::move(filters), BuiltinPlugins().secrets,
                     std::make_shared<HostLinks>(BuiltinHostPlugins().hosts)),
      [this](const std::string& m) {
        std::lock_guard<std::mutex> lock(mu_);
        sent_.push_back(m);
        cv_.notify_all();
      },
      [&extra] {
        auto tools = BuiltinTools();
        for (auto& t : extra) tools.push_back(std::move(t));
        return tools;
      }(),
      options);
}

ToolHarness::ToolHarness(Live, std::shared_ptr<LiveCatalog> live,
                         std::vector<std::unique_ptr<const Tool>> extra) {
  McpServer::Options options;
  options.facts = FactsOf(BuiltinPlugins());
  auto tools = BuiltinTools();
  for (auto& t : extra) tools.push_back(std::move(t));
  server_ = std::make_unique<McpServer>(
      std::move(live),
      AnswerPipeline(40000, {}, BuiltinPlugins().secrets,
                     std::make_shared<HostLinks>(BuiltinHostPlugins().hosts)),
      [this](const std::string& m) {
        std::lock_guard<std::mutex> lock(mu_);
        sent_.push_back(m);
        cv_.notify_all();
      },
      std::move(tools), options);
}

ToolHarness::~ToolHarness() { server_.reset(); }

void ToolHarness::Drain() { server_->Drain(); }

std::vector<std::string> ToolHarness::Sent() {
  std::lock_guard<std::mutex> lock(mu_);
  return sent_;
}

Poco::JSON::Object::Ptr ToolHarness::WaitFor(int id) {
  std::unique_lock<std::mutex> lock(mu_);
  size_t seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (true) {
    for (; seen < sent_.size(); ++seen) {
      Poco::JSON::Parser parser;
      const Poco::Dynamic::Var parsed = parser.parse(sent_[seen]);
      if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) continue;  // a batch's answer
      auto msg = parsed.extract<Poco::JSON::Object::Ptr>();
      if (msg->has("id") && !msg->get("id").isEmpty() && msg->get("id").isInteger() &&
          msg->getValue<int>("id") == id) {
        return msg;
      }
    }
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
      ADD_FAILURE() << "no answer to request " << id;
      return nullptr;
    }
  }
}

void ToolHarness::Send(const std::string& message) { server_->Handle(message); }

Poco::JSON::Object::Ptr ToolHarness::Raw(const std::string& message, int id) {
  server_->Handle(message);
  return WaitFor(id);
}

ToolHarness::Answer ToolHarness::Call(const std::string& tool, const std::string& args_json) {
  return Await(CallAsync(tool, args_json));
}

int ToolHarness::CallAsync(const std::string& tool, const std::string& args_json) {
  const int id = next_id_++;
  server_->Handle("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                  ",\"method\":\"tools/call\",\"params\":{\"name\":" + JsonQuote(tool) +
                  ",\"arguments\":" + args_json + "}}");
  return id;
}

ToolHarness::Answer ToolHarness::Await(int id) {
  auto msg = WaitFor(id);
  Answer a;
  if (!msg) return a;
  if (msg->has("error")) {
    a.is_error = true;
    a.text = msg->getObject("error")->getValue<std::string>("message");
    return a;
  }
  auto result = msg->getObject("result");
  a.is_error = result->getValue<bool>("isError");
  a.text = result->getArray("content")->getObject(0)->getValue<std::string>("text");
  return a;
}

}  // namespace rr::testing
