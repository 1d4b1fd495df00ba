#include "core/mcp/server.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include "core/guidance/guidance_join.h"
#include "core/guidance/skills.h"
#include "core/tools/common.h"
#include "core/util/json_text.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"
#include "core/version.h"

namespace rr {
namespace {

// How long a client may keep tools/list and server/discover: the tools change only with the
// binary.
// The members a 2026-07-28 result of what does not change while the server runs ends with.
void CacheHints(JsonWriter& w) { w.Field("ttlMs", 3600000).Field("cacheScope", "public"); }

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

void SchemaOf(const ToolSpec& spec, JsonWriter& w) {
  w.BeginObject().Field("type", "object").Key("properties").BeginObject();
  for (const auto& a : spec.args) {
    w.Key(a.name).BeginObject();
    switch (a.type) {
      case ArgType::kString:
        w.Field("type", "string");
        break;
      case ArgType::kInteger:
        w.Field("type", "integer");
        break;
      case ArgType::kBoolean:
        w.Field("type", "boolean");
        break;
      case ArgType::kStrings:
        w.Field("type", "array").Key("items").BeginObject().Field("type", "string").End();
        break;
    }
    w.Field("description", a.description);
    const bool list = a.type == ArgType::kStrings;
    if (a.min) w.Field(list ? "minItems" : "minimum", *a.min);
    if (a.max) w.Field(list ? "maxItems" : "maximum", *a.max);
    if (!a.one_of.empty()) {
      w.Key("enum").BeginArray();
      for (const auto& v : a.one_of) w.String(v);
      w.End();
    }
    w.End();
  }
  w.End().Key("required").BeginArray();
  for (const auto& a : spec.args) {
    if (a.required) w.String(a.name);
  }
  w.End().Field("additionalProperties", false).End();
}

// Tools, and the MCP Skills extension's (skills.h).
void Capabilities(JsonWriter& w) {
  w.BeginObject().Key("tools").BeginObject().Field("listChanged", false).End();
  SkillsCapabilities(w);
  w.End();
}

std::string ToolResult(const std::string& text, bool is_error) {
  JsonWriter w;
  w.BeginObject().Key("content").BeginArray();
  w.BeginObject().Field("type", "text").Field("text", text).End();
  return w.End().Field("isError", is_error).End().Take();
}

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

// A JSON-RPC batch holds at most this many messages.
constexpr size_t kMaxBatch = 100;

// The error for a cursor given to a list that is always one page (tools/list,
// resources/templates/list): none was ever handed out, so any cursor is unknown.
RpcError OnePageCursor(const std::string& method, const Poco::JSON::Object::Ptr& params) {
  if (!params || !params->has("cursor") || params->get("cursor").isEmpty()) return {};
  return {kInvalidParams, "invalid params: unknown cursor; " + method +
                              " answers everything in one page and gives no nextCursor, so "
                              "send it without a cursor"};
}

}  // namespace

// One request under way: its id, its caller, and what the server learnt of it.
struct McpServer::Request {
  std::string id;  // JSON text; "" for a notification
  Caller caller;
  std::string progress_token;  // JSON text; "" when the client asked for no progress
  Era era = Era::kLegacy;
};

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
      options_(options),
      // Tool calls wait at most max_in_flight (in_flight_ refuses more first); stdio's batches
      // wait within the same bound.
      pool_({"call pool", options.workers, options.max_in_flight}) {
  for (const auto& t : tools_) {
    if (t->spec().traits.guidance == GuidanceWay::kReads && reading_tool_.empty()) {
      reading_tool_ = t->spec().name;
    }
  }
  tools_list_ = ToolsList(false);
  tools_list_modern_ = ToolsList(true);
  BuildMethods();
  if (options_.workers > 0) pool_.Start();
}

McpServer::~McpServer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, flag] : in_flight_) flag->store(true);
  }
  // The calls under way see their cancellation and end; what is queued is dropped unanswered.
  pool_.Stop();
}

// --- the method table -------------------------------------------------------------------------

