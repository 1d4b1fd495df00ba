#include "core/mcp/era.h"

#include "core/util/json_text.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"
#include "core/version.h"

namespace rr {
namespace {

constexpr const char* kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";

// A URI longer than this is not repeated in an error's data (the message repeats at most
// kEchoedCharacters of anything an agent sent: EchoArgument, core/util/text.h).
constexpr size_t kEchoedUri = 2048;

}  // namespace

bool IsModernVersion(const std::string& v) {
  for (const char* m : kModernProtocolVersions) {
    if (v == m) return true;
  }
  return false;
}

bool IsLegacyVersion(const std::string& v) {
  for (const char* m : kProtocolVersions) {
    if (v == m) return true;
  }
  return false;
}

void AllVersions(JsonWriter& w) {
  w.BeginArray();
  for (const char* v : kModernProtocolVersions) w.String(v);
  for (const char* v : kProtocolVersions) w.String(v);
  w.End();
}

void ServerInfo(JsonWriter& w) {
  w.BeginObject()
      .Field("name", kServerName)
      .Field("title", "repo-reader")
      .Field("version", kServerVersion)
      .End();
}

const char* EraName(Era era) { return era == Era::kModern ? kModernProtocolVersions[0] : "2025"; }

Poco::JSON::Object::Ptr MetaOf(const Poco::JSON::Object::Ptr& params) {
  if (params && params->has("_meta") &&
      params->get("_meta").type() == typeid(Poco::JSON::Object::Ptr)) {
    return params->getObject("_meta");
  }
  return nullptr;
}

Era EraOf(const std::string& method, const Poco::JSON::Object::Ptr& params) {
  const auto meta = MetaOf(params);
  return method == "server/discover" || (meta && meta->has(kVersionKey)) ? Era::kModern
                                                                         : Era::kLegacy;
}

RpcError CheckModernRequest(const std::string& method, const Poco::JSON::Object::Ptr& params,
                            const HttpHeaders* http, const char* name_param) {
  const std::string need =
      "; a 2026-07-28 request carries params._meta with io.modelcontextprotocol/protocolVersion "
      "(a string) and io.modelcontextprotocol/clientCapabilities (an object)";
  const auto meta = MetaOf(params);
  if (!meta || !meta->has(kVersionKey) || !meta->get(kVersionKey).isString()) {
    return {kInvalidParams,
            "invalid params: io.modelcontextprotocol/protocolVersion is missing" + need, "", true};
  }
  const std::string version = meta->getValue<std::string>(kVersionKey);
  // Over HTTP a header naming another version than the body is a mismatch, whichever of the
  // two this server speaks: the header is what a gateway routed on.
  if (http && http->protocol_version && *http->protocol_version != version) {
    return {kHeaderMismatch, "header mismatch: MCP-Protocol-Version `" +
                                 EchoArgument(*http->protocol_version) + "` is not the body's `" +
                                 EchoArgument(version) + "`"};
  }
  if (!IsModernVersion(version)) {
    return {kUnsupportedProtocolVersion,
            "unsupported protocol version `" + EchoArgument(version) + "`; this server speaks " +
                kModernProtocolVersions[0] + " (and, with initialize, " + kProtocolVersions[0] +
                " and earlier)",
            [&] {
              JsonWriter w;
              w.BeginObject().Key("supported");
              AllVersions(w);
              return w.Field("requested", version).End().Take();
            }()};
  }
  if (!meta->has(kCapabilitiesKey) ||
      meta->get(kCapabilitiesKey).type() != typeid(Poco::JSON::Object::Ptr)) {
    return {kInvalidParams,
            "invalid params: io.modelcontextprotocol/clientCapabilities is missing" + need, "",
            true};
  }
  if (!http) return {};
  // Streamable HTTP: the headers mirror the body, and must match it.
  if (!http->protocol_version) {
    return {kHeaderMismatch,
            "header mismatch: the MCP-Protocol-Version header is missing; send it with the "
            "version in params._meta"};
  }
  if (!http->method) {
    return {kHeaderMismatch,
            "header mismatch: the Mcp-Method header is missing; send it with the body's method"};
  }
  if (*http->method != method) {
    return {kHeaderMismatch, "header mismatch: Mcp-Method `" + EchoArgument(*http->method) +
                                 "` is not the body's method `" + EchoArgument(method) + "`"};
  }
  if (name_param && params && params->has(name_param) && params->get(name_param).isString()) {
    const std::string name = params->getValue<std::string>(name_param);
    const std::string what =
        std::string(name_param) == "uri" ? "the resource's URI" : "the tool's name";
    std::string decoded;
    if (!http->name) {
      return {kHeaderMismatch,
              "header mismatch: the Mcp-Name header is missing; send it with " + what};
    }
    if (!DecodeHeaderValue(*http->name, &decoded)) {
      return {kHeaderMismatch, "header mismatch: Mcp-Name is not valid =?base64?…?= text"};
    }
    if (decoded != name) {
      return {kHeaderMismatch, "header mismatch: Mcp-Name `" + EchoArgument(decoded) +
                                   "` is not the body's " + name_param + " `" + EchoArgument(name) +
                                   "`"};
    }
  }
  return {};
}

RpcError CheckLegacyHttp(const HttpHeaders* http) {
  if (!http || !http->protocol_version) return {};
  const std::string& v = *http->protocol_version;
  if (IsLegacyVersion(v)) return {};
  if (IsModernVersion(v)) {
    // The header names 2026-07-28 but the body has no _meta claiming it.
    return {kInvalidParams,
            "invalid params: MCP-Protocol-Version is " + v +
                " but params._meta has no io.modelcontextprotocol/protocolVersion; a " + v +
                " request carries it (and io.modelcontextprotocol/clientCapabilities)",
            "", true};
  }
  return {kInvalidRequest, "unsupported MCP-Protocol-Version `" + EchoArgument(v) +
                               "`; this server speaks " + kModernProtocolVersions[0] + ", " +
                               kProtocolVersions[0] + ", " + kProtocolVersions[1] + ", " +
                               kProtocolVersions[2] + " and " + kProtocolVersions[3]};
}

std::string DecorateResult(Era era, const std::string& result_json) {
  if (era == Era::kLegacy) return result_json;
  // The era's members first, then the result's own: `result_json` is an object written by us
  // (its members are taken over as they are, without parsing it again).
  JsonWriter w;
  w.BeginObject()
      .Field("resultType", "complete")
      .Key("_meta")
      .BeginObject()
      .Key("io.modelcontextprotocol/serverInfo");
  ServerInfo(w);
  w.End().End();
  std::string out = w.Take();
  if (result_json.size() > 2) {
    out.pop_back();
    out += "," + result_json.substr(1);
  }
  return out;
}

RpcError ResourceNotFound(Era era, const std::string& message, const std::string& uri) {
  RpcError e{era == Era::kModern ? kInvalidParams : kLegacyResourceNotFound, message};
  if (uri.size() <= kEchoedUri)
    e.data_json = JsonWriter().BeginObject().Field("uri", uri).End().Take();
  return e;
}

RpcError CheckBatch(const HttpHeaders* http, const std::string& negotiated) {
  const std::string rule = std::string("invalid request: a batch (a JSON array of messages) is ") +
                           "read only at protocol version " + kBatchProtocolVersion +
                           "; later revisions removed batches";
  if (http) {
    if (!http->protocol_version || *http->protocol_version == kBatchProtocolVersion) return {};
    return {kInvalidRequest, rule + ", and this request's MCP-Protocol-Version is `" +
                                 EchoArgument(*http->protocol_version) +
                                 "`: send one message per request"};
  }
  if (negotiated == kBatchProtocolVersion) return {};
  return {
      kInvalidRequest,
      rule +
          (negotiated.empty() ? std::string(", and initialize has negotiated no version on this "
                                            "connection")
                              : ", and this connection negotiated " + negotiated) +
          ": send one message at a time"};
}

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

std::string ErrorMessage(std::string_view id_json, const RpcError& error) {
  JsonWriter w;
  w.BeginObject()
      .Field("jsonrpc", "2.0")
      .Key("id")
      .Raw(id_json.empty() ? std::string_view("null") : id_json)
      .Key("error")
      .BeginObject()
      .Field("code", error.code)
      .Field("message", error.message);
  if (!error.data_json.empty()) w.Key("data").Raw(error.data_json);
  return w.End().End().Take();
}

}  // namespace rr
