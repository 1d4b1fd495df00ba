#include "core/mcp/server.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include "core/guidance/guidance_join.h"
#include "core/guidance/skills.h"
#include "core/tools/common.h"
#include "core/util/json_text.h"
#include "core/util/text.h"
#include "core/version.h"

namespace rr {
namespace {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kServerBusy = -32000;
constexpr int kHeaderMismatch = -32020;
constexpr int kUnsupportedProtocolVersion = -32022;

constexpr const char* kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
// How long a client may keep tools/list and server/discover: the tools change only with the
// binary.
constexpr const char* kCacheHints = "\"ttlMs\":3600000,\"cacheScope\":\"public\"";

const char* const kInstructions =
    "repo-reader reads git repositories; it never changes them. Begin with list_repos to see "
    "what is served; overview gives one repository's map (its INDEX.md or README and every file "
    "with its size) in one call. Then list_files and read_file to read any folder or file at any "
    "branch, "
    "tag or commit (the ref argument; default: the default branch), and list_refs for branches "
    "and tags. For history: log (of a ref, file or folder), show_commit, diff (two refs, or "
    "since_fork for what a branch changed), blame, and find_commits (which commit landed "
    "something, across every repository, and which release has it). To find text: search "
    "(across repositories, on their default branches) and grep (one repository, any ref, with "
    "context); to find files by name: find_files (a glob such as **/*.proto). Paths are written "
    "from "
    "the repository's root. Every answer's first line names "
    "the repository, ref and commit it read; a cut answer ends with a note saying how to "
    "continue.";

// The id as JSON text, or "" when the message has none. Refuses ids JSON-RPC does not allow.
bool IdOf(const Poco::JSON::Object::Ptr& msg, std::string* id) {
  if (!msg->has("id")) {
    id->clear();
    return true;
  }
  const Poco::Dynamic::Var v = msg->get("id");
  if (v.isString()) {
    *id = JsonQuote(v.extract<std::string>());
    return true;
  }
  if (v.isInteger() && v.type() != typeid(bool)) {  // Poco counts true and false as integers
    *id = v.convert<std::string>();
    return true;
  }
  return false;
}

std::string SchemaOf(const ToolSpec& spec) {
  std::string props, required;
  for (const auto& a : spec.args) {
    if (!props.empty()) props += ",";
    std::string p = "{\"type\":";
    switch (a.type) {
      case ArgType::kString:
        p += "\"string\"";
        break;
      case ArgType::kInteger:
        p += "\"integer\"";
        break;
      case ArgType::kBoolean:
        p += "\"boolean\"";
        break;
      case ArgType::kStrings:
        p += "\"array\",\"items\":{\"type\":\"string\"}";
        break;
    }
    p += ",\"description\":" + JsonQuote(a.description);
    const bool list = a.type == ArgType::kStrings;
    if (a.min) p += (list ? ",\"minItems\":" : ",\"minimum\":") + std::to_string(*a.min);
    if (a.max) p += (list ? ",\"maxItems\":" : ",\"maximum\":") + std::to_string(*a.max);
    if (!a.one_of.empty()) {
      p += ",\"enum\":[";
      for (size_t i = 0; i < a.one_of.size(); ++i) p += (i ? "," : "") + JsonQuote(a.one_of[i]);
      p += "]";
    }
    p += "}";
    props += JsonQuote(a.name) + ":" + p;
    if (a.required) required += (required.empty() ? "" : ",") + JsonQuote(a.name);
  }
  return "{\"type\":\"object\",\"properties\":{" + props + "},\"required\":[" + required +
         "],\"additionalProperties\":false}";
}

// Tools, and the MCP Skills extension's (skills.h).
std::string Capabilities() {
  return "{\"tools\":{\"listChanged\":false}," + SkillsCapabilities() + "}";
}

std::string ToolResult(const std::string& text, bool is_error) {
  return "{\"content\":[{\"type\":\"text\",\"text\":" + JsonQuote(text) +
         "}],\"isError\":" + (is_error ? "true" : "false") + "}";
}

// A name the client sent, as an error may repeat it: displayable and capped.
std::string Echo(std::string_view raw) { return EchoArgument(raw); }

// A JSON number that is an integer literal too large for 64 bits (HugeIntegersAsDecimals wrote
// it as a decimal), or any number with no fraction past what an int64 holds.
bool HugeNumber(const Poco::Dynamic::Var& v) {
  if (v.isEmpty() || v.isString() || v.isInteger() || !v.isNumeric()) return false;
  const double d = v.convert<double>();
  return d >= 9223372036854775808.0 || d < -9223372036854775808.0;
}

// A progress token (string or integer) as JSON text, or "" when there is none to use.
std::string ProgressTokenOf(const Poco::JSON::Object::Ptr& params) {
  if (!params || !params->has("_meta")) return "";
  const auto meta = params->getObject("_meta");
  if (!meta || !meta->has("progressToken")) return "";
  const Poco::Dynamic::Var v = meta->get("progressToken");
  if (v.isString()) return JsonQuote(v.extract<std::string>());
  if (v.isInteger() && v.type() != typeid(bool)) return v.convert<std::string>();
  return "";
}

}  // namespace

// One request under way: its id, its caller, and what the server learnt of it.
struct McpServer::Request {
  std::string id;  // JSON text
  Caller caller;
  std::string progress_token;  // JSON text; "" when the client asked for no progress
  bool modern = false;         // served as 2026-07-28 defines it
};

namespace {

// What the guidance join reads of a tool: its name and whether it takes `repo` and `repos`.
GuidanceCall GuidanceCallOf(const ToolSpec& spec) {
  GuidanceCall call{spec.name};
  for (const auto& a : spec.args) {
    if (a.name == "repo") call.takes_repo = true;
    if (a.name == "repos") call.takes_repos = true;
  }
  return call;
}

bool IsModern(const std::string& v) {
  for (const char* m : kModernProtocolVersions) {
    if (v == m) return true;
  }
  return false;
}

bool IsLegacy(const std::string& v) {
  for (const char* m : kProtocolVersions) {
    if (v == m) return true;
  }
  return false;
}

// Every version served, newest first, as a JSON array.
std::string AllVersionsJson() {
  std::string out = "[";
  for (const char* v : kModernProtocolVersions) out += (out.size() > 1 ? "," : "") + JsonQuote(v);
  for (const char* v : kProtocolVersions) out += "," + JsonQuote(v);
  return out + "]";
}

std::string ServerInfoJson() {
  return "{\"name\":" + JsonQuote(kServerName) +
         ",\"title\":\"repo-reader\",\"version\":" + JsonQuote(kServerVersion) + "}";
}

// A result object as 2026-07-28 sends it: resultType and serverInfo first, then its fields.
std::string ModernResult(const std::string& result_json) {
  std::string out =
      "{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":" +
      ServerInfoJson() + "}";
  if (result_json.size() > 2)
    out += "," + result_json.substr(1);
  else
    out += "}";
  return out;
}

// An Mcp-Name header's value: as sent, or decoded from =?base64?…?=. False when the encoding
// is broken (bad characters or padding).
bool DecodeHeaderValue(const std::string& raw, std::string* out) {
  const std::string prefix = "=?base64?", suffix = "?=";
  if (raw.size() < prefix.size() + suffix.size() || raw.compare(0, prefix.size(), prefix) != 0 ||
      raw.compare(raw.size() - suffix.size(), suffix.size(), suffix) != 0) {
    *out = raw;
    return true;
  }
  const std::string b64 = raw.substr(prefix.size(), raw.size() - prefix.size() - suffix.size());
  if (b64.size() % 4 != 0) return false;
  static const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < b64.size(); ++i) {
    const char c = b64[i];
    if (c == '=') {
      // Padding only at the end, at most two.
      if (i + 2 < b64.size() || (i + 1 < b64.size() && b64[i + 1] != '=')) return false;
      break;
    }
    const size_t v = alphabet.find(c);
    if (v == std::string::npos) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace

McpServer::McpServer(std::shared_ptr<const Catalog> catalog, AnswerPipeline pipeline, Sink sink,
                     std::vector<std::unique_ptr<const Tool>> tools, Options options)
    : McpServer(std::make_shared<LiveCatalog>(std::move(catalog)), std::move(pipeline),
                std::move(sink), std::move(tools), options) {}

McpServer::McpServer(std::shared_ptr<LiveCatalog> catalog, AnswerPipeline pipeline, Sink sink,
                     std::vector<std::unique_ptr<const Tool>> tools, Options options)
    : live_(std::move(catalog)),
      pipeline_(std::move(pipeline)),
      sink_(std::move(sink)),
      tools_(std::move(tools)),
      options_(options) {
  tools_list_ = ToolsList();
  indexer_ =
      std::make_unique<HistoryIndexer>(live_, HistoryIndexer::Options{options_.history_recheck});
  for (size_t i = 0; i < options_.workers; ++i) threads_.emplace_back([this] { Worker(); });
}

McpServer::~McpServer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [id, flag] : in_flight_) flag->store(true);
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
  indexer_.reset();  // stops the update under way and waits for it
}

void McpServer::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
}