void McpServer::BuildMethods() {
  auto handler = [this](MethodAnswer (McpServer::*f)(const MethodCall&) const) {
    return [this, f](const MethodCall& call) { return (this->*f)(call); };
  };
  auto skills = [this](const std::string& method) {
    return [this, method](const MethodCall& call) { return Skills(method, call); };
  };
  methods_.Add(
      {"initialize", kLegacyOnly, RunOn::kInline, nullptr, handler(&McpServer::Initialize)});
  methods_.Add({"ping", kLegacyOnly, RunOn::kInline, nullptr,
                [](const MethodCall&) { return MethodAnswer::Result("{}"); }});
  methods_.Add(
      {"server/discover", kModernOnly, RunOn::kInline, nullptr, handler(&McpServer::Discover)});
  methods_.Add({"tools/list", kBothEras, RunOn::kInline, nullptr, handler(&McpServer::ListTools)});
  methods_.Add({"tools/call", kBothEras, RunOn::kPool, "name", handler(&McpServer::CallTool)});
  // The MCP Skills extension (skills.h), and the resources it serves skills' files as.
  methods_.Add({"skills/list", kBothEras, RunOn::kPool, nullptr, skills("skills/list")});
  methods_.Add({"skills/get", kBothEras, RunOn::kPool, nullptr, skills("skills/get")});
  methods_.Add({"resources/list", kBothEras, RunOn::kPool, nullptr, skills("resources/list")});
  methods_.Add({"resources/read", kBothEras, RunOn::kPool, "uri", skills("resources/read")});
  methods_.Add({"resources/templates/list", kBothEras, RunOn::kInline, nullptr,
                [this](const MethodCall& call) {
                  if (RpcError e = OnePageCursor("resources/templates/list", call.params)) {
                    return MethodAnswer::Error(e);
                  }
                  return Skills("resources/templates/list", call);
                }});
}

MethodAnswer McpServer::Initialize(const MethodCall& call) const {
  std::string version = kProtocolVersions[0];
  const auto& params = call.params;
  if (params && params->has("protocolVersion") && params->get("protocolVersion").isString()) {
    const std::string asked = params->getValue<std::string>("protocolVersion");
    for (const char* v : kProtocolVersions) {
      if (asked == v) version = v;
    }
  }
  if (call.connection) {
    std::lock_guard<std::mutex> lock(call.connection->mu);
    call.connection->negotiated = version;
  }
  JsonWriter w;
  w.BeginObject().Field("protocolVersion", version).Key("capabilities");
  Capabilities(w);
  w.Key("serverInfo");
  ServerInfo(w);
  return MethodAnswer::Result(w.Field("instructions", kInstructions).End().Take());
}

MethodAnswer McpServer::Discover(const MethodCall&) const {
  JsonWriter w;
  w.BeginObject().Key("supportedVersions");
  AllVersions(w);
  w.Key("capabilities");
  Capabilities(w);
  w.Field("instructions", kInstructions);
  CacheHints(w);
  return MethodAnswer::Result(w.End().Take());
}

MethodAnswer McpServer::ListTools(const MethodCall& call) const {
  if (RpcError e = OnePageCursor("tools/list", call.params)) return MethodAnswer::Error(e);
  if (call.era == Era::kLegacy) return MethodAnswer::Result(tools_list_);
  return MethodAnswer::Result(tools_list_modern_);
}

MethodAnswer McpServer::Skills(const std::string& method, const MethodCall& call) const {
  const SkillsAnswer a =
      AnswerSkills(*call.catalog, pipeline_.secrets().get(), method, call.params, call.stop);
  if (!a.error_code) return MethodAnswer::Result(a.result);
  if (a.error_code == kLegacyResourceNotFound) {
    return MethodAnswer::Error(ResourceNotFound(call.era, a.error_message, a.uri));
  }
  return MethodAnswer::Error({a.error_code, a.error_message});
}

