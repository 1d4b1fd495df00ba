#include "core/mcp/http_front.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <map>
#include <stdexcept>
#include <unordered_set>

#include "core/mcp/era.h"

namespace rr {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

namespace {

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// RFC 9110 5.6.2: tchar.
bool IsTokenChar(unsigned char c) {
  if (std::isalnum(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
      return true;
    default:
      return false;
  }
}

const char* Reason(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Status";
  }
}

std::string HttpDate() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

std::string ErrorJson(int code, std::string message) {
  return ErrorMessage("", {code, std::move(message)});
}

// A whole response that closes its connection (the front's own refusals).
std::string Closing(int status, const std::string& body, const std::string& extra = "") {
  return "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) +
         "\r\nServer: repo-reader\r\nDate: " + HttpDate() +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + extra + "Connection: close\r\n\r\n" + body;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The head, read strictly.

std::optional<HttpFront::HeadError> HttpFront::CheckHead(
    std::string_view head, const std::vector<std::pair<std::string, int>>& single_headers) {
  auto bad = [](std::string message, int status = 400, int code = kInvalidRequest) {
    return std::optional<HeadError>(HeadError{status, code, std::move(message)});
  };
  // Lines end with CRLF, and nothing else does.
  for (size_t i = 0; i < head.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c == '\r' && (i + 1 >= head.size() || head[i + 1] != '\n')) {
      return bad("bad request: a bare CR in the request head; end each line with CRLF");
    }
    if (c == '\n' && (i == 0 || head[i - 1] != '\r')) {
      return bad("bad request: a bare LF in the request head; end each line with CRLF");
    }
    if (c == 0 || c == 0x7f || (c < 0x20 && c != '\t' && c != '\r' && c != '\n')) {
      return bad("bad request: a control character in the request head");
    }
  }
  if (head.size() < 4 || head.substr(head.size() - 4) != "\r\n\r\n") {
    return bad("bad request: the request head does not end with an empty line");
  }
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < head.size() - 2;) {
    const size_t end = head.find("\r\n", at);
    lines.push_back(head.substr(at, end - at));
    at = end + 2;
  }
  // The request line: METHOD SP TARGET SP HTTP/1.x, single spaces.
  const std::string_view line = lines.front();
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos ||
      sp1 == 0 || sp2 == sp1 + 1 || line.find('\t') != std::string_view::npos) {
    return bad("bad request: the request line must be METHOD SP TARGET SP HTTP/1.1");
  }
  for (char c : line.substr(0, sp1)) {
    if (!IsTokenChar(static_cast<unsigned char>(c))) {
      return bad("bad request: the method is not a token");
    }
  }
  const std::string_view version = line.substr(sp2 + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    return bad("this server speaks HTTP/1.1 (and 1.0); send HTTP/1.1", 505);
  }
  // The fields.
  std::map<std::string, size_t> seen;  // lower-cased name: how many
  std::string_view transfer_encoding;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string_view f = lines[i];
    if (f.empty()) break;  // (only the last line)
    if (f.front() == ' ' || f.front() == '\t') {
      return bad(
          "bad request: a header line starts with white space (obsolete line folding); send "
          "each header on one line");
    }
    const size_t colon = f.find(':');
    if (colon == std::string_view::npos) {
      return bad("bad request: a header line has no colon");
    }
    const std::string_view name = f.substr(0, colon);
    for (char c : name) {
      if (!IsTokenChar(static_cast<unsigned char>(c))) {
        return bad(
            "bad request: a header name holds a character a name cannot have (no space before "
            "the colon)");
      }
    }
    if (name.empty()) return bad("bad request: a header line has no name");
    std::string lower(name);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ++seen[lower];
    const std::string_view value = TrimView(f.substr(colon + 1));
    if (lower == "content-length") {
      if (value.empty() || value.size() > 18 ||
          value.find_first_not_of("0123456789") != std::string_view::npos) {
        return bad("bad request: Content-Length must be one decimal number");
      }
    }
    if (lower == "transfer-encoding") transfer_encoding = value;
  }
  for (const auto& [name, code] : single_headers) {
    std::string lower = name;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto it = seen.find(lower);
    if (it != seen.end() && it->second > 1) {
      return bad(
          "bad request: " + std::to_string(it->second) + " " + name + " headers; send it once", 400,
          code);
    }
  }
  const bool has_te = seen.count("transfer-encoding") > 0;
  if (has_te && seen["transfer-encoding"] > 1) {
    return bad("bad request: more than one Transfer-Encoding header");
  }
  if (has_te && seen.count("content-length")) {
    return bad(
        "bad request: Transfer-Encoding and Content-Length together (a request another server "
        "may read differently); send one of them");
  }
  if (has_te && version == "HTTP/1.0") {
    return bad("bad request: Transfer-Encoding in an HTTP/1.0 request");
  }
  if (has_te && !SameName(transfer_encoding, "chunked")) {
    return bad("transfer coding not implemented: send the body with Content-Length or chunked",
               501);
  }
  if (version == "HTTP/1.1" && seen.count("host") == 0) {
    return bad("bad request: an HTTP/1.1 request must have a Host header");
  }
  return std::nullopt;
}

