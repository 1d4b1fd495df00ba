#include "core/mcp/http_transport.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/index/repo_text_index.h"
#include "core/index/text_indexer.h"
#include "core/mcp/era.h"
#include "core/policy/glob.h"
#include "core/secrets/server_log.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"

namespace rr {

using HTTPServerRequest = HttpRequest;
using HTTPServerResponse = HttpResponse;

// Counters for /metrics, in the Prometheus text format. Every label value comes from a list
// the server fixes (its tools, its outcomes, its statuses, the front's refusals), never from
// what a client sent: a tool name the server does not have is counted as "(unknown)", so
// however many names callers make up, /metrics keeps its size.
class HttpMetrics {
 public:
  static constexpr std::array<double, 12> kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                      0.1,   0.25,   0.5,   1,    2.5,   10};
  static constexpr char kUnknownTool[] = "(unknown)";

  explicit HttpMetrics(std::vector<std::string> tools) : tools_(std::move(tools)) {}

  void Count(const McpServer::Record& r, int status, double seconds) {
    std::lock_guard<std::mutex> lock(mu_);
    ++responses_[status];
    if (r.method != "tools/call" || r.tool.empty()) return;
    const std::string tool = std::find(tools_.begin(), tools_.end(), r.tool) != tools_.end()
                                 ? r.tool
                                 : std::string(kUnknownTool);
    ++calls_[{tool, Outcome(r.outcome)}];
    Histogram& h = latency_[tool];
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      if (seconds <= kBuckets[i]) ++h.buckets[i];
    }
    ++h.count;
    h.sum += seconds;
  }

  std::string Text(size_t in_flight, size_t repositories, const AnswerCounts& answers,
                   const HttpFront& front) {
    std::lock_guard<std::mutex> lock(mu_);
    std::ostringstream o;
    o << "# HELP rr_http_responses_total HTTP responses to requests read whole, by status.\n"
         "# TYPE rr_http_responses_total counter\n";
    for (const auto& [status, n] : responses_) {
      o << "rr_http_responses_total{status=\"" << status << "\"} " << n << "\n";
    }
    o << "# HELP rr_http_refused_total Requests and connections the HTTP front answered itself "
         "(a head not read strictly, too large, too slow, too many connections, stopping), by "
         "status and reason.\n"
         "# TYPE rr_http_refused_total counter\n";
    for (size_t i = 0; i < HttpFront::kRefusals; ++i) {
      const auto why = static_cast<HttpFront::Refusal>(i);
      o << "rr_http_refused_total{status=\"" << HttpFront::StatusOf(why) << "\",reason=\""
        << HttpFront::NameOf(why) << "\"} " << front.refused(why) << "\n";
    }
    Single(o, "rr_http_connections_open", "gauge", "HTTP connections open now.",
           front.open_connections());
    o << "# HELP rr_tool_calls_total Tool calls by tool and outcome.\n"
         "# TYPE rr_tool_calls_total counter\n";
    for (const auto& [key, n] : calls_) {
      o << "rr_tool_calls_total{tool=\"" << Label(key.first) << "\",outcome=\"" << Label(key.second)
        << "\"} " << n << "\n";
    }
    o << "# HELP rr_tool_call_seconds Time to answer a tool call.\n"
         "# TYPE rr_tool_call_seconds histogram\n";
    for (const auto& [tool, h] : latency_) {
      const std::string t = Label(tool);
      for (size_t i = 0; i < kBuckets.size(); ++i) {
        o << "rr_tool_call_seconds_bucket{tool=\"" << t << "\",le=\"" << kBuckets[i] << "\"} "
          << h.buckets[i] << "\n";
      }
      o << "rr_tool_call_seconds_bucket{tool=\"" << t << "\",le=\"+Inf\"} " << h.count << "\n";
      o << "rr_tool_call_seconds_sum{tool=\"" << t << "\"} " << h.sum << "\n";
      o << "rr_tool_call_seconds_count{tool=\"" << t << "\"} " << h.count << "\n";
    }
    Single(o, "rr_answers_total", "counter", "Answers and errors finished by the answer pipeline.",
           answers.answers.load());
    Single(o, "rr_answers_cut_total", "counter", "Answers cut at the answer cap.",
           answers.cut.load());
    Single(o, "rr_secrets_hidden_total", "counter", "Values the secret filter hid in answers.",
           answers.hidden.load());
    Single(o, "rr_answers_withheld_total", "counter",
           "Answers withheld because a secret detector failed.", answers.withheld.load());
    Single(o, "rr_calls_in_flight", "gauge", "Requests being answered now.", in_flight);
    Single(o, "rr_repositories_served", "gauge", "Repositories in the configuration.",
           repositories);
    const TextIndexStats text = CurrentTextIndexStats();
    Single(o, "rr_text_index_repositories", "gauge",
           "Repositories whose default branch the text index holds as last seen.", text.indexed);
    Single(o, "rr_text_index_bytes", "gauge", "The text indexes' size on disk.", text.index_bytes);
    Single(o, "rr_text_index_text_bytes", "gauge",
           "The text the text indexes cover (unique contents).", text.text_bytes);
    const TextIndexUse use = CurrentTextIndexUse();
    Single(o, "rr_text_index_searches_total", "counter",
           "Repositories searched with their text index.", use.targets);
    Single(o, "rr_text_index_files_passed_over_total", "counter",
           "Files a text index told a search not to read (they cannot match).",
           use.files_passed_over);
    Single(o, "rr_text_index_searches_other_commit_total", "counter",
           "Repositories searched with a text index of another commit (a branch moved since it was "
           "indexed, or grep at another ref): the files changed since were read.",
           use.other_commit);
    Single(o, "rr_text_index_searches_unopened_total", "counter",
           "Repositories a search answered from their text index alone, without opening them (no "
           "file could match).",
           use.unopened);
    Single(o, "rr_text_index_files_added_up_total", "counter",
           "Files a search counted from what the same files of a shared folder came to in another "
           "repository of the same search, without looking at them one by one.",
           use.files_added_up);
    return o.str();
  }

 private:
  // A metric of one value, without labels: its HELP and TYPE lines, then the value.
  template <typename T>
  static void Single(std::ostream& o, const char* name, const char* type, const char* help,
                     const T& value) {
    o << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n"
      << name << " " << value << "\n";
  }

  struct Histogram {
    std::array<uint64_t, kBuckets.size()> buckets{};
    uint64_t count = 0;
    double sum = 0;
  };
  // An outcome as a label: ok, tool error, cancelled, or "error <code>" with the server's own
  // (numeric) code; anything else as "other".
  static std::string Outcome(const std::string& s) {
    if (s == "ok" || s == "tool error" || s == "cancelled") return s;
    const std::string prefix = "error -";
    if (s.size() > prefix.size() && s.size() <= prefix.size() + 6 &&
        s.compare(0, prefix.size(), prefix) == 0 &&
        s.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
      return s;
    }
    return "other";
  }
  // A label value: only the characters a tool name or outcome has; anything else as '_'.
  static std::string Label(const std::string& s) {
    std::string out;
    for (char c : s)
      out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '_' ||
                            c == '-' || c == '/' || c == '(' || c == ')'
                        ? c
                        : '_');
    return out;
  }

  const std::vector<std::string> tools_;
  std::mutex mu_;
  std::map<int, uint64_t> responses_;
  std::map<std::pair<std::string, std::string>, uint64_t> calls_;
  std::map<std::string, Histogram> latency_;
};

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::optional<std::string> Header(const HTTPServerRequest& req, const std::string& name) {
  if (!req.has(name)) return std::nullopt;
  return Trim(req.get(name));
}