MethodAnswer McpServer::CallTool(const MethodCall& call) const {
  const auto& params = call.params;
  if (!params || !params->has("name") || !params->get("name").isString()) {
    return MethodAnswer::Error(
        {kInvalidParams, pipeline_.FinishError("tools/call needs params.name, the tool's name")});
  }
  const std::string name = params->getValue<std::string>("name");
  if (call.notes.tool) *call.notes.tool = EchoArgument(name);
  const Tool* tool = nullptr;
  for (const auto& t : tools_) {
    if (t->spec().name == name) tool = t.get();
  }
  if (!tool) {
    std::string names;
    for (const auto& t : tools_) names += (names.empty() ? "" : ", ") + t->spec().name;
    return MethodAnswer::Error(
        {kInvalidParams, pipeline_.FinishError("unknown tool `" + EchoArgument(name) +
                                               "`; the tools are: " + names)});
  }
  Poco::JSON::Object::Ptr arguments;
  if (params->has("arguments") && !params->get("arguments").isEmpty()) {
    if (params->get("arguments").type() != typeid(Poco::JSON::Object::Ptr)) {
      if (call.notes.outcome) *call.notes.outcome = "tool error";
      return MethodAnswer::Result(
          ToolResult(pipeline_.FinishError("`arguments` must be an object"), true));
    }
    arguments = params->getObject("arguments");
    if (call.notes.repo && arguments->has("repo") && arguments->get("repo").isString()) {
      *call.notes.repo = EchoArgument(arguments->getValue<std::string>("repo"));
    }
  }
  bool is_error = false;
  const std::string text = RunTool(*tool, arguments, call, &is_error);
  if (call.notes.outcome) *call.notes.outcome = is_error ? "tool error" : "ok";
  return MethodAnswer::Result(ToolResult(text, is_error));
}

std::vector<std::string> McpServer::ToolNames() const {
  std::vector<std::string> names;
  for (const auto& t : tools_) names.push_back(t->spec().name);
  return names;
}

std::string McpServer::ToolsList(bool cache_hints) const {
  JsonWriter w;
  w.BeginObject().Key("tools").BeginArray();
  for (const auto& tool : tools_) {
    const ToolSpec& s = tool->spec();
    w.BeginObject()
        .Field("name", s.name)
        .Field("title", s.title)
        .Field("description", s.description)
        .Key("inputSchema");
    SchemaOf(s, w);
    w.Key("annotations")
        .BeginObject()
        .Field("title", s.title)
        .Field("readOnlyHint", true)
        .Field("destructiveHint", false)
        .Field("idempotentHint", true)
        .Field("openWorldHint", false)
        .End()
        .End();
  }
  w.End();
  if (cache_hints) CacheHints(w);
  return w.End().Take();
}

std::string McpServer::RunTool(const Tool& tool, const Poco::JSON::Object::Ptr& arguments,
                               const MethodCall& call, bool* is_error) const {
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
    CallContext ctx{call.catalog, call.stop, pipeline_.answer_characters(), options_.facts,
                    pipeline_.secrets()};
    ctx.progress = call.progress;
    const ToolSpec& spec = tool.spec();
    auto args = Args::Check(spec, arguments);
    if (!args) return pipeline_.FinishError(args.error());
    // `repo`, `ref`, `path` and `paths` resolved once: what the tool, the guidance join and the
    // host link all read (core/served/call_target.h).
    auto resolved = ResolveTarget(spec, *args, *call.catalog);
    if (!resolved) return pipeline_.FinishError(resolved.error());
    auto target = std::make_shared<CallTarget>(resolved.take());
    ctx.target = target;
    auto draft = tool.Call(ctx, *args);
    if (!draft) return pipeline_.FinishError(draft.error());
    // The guidance join reads through the call's own handle (no second borrow, and HEAD read
    // once when the call read the default branch); then the handle goes back to its pool.
    JoinGuidance(*target, GuidanceJoin{spec.traits.guidance, reading_tool_}, ctx.stop,
                 &draft.value());
    target->reader.reset();
    *is_error = false;
    Draft done = draft.take();
    done.read = LinkOf(spec, *target);  // the host link (core/answer/host_links.h)
    return pipeline_.Finish(std::move(done));
  } catch (const std::exception& e) {
    *is_error = true;
    return pipeline_.FinishError(std::string("internal error: ") + e.what());
  } catch (...) {
    *is_error = true;
    return pipeline_.FinishError("internal error");
  }
}