int HttpFront::StatusOf(Refusal why) {
  switch (why) {
    case Refusal::kMalformed:
      return 400;
    case Refusal::kVersion:
      return 505;
    case Refusal::kTransferCoding:
      return 501;
    case Refusal::kHeadTooLarge:
      return 431;
    case Refusal::kBodyTooLarge:
      return 413;
    case Refusal::kTimeout:
      return 408;
    default:
      return 503;
  }
}

const char* HttpFront::NameOf(Refusal why) {
  switch (why) {
    case Refusal::kMalformed:
      return "malformed";
    case Refusal::kVersion:
      return "version";
    case Refusal::kTransferCoding:
      return "transfer_coding";
    case Refusal::kHeadTooLarge:
      return "head_too_large";
    case Refusal::kBodyTooLarge:
      return "body_too_large";
    case Refusal::kTimeout:
      return "timeout";
    case Refusal::kStopping:
      return "stopping";
    case Refusal::kQueueFull:
      return "queue_full";
    case Refusal::kConnections:
      return "connections";
    case Refusal::kConnectionsPerAddress:
      return "connections_per_address";
    default:
      return "other";
  }
}

// ---------------------------------------------------------------------------------------------
// HttpRequest.

bool HttpRequest::has(const std::string& name) const {
  for (const auto& [k, v] : fields_) {
    if (SameName(k, name)) return true;
  }
  return false;
}

std::string HttpRequest::get(const std::string& name, const std::string& fallback) const {
  for (const auto& [k, v] : fields_) {
    if (SameName(k, name)) return v;
  }
  return fallback;
}

// ---------------------------------------------------------------------------------------------
// The event loop and one connection.

// One event loop a thread, as many as the machine has cores: each new connection goes to the next
// loop in turn and stays there, so every handler of one connection runs on one thread (no lock,
// no strand), and the reading of many connections is shared out over the cores. The first loop
// holds the listening socket as well.
struct HttpFront::Loop {
  explicit Loop(size_t threads)
      : ios(Make(threads)), acceptor(*ios.front()), accept_pause(*ios.front()) {
    // Keeps run() going while no operation is pending (every connection handling a request,
    // the listening socket closed): answers are still to be posted.
    for (auto& io : ios) work.emplace_back(io->get_executor());
  }
  static std::vector<std::unique_ptr<asio::io_context>> Make(size_t threads) {
    std::vector<std::unique_ptr<asio::io_context>> ios;
    for (size_t i = 0; i < std::max<size_t>(threads, 1); ++i) {
      ios.push_back(std::make_unique<asio::io_context>(1));
    }
    return ios;
  }
  asio::io_context& main() { return *ios.front(); }

  std::vector<std::unique_ptr<asio::io_context>> ios;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> work;
  tcp::acceptor acceptor;
  asio::steady_timer accept_pause;
  size_t next = 0;  // the loop the next connection goes to (the first loop's thread only)
  std::mutex mu;    // guards conns and per_address, touched from every loop
  std::unordered_set<std::shared_ptr<Conn>> conns;
  std::map<std::string, size_t> per_address;

  void Accept(HttpFront& f);
  void Admit(HttpFront& f, tcp::socket s);
};

struct HttpFront::Conn : std::enable_shared_from_this<Conn> {
  enum class State { kIdle, kReading, kHandling, kClosed };
  struct Out {
    std::string bytes;
    bool last;
    std::function<void(bool)> done;
    std::shared_ptr<void> hold;
  };