void McpServer::Worker() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    job();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
      if (queue_.empty() && running_ == 0) idle_cv_.notify_all();
    }
  }
}

std::string McpServer::OversizedMessageError(size_t limit, std::string_view head) {
  const std::string id = LeadingRequestId(head);
  return "{\"jsonrpc\":\"2.0\",\"id\":" + (id.empty() ? std::string("null") : id) +
         ",\"error\":{\"code\":" + std::to_string(kInvalidRequest) + ",\"message\":" +
         JsonQuote("message refused: larger than " + WithCommas(limit) +
                   " bytes; send smaller messages") +
         "}}";
}

void McpServer::Reply(const Request& req, const std::string& result_json) {
  if (req.caller.record && req.caller.record->outcome.empty()) req.caller.record->outcome = "ok";
  Outgoing out;
  out.json = "{\"jsonrpc\":\"2.0\",\"id\":" + req.id +
             ",\"result\":" + (req.modern ? ModernResult(result_json) : result_json) + "}";
  if (req.caller.record) req.caller.record->answer_bytes = out.json.size();
  req.caller.reply(out);
  Answered();
}

void McpServer::Answered() {
  std::call_once(indexer_started_, [this] { indexer_->Start(); });
}

void McpServer::ReplyError(const Request& req, int code, const std::string& message,
                           const std::string& data_json, int http_status) {
  Outgoing out;
  out.json = "{\"jsonrpc\":\"2.0\",\"id\":" + (req.id.empty() ? std::string("null") : req.id) +
             ",\"error\":{\"code\":" + std::to_string(code) + ",\"message\":" + JsonQuote(message) +
             (data_json.empty() ? "" : ",\"data\":" + data_json) + "}}";
  if (code == kParseError || code == kInvalidRequest || code == kHeaderMismatch ||
      code == kUnsupportedProtocolVersion) {
    out.http_status = 400;
  }
  if (code == kMethodNotFound && req.modern) out.http_status = 404;
  if (http_status) out.http_status = http_status;
  if (req.caller.record) {
    req.caller.record->outcome = "error " + std::to_string(code);
    req.caller.record->answer_bytes = out.json.size();
  }
  req.caller.reply(out);
  Answered();
}