// --- the call runner --------------------------------------------------------------------------

ProgressFn McpServer::Progress(const Request& req,
                               const std::shared_ptr<std::atomic<bool>>& cancelled,
                               std::function<void()>* close) const {
  if (req.progress_token.empty()) return {};
  // notifications/progress for this request, no more often than progress_interval, each with
  // more done than the last, never after the answer (the flag is cleared first).
  struct State {
    std::mutex mu;
    bool open = true;
    uint64_t last = 0;
    std::chrono::steady_clock::time_point next{};
  };
  auto state = std::make_shared<State>();
  *close = [state] {
    std::lock_guard<std::mutex> lock(state->mu);
    state->open = false;
  };
  return [state, cancelled, reply = req.caller.reply, token = req.progress_token,
          modern = req.era == Era::kModern, interval = options_.progress_interval](
             uint64_t done, std::optional<uint64_t> total, const std::string& what) {
    std::lock_guard<std::mutex> lock(state->mu);
    const auto now = std::chrono::steady_clock::now();
    if (!state->open || cancelled->load() || done <= state->last || now < state->next) return;
    state->last = done;
    state->next = now + interval;
    Outgoing out;
    out.final = false;
    out.modern = modern;
    JsonWriter w;
    w.BeginObject()
        .Field("jsonrpc", "2.0")
        .Field("method", "notifications/progress")
        .Key("params")
        .BeginObject()
        .Key("progressToken")
        .Raw(token)
        .Field("progress", done);
    if (total) w.Field("total", *total);
    out.json = w.Field("message", what).End().End().Take();
    reply(out);
  };
}

MethodAnswer McpServer::Invoke(const Method& method, const Poco::JSON::Object::Ptr& params,
                               const Request& req,
                               const std::shared_ptr<std::atomic<bool>>& cancelled,
                               const ProgressFn& progress) {
  MethodCall call{req.era, params, req.caller.catalog,
                  cancelled ? StopToken(cancelled, options_.call_budget) : StopToken(), progress};
  if (Record* r = req.caller.record) call.notes = {&r->tool, &r->repo, &r->outcome};
  call.connection = req.caller.connection;
  try {
    return method.handler(call);
  } catch (const std::exception& e) {
    return MethodAnswer::Error({kInternalError, std::string("internal error: ") + e.what()});
  } catch (...) {
    return MethodAnswer::Error({kInternalError, "internal error"});
  }
}

void McpServer::Answer(const Request& req, const MethodAnswer& answer) {
  if (answer.error) {
    ReplyError(req, answer.error);
  } else {
    Reply(req, answer.result);
  }
}

void McpServer::Run(const Method& method, const Poco::JSON::Object::Ptr& params, Request& req) {
  if (method.run == RunOn::kInline) {
    Answer(req, Invoke(method, params, req, nullptr, {}));
    return;
  }
  if (req.caller.wait) {
    // The caller's own thread runs the call; its connection closing cancels it.
    auto cancelled = req.caller.gone ? req.caller.gone : std::make_shared<std::atomic<bool>>(false);
    std::function<void()> close;
    const ProgressFn progress = Progress(req, cancelled, &close);
    const MethodAnswer answer = Invoke(method, params, req, cancelled, progress);
    if (close) close();
    if (cancelled->load()) {
      if (req.caller.record) req.caller.record->outcome = "cancelled";
      return;
    }
    Answer(req, answer);
    return;
  }
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_flight_.count(req.id)) {
      // A second request with the id of one still running: answering both under one id
      // would confuse the client.
      ReplyError(req, {kInvalidRequest, "invalid request: a call with this id is still running"});
      return;
    }
    if (in_flight_.size() >= options_.max_in_flight) {
      ReplyError(req, {kServerBusy, "server busy: " + WithCommas(options_.max_in_flight) +
                                        " calls are already running; try again shortly"});
      return;
    }
    in_flight_[req.id] = cancelled;
  }
  Request queued = req;
  queued.caller.record = nullptr;  // the caller does not wait for it
  const Status taken = pool_.Submit([this, &method, params, req = std::move(queued), cancelled] {
    std::function<void()> close;
    const ProgressFn progress = Progress(req, cancelled, &close);
    const MethodAnswer answer = Invoke(method, params, req, cancelled, progress);
    if (close) close();
    bool was_cancelled;
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_.erase(req.id);
      was_cancelled = cancelled->load();
    }
    if (!was_cancelled) Answer(req, answer);
  });
  if (!taken) {
    // The pool's own bound (calls and batches waiting beyond max_in_flight), or it stops.
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_.erase(req.id);
    }
    ReplyError(req, {kServerBusy, "server busy: " + taken.error()});
  }
}