  Conn(HttpFront& f, tcp::socket s, std::string address)
      : front(f), sock(std::move(s)), timer(sock.get_executor()), address(std::move(address)) {}

  HttpFront& front;
  tcp::socket sock;
  asio::steady_timer timer;
  std::string address;
  std::string in;      // received, not yet parsed
  size_t scanned = 0;  // how far `in` was searched for the end of the head
  State state = State::kIdle;
  bool first = true;  // the connection's first request
  bool keep = true;   // the request being answered keeps the connection
  std::optional<http::request_parser<http::string_body>> parser;
  bool continued = false;  // 100 Continue sent for this request
  std::shared_ptr<std::atomic<bool>> gone = std::make_shared<std::atomic<bool>>(false);
  std::deque<Out> out;
  bool writing = false;
  // The worker answering a request writes to the socket itself (the event loop leaves it alone
  // then); Close() on the event loop takes this lock to close the descriptor.
  std::mutex fd_mu;
  bool fd_closed = false;  // guarded by fd_mu

  const HttpFront::Options& opt() const { return front.options_; }

  void Arm(std::chrono::steady_clock::duration d) {
    timer.expires_after(d);
    timer.async_wait([self = shared_from_this()](error_code ec) {
      if (!ec) self->OnTimer();
    });
  }
  void Disarm() { timer.expires_at(Clock::time_point::max()); }

  void OnTimer() {
    if (state == State::kClosed || timer.expiry() > Clock::now()) return;  // re-armed since
    if (state == State::kReading && out.empty() && !writing) {
      // Part of a request came, not the whole of it in time: say so, then close.
      Refuse(Refusal::kTimeout,
             ErrorJson(kInvalidRequest,
                       "request timeout: the request's head and body must arrive within " +
                           std::to_string(opt().request_time.count()) + " s"));
      Arm(std::chrono::seconds(1));  // a client that does not read this either
      return;
    }
    Close();  // idle, silent, or not reading what it is sent
  }

  // Waits for the next request.
  void Next() {
    state = State::kIdle;
    parser.reset();
    continued = false;
    scanned = 0;
    Arm(first ? opt().request_time : opt().idle_time);
    if (!in.empty()) {
      Parse();  // pipelined: already here
      return;
    }
    WaitRead();
  }

