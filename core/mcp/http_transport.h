// MCP over Streamable HTTP. Stateless: no session is ever minted, so any
// replica answers any request.
//
//   POST /mcp     one JSON-RPC message. A request is answered with application/json (200, or
//                 400 / 404 as the protocol's rules say), or, for a call that sends progress, an
//                 SSE stream (text/event-stream) of its notifications and then its response.
//                 A notification is answered 202 with no body.
//   GET  /mcp     405 (no server-initiated stream: 2026-07-28 has none, and 2025 lets a server
//   DELETE /mcp   decline), with Allow: POST. An Mcp-Session-Id header is ignored.
//   GET  /healthz 200 "ok": tells nothing about repositories.
//   GET  /metrics Prometheus text, when configured (http.metrics); else 404. Every label value
//                 is one the server fixes: an unknown tool's name is counted as "(unknown)".
//
// Who may call (docs/safety.md, "Over HTTP, only who may call"):
// - with tokens configured (http.token_env, http.tokens), every request must carry
//   `Authorization: Bearer <token>`, compared in constant time; any other request gets 401 with
//   `WWW-Authenticate: Bearer` and a JSON-RPC error saying what to send (never what was sent).
//   The token picks the repositories the call sees: with a live catalog (groups listed again),
//   its set as made from the whole at the last swap.
// - /metrics with its own token (http.metrics.token_env) is read with that token only: a
//   caller's token gets 403, any other 401; the metrics token is none of the callers' (401 on
//   /mcp).
// - without tokens, on loopback only: the Host header must name the server as 127.0.0.1:PORT,
//   localhost:PORT or [::1]:PORT; else 403 (DNS rebinding).
// - an Origin header, when sent, must be the server's own loopback origin or one of
//   http.allowed_origins; else 403.
// The connections, reading and writing are HttpFront's (http_front.h): it hands this file's
// handler only complete requests whose heads it read strictly. Bounded there: the head (16 KB),
// the body (413 past http.max_body_bytes), the time a request takes to arrive
// (http.request_seconds), idle kept-alive connections (http.idle_seconds), connections
// (http.max_connections, http.max_connections_per_address). Bounded here: a call's time
// (http.call_seconds), calls at once (past http.max_calls: 503 with Retry-After, never a queue).
// Stop() drains: the listening socket closes, requests arriving on kept-alive connections get
// 503 with Connection: close, calls in flight finish up to http.drain_seconds; then Finish()
// closes every connection, which cancels the calls still running.
// One access-log line per POST on stderr: method, tool, repository, status, outcome, duration,
// size; never a token, never content.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/mcp/http_front.h"
#include "core/mcp/server.h"

namespace rr {

class HttpMetrics;

class HttpTransport {
 public:
  // One accepted token and the catalog its bearer reads.
  struct Token {
    std::string value;
    std::shared_ptr<const Catalog> catalog;
    // When set, the catalog its bearer reads now (a view of a live catalog); `catalog` is not used.
    std::function<std::shared_ptr<const Catalog>()> live;
  };

  // The repositories the bearer of an http.tokens entry reads, out of a whole: those whose names
  // match one of its patterns (a pattern without '/' names a whole name, not a last part). For
  // LiveCatalog::AddView. The error names a pattern that is not a glob.
  static Result<LiveCatalog::Select> TokenSet(const HttpTokenConfig& token);

  struct Setup {
    std::string host;           // as configured: 127.0.0.1, localhost, ::1, 0.0.0.0, a name…
    uint16_t port = 0;          // 0: any free port (port() tells which)
    std::vector<Token> tokens;  // empty: no token asked
    // /metrics' own token (http.metrics.token_env); "" for none. Opens /metrics and nothing else.
    std::string metrics_token;
    HttpConfig config;
  };

  // Binds the address; throws std::exception (std::system_error, …) when it cannot.
  HttpTransport(McpServer& server, Setup setup);
  ~HttpTransport();

  uint16_t port() const { return port_; }
  // The MCP endpoint's URL, e.g. http://127.0.0.1:8080/mcp.
  std::string url() const;

  // Serves until Stop(); then waits for calls in flight, up to http.drain_seconds.
  void Run();
  // After Run: closes every connection, which cancels the calls still running, and gives them
  // `grace` to return. False when one has not: the McpServer must then outlive this process
  // (exit without destroying it).
  bool Finish(std::chrono::milliseconds grace);
  // Thread-safe, from a signal thread: stop accepting and let Run return after draining.
  void Stop();

  // Whether `host` is the machine's own address by one of the names that count: exactly
  // 127.0.0.1, localhost or ::1.
  static bool IsLoopbackName(const std::string& host);
  // Parses --http's [ADDR:]PORT ("8080", "0.0.0.0:8080", "[::1]:8080"). False when malformed.
  static bool ParseListen(const std::string& text, std::string* host, uint16_t* port);
  // Whether `presented` equals `expected`, in time that depends only on `presented`'s length.
  static bool SameToken(const std::string& presented, const std::string& expected);
  // The HTTP status of a response the server gave: 200; 400 for a message that could not be
  // read, a request refused for its _meta or its headers, or a version not served; 404 for a
  // method 2026-07-28 does not have here.
  static int StatusOf(const McpServer::Outgoing& out);

 private:
  class Handler;
  friend class Handler;

  McpServer& server_;
  Setup setup_;
  uint16_t port_ = 0;
  std::vector<std::string> hosts_ok_;    // Host values accepted on loopback without a token
  std::vector<std::string> origins_ok_;  // Origin values accepted
  std::unique_ptr<HttpMetrics> metrics_;
  std::unique_ptr<HttpFront> front_;

  std::atomic<size_t> calls_{0};  // POSTs being answered
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
};

}  // namespace rr