void McpServer::Drain() { pool_.WaitIdle(); }

// --- answers ----------------------------------------------------------------------------------

std::string McpServer::OversizedMessageError(size_t limit, std::string_view head) {
  return ErrorMessage(LeadingRequestId(head),
                      {kInvalidRequest, "message refused: larger than " + WithCommas(limit) +
                                            " bytes; send smaller messages"});
}

void McpServer::Reply(const Request& req, const std::string& result_json) {
  if (req.caller.record && req.caller.record->outcome.empty()) req.caller.record->outcome = "ok";
  Outgoing out;
  out.modern = req.era == Era::kModern;
  out.json = JsonWriter()
                 .BeginObject()
                 .Field("jsonrpc", "2.0")
                 .Key("id")
                 .Raw(req.id)
                 .Key("result")
                 .Raw(DecorateResult(req.era, result_json))
                 .End()
                 .Take();
  if (req.caller.record) req.caller.record->answer_bytes = out.json.size();
  req.caller.reply(out);
  Answered();
}

void McpServer::Answered() {
  std::call_once(first_answered_, [this] {
    if (options_.first_answered) options_.first_answered();
  });
}

void McpServer::ReplyError(const Request& req, const RpcError& error) {
  Outgoing out;
  out.json = ErrorMessage(req.id, error);
  out.error_code = error.code;
  out.modern = req.era == Era::kModern;
  out.malformed = error.malformed;
  if (req.caller.record) {
    req.caller.record->outcome = "error " + std::to_string(error.code);
    req.caller.record->answer_bytes = out.json.size();
  }
  req.caller.reply(out);
  Answered();
}

// --- reading messages -------------------------------------------------------------------------

void McpServer::Handle(const std::string& message) {
  Caller caller;
  caller.reply = [this](const Outgoing& out) { sink_(out.json); };
  caller.connection = &stdio_;
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
      ReplyError(req, {kInvalidRequest, "invalid request: a message must be a JSON object"});
    } else {
      ReplyError(req, {kParseError, "parse error: the message is not valid JSON"});
    }
    return;
  }
  if (parsed.type() == typeid(Poco::JSON::Array::Ptr)) {
    if (req.caller.record) req.caller.record->method = "batch";
    std::string negotiated;
    if (req.caller.connection) {
      std::lock_guard<std::mutex> lock(req.caller.connection->mu);
      negotiated = req.caller.connection->negotiated;
    }
    if (RpcError e = CheckBatch(req.caller.http, negotiated)) {
      ReplyError(req, e);
      return;
    }
    HandleBatch(parsed.extract<Poco::JSON::Array::Ptr>(), widened.has_value(), req.caller);
    return;
  }
  HandleMessage(parsed, widened.has_value(), req, false);
}

