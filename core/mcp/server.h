// McpServer: the MCP protocol over JSON-RPC 2.0, independent of the transport. A transport hands
// it one message at a time (Handle) with a Caller: where the answers to that message go, and
// what the caller may read (its Catalog). stdio and HTTP share it.
//
// Both eras on one endpoint, chosen per request. A request whose params._meta names
// io.modelcontextprotocol/protocolVersion (and server/discover, always) is served as 2026-07-28
// defines it: the version and io.modelcontextprotocol/clientCapabilities are required (-32602
// without them), a version not served is UnsupportedProtocolVersion (-32022) listing those that
// are, results carry resultType "complete" and serverInfo in _meta, tools/list and
// server/discover carry ttlMs and cacheScope; there is no initialize and no ping. Any other
// request is served as the 2025 revisions define it: initialize (the client's protocol version
// when supported, else the newest), notifications/initialized, ping, tools/list, tools/call.
// notifications/cancelled cancels a call on the pool in either era.
// Once it has answered its first message, the server starts its background history indexer
// (history_indexer.h) for the repositories that need one.
// tools/call runs on a worker pool (or, for a caller that waits, on the caller's thread), so a
// slow call never holds up ping or another call; a cancelled call stops soon and sends nothing.
// A call whose request carries a progress token (params._meta.progressToken) may send
// notifications/progress before its answer. Every tool answer and tool error goes through the
// AnswerPipeline.
// Numbers: an integer literal past 64 bits is never wrapped: as an id it is a parse error
// (-32700), as a tool's argument an error naming the argument.
#pragma once

#include <Poco/JSON/Object.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/history/history_indexer.h"
#include "core/served/catalog.h"
#include "core/served/live_catalog.h"
#include "core/tools/tool.h"

namespace rr {

// The revisions with an initialize handshake (legacy), newest first.
inline constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                    "2024-11-05"};
// The revisions without one (modern): every request names its version in params._meta.
inline constexpr const char* kModernProtocolVersions[] = {"2026-07-28"};

class McpServer {
 public:
  // Thread-safe: called from many threads, each call one complete JSON-RPC message.
  using Sink = std::function<void(const std::string& message)>;

  // One message the server sends in answer to an incoming one.
  struct Outgoing {
    std::string json;
    // true: the response (the last message for its request); false: a notification sent while
    // the request is under way (notifications/progress).
    bool final = true;
    // The HTTP status a Streamable HTTP transport answers the response with: 200, or 400 / 404
    // for the errors the transport's rules give a status of their own.
    int http_status = 200;
  };
  using ReplySink = std::function<void(const Outgoing&)>;

  // What a transport records of one message for its access log and metrics (never a token,
  // never content).
  struct Record {
    std::string method;   // as the message named it, capped; "" when it could not be read
    std::string tool;     // tools/call: the tool's name, when known
    std::string repo;     // tools/call: the `repo` argument, when given
    std::string outcome;  // ok, tool error, cancelled, or "error <code>"
    size_t answer_bytes = 0;
  };

  // The Streamable HTTP request headers the protocol checks against the body (trimmed; absent
  // ones empty optionals).
  struct HttpHeaders {
    std::optional<std::string> protocol_version;  // MCP-Protocol-Version
    std::optional<std::string> method;            // Mcp-Method
    std::optional<std::string> name;              // Mcp-Name, as sent (maybe =?base64?…?=)
  };

  // Who sent one message and where its answers go.
  struct Caller {
    ReplySink reply;
    // The repositories this caller may read; null: the server's own catalog, as it is when the
    // message arrives (one call, one set: the snapshot taken then is all the call reads).
    std::shared_ptr<const Catalog> catalog;
    // true: Handle returns only after the response was given to `reply`, and a tools/call runs
    // on the calling thread (an HTTP request's thread). false: tools/call runs on the pool.
    bool wait = false;
    // Set by the transport when the client went away (an HTTP connection closed): the call
    // under way is cancelled. May be null.
    std::shared_ptr<std::atomic<bool>> gone;
    // Filled in when not null (the transport's access log).
    Record* record = nullptr;
    // Streamable HTTP: the request's headers, checked against the body as each revision says.
    // Null on stdio.
    const HttpHeaders* http = nullptr;
  };

  struct Options {
    size_t workers = 8;
    size_t max_in_flight = 256;
    std::chrono::milliseconds call_budget{30000};  // a reading call is stopped after this
    std::shared_ptr<const ServerFacts> facts;      // for `about`
    // How long the history indexer waits between passes over the repositories.
    std::chrono::milliseconds history_recheck{60000};
    // Least time between two progress notifications of one call.
    std::chrono::milliseconds progress_interval{250};
  };

  // `sink` receives what Handle(message) sends (the stdio caller); it may be empty when every
  // message comes with its own Caller.
  McpServer(std::shared_ptr<const Catalog> catalog, AnswerPipeline pipeline, Sink sink,
            std::vector<std::unique_ptr<const Tool>> tools, Options options);
  // The same, reading a live catalog (groups listed again while the server runs): each message
  // takes a snapshot of it when it arrives; the history indexer takes one each pass.
  McpServer(std::shared_ptr<LiveCatalog> catalog, AnswerPipeline pipeline, Sink sink,
            std::vector<std::unique_ptr<const Tool>> tools, Options options);
  ~McpServer();

  // One incoming message (a line of stdio), answered through the constructor's sink.
  void Handle(const std::string& message);
  // One incoming message from `caller`.
  void Handle(const std::string& message, const Caller& caller);
  // Waits until every call under way on the pool has answered (or been cancelled).
  void Drain();

  // The error sent for a message too large to read, with the request's id when its first bytes
  // (`head`) name one (LeadingRequestId), so that the client is not left waiting for it.
  static std::string OversizedMessageError(size_t limit, std::string_view head = {});

  // The server's own catalog now (a snapshot).
  std::shared_ptr<const Catalog> catalog() const { return live_->Get(); }
  const std::shared_ptr<LiveCatalog>& live_catalog() const { return live_; }
  const AnswerPipeline& pipeline() const { return pipeline_; }

 private:
  struct Request;

  void HandleRequest(const Poco::JSON::Object::Ptr& msg, Request& req);
  void HandleNotification(const Poco::JSON::Object::Ptr& msg, const Caller& caller);
  void CallTool(const Poco::JSON::Object::Ptr& params, Request& req);
  std::string RunTool(const Tool& tool, const Poco::JSON::Object::Ptr& arguments,
                      const Request& req, const std::shared_ptr<std::atomic<bool>>& cancelled,
                      bool* is_error) const;
  std::string ToolsList() const;
  void Reply(const Request& req, const std::string& result_json);
  void ReplyError(const Request& req, int code, const std::string& message,
                  const std::string& data_json = "", int http_status = 0);
  // The 2026-07-28 checks of a request's _meta and HTTP headers; false when it was refused.
  bool CheckModern(const Poco::JSON::Object::Ptr& msg, const Poco::JSON::Object::Ptr& params,
                   const std::string& method, Request& req);
  // The checks of a 2025 request's HTTP headers; false when it was refused.
  bool CheckLegacyHttp(Request& req);
  // Called after every answer sent: starts background work after the first.
  void Answered();
  void Worker();

  std::shared_ptr<LiveCatalog> live_;
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
  // Calls on the pool: id -> cancelled. Only the default (stdio) caller's calls are here: ids
  // are unique per connection, and notifications/cancelled names them.
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;
  std::vector<std::thread> threads_;
  std::unique_ptr<HistoryIndexer> indexer_;
  std::once_flag indexer_started_;
};

}  // namespace rr