// Sends a whole response: status, headers, body.
// What the worker thread must do just before its request's answer is written: count it in the
// metrics (Handler::handleRequest sets it). A worker writes the answer to the socket itself, so
// a client that reads an answer and then asks /metrics would otherwise, now and then, find the
// call not counted yet. A streamed answer ends after the handler returns, so it is counted first.
thread_local std::function<void(int status)>* t_before_send = nullptr;

void Send(HTTPServerResponse& res, int status, const std::string& body,
          const std::string& content_type = "application/json") {
  if (t_before_send) {
    std::function<void(int)>* before = t_before_send;
    t_before_send = nullptr;
    if (*before) (*before)(status);
  }
  res.Send(status, body, content_type);
}

// Send() for a request answered without looking at its body. The front reads every body whole
// before the handler sees the request, so nothing is left on the connection to drop.
void SendUnread(const HTTPServerRequest&, HTTPServerResponse& res, int status,
                const std::string& body, const std::string& content_type = "application/json") {
  Send(res, status, body, content_type);
}

std::string ErrorBody(int code, std::string message) {
  return ErrorMessage("", {code, std::move(message)});
}

// The bearer token an Authorization header holds; "" when it holds none.
std::string Presented(const HTTPServerRequest& req) {
  const std::string auth = req.get("Authorization", "");
  const std::string scheme = "bearer ";
  if (auth.size() > scheme.size() && Lower(auth.substr(0, scheme.size())) == scheme) {
    return Trim(auth.substr(scheme.size()));
  }
  return "";
}