void McpServer::HandleMessage(const Poco::Dynamic::Var& parsed, bool widened, Request& req,
                              bool in_batch) {
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) {
    ReplyError(req, {kInvalidRequest, "invalid request: a message must be a JSON object"});
    return;
  }
  const auto msg = parsed.extract<Poco::JSON::Object::Ptr>();
  if (req.caller.record && msg->has("method") && msg->get("method").isString()) {
    req.caller.record->method = EchoArgument(msg->getValue<std::string>("method"));
  }
  if (!IdOf(msg, &req.id)) {
    if (widened && HugeNumber(msg->get("id"))) {
      ReplyError(req, {kParseError,
                       "parse error: `id` is an integer past 64 bits, which this server does not "
                       "read; use a smaller integer or a string"});
    } else {
      ReplyError(req, {kInvalidRequest, "invalid request: `id` must be a string or an integer"});
    }
    return;
  }
  const bool has_method = msg->has("method");
  if (!msg->has("jsonrpc") || !msg->get("jsonrpc").isString() ||
      msg->get("jsonrpc").extract<std::string>() != "2.0") {
    ReplyError(req, {kInvalidRequest, "invalid request: `jsonrpc` must be \"2.0\""});
    return;
  }
  if (!has_method) {
    // A response to a request: this server sends none, so there is nothing to match.
    if (msg->has("result") || msg->has("error")) return;
    ReplyError(req, {kInvalidRequest, "invalid request: `method` is missing"});
    return;
  }
  if (!msg->get("method").isString()) {
    ReplyError(req, {kInvalidRequest, "invalid request: `method` must be a string"});
    return;
  }
  if (msg->has("params")) {
    const auto& p = msg->get("params");
    if (!p.isEmpty() && p.type() != typeid(Poco::JSON::Object::Ptr) &&
        p.type() != typeid(Poco::JSON::Array::Ptr)) {
      ReplyError(req, {kInvalidRequest, "invalid request: `params` must be an object"});
      return;
    }
  }
  if (req.id.empty()) {
    HandleNotification(msg, req.caller);
  } else {
    HandleRequest(msg, req, in_batch);
  }
}