void McpServer::Handle(const std::string& message) {
  Caller caller;
  caller.reply = [this](const Outgoing& out) { sink_(out.json); };
  Handle(message, caller);
}

void McpServer::Handle(const std::string& message, const Caller& caller) {
  Request req;
  req.caller = caller;
  if (!req.caller.catalog) req.caller.catalog = live_->Get();  // one call, one set
  const std::optional<std::string> widened = HugeIntegersAsDecimals(message);
  const std::string& text = widened ? *widened : message;
  Poco::Dynamic::Var parsed;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(64);
    parsed = parser.parse(text);
  } catch (const std::exception& e) {
    // Poco parses only an object or an array at the top; a lone string, number, true, false or
    // null is valid JSON, so it is an invalid request, not a parse error.
    bool lone_value = false;
    try {
      Poco::JSON::Parser parser;
      parser.setDepth(64);
      const auto wrapped = parser.parse("[" + text + "]");
      lone_value = wrapped.type() == typeid(Poco::JSON::Array::Ptr) &&
                   wrapped.extract<Poco::JSON::Array::Ptr>()->size() == 1;
    } catch (const std::exception&) {
    }
    if (lone_value) {
      ReplyError(req, kInvalidRequest, "invalid request: a message must be a JSON object");
    } else {
      ReplyError(req, kParseError, "parse error: the message is not valid JSON");
    }
    return;
  }
  if (parsed.type() == typeid(Poco::JSON::Array::Ptr)) {
    ReplyError(req, kInvalidRequest,
               "invalid request: batches are not supported; send one "
               "message at a time");
    return;
  }
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) {
    ReplyError(req, kInvalidRequest, "invalid request: a message must be a JSON object");
    return;
  }
  const auto msg = parsed.extract<Poco::JSON::Object::Ptr>();
  if (caller.record && msg->has("method") && msg->get("method").isString()) {
    caller.record->method = Echo(msg->getValue<std::string>("method"));
  }
  if (!IdOf(msg, &req.id)) {
    if (widened && HugeNumber(msg->get("id"))) {
      ReplyError(req, kParseError,
                 "parse error: `id` is an integer past 64 bits, which this server does not "
                 "read; use a smaller integer or a string");
    } else {
      ReplyError(req, kInvalidRequest, "invalid request: `id` must be a string or an integer");
    }
    return;
  }
  const bool has_method = msg->has("method");
  if (!msg->has("jsonrpc") || !msg->get("jsonrpc").isString() ||
      msg->get("jsonrpc").extract<std::string>() != "2.0") {
    ReplyError(req, kInvalidRequest, "invalid request: `jsonrpc` must be \"2.0\"");
    return;
  }
  if (!has_method) {
    // A response to a request: this server sends none, so there is nothing to match.
    if (msg->has("result") || msg->has("error")) return;
    ReplyError(req, kInvalidRequest, "invalid request: `method` is missing");
    return;
  }
  if (!msg->get("method").isString()) {
    ReplyError(req, kInvalidRequest, "invalid request: `method` must be a string");
    return;
  }
  if (msg->has("params")) {
    const auto& p = msg->get("params");
    if (!p.isEmpty() && p.type() != typeid(Poco::JSON::Object::Ptr) &&
        p.type() != typeid(Poco::JSON::Array::Ptr)) {
      ReplyError(req, kInvalidRequest, "invalid request: `params` must be an object");
      return;
    }
  }
  if (req.id.empty()) {
    HandleNotification(msg, req.caller);
  } else {
    HandleRequest(msg, req);
  }
}