// 401: what to send, in JSON, the same on every path and for every caller; never a word of what
// was sent. The MCP authorization section says 401 with WWW-Authenticate (RFC 6750) and names no
// JSON-RPC error, so the body is an Invalid Request error whose data names the header and the
// scheme. RFC 6750 3.1: error="invalid_token" when credentials were sent, none when not.
void Unauthorized(const HTTPServerRequest& req, HTTPServerResponse& res) {
  const bool sent = req.has("Authorization");
  res.set("WWW-Authenticate", sent ? "Bearer error=\"invalid_token\"" : "Bearer");
  RpcError e;
  e.code = kInvalidRequest;
  e.message = std::string("unauthorized: ") +
              (sent ? "the Authorization header sent does not hold a token this server "
                      "accepts (it is not repeated here); "
                    : "this server needs a token; ") +
              "send the header `Authorization: Bearer <token>` with the token its operator "
              "gave you";
  e.data_json = JsonWriter()
                    .BeginObject()
                    .Field("header", "Authorization")
                    .Field("scheme", "Bearer")
                    .End()
                    .Take();
  Send(res, 401, ErrorMessage("", e));
}

}  // namespace

class HttpTransport::Handler {
 public:
  explicit Handler(HttpTransport& t) : t_(t) {}

  void handleRequest(const HTTPServerRequest& req, HTTPServerResponse& res) {
    const auto start = std::chrono::steady_clock::now();
    McpServer::Record record;
    bool counted = false;
    std::function<void(int)> count = [&](int sent) {
      counted = true;
      if (!t_.metrics_) return;
      t_.metrics_->Count(
          record, sent,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
    t_before_send = &count;
    const int status = Answer(req, res, &record);
    t_before_send = nullptr;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!counted && t_.metrics_) t_.metrics_->Count(record, status, seconds);
    if (req.getURI() == "/healthz" || req.getURI() == "/metrics") return;
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f ms", seconds * 1000);
    std::string line = "http: " + DisplayName(req.getMethod()) + " " +
                       DisplayName(req.getURI().substr(0, 100)) + " " + std::to_string(status);
    if (!record.method.empty()) line += " " + record.method;
    if (!record.tool.empty()) line += " " + record.tool;
    if (!record.repo.empty()) line += " repo=" + record.repo;
    if (!record.outcome.empty()) line += " " + record.outcome;
    line += " " + std::string(ms) + " " + WithCommas(record.answer_bytes) + " bytes";
    LogLine(line);
  }

 private:
  // Answers one request; returns the status sent.
  int Answer(const HTTPServerRequest& req, HTTPServerResponse& res, McpServer::Record* record) {
    const std::string uri = req.getURI();
    const std::string path = uri.substr(0, uri.find('?'));
    // Who may call comes first: a caller without the token learns nothing else.
    std::shared_ptr<const Catalog> catalog;
    if (path == "/metrics" && t_.metrics_ && !t_.setup_.metrics_token.empty()) {
      // /metrics' own token, and only it: a caller's token reads no metrics (every token's
      // calls, every repository counted), and the metrics token calls nothing (it is none of
      // setup_.tokens).
      const std::string presented = Presented(req);
      bool caller = false;
      for (const auto& token : t_.setup_.tokens) {
        caller = SameToken(presented, token.value) || caller;
      }
      if (!SameToken(presented, t_.setup_.metrics_token)) {
        if (!caller) {
          Unauthorized(req, res);
          return 401;
        }
        res.set("WWW-Authenticate", "Bearer error=\"insufficient_scope\"");
        SendUnread(req, res, 403,
                   ErrorBody(-32600,
                             "forbidden: /metrics is read with its own token "
                             "(http.metrics.token_env), never a caller's"));
        return 403;
      }
    } else if (!t_.setup_.tokens.empty()) {
      const std::string presented = Presented(req);
      // Every token is compared, whichever matches, so the time taken tells nothing.
      for (const auto& token : t_.setup_.tokens) {
        if (SameToken(presented, token.value) && !catalog) {
          catalog = token.live ? token.live() : token.catalog;
        }
      }
      if (!catalog) {
        Unauthorized(req, res);
        return 401;
      }
    } else if (!t_.hosts_ok_.empty()) {
      // Loopback without a token: only requests addressed to it by its own names.
      const std::string host = Lower(Trim(req.get("Host", "")));
      if (std::find(t_.hosts_ok_.begin(), t_.hosts_ok_.end(), host) == t_.hosts_ok_.end()) {
        SendUnread(req, res, 403,
                   ErrorBody(-32600, "forbidden: this server answers only requests addressed to " +
                                         t_.hosts_ok_.front()));
        return 403;
      }
    }
    if (req.has("Origin")) {
      const std::string origin = Trim(req.get("Origin"));
      if (std::find(t_.origins_ok_.begin(), t_.origins_ok_.end(), Lower(origin)) ==
          t_.origins_ok_.end()) {
        SendUnread(req, res, 403,
                   ErrorBody(-32600, "forbidden: requests from origin `" + DisplayName(origin) +
                                         "` are not answered"));
        return 403;
      }
    }
    if (path == "/healthz") {
      if (req.getMethod() != "GET" && req.getMethod() != "HEAD") {
        res.set("Allow", "GET");
        SendUnread(req, res, 405, "");
        return 405;
      }
      SendUnread(req, res, 200, "ok\n", "text/plain");
      return 200;
    }
    if (path == "/metrics" && t_.metrics_) {
      SendUnread(req, res, 200,
                 t_.metrics_->Text(t_.calls_.load(), t_.server_.catalog()->all().size(),
                                   t_.server_.pipeline().counts(), *t_.front_),
                 "text/plain; version=0.0.4");
      return 200;
    }
    if (path != "/mcp") {
      SendUnread(req, res, 404, ErrorBody(-32600, "not found: the MCP endpoint is /mcp"));
      return 404;
    }
    if (req.getMethod() != "POST") {
      res.set("Allow", "POST");
      SendUnread(req, res, 405,
                 ErrorBody(-32600,
                           "method not allowed: send each JSON-RPC message as a POST to /mcp; "
                           "this server opens no stream of its own"));
      return 405;
    }
    return Post(req, res, catalog, record);
  }

  int Post(const HTTPServerRequest& req, HTTPServerResponse& res,
           std::shared_ptr<const Catalog> catalog, McpServer::Record* record) {
    const HttpConfig& c = t_.setup_.config;
    // Calls at once are bounded: past the limit, 503 at once, never a queue. A refused request
    // takes no slot, not even for a moment (else two arriving together at the last free slot
    // could both be refused).
    struct Slot {
      std::atomic<size_t>& n;
      bool taken;
      Slot(std::atomic<size_t>& count, size_t max) : n(count) {
        size_t now = n.load();
        while (now < max && !n.compare_exchange_weak(now, now + 1)) {
        }
        taken = now < max;
      }
      // The call is done once its answer is made: the slot is free before the answer is
      // written, so a client that has read it and calls again does not find it taken.
      void Release() {
        if (taken) --n;
        taken = false;
      }
      ~Slot() { Release(); }
    } slot(t_.calls_, c.max_calls);
    if (!slot.taken) {
      res.set("Retry-After", "1");
      SendUnread(req, res, 503,
                 ErrorBody(-32000, "server busy: " + WithCommas(c.max_calls) +
                                       " calls are already running; try again shortly"));
      return 503;
    }
    // The front answered 413 to a body past http.max_body_bytes; this one is whole.
    const std::string& body = req.body();
    McpServer::HttpHeaders headers;
    headers.protocol_version = Header(req, "MCP-Protocol-Version");
    headers.method = Header(req, "Mcp-Method");
    headers.name = Header(req, "Mcp-Name");

    int status = 0;
    bool streaming = false;
    // Set by the front when the connection closes (the client left, or the drain ended).
    const auto& gone = res.gone();
    McpServer::Caller caller;
    caller.wait = true;
    caller.catalog = std::move(catalog);
    caller.gone = gone;
    caller.record = record;
    caller.http = &headers;
    caller.reply = [&](const McpServer::Outgoing& o) {
      if (!o.final && !streaming) {
        // The first notification of a call: the answer becomes an SSE stream.
        streaming = true;
        status = 200;
        res.set("Cache-Control", "no-cache");
        res.set("X-Accel-Buffering", "no");
        if (!res.StartStream(200, "text/event-stream")) gone->store(true);
      }
      if (streaming) {
        // A write that fails means the client went away: the call is cancelled.
        if (!res.Write("event: message\ndata: " + o.json + "\n\n")) gone->store(true);
        return;
      }
      status = StatusOf(o);
      slot.Release();
      Send(res, status, o.json);
    };
    t_.server_.Handle(body, caller);
    if (status == 0 && !streaming) {
      // A notification (or a call cancelled by its client leaving): accepted, nothing to say.
      status = 202;
      Send(res, 202, "");
    }
    return status;
  }

  HttpTransport& t_;
};

HttpTransport::HttpTransport(McpServer& server, Setup setup)
    : server_(server), setup_(std::move(setup)) {
  const HttpConfig& c = setup_.config;
  std::string bind_host = setup_.host == "localhost" ? "127.0.0.1" : setup_.host;
  HttpFront::Options o;
  o.max_connections = c.max_connections;
  o.max_connections_per_address = c.max_connections_per_address;
  o.max_body_bytes = c.max_body_bytes;
  o.request_time = std::chrono::seconds(c.request_seconds);
  o.idle_time = std::chrono::seconds(c.idle_seconds);
  // Workers past http.max_calls answer the cheap requests (and the 503 past the limit) while
  // that many calls run.
  o.workers = c.max_calls + 4;
  o.max_queued = c.max_connections;
  // RFC 9110: one Host; and every header that says who calls, from where, or what runs (a
  // gateway that reads the last of two and this server the first would disagree).
  o.single_headers = {{"Host", -32600},
                      {"Content-Length", -32600},
                      {"Authorization", -32600},
                      {"Origin", -32600},
                      {"Mcp-Method", -32020},
                      {"Mcp-Name", -32020},
                      {"MCP-Protocol-Version", -32020}};
  o.too_large_body = [limit = c.max_body_bytes](std::string_view start) {
    return McpServer::OversizedMessageError(limit, start);
  };
  o.busy_body = ErrorBody(-32000, "server busy: too many requests waiting; try again shortly");
  o.stopping_body =
      ErrorBody(-32000, "server stopping: send this request again (to a new connection)");
  front_ = std::make_unique<HttpFront>(bind_host, setup_.port, std::move(o),
                                       [this](const HttpRequest& req, HttpResponse& res) {
                                         Handler(*this).handleRequest(req, res);
                                       });
  port_ = front_->port();
  const std::string p = std::to_string(port_);
  if (IsLoopbackName(setup_.host)) {
    if (setup_.tokens.empty()) hosts_ok_ = {"127.0.0.1:" + p, "localhost:" + p, "[::1]:" + p};
    origins_ok_ = {"http://127.0.0.1:" + p, "http://localhost:" + p, "http://[::1]:" + p};
  }
  for (const auto& origin : c.allowed_origins) origins_ok_.push_back(Lower(origin));
  if (c.metrics) metrics_ = std::make_unique<HttpMetrics>(server_.ToolNames());
}

HttpTransport::~HttpTransport() = default;

std::string HttpTransport::url() const {
  std::string host = setup_.host;
  if (host == "0.0.0.0" || host == "::" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(port_) + "/mcp";
}

void HttpTransport::Run() {
  front_->Start();
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return stopping_; });
  }
  front_->StopAccepting();  // new connections are refused from now
  // Requests in flight are answered, up to the drain time.
  front_->WaitIdle(std::chrono::steady_clock::now() +
                   std::chrono::seconds(setup_.config.drain_seconds));
}

