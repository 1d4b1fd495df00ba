// The HTTP/1.1 front of the Streamable HTTP transport: accepts connections, reads each request
// whole under deadlines, and writes the answers, on event-loop threads (Boost.Asio, one a core,
// each connection on one of them); hands only complete requests to a handler on a bounded pool
// of worker threads.
//
// Why an event loop: with a thread per connection, a connection that sends its head one byte a
// second, sends nothing, or sits idle after a kept-alive request holds a thread for as long as it
// likes, and a few hundred of them stop every other caller. Here such a connection costs a file
// descriptor, a timer and the bytes it has sent; a worker is taken only once a request is whole.
//
// What it promises:
// - A request's head and body arrive within `request_time` of its first byte, or the connection
//   gets 408 and is closed; a new connection that sends nothing, within `request_time` of
//   opening; a kept-alive connection waits `idle_time` for its next request; a response the client
//   does not read for `idle_time` closes its connection.
// - At most `max_connections` connections at once, and `max_connections_per_address` from one
//   client address; past either, a new connection gets 503 and is closed.
// - Heads are read strictly (RFC 9112): CRLF line endings only (no bare CR or LF), no obsolete
//   line folding, header names that are tokens (no space before the colon), no control
//   characters, HTTP/1.1 needs one Host, Transfer-Encoding only `chunked` and never beside
//   Content-Length (request smuggling), and the names in `single_headers` at most once. Any other
//   request gets 400 (431 for a head past `max_head_bytes`, 413 for a body past
//   `max_body_bytes`, 501 for a transfer coding other than chunked) with a JSON-RPC error body,
//   and its connection is closed: nothing of it reaches the handler.
// - StopAccepting() closes the listening socket (new connections are refused by the kernel at
//   once); from then on a request that completes is answered 503 with `Connection: close`, and
//   responses under way close their connections when done.
// - Every request or connection it answers itself is counted, by why (Refusal): a fixed list, so
//   whatever clients send, the counts stay the same size.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace rr {

class HttpResponse;

// One complete request, as the front read it: head checked, body whole (chunked decoded).
class HttpRequest {
 public:
  const std::string& getMethod() const { return method_; }
  const std::string& getURI() const { return target_; }
  // Header lookups by name, case-insensitive. A name the front takes only once has one value;
  // for others, the first.
  bool has(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback = "") const;
  const std::string& body() const { return body_; }
  // The client's address (the gateway's, behind one).
  const std::string& peer() const { return peer_; }

 private:
  friend class HttpFront;
  std::string method_;
  std::string target_;
  std::string body_;
  std::string peer_;
  std::vector<std::pair<std::string, std::string>> fields_;  // values trimmed
};

class HttpFront {
 public:
  struct Options {
    size_t max_connections = 1024;
    size_t max_connections_per_address = 256;
    size_t max_head_bytes = 16 * 1024;
    size_t max_body_bytes = 1 << 20;
    std::chrono::seconds request_time{10};
    std::chrono::seconds idle_time{60};
    size_t io_threads = 0;   // event-loop threads (reading, parsing); 0: one a core
    size_t workers = 8;      // threads that run the handler
    size_t max_queued = 64;  // complete requests waiting for a worker; past it, 503
    // Headers that must appear at most once, each with the JSON-RPC error code of its 400.
    std::vector<std::pair<std::string, int>> single_headers;
    // The 413 body (JSON), given what has arrived of the request's body (its first bytes, from
    // which the request's id may be read).
    std::function<std::string(std::string_view body_start)> too_large_body;
    std::string busy_body;      // the 503 body when every worker is busy and the queue full
    std::string stopping_body;  // the 503 body after StopAccepting
  };
  using Handler = std::function<void(const HttpRequest&, HttpResponse&)>;

  // Binds and listens on host:port (port 0: any free one). Throws std::system_error (or
  // std::runtime_error for a name that does not resolve) when it cannot.
  HttpFront(const std::string& host, uint16_t port, Options options, Handler handler);
  // Closes every connection and waits for the workers (see Close()).
  ~HttpFront();

  uint16_t port() const { return port_; }
  // Starts the event loop and the workers.
  void Start();
  // Thread-safe, and quick from any thread (a signal thread): shuts the listening socket down
  // at once, so new connections are refused; requests completed from now are answered 503.
  void StopAccepting();
  // Waits until no request is being handled or answered, up to `deadline`. False on timeout.
  bool WaitIdle(std::chrono::steady_clock::time_point deadline);
  // Closes every connection (the handlers' gone() flags are set) and waits up to `grace` for
  // the workers to return, then stops the event loop. False when a handler is still running:
  // the caller must not destroy what the handler uses.
  bool Close(std::chrono::milliseconds grace);
  size_t open_connections() const { return open_.load(); }