  void WaitRead() {
    sock.async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
      if (ec || self->state == State::kClosed) {
        self->Close();
        return;
      }
      self->OnReadable();
    });
  }

  void OnReadable() {
    static thread_local std::array<char, 64 * 1024> scratch;
    const size_t cap = opt().max_head_bytes + opt().max_body_bytes + 64 * 1024;
    for (;;) {
      error_code ec;
      const size_t n = sock.read_some(asio::buffer(scratch), ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) break;
      if (ec || n == 0) {
        Close();  // closed by the client (or reset)
        return;
      }
      if (state == State::kIdle) {
        state = State::kReading;
        Arm(opt().request_time);  // the whole request from its first byte
      }
      in.append(scratch.data(), n);
      if (n < scratch.size() || in.size() > cap) break;
    }
    Parse();
  }

  void Parse() {
    if (!parser) {
      // RFC 9112 2.2: empty lines before a request line are ignored.
      size_t skip = 0;
      while (in.size() >= skip + 2 && in[skip] == '\r' && in[skip + 1] == '\n') skip += 2;
      if (skip) {
        in.erase(0, skip);
        scanned = 0;
      }
      if (in.empty()) {
        WaitRead();
        return;
      }
      if (state == State::kIdle) {
        state = State::kReading;
        Arm(opt().request_time);
      }
      const size_t end = in.find("\r\n\r\n", scanned > 3 ? scanned - 3 : 0);
      if (end == std::string::npos || end + 4 > opt().max_head_bytes) {
        if (in.size() > opt().max_head_bytes) {
          Refuse(
              Refusal::kHeadTooLarge,
              ErrorJson(kInvalidRequest, "request head too large: at most " +
                                             std::to_string(opt().max_head_bytes / 1024) + " KB"));
          return;
        }
        scanned = in.size();
        WaitRead();
        return;
      }
      if (auto err =
              HttpFront::CheckHead(std::string_view(in).substr(0, end + 4), opt().single_headers)) {
        Refuse(err->status == 505   ? Refusal::kVersion
               : err->status == 501 ? Refusal::kTransferCoding
                                    : Refusal::kMalformed,
               ErrorJson(err->code, err->message));
        return;
      }
      parser.emplace();
      parser->header_limit(static_cast<uint32_t>(opt().max_head_bytes));
      parser->body_limit(opt().max_body_bytes);
      parser->eager(true);
    }
    while (!parser->is_done() && !in.empty()) {
      error_code ec;
      const size_t n = parser->put(asio::buffer(in), ec);
      in.erase(0, n);
      if (ec == http::error::need_more) break;
      if (ec == http::error::body_limit) {
        // What has arrived after the head is the body's start: enough, mostly, for its id.
        std::string_view start(in);
        const size_t head_end = start.find("\r\n\r\n");
        if (head_end != std::string_view::npos) start.remove_prefix(head_end + 4);
        Refuse(Refusal::kBodyTooLarge,
               opt().too_large_body ? opt().too_large_body(start) : std::string());
        return;
      }
      if (ec) {
        Refuse(
            Refusal::kMalformed,
            ErrorJson(kInvalidRequest, "bad request: the request is not HTTP/1.1 as it must be (" +
                                           ec.message() + ")"));
        return;
      }
      if (n == 0) break;
    }
    if (!parser->is_done()) {
      if (!continued && parser->is_header_done()) {
        continued = true;
        const auto expect = parser->get()[http::field::expect];
        if (SameName(std::string_view(expect.data(), expect.size()), "100-continue")) {
          // 25 bytes on a connection with nothing else to write: sent whole, or the client
          // sends its body after its own wait.
          static constexpr char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
          ::send(sock.native_handle(), kContinue, sizeof kContinue - 1, MSG_NOSIGNAL);
        }
      }
      WaitRead();
      return;
    }
    Complete();
  }

  void Complete() {
    auto& msg = parser->get();
    HttpRequest req;
    const auto method = msg.method_string();
    const auto target = msg.target();
    req.method_.assign(method.data(), method.size());
    req.target_.assign(target.data(), target.size());
    req.peer_ = address;
    for (const auto& f : msg) {
      const auto name = f.name_string();
      req.fields_.emplace_back(
          std::string(name.data(), name.size()),
          std::string(TrimView(std::string_view(f.value().data(), f.value().size()))));
    }
    req.body_ = std::move(msg.body());
    const bool http10 = msg.version() == 10;
    keep = msg.keep_alive();
    const bool head_only = msg.method() == http::verb::head;
    parser.reset();
    first = false;
    state = State::kHandling;
    Disarm();
    if (front.stopping_.load()) {
      keep = false;
      Refuse(Refusal::kStopping, opt().stopping_body, "Retry-After: 1\r\n");
      return;
    }
    front.Dispatch(shared_from_this(), std::move(req), head_only, http10, keep);
  }

  // The front's own answer to a request it does not hand on: written, then the connection
  // closes.
  void Refuse(Refusal why, const std::string& body, const std::string& extra = "") {
    front.Count(why);
    const int status = HttpFront::StatusOf(why);
    state = State::kHandling;
    keep = false;
    Queue({Closing(status, body, extra), true, nullptr, nullptr});
  }

  // From the event loop: bytes to write, in order.
  void Queue(Out o) {
    if (state == State::kClosed) {
      if (o.done) o.done(false);
      return;
    }
    out.push_back(std::move(o));
    if (!writing) WriteNext();
  }

  void WriteNext() {
    if (out.empty()) {
      writing = false;
      return;
    }
    writing = true;
    if (state != State::kReading) Arm(opt().idle_time);  // a client that does not read
    asio::async_write(sock, asio::buffer(out.front().bytes),
                      [self = shared_from_this()](error_code ec, size_t) { self->Wrote(ec); });
  }

  void Wrote(error_code ec) {
    if (out.empty()) return;  // closed meanwhile
    Out done = std::move(out.front());
    out.pop_front();
    if (ec) {
      if (done.done) done.done(false);
      Close();
      return;
    }
    if (done.done) done.done(true);
    if (!done.last && out.empty()) {
      // Back to reading (after a 100 Continue), or waiting for the handler's next piece: no
      // write deadline while the handler works.
      writing = false;
      if (state == State::kHandling) Disarm();
      return;
    }
    if (done.last) {
      done.hold.reset();  // this request's answer is written
      if (!keep || front.stopping_.load()) {
        Close();
        return;
      }
      writing = false;
      Next();
      return;
    }
    WriteNext();
  }

  // On a worker: writes `bytes` to the socket, waiting for room up to idle_time. False when
  // the connection closed or the client does not read.
  bool WriteDirect(const std::string& bytes) {
    size_t at = 0;
    const auto deadline = Clock::now() + opt().idle_time;
    while (at < bytes.size()) {
      int fd;
      ssize_t n;
      int err = 0;
      {
        std::lock_guard<std::mutex> lock(fd_mu);
        if (fd_closed) return false;
        fd = sock.native_handle();
        n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (n < 0) err = errno;
      }
      if (n > 0) {
        at += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && (err == EAGAIN || err == EWOULDBLOCK || err == EINTR)) {
        if (Clock::now() >= deadline) return false;
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, 50);  // in slices, so that a Close() meanwhile is seen
        continue;
      }
      return false;
    }
    return true;
  }

  // On the event loop: the worker wrote the whole answer (`keep`: and the connection stays).
  void Answered(bool keep_it) {
    if (state == State::kClosed) return;
    if (!keep_it || front.stopping_.load()) {
      Close();
      return;
    }
    Next();
  }

  void Close() {
    if (state == State::kClosed) return;
    state = State::kClosed;
    gone->store(true);
    {
      std::lock_guard<std::mutex> lock(fd_mu);
      fd_closed = true;
      error_code ec;
      sock.shutdown(tcp::socket::shutdown_both, ec);
      sock.close(ec);
    }
    timer.cancel();
    auto pending = std::move(out);
    out.clear();
    writing = false;
    for (auto& o : pending) {
      if (o.done) o.done(false);
    }
    pending.clear();  // releases the holds
    front.open_.fetch_sub(1);
    auto self = shared_from_this();
    std::lock_guard<std::mutex> lock(front.loop_->mu);
    auto it = front.loop_->per_address.find(address);
    if (it != front.loop_->per_address.end() && --it->second == 0) {
      front.loop_->per_address.erase(it);
    }
    front.loop_->conns.erase(self);
  }
};

