// McpServer: the MCP protocol over JSON-RPC 2.0, independent of the transport. A transport hands
// it one message at a time (Handle) with a Caller: where the answers to that message go, and
// what the caller may read (its Catalog). stdio and HTTP share it.
//
// Both eras on one endpoint, chosen per request (era.h): a request whose params._meta names
// io.modelcontextprotocol/protocolVersion (and server/discover, always) is served as 2026-07-28
// defines it, any other as the 2025 revisions do. What is answered is one method table
// (method_table.h), read by both eras:
//
//   method                    eras          runs on
//   initialize                2025          inline   the client's version when served, else the
//   newest ping                      2025          inline server/discover           2026-07-28
//   inline   versions, capabilities, instructions tools/list                both          inline
//   one page: a cursor is -32602 tools/call                both          pool     every answer
//   through the AnswerPipeline skills/list, skills/get   both          pool     the MCP Skills
//   extension (skills.h) resources/list            both          pool resources/read both pool
//   resources/templates/list  both          inline   none; one page: a cursor is -32602
//
// notifications/initialized is read and needs nothing; notifications/cancelled cancels a call on
// the pool in either era. A method of the other era is -32601, naming this era's methods.
// A JSON-RPC batch is read at 2025-03-26 only (era.h's CheckBatch): answered with an array of
// the responses, in the order of the requests, its requests run one after another; at any
// other version it is refused (-32600), as later revisions removed batches.
// Once it has answered its first message, the server calls Options::first_answered (the app
// starts its background history indexer then, core/history/history_indexer.h).
// Pool methods run on a worker pool (or, for a caller that waits, on the caller's thread), so a
// slow call never holds up ping or another call; a cancelled call stops soon and sends nothing.
// A pool call whose request carries a progress token (params._meta.progressToken) may send
// notifications/progress before its answer.
// Numbers: an integer literal past 64 bits is never wrapped: as an id it is a parse error
// (-32700), as a tool's argument an error naming the argument.
#pragma once

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/mcp/era.h"
#include "core/mcp/method_table.h"
#include "core/runtime/executor.h"
#include "core/served/catalog.h"
#include "core/served/live_catalog.h"
#include "core/tools/tool.h"

namespace rr {

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
    // What a Streamable HTTP transport needs to choose the response's status (it maps them;
    // HttpTransport::StatusOf): the error's code (0 for a result), the era it was answered in,
    // and whether the request was refused as malformed before any method ran.
    int error_code = 0;
    bool modern = false;
    bool malformed = false;
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

  // The Streamable HTTP request headers the protocol checks against the body (era.h).
  using HttpHeaders = rr::HttpHeaders;

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
    // What the connection remembers across messages (stdio: the version initialize negotiated);
    // null when it keeps nothing (HTTP). Handle(message) gives stdio's.
    Connection* connection = nullptr;
  };

  struct Options {
    size_t workers = 8;
    size_t max_in_flight = 256;
    std::chrono::milliseconds call_budget{30000};  // a reading call is stopped after this
    std::shared_ptr<const ServerFacts> facts;      // for `about`
    // Called once, after the first answer is sent, on the thread that sent it: background work
    // that must not slow starting begins then (the app's history indexer). May be empty.
    std::function<void()> first_answered;
    // Least time between two progress notifications of one call.
    std::chrono::milliseconds progress_interval{250};
  };

  // `sink` receives what Handle(message) sends (the stdio caller); it may be empty when every
  // message comes with its own Caller.
  McpServer(std::shared_ptr<const Catalog> catalog, AnswerPipeline pipeline, Sink sink,
            std::vector<std::unique_ptr<const Tool>> tools, Options options);
  // The same, reading a live catalog (groups listed again while the server runs): each message
  // takes a snapshot of it when it arrives.
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
  // The names of the tools served (tools/list's), in its order.
  std::vector<std::string> ToolNames() const;

 private:
  struct Request;
  struct Batch;

  // One parsed message (an object, or anything else to refuse) from `req`'s caller.
  void HandleMessage(const Poco::Dynamic::Var& parsed, bool widened, Request& req, bool in_batch);
  void HandleBatch(const Poco::JSON::Array::Ptr& batch, bool widened, const Caller& caller);
  void HandleRequest(const Poco::JSON::Object::Ptr& msg, Request& req, bool in_batch);
  void HandleNotification(const Poco::JSON::Object::Ptr& msg, const Caller& caller);
  // The call runner: runs a method inline, on the caller's thread (a caller that waits) or on
  // the pool, with its stop token and progress, and answers unless it was cancelled.
  void Run(const Method& method, const Poco::JSON::Object::Ptr& params, Request& req);
  MethodAnswer Invoke(const Method& method, const Poco::JSON::Object::Ptr& params,
                      const Request& req, const std::shared_ptr<std::atomic<bool>>& cancelled,
                      const ProgressFn& progress);
  ProgressFn Progress(const Request& req, const std::shared_ptr<std::atomic<bool>>& cancelled,
                      std::function<void()>* close) const;
  void Answer(const Request& req, const MethodAnswer& answer);

  // The handlers of the method table.
  void BuildMethods();
  MethodAnswer Initialize(const MethodCall& call) const;
  MethodAnswer Discover(const MethodCall& call) const;
  MethodAnswer ListTools(const MethodCall& call) const;
  MethodAnswer CallTool(const MethodCall& call) const;
  MethodAnswer Skills(const std::string& method, const MethodCall& call) const;
  std::string RunTool(const Tool& tool, const Poco::JSON::Object::Ptr& arguments,
                      const MethodCall& call, bool* is_error) const;
  // tools/list's result; with the 2026-07-28 cache hints when `cache_hints`.
  std::string ToolsList(bool cache_hints) const;

  void Reply(const Request& req, const std::string& result_json);
  void ReplyError(const Request& req, const RpcError& error);
  // Called after every answer sent: starts background work after the first.
  void Answered();

  std::shared_ptr<LiveCatalog> live_;
  AnswerPipeline pipeline_;
  Sink sink_;
  std::vector<std::unique_ptr<const Tool>> tools_;
  // The tool whose spec says it reads guidance (GuidanceWay::kReads): the call the guidance join
  // names. Empty when no tool does (then no guidance is joined).
  std::string reading_tool_;
  Options options_;
  std::string tools_list_, tools_list_modern_;  // built once
  MethodTable methods_;                         // built once
  Connection stdio_;                            // Handle(message)'s connection

  std::mutex mu_;
  // Calls on the pool (and requests of a batch read from stdio): id -> cancelled. Only the
  // default (stdio) caller's calls are here: ids are unique per connection, and
  // notifications/cancelled names them.
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;
  std::once_flag first_answered_;
  // The call pool (Options::workers threads; not started when there are none). Last, so that
  // it stops, and its tasks end, before what they use goes.
  BoundedExecutor pool_;
};

}  // namespace rr