  // Why the front answered a request (or a connection) itself, never handing it on.
  enum class Refusal {
    kMalformed,              // 400: a head not read strictly (RFC 9112), or a bad body framing
    kVersion,                // 505: not HTTP/1.1 or 1.0
    kTransferCoding,         // 501: a transfer coding other than chunked
    kHeadTooLarge,           // 431: past max_head_bytes
    kBodyTooLarge,           // 413: past max_body_bytes
    kTimeout,                // 408: the request did not arrive whole within request_time
    kStopping,               // 503: a request completed after StopAccepting
    kQueueFull,              // 503: every worker busy and max_queued waiting
    kConnections,            // 503: a new connection past max_connections
    kConnectionsPerAddress,  // 503: a new connection past max_connections_per_address
    kCount
  };
  static constexpr size_t kRefusals = static_cast<size_t>(Refusal::kCount);
  // The status given for `why`, and its name (a metrics label).
  static int StatusOf(Refusal why);
  static const char* NameOf(Refusal why);
  // How many times the front answered for `why` since it started.
  uint64_t refused(Refusal why) const {
    return refused_[static_cast<size_t>(why)].load(std::memory_order_relaxed);
  }

  // The strict reading of a request head (request line, fields, the blank line). Empty when
  // it may be read; else the status, the JSON-RPC code and what was wrong.
  struct HeadError {
    int status;
    int code;
    std::string message;
  };
  static std::optional<HeadError> CheckHead(
      std::string_view head, const std::vector<std::pair<std::string, int>>& single_headers);

 private:
  friend class HttpResponse;
  struct Conn;
  struct Loop;

  void Dispatch(std::shared_ptr<Conn> conn, HttpRequest request, bool head_only, bool http10,
                bool keep);
  void WorkerMain();
  void Release();  // one request's answer is written (or its connection closed)
  void Count(Refusal why) {
    refused_[static_cast<size_t>(why)].fetch_add(1, std::memory_order_relaxed);
  }

  Options options_;
  Handler handler_;
  uint16_t port_ = 0;
  int listen_fd_ = -1;
  std::unique_ptr<Loop> loop_;
  std::vector<std::thread> io_threads_;
  std::vector<std::thread> workers_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> open_{0};
  std::array<std::atomic<uint64_t>, kRefusals> refused_{};

  std::mutex mu_;
  std::condition_variable work_cv_;  // a task was queued, or quit_
  std::condition_variable idle_cv_;  // a handler returned, or an answer was written
  std::deque<std::function<void()>> queue_;
  bool quit_ = false;
  size_t busy_ = 0;     // requests dispatched whose answer is not yet written
  size_t running_ = 0;  // handlers running now
};

// A request's answer, given on the worker thread that handles it: either Send() once, or
// StartStream() then Write()s (chunked; the front ends the stream when the handler returns).
class HttpResponse {
 public:
  ~HttpResponse();
  HttpResponse(const HttpResponse&) = delete;
  HttpResponse& operator=(const HttpResponse&) = delete;

  // A header for the response (before Send / StartStream).
  void set(const std::string& name, const std::string& value);
  // false: the connection closes after this response.
  void setKeepAlive(bool keep) { keep_ = keep_ && keep; }

  // The whole response at once, written before it returns (up to idle_time for a client that
  // does not read).
  void Send(int status, const std::string& body, const std::string& content_type);
  // Starts a streamed response; each Write sends one piece and returns when it was written, or
  // false when the client is gone (the connection closed or stopped reading).
  bool StartStream(int status, const std::string& content_type);
  bool Write(const std::string& piece);
  bool sent() const { return state_ != State::kNone; }
  // Set when the connection closes before the answer was written (the client left, the
  // server stops): a call under way can stop.
  const std::shared_ptr<std::atomic<bool>>& gone() const { return gone_; }

 private:
  friend class HttpFront;
  enum class State { kNone, kWhole, kStream };
  HttpResponse(HttpFront& front, std::shared_ptr<HttpFront::Conn> conn, std::shared_ptr<void> hold,
               bool head_only, bool http10, bool keep);
  std::string Head(int status, const std::string& content_type, const std::string* length);
  // Writes bytes to the connection (from the worker); `last`: then hands the connection back
  // to the event loop.
  bool Post(std::string bytes, bool last);
  void Finish();  // called by the front after the handler returns

  HttpFront& front_;
  std::shared_ptr<HttpFront::Conn> conn_;
  std::shared_ptr<void> hold_;  // released when the request's answer is written
  std::shared_ptr<std::atomic<bool>> gone_;
  std::vector<std::pair<std::string, std::string>> headers_;
  bool head_only_;
  bool http10_;
  bool keep_;
  State state_ = State::kNone;
};

}  // namespace rr