bool HttpTransport::Finish(std::chrono::milliseconds grace) { return front_->Close(grace); }

void HttpTransport::Stop() {
  front_->StopAccepting();  // from this thread: refused at once, not when Run next wakes
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
}

bool HttpTransport::IsLoopbackName(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1";
}

bool HttpTransport::ParseListen(const std::string& text, std::string* host, uint16_t* port) {
  std::string h = "127.0.0.1", p = text;
  if (!text.empty() && text[0] == '[') {
    const size_t close = text.find("]:");
    if (close == std::string::npos) return false;
    h = text.substr(1, close - 1);
    p = text.substr(close + 2);
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    h = text.substr(0, colon);
    p = text.substr(colon + 1);
    if (h.find(':') != std::string::npos) return false;  // IPv6 needs brackets
  }
  if (h.empty() || p.empty() || p.size() > 5) return false;
  for (char c : p) {
    if (c < '0' || c > '9') return false;
  }
  const unsigned long v = std::stoul(p);
  if (v > 65535) return false;
  *host = h;
  *port = static_cast<uint16_t>(v);
  return true;
}

Result<LiveCatalog::Select> HttpTransport::TokenSet(const HttpTokenConfig& token) {
  std::vector<Glob> globs;
  for (const auto& p : token.repos) {
    auto g = Glob::CompileWhole(p);
    if (!g) return Error{"http.tokens: " + g.error()};
    globs.push_back(g.take());
  }
  return LiveCatalog::Select([globs = std::move(globs)](const Catalog& all) {
    std::vector<std::shared_ptr<const ServedRepo>> repos;
    for (const auto& r : all.all()) {
      std::vector<std::string_view> parts;
      std::string_view name = r->name();
      for (size_t s = 0; s <= name.size();) {
        const size_t slash = std::min(name.find('/', s), name.size());
        parts.push_back(name.substr(s, slash - s));
        s = slash + 1;
      }
      for (const auto& g : globs) {
        if (g.Matches(parts)) {
          repos.push_back(r);
          break;
        }
      }
    }
    return std::make_shared<const Catalog>(std::move(repos));
  });
}

bool HttpTransport::SameToken(const std::string& presented, const std::string& expected) {
  if (expected.empty()) return false;
  unsigned char diff = presented.size() == expected.size() ? 0 : 1;
  for (size_t i = 0; i < presented.size(); ++i) {
    diff |= static_cast<unsigned char>(presented[i] ^ expected[i % expected.size()]);
  }
  return diff == 0 && !presented.empty();
}

int HttpTransport::StatusOf(const McpServer::Outgoing& o) {
  switch (o.error_code) {
    case 0:
      return 200;
    case kParseError:
    case kInvalidRequest:
    case kHeaderMismatch:
    case kUnsupportedProtocolVersion:
      return 400;
    case kMethodNotFound:
      // 2026-07-28: a method this server does not implement is 404 (the JSON-RPC body tells it
      // from a 404 of a server without the endpoint); 2025 answers it 200.
      return o.modern ? 404 : 200;
    default:
      return o.malformed ? 400 : 200;  // a request refused for its _meta or headers
  }
}

}  // namespace rr
