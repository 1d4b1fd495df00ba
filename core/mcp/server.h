// McpServer: the MCP protocol over JSON-RPC 2.0, independent of the transport. A transport
// hands it one message at a time (Handle) and gives it a Sink for what it sends back.
//
// Lifecycle: initialize (the client's protocol version when supported, else the newest),
// notifications/initialized, ping, tools/list, tools/call, notifications/cancelled.
// Once it has answered its first message, the server starts its background history indexer
// (history_indexer.h) for the repositories that need one.
// tools/call runs on a worker pool, so a slow call never holds up ping or another call; a
// cancelled call stops soon and sends nothing. Every tool answer and tool error goes through
// the AnswerPipeline.
#pragma once

#include <Poco/JSON/Object.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/mcp/history_indexer.h"
#include "core/policy/catalog.h"
#include "core/tools/tool.h"

namespace rr {

inline constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                    "2024-11-05"};

class McpServer {
 public:
  // Thread-safe: called from many threads, each call one complete JSON-RPC message.
  using Sink = std::function<void(const std::string& message)>;

  struct Options {
    size_t workers = 8;
    size_t max_in_flight = 256;
    std::chrono::milliseconds call_budget{30000};  // a reading call is stopped after this
    std::shared_ptr<const ServerFacts> facts;      // for `about`
    // How long the history indexer waits between passes over the repositories.
    std::chrono::milliseconds history_recheck{60000};
  };

  McpServer(std::shared_ptr<const Catalog> catalog, AnswerPipeline pipeline, Sink sink,
            std::vector<std::unique_ptr<const Tool>> tools, Options options);
  ~McpServer();

  // One incoming message (a line of stdio, or an HTTP body).
  void Handle(const std::string& message);
  // Waits until every call under way has answered (or been cancelled).
  void Drain();

  // The error sent for a message too large to read.
  static std::string OversizedMessageError(size_t limit);

 private:
  void HandleRequest(const Poco::JSON::Object::Ptr& msg, const std::string& id);
  void HandleNotification(const Poco::JSON::Object::Ptr& msg);
  void CallTool(const Poco::JSON::Object::Ptr& params, const std::string& id);
  std::string ToolsList() const;
  void Reply(const std::string& id, const std::string& result_json);
  // Called after every answer sent: starts background work after the first.
  void Answered();
  void ReplyError(const std::string& id, int code, const std::string& message);
  void Worker();

  std::shared_ptr<const Catalog> catalog_;
  AnswerPipeline pipeline_;
  Sink sink_;
  std::vector<std::unique_ptr<const Tool>> tools_;
  Options options_;
  std::string tools_list_;  // built once

  std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<std::function<void()>> queue_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;  // id -> cancelled
  std::vector<std::thread> threads_;
  std::unique_ptr<HistoryIndexer> indexer_;
  std::once_flag indexer_started_;
};

}  // namespace rr