// ---------------------------------------------------------------------------------------------
// HttpResponse.

HttpResponse::HttpResponse(HttpFront& front, std::shared_ptr<HttpFront::Conn> conn,
                           std::shared_ptr<void> hold, bool head_only, bool http10, bool keep)
    : front_(front),
      conn_(std::move(conn)),
      hold_(std::move(hold)),
      gone_(conn_->gone),
      head_only_(head_only),
      http10_(http10),
      keep_(keep) {}

HttpResponse::~HttpResponse() = default;

void HttpResponse::set(const std::string& name, const std::string& value) {
  for (auto& [k, v] : headers_) {
    if (SameName(k, name)) {
      v = value;
      return;
    }
  }
  headers_.emplace_back(name, value);
}

std::string HttpResponse::Head(int status, const std::string& content_type,
                               const std::string* length) {
  if (front_.stopping_.load()) keep_ = false;
  std::string h = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) +
                  "\r\nServer: repo-reader\r\nDate: " + HttpDate() + "\r\n";
  if (!content_type.empty()) h += "Content-Type: " + content_type + "\r\n";
  if (length) {
    h += "Content-Length: " + *length + "\r\n";
  } else if (!http10_) {
    h += "Transfer-Encoding: chunked\r\n";
  } else {
    keep_ = false;  // HTTP/1.0 has no chunks: the stream ends with the connection
  }
  for (const auto& [k, v] : headers_) h += k + ": " + v + "\r\n";
  if (!keep_) {
    h += "Connection: close\r\n";
  } else if (http10_) {
    h += "Connection: keep-alive\r\n";
  }
  h += "\r\n";
  return h;
}

bool HttpResponse::Post(std::string bytes, bool last) {
  // Written from this thread: an answer reaches the client without waiting for the event loop
  // to be scheduled (two thread hand-offs a request instead of three).
  const bool ok = bytes.empty() || conn_->WriteDirect(bytes);
  if (!ok) gone_->store(true);
  if (last) {
    auto conn = conn_;
    const bool keep = keep_ && ok;
    asio::post(conn->sock.get_executor(), [conn, keep, hold = std::move(hold_)]() mutable {
      conn->Answered(keep);
      hold.reset();  // this request's answer is written
    });
  }
  return ok;
}

