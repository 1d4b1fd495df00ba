// Test kit: the server in-process. Calls go through McpServer exactly as a transport's would
// (argument checking, worker pool, answer pipeline with the built-in secret detectors), so what
// a test sees is what an agent sees.
#pragma once

#include <Poco/JSON/Object.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/config/config.h"
#include "core/mcp/server.h"
#include "core/plugins/loader.h"

namespace rr::testing {

// The server's own plugins as a default installation loads them (the built-in secret
// detectors, from the build's plugin folder), loaded once per test process.
const Plugins& BuiltinPlugins();
// The built-in host plugins (github, gitlab, bitbucket), for the links under answers about
// mirrors; loaded once per test process.
const Plugins& BuiltinHostPlugins();

// A repository entry for a test configuration: name and path, policy defaults.
RepoConfig Served(const std::string& name, const std::string& path);

class ToolHarness {
 public:
  struct Answer {
    std::string text;
    bool is_error = false;
  };

  explicit ToolHarness(std::vector<RepoConfig> repos, size_t answer_characters = 40000,
                       std::vector<std::shared_ptr<const OutputFilter>> filters = {},
                       McpServer::Options options = McpServer::Options{});
  // The server for a whole configuration (mirrors too), with `extra` tools after the built-in
  // ones (a test's own, e.g. one that declares traits).
  struct FromConfig {};
  ToolHarness(FromConfig, const Config& config, std::vector<std::unique_ptr<const Tool>> extra = {},
              McpServer::Options options = McpServer::Options{});
  // The server over a live catalog (groups listed again), with `extra` tools after the built-in
  // ones (a test's own, e.g. one that holds a call open across a swap).
  struct Live {};
  ToolHarness(Live, std::shared_ptr<LiveCatalog> live,
              std::vector<std::unique_ptr<const Tool>> extra = {});
  ~ToolHarness();

  // tools/call with `args_json` (a JSON object) as arguments.
  Answer Call(const std::string& tool, const std::string& args_json = "{}");
  // tools/call sent without waiting for the answer; Await(id) gives it.
  int CallAsync(const std::string& tool, const std::string& args_json = "{}");
  Answer Await(int id);
  // Any JSON-RPC message (or batch), without waiting for an answer.
  void Send(const std::string& message);
  // Any JSON-RPC message; returns the response to it (the server must answer).
  Poco::JSON::Object::Ptr Raw(const std::string& message, int id);
  // Every message the server sent, in order.
  std::vector<std::string> Sent();
  // Waits until every call on the server's pool has answered (McpServer::Drain, as stdin's end).
  void Drain();

 private:
  Poco::JSON::Object::Ptr WaitFor(int id);
  void Start(const Config& config, std::vector<std::shared_ptr<const OutputFilter>> filters,
             McpServer::Options options, std::vector<std::unique_ptr<const Tool>> extra = {});

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> sent_;
  std::unique_ptr<McpServer> server_;
  int next_id_ = 1;
};

}  // namespace rr::testing