void McpServer::HandleNotification(const Poco::JSON::Object::Ptr& msg, const Caller& caller) {
  const std::string method = msg->getValue<std::string>("method");
  if (method != "notifications/cancelled") return;  // initialized and others: nothing to do
  // Only a connection's own requests are named by their id (stdio's, a batch's among them): a
  // waiting caller's call over HTTP is cancelled by its connection closing, and its id may be
  // another client's too.
  if (caller.wait && !caller.connection) return;
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

void McpServer::HandleRequest(const Poco::JSON::Object::Ptr& msg, Request& req, bool in_batch) {
  const std::string method = msg->getValue<std::string>("method");
  Poco::JSON::Object::Ptr params;
  if (msg->has("params") && msg->get("params").type() == typeid(Poco::JSON::Object::Ptr)) {
    params = msg->getObject("params");
  }
  req.progress_token = ProgressTokenOf(params);
  req.era = EraOf(method, params);
  const Method* row = methods_.Find(method);
  if (in_batch && (req.era == Era::kModern || method == "initialize")) {
    // 2025-03-26: initialize is never part of a batch; 2026-07-28 has none.
    ReplyError(req, {kInvalidRequest,
                     "invalid request: " + EchoArgument(method) +
                         (req.era == Era::kModern ? " with a 2026-07-28 _meta is sent alone"
                                                  : " is sent alone") +
                         ", never in a batch"});
    return;
  }
  if (req.era == Era::kModern) {
    if (RpcError e =
            CheckModernRequest(method, params, req.caller.http,
                               row && InEra(row->eras, Era::kModern) ? row->mcp_name : nullptr)) {
      ReplyError(req, e);
      return;
    }
  } else if (RpcError e = CheckLegacyHttp(req.caller.http)) {
    ReplyError(req, e);
    return;
  }
  if (!row || !InEra(row->eras, req.era)) {
    std::string message = "method not found: `" + EchoArgument(method) + "`; ";
    if (req.era == Era::kModern) {
      message += std::string("in ") + kModernProtocolVersions[0] + " this server answers " +
                 methods_.NamesIn(Era::kModern);
    } else {
      std::string modern_only;  // what the other era adds
      for (const Method& m : methods_.rows()) {
        if (m.eras == kModernOnly) modern_only += (modern_only.empty() ? "" : ", ") + m.name;
      }
      message += "this server answers " + methods_.NamesIn(Era::kLegacy) +
                 " (and, with params._meta naming " + kModernProtocolVersions[0] + ", " +
                 modern_only + ")";
    }
    ReplyError(req, {kMethodNotFound, message});
    return;
  }
  Run(*row, params, req);
}

// --- batches (2025-03-26) ---------------------------------------------------------------------

// A batch under way: each request's response in its place, sent as one array when the last is
// in.
struct McpServer::Batch {
  std::mutex mu;
  std::vector<std::optional<std::string>> answers;  // by position; empty: nothing to send
};

void McpServer::HandleBatch(const Poco::JSON::Array::Ptr& batch, bool widened,
                            const Caller& caller) {
  Request outer;
  outer.caller = caller;
  if (!outer.caller.catalog) outer.caller.catalog = live_->Get();
  if (batch->size() == 0) {
    ReplyError(outer, {kInvalidRequest,
                       "invalid request: an empty batch; send at least one "
                       "message in it"});
    return;
  }
  if (batch->size() > kMaxBatch) {
    ReplyError(outer, {kInvalidRequest, "invalid request: a batch of " + WithCommas(batch->size()) +
                                            " messages; send at most " + std::to_string(kMaxBatch) +
                                            " in one"});
    return;
  }
  // The messages run one after another on one thread: the pool's for stdio (so the reader goes
  // on reading cancellations), the caller's own over HTTP.
  auto run = [this, batch, widened, outer]() {
    auto state = std::make_shared<Batch>();
    state->answers.resize(batch->size());
    for (size_t i = 0; i < batch->size(); ++i) {
      Request req;
      req.caller = outer.caller;
      req.caller.wait = true;
      req.caller.record = nullptr;
      auto gone = std::make_shared<std::atomic<bool>>(false);
      if (outer.caller.gone) gone = outer.caller.gone;
      req.caller.gone = gone;
      req.caller.reply = [state, i, forward = outer.caller.reply](const Outgoing& o) {
        if (!o.final) {
          forward(o);  // progress goes out as it comes
          return;
        }
        std::lock_guard<std::mutex> lock(state->mu);
        state->answers[i] = o.json;
      };
      // stdio: notifications/cancelled names a request of the batch by its id.
      std::string key;
      const Poco::Dynamic::Var element = batch->get(static_cast<unsigned>(i));
      if (!outer.caller.wait && element.type() == typeid(Poco::JSON::Object::Ptr)) {
        const auto msg = element.extract<Poco::JSON::Object::Ptr>();
        if (msg->has("method") && IdOf(msg, &key) && !key.empty()) {
          std::lock_guard<std::mutex> lock(mu_);
          if (!in_flight_.emplace(key, gone).second) key.clear();
        }
      }
      HandleMessage(element, widened, req, true);
      if (!key.empty()) {
        std::lock_guard<std::mutex> lock(mu_);
        in_flight_.erase(key);
      }
    }
    std::string json;
    for (const auto& a : state->answers) {
      if (a) json += (json.empty() ? "[" : ",") + *a;
    }
    if (json.empty()) return;  // only notifications (and responses): nothing to answer
    Outgoing out;
    out.json = json + "]";
    if (outer.caller.record) {
      outer.caller.record->outcome = "ok";
      outer.caller.record->answer_bytes = out.json.size();
    }
    outer.caller.reply(out);
  };
  if (caller.wait) {
    run();
    return;
  }
  if (Status taken = pool_.Submit(std::move(run)); !taken) {
    // Refused whole: each request of the batch is answered busy by its own id, so that the
    // client waits for none of them; notifications and malformed elements get nothing.
    const RpcError busy{kServerBusy, "server busy: " + taken.error()};
    std::string json;
    for (size_t i = 0; i < batch->size(); ++i) {
      const Poco::Dynamic::Var element = batch->get(static_cast<unsigned>(i));
      if (element.type() != typeid(Poco::JSON::Object::Ptr)) continue;
      const auto msg = element.extract<Poco::JSON::Object::Ptr>();
      std::string id;
      if (!msg->has("method") || !IdOf(msg, &id) || id.empty()) continue;
      json += (json.empty() ? "[" : ",") + ErrorMessage(id, busy);
    }
    if (json.empty()) return;
    Outgoing out;
    out.json = json + "]";
    out.error_code = kServerBusy;
    outer.caller.reply(out);
  }
}

}  // namespace rr