void HttpResponse::Send(int status, const std::string& body, const std::string& content_type) {
  if (state_ != State::kNone) return;
  state_ = State::kWhole;
  const std::string length = std::to_string(body.size());
  std::string bytes = Head(status, body.empty() ? "" : content_type, &length);
  if (!head_only_) bytes += body;
  Post(std::move(bytes), true);
}

bool HttpResponse::StartStream(int status, const std::string& content_type) {
  if (state_ != State::kNone) return false;
  state_ = State::kStream;
  return Post(Head(status, content_type, nullptr), false);
}

bool HttpResponse::Write(const std::string& piece) {
  if (state_ != State::kStream || piece.empty()) return state_ == State::kStream;
  if (http10_) return Post(piece, false);
  char size[24];
  std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
  return Post(size + piece + "\r\n", false);
}

void HttpResponse::Finish() {
  switch (state_) {
    case State::kNone:
      Send(500, ErrorJson(-32603, "internal error: no answer was made"), "application/json");
      break;
    case State::kStream:
      Post(http10_ ? "" : "0\r\n\r\n", true);
      break;
    case State::kWhole:
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// HttpFront.

HttpFront::HttpFront(const std::string& host, uint16_t port, Options options, Handler handler)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      loop_(std::make_unique<Loop>(options_.io_threads ? options_.io_threads
                                                       : std::thread::hardware_concurrency())) {
  // Each connection is a file descriptor: make room for the cap, as far as the hard limit
  // allows.
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    const rlim_t want = static_cast<rlim_t>(options_.max_connections + 256);
    if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < want) {
      lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? want : std::min(want, lim.rlim_max);
      setrlimit(RLIMIT_NOFILE, &lim);
    }
  }
  tcp::endpoint endpoint;
  error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) {
    endpoint = tcp::endpoint(address, port);
  } else {
    tcp::resolver resolver(loop_->main());
    auto results = resolver.resolve(host, std::to_string(port), ec);
    if (ec || results.empty()) {
      throw std::runtime_error("cannot resolve " + host + ": " +
                               (ec ? ec.message() : "no address"));
    }
    endpoint = results.begin()->endpoint();
  }
  auto& a = loop_->acceptor;
  a.open(endpoint.protocol());
  a.set_option(tcp::acceptor::reuse_address(true));
  a.bind(endpoint);
  a.listen(static_cast<int>(std::min<size_t>(options_.max_connections, 4096)));
  a.non_blocking(true);
  port_ = a.local_endpoint().port();
  listen_fd_ = a.native_handle();
}

HttpFront::~HttpFront() {
  // The owner calls Close() first and handles a handler that does not return; here, wait.
  if (!io_threads_.empty() || !workers_.empty()) Close(std::chrono::hours(1));
  // The loop first: destroying it destroys handlers still queued in it, whose holds count down
  // under mu_.
  loop_.reset();
}

void HttpFront::Start() {
  loop_->Accept(*this);
  for (auto& io : loop_->ios) io_threads_.emplace_back([&io = *io] { io.run(); });
  for (size_t i = 0; i < std::max<size_t>(options_.workers, 1); ++i) {
    workers_.emplace_back([this] { WorkerMain(); });
  }
}

void HttpFront::Loop::Accept(HttpFront& f) {
  asio::io_context& to = *ios[next++ % ios.size()];
  acceptor.async_accept(to, [this, &f](error_code ec, tcp::socket s) {
    if (!acceptor.is_open() || ec == asio::error::operation_aborted || f.stopping_.load()) return;
    if (ec) {
      // Out of file descriptors (or another passing error): try again shortly rather than
      // spin.
      accept_pause.expires_after(std::chrono::milliseconds(100));
      accept_pause.async_wait([this, &f](error_code e) {
        if (!e && acceptor.is_open()) Accept(f);
      });
      return;
    }
    Admit(f, std::move(s));
    Accept(f);
  });
}