void McpServer::HandleNotification(const Poco::JSON::Object::Ptr& msg, const Caller& caller) {
  const std::string method = msg->getValue<std::string>("method");
  if (method != "notifications/cancelled") return;  // initialized and others: nothing to do
  // Only calls on the pool are named by their id: a waiting caller's call (HTTP) is cancelled
  // by its connection closing, and its id may be another client's too.
  if (caller.wait) return;
  const auto params = msg->getObject("params");
  if (!params || !params->has("requestId")) return;
  std::string key;
  const auto v = params->get("requestId");
  if (v.isString()) {
    key = JsonQuote(v.extract<std::string>());
  } else if (v.isInteger() && v.type() != typeid(bool)) {
    key = v.convert<std::string>();
  } else {
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = in_flight_.find(key);
  if (it != in_flight_.end()) it->second->store(true);
}

bool McpServer::CheckModern(const Poco::JSON::Object::Ptr& msg,
                            const Poco::JSON::Object::Ptr& params, const std::string& method,
                            Request& req) {
  const std::string need =
      "; a 2026-07-28 request carries params._meta with io.modelcontextprotocol/protocolVersion "
      "(a string) and io.modelcontextprotocol/clientCapabilities (an object)";
  Poco::JSON::Object::Ptr meta;
  if (params && params->has("_meta") &&
      params->get("_meta").type() == typeid(Poco::JSON::Object::Ptr)) {
    meta = params->getObject("_meta");
  }
  if (!meta || !meta->has(kVersionKey) || !meta->get(kVersionKey).isString()) {
    ReplyError(req, kInvalidParams,
               "invalid params: io.modelcontextprotocol/protocolVersion is missing" + need, "",
               400);
    return false;
  }
  const std::string version = meta->getValue<std::string>(kVersionKey);
  // Over HTTP a header naming another version than the body is a mismatch, whichever of the
  // two this server speaks: the header is what a gateway routed on.
  if (req.caller.http && req.caller.http->protocol_version &&
      *req.caller.http->protocol_version != version) {
    ReplyError(req, kHeaderMismatch,
               "header mismatch: MCP-Protocol-Version `" +
                   Echo(*req.caller.http->protocol_version) + "` is not the body's `" +
                   Echo(version) + "`");
    return false;
  }
  if (!IsModern(version)) {
    ReplyError(
        req, kUnsupportedProtocolVersion,
        "unsupported protocol version `" + Echo(version) + "`; this server speaks " +
            kModernProtocolVersions[0] + " (and, with initialize, " + kProtocolVersions[0] +
            " and earlier)",
        "{\"supported\":" + AllVersionsJson() + ",\"requested\":" + JsonQuote(version) + "}");
    return false;
  }
  if (!meta->has(kCapabilitiesKey) ||
      meta->get(kCapabilitiesKey).type() != typeid(Poco::JSON::Object::Ptr)) {
    ReplyError(req, kInvalidParams,
               "invalid params: io.modelcontextprotocol/clientCapabilities is missing" + need, "",
               400);
    return false;
  }
  if (!req.caller.http) return true;
  // Streamable HTTP: the headers mirror the body, and must match it.
  const auto& h = *req.caller.http;
  if (!h.protocol_version) {
    ReplyError(req, kHeaderMismatch,
               "header mismatch: the MCP-Protocol-Version header is missing; send it with the "
               "version in params._meta");
    return false;
  }
  if (!h.method) {
    ReplyError(req, kHeaderMismatch,
               "header mismatch: the Mcp-Method header is missing; send it with the body's "
               "method");
    return false;
  }
  if (*h.method != method) {
    ReplyError(req, kHeaderMismatch,
               "header mismatch: Mcp-Method `" + Echo(*h.method) + "` is not the body's method `" +
                   Echo(method) + "`");
    return false;
  }
  (void)msg;
  if (method == "tools/call" && params && params->has("name") && params->get("name").isString()) {
    const std::string name = params->getValue<std::string>("name");
    std::string decoded;
    if (!h.name) {
      ReplyError(req, kHeaderMismatch,
                 "header mismatch: the Mcp-Name header is missing; send it with the tool's name");
      return false;
    }
    if (!DecodeHeaderValue(*h.name, &decoded)) {
      ReplyError(req, kHeaderMismatch, "header mismatch: Mcp-Name is not valid =?base64?…?= text");
      return false;
    }
    if (decoded != name) {
      ReplyError(req, kHeaderMismatch,
                 "header mismatch: Mcp-Name `" + Echo(decoded) + "` is not the body's name `" +
                     Echo(name) + "`");
      return false;
    }
  }
  return true;
}

bool McpServer::CheckLegacyHttp(Request& req) {
  if (!req.caller.http || !req.caller.http->protocol_version) return true;
  const std::string& v = *req.caller.http->protocol_version;
  if (IsLegacy(v)) return true;
  if (IsModern(v)) {
    // The header names 2026-07-28 but the body has no _meta claiming it.
    ReplyError(req, kInvalidParams,
               "invalid params: MCP-Protocol-Version is " + v +
                   " but params._meta has no io.modelcontextprotocol/protocolVersion; a " + v +
                   " request carries it (and io.modelcontextprotocol/clientCapabilities)",
               "", 400);
    return false;
  }
  ReplyError(req, kInvalidRequest,
             "unsupported MCP-Protocol-Version `" + Echo(v) + "`; this server speaks " +
                 kModernProtocolVersions[0] + ", " + kProtocolVersions[0] + ", " +
                 kProtocolVersions[1] + ", " + kProtocolVersions[2] + " and " +
                 kProtocolVersions[3]);
  return false;
}

void McpServer::HandleRequest(const Poco::JSON::Object::Ptr& msg, Request& req) {
  const std::string method = msg->getValue<std::string>("method");
  Poco::JSON::Object::Ptr params;
  if (msg->has("params") && msg->get("params").type() == typeid(Poco::JSON::Object::Ptr)) {
    params = msg->getObject("params");
  }
  req.progress_token = ProgressTokenOf(params);
  Poco::JSON::Object::Ptr meta;
  if (params && params->has("_meta") &&
      params->get("_meta").type() == typeid(Poco::JSON::Object::Ptr)) {
    meta = params->getObject("_meta");
  }
  req.modern = method == "server/discover" || (meta && meta->has(kVersionKey));
  if (req.modern) {
    if (!CheckModern(msg, params, method, req)) return;
    if (method == "server/discover") {
      Reply(req, "{\"supportedVersions\":" + AllVersionsJson() +
                     ",\"capabilities\":" + Capabilities() +
                     ",\"instructions\":" + JsonQuote(kInstructions) + "," + kCacheHints + "}");
      return;
    }
    if (method == "tools/list") {
      Reply(req, tools_list_.substr(0, tools_list_.size() - 1) + "," + kCacheHints + "}");
      return;
    }
    if (method == "tools/call") {
      CallTool(params, req);
      return;
    }
    ReplyError(req, kMethodNotFound,
               "method not found: `" + Echo(method) + "`; in " + kModernProtocolVersions[0] +
                   " this server answers server/discover, tools/list and tools/call");
    return;
  }
  if (!CheckLegacyHttp(req)) return;
  if (method == "initialize") {
    std::string version = kProtocolVersions[0];
    if (params && params->has("protocolVersion") && params->get("protocolVersion").isString()) {
      const std::string asked = params->getValue<std::string>("protocolVersion");
      for (const char* v : kProtocolVersions) {
        if (asked == v) version = v;
      }
    }
    Reply(req, "{\"protocolVersion\":" + JsonQuote(version) +
                   ",\"capabilities\":" + Capabilities() + ",\"serverInfo\":" + ServerInfoJson() +
                   ",\"instructions\":" + JsonQuote(kInstructions) + "}");
    return;
  }
  if (method == "ping") {
    Reply(req, "{}");
    return;
  }
  if (method == "tools/list") {
    Reply(req, tools_list_);
    return;
  }
  if (method == "tools/call") {
    CallTool(params, req);
    return;
  }
  if (IsSkillsMethod(method)) {  // the MCP Skills extension (skills.h)
    auto answer = [this, method, params](const Request& r) {
      const SkillsAnswer a =
          AnswerSkills(*r.caller.catalog, pipeline_.secrets().get(), method, params,
                       StopToken(std::make_shared<std::atomic<bool>>(false), options_.call_budget));
      a.error_code ? ReplyError(r, a.error_code, a.error_message) : Reply(r, a.result);
    };
    if (req.caller.wait) {  // HTTP: on the request's own thread
      answer(req);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      Request queued = req;
      queued.caller.record = nullptr;  // the caller does not wait for it
      queue_.push_back([answer, r = std::move(queued)] { answer(r); });
    }
    cv_.notify_one();
    return;
  }
  ReplyError(req, kMethodNotFound,
             "method not found: `" + Echo(method) +
                 "`; this server answers initialize, ping, tools/list and tools/call, "
                 "skills/list, skills/get, resources/list and resources/read (and, with "
                 "params._meta naming " +
                 kModernProtocolVersions[0] + ", server/discover)");
}

std::string McpServer::ToolsList() const {
  std::string out = "{\"tools\":[";
  for (size_t i = 0; i < tools_.size(); ++i) {
    const ToolSpec& s = tools_[i]->spec();
    if (i) out += ",";
    out += "{\"name\":" + JsonQuote(s.name) + ",\"title\":" + JsonQuote(s.title) +
           ",\"description\":" + JsonQuote(s.description) + ",\"inputSchema\":" + SchemaOf(s) +
           ",\"annotations\":{\"title\":" + JsonQuote(s.title) +
           ",\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,"
           "\"openWorldHint\":false}}";
  }
  return out + "]}";
}

std::string McpServer::RunTool(const Tool& tool, const Poco::JSON::Object::Ptr& arguments,
                               const Request& req,
                               const std::shared_ptr<std::atomic<bool>>& cancelled,
                               bool* is_error) const {
  *is_error = true;
  try {
    if (arguments) {
      for (const auto& a : tool.spec().args) {
        if (a.type == ArgType::kInteger && arguments->has(a.name) &&
            HugeNumber(arguments->get(a.name))) {
          return pipeline_.FinishError("argument `" + a.name +
                                       "` is a number too large to read (past 64 bits); " +
                                       "give an integer such as 1 or 200");
        }
      }
    }
    CallContext ctx{req.caller.catalog, StopToken(cancelled, options_.call_budget),
                    pipeline_.answer_characters(), options_.facts, pipeline_.secrets()};
    std::function<void()> close_progress;
    if (!req.progress_token.empty()) {
      // notifications/progress for this request, no more often than progress_interval, each
      // with more done than the last, never after the answer (the flag is cleared first).
      struct State {
        std::mutex mu;
        bool open = true;
        uint64_t last = 0;
        std::chrono::steady_clock::time_point next{};
      };
      auto state = std::make_shared<State>();
      ctx.progress = [state, cancelled, reply = req.caller.reply, token = req.progress_token,
                      interval = options_.progress_interval](
                         uint64_t done, std::optional<uint64_t> total, const std::string& what) {
        std::lock_guard<std::mutex> lock(state->mu);
        const auto now = std::chrono::steady_clock::now();
        if (!state->open || cancelled->load() || done <= state->last || now < state->next) return;
        state->last = done;
        state->next = now + interval;
        Outgoing out;
        out.final = false;
        out.json =
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
            "\"progressToken\":" +
            token + ",\"progress\":" + std::to_string(done) +
            (total ? ",\"total\":" + std::to_string(*total) : std::string()) +
            ",\"message\":" + JsonQuote(what) + "}}";
        reply(out);
      };
      close_progress = [state] {
        std::lock_guard<std::mutex> lock(state->mu);
        state->open = false;
      };
    }
    std::string result;
    auto args = Args::Check(tool.spec(), arguments);
    if (!args) {
      result = pipeline_.FinishError(args.error());
    } else {
      auto draft = tool.Call(ctx, *args);
      if (draft) {
        JoinGuidance(*req.caller.catalog, GuidanceCallOf(tool.spec()), arguments, ctx.stop,
                     &draft.value());
        *is_error = false;
        Draft done = draft.take();
        done.read = ReadOf(tool.spec().name, ctx);  // the host link (core/answer/host_links.h)
        result = pipeline_.Finish(std::move(done));
      } else {
        result = pipeline_.FinishError(draft.error());
      }
    }
    if (close_progress) close_progress();
    return result;
  } catch (const std::exception& e) {
    return pipeline_.FinishError(std::string("internal error: ") + e.what());
  } catch (...) {
    return pipeline_.FinishError("internal error");
  }
}

void McpServer::CallTool(const Poco::JSON::Object::Ptr& params, Request& req) {
  if (!params || !params->has("name") || !params->get("name").isString()) {
    ReplyError(req, kInvalidParams,
               pipeline_.FinishError("tools/call needs params.name, the tool's name"));
    return;
  }
  const std::string name = params->getValue<std::string>("name");
  if (req.caller.record) req.caller.record->tool = Echo(name);
  const Tool* tool = nullptr;
  for (const auto& t : tools_) {
    if (t->spec().name == name) tool = t.get();
  }
  if (!tool) {
    std::string names;
    for (const auto& t : tools_) names += (names.empty() ? "" : ", ") + t->spec().name;
    ReplyError(req, kInvalidParams,
               pipeline_.FinishError("unknown tool `" + Echo(name) + "`; the tools are: " + names));
    return;
  }
  Poco::JSON::Object::Ptr arguments;
  if (params->has("arguments") && !params->get("arguments").isEmpty()) {
    if (params->get("arguments").type() != typeid(Poco::JSON::Object::Ptr)) {
      if (req.caller.record) req.caller.record->outcome = "tool error";
      Reply(req, ToolResult(pipeline_.FinishError("`arguments` must be an object"), true));
      return;
    }
    arguments = params->getObject("arguments");
    if (req.caller.record && arguments->has("repo") && arguments->get("repo").isString()) {
      req.caller.record->repo = Echo(arguments->getValue<std::string>("repo"));
    }
  }
  if (req.caller.wait) {
    // The caller's own thread runs the call; its connection closing cancels it.
    auto cancelled = req.caller.gone ? req.caller.gone : std::make_shared<std::atomic<bool>>(false);
    bool is_error = false;
    const std::string text = RunTool(*tool, arguments, req, cancelled, &is_error);
    if (cancelled->load()) {
      if (req.caller.record) req.caller.record->outcome = "cancelled";
      return;
    }
    if (req.caller.record) req.caller.record->outcome = is_error ? "tool error" : "ok";
    Reply(req, ToolResult(text, is_error));
    return;
  }
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_flight_.count(req.id)) {
      // A second request with the id of one still running: answering both under one id
      // would confuse the client.
      ReplyError(req, kInvalidRequest, "invalid request: a call with this id is still running");
      return;
    }
    if (in_flight_.size() >= options_.max_in_flight) {
      ReplyError(req, kServerBusy,
                 "server busy: " + WithCommas(options_.max_in_flight) +
                     " calls are already running; try again shortly");
      return;
    }
    in_flight_[req.id] = cancelled;
    Request queued = req;
    queued.caller.record = nullptr;  // the caller does not wait for it
    queue_.push_back([this, tool, arguments, req = std::move(queued), cancelled] {
      bool is_error = false;
      const std::string text = RunTool(*tool, arguments, req, cancelled, &is_error);
      bool was_cancelled;
      {
        std::lock_guard<std::mutex> lock(mu_);
        in_flight_.erase(req.id);
        was_cancelled = cancelled->load();
      }
      if (!was_cancelled) Reply(req, ToolResult(text, is_error));
    });
  }
  cv_.notify_one();
}

}  // namespace rr