void HttpFront::Loop::Admit(HttpFront& f, tcp::socket s) {
  error_code ec;
  const auto peer = s.remote_endpoint(ec);
  if (ec) return;
  std::string address = peer.address().to_string();
  const auto& options = f.options_;
  std::unique_lock<std::mutex> lock(mu);
  size_t& from = per_address[address];
  if (f.open_.load() >= options.max_connections || from >= options.max_connections_per_address) {
    if (from == 0) per_address.erase(address);
    lock.unlock();
    const bool all = f.open_.load() >= options.max_connections;
    f.Count(all ? Refusal::kConnections : Refusal::kConnectionsPerAddress);
    const std::string refusal =
        Closing(503,
                ErrorJson(-32000, all ? "server busy: too many connections; try again shortly"
                                      : "server busy: too many connections from your address; "
                                        "close some, or try again shortly"),
                "Retry-After: 1\r\n");
    s.non_blocking(true, ec);
    s.send(asio::buffer(refusal), 0, ec);
    s.shutdown(tcp::socket::shutdown_send, ec);
    s.close(ec);
    return;
  }
  ++from;
  f.open_.fetch_add(1);
  s.set_option(tcp::no_delay(true), ec);
  s.non_blocking(true, ec);
  auto conn = std::make_shared<Conn>(f, std::move(s), std::move(address));
  conns.insert(conn);
  lock.unlock();
  // On its own loop's thread from now on.
  asio::post(conn->sock.get_executor(), [conn] { conn->Next(); });
}

void HttpFront::Dispatch(std::shared_ptr<Conn> conn, HttpRequest request, bool head_only,
                         bool http10, bool keep) {
  // `hold` lives until the answer is written (or the connection closed) and the handler
  // returned: WaitIdle counts these.
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= options_.max_queued) {
      conn->Refuse(Refusal::kQueueFull, options_.busy_body, "Retry-After: 1\r\n");
      return;
    }
    ++busy_;
  }
  std::shared_ptr<void> hold(nullptr, [this](void*) { Release(); });
  auto task = [this, conn = std::move(conn), request = std::move(request), hold, head_only, http10,
               keep]() mutable {
    HttpResponse res(*this, conn, std::move(hold), head_only, http10, keep);
    try {
      handler_(request, res);
    } catch (const std::exception&) {
    }
    res.Finish();
  };
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  work_cv_.notify_one();
}

void HttpFront::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --busy_;
  }
  idle_cv_.notify_all();
}

void HttpFront::WorkerMain() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return quit_ || !queue_.empty(); });
      if (queue_.empty()) return;  // quitting
      task = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    task();
    task = nullptr;  // its hold, before counting it done
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
    }
    idle_cv_.notify_all();
  }
}

void HttpFront::StopAccepting() {
  if (stopping_.exchange(true)) return;
  // At once, from this thread: a listening socket shut down refuses new connections (Linux
  // answers their SYN with a reset); the event loop closes it when it next runs, which on a
  // busy machine can be tens of milliseconds later.
  ::shutdown(listen_fd_, SHUT_RDWR);
  asio::post(loop_->main(), [this] {
    error_code ec;
    loop_->acceptor.close(ec);
    loop_->accept_pause.cancel();
  });
}

bool HttpFront::WaitIdle(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  return idle_cv_.wait_until(lock, deadline,
                             [this] { return busy_ == 0 && running_ == 0 && queue_.empty(); });
}

bool HttpFront::Close(std::chrono::milliseconds grace) {
  stopping_.store(true);
  if (!io_threads_.empty()) {
    asio::post(loop_->main(), [this] {
      error_code ec;
      loop_->acceptor.close(ec);
      loop_->accept_pause.cancel();
      std::vector<std::shared_ptr<Conn>> conns;
      {
        std::lock_guard<std::mutex> lock(loop_->mu);
        conns.assign(loop_->conns.begin(), loop_->conns.end());
      }
      // Each on its own loop (Close() erases from the set).
      for (const auto& c : conns) asio::post(c->sock.get_executor(), [c] { c->Close(); });
    });
  }
  bool done;
  std::deque<std::function<void()>> dropped;  // destroyed unlocked: their holds take mu_
  {
    std::unique_lock<std::mutex> lock(mu_);
    quit_ = true;
    dropped.swap(queue_);
  }
  dropped.clear();
  work_cv_.notify_all();
  {
    std::unique_lock<std::mutex> lock(mu_);
    done = idle_cv_.wait_for(lock, grace, [this] { return running_ == 0; });
  }
  if (!done) return false;
  for (auto& w : workers_) w.join();
  workers_.clear();
  if (!io_threads_.empty()) {
    for (auto& w : loop_->work) w.reset();
    for (auto& io : loop_->ios) io->stop();
    for (auto& t : io_threads_) t.join();
    io_threads_.clear();
  }
  return true;
}

}  // namespace rr
