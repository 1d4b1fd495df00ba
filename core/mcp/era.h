// The protocol's two eras and what differs between them on the wire, in one place: which era a
// request is served in, the checks its era makes of it before any method runs, how a result is
// decorated, and how an error is spelt.
//
//   legacy (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05): an initialize handshake picks the
//     version; results are the method's own; a resource not found is -32002. Over Streamable
//     HTTP the MCP-Protocol-Version header, when sent, names a legacy version (absent: 2025-03-26,
//     as 2025-06-18 says a server may assume).
//   modern (2026-07-28): no handshake; every request names its version and the client's
//     capabilities in params._meta (-32602 without them; a version not served is -32022 listing
//     those that are). Results carry resultType "complete" and serverInfo in _meta, first. A
//     resource not found is -32602 with data.uri. Over Streamable HTTP, MCP-Protocol-Version,
//     Mcp-Method and (for the methods that name something) Mcp-Name mirror the body (-32020).
//
// Stateless and thread-safe: every function here reads only its arguments.
#pragma once

#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <string_view>

namespace rr {

class JsonWriter;

// The revisions with an initialize handshake (legacy), newest first.
inline constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                    "2024-11-05"};
// The revisions without one (modern): every request names its version in params._meta.
inline constexpr const char* kModernProtocolVersions[] = {"2026-07-28"};

// The one legacy revision that reads JSON-RPC batches (later ones removed them).
inline constexpr const char* kBatchProtocolVersion = "2025-03-26";

enum class Era { kLegacy, kModern };

// JSON-RPC error codes the server sends.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerBusy = -32000;
inline constexpr int kLegacyResourceNotFound = -32002;  // 2025-11-25 and earlier
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kUnsupportedProtocolVersion = -32022;

// One JSON-RPC error, before it is written.
struct RpcError {
  int code = 0;  // 0: no error
  std::string message;
  std::string data_json;  // the error's `data` as JSON text; "" for none
  // The request itself was refused before any method ran (its _meta, or HTTP headers naming a
  // version its body does not): Streamable HTTP answers it 400 whatever the code.
  bool malformed = false;
  explicit operator bool() const { return code != 0; }
};

// A JSON-RPC error message for request `id_json` (its id as JSON text; "" for null): the one
// writer of every error the server sends, whether the server, the HTTP transport or the HTTP
// front refuses the request.
std::string ErrorMessage(std::string_view id_json, const RpcError& error);

// The Streamable HTTP request headers the protocol checks against the body (trimmed; absent
// ones empty optionals).
struct HttpHeaders {
  std::optional<std::string> protocol_version;  // MCP-Protocol-Version
  std::optional<std::string> method;            // Mcp-Method
  std::optional<std::string> name;              // Mcp-Name, as sent (maybe =?base64?…?=)
};

bool IsModernVersion(const std::string& version);
bool IsLegacyVersion(const std::string& version);
// Every version served, newest first, as a JSON array.
void AllVersions(JsonWriter& w);
// This server's name, title and version as an Implementation object.
void ServerInfo(JsonWriter& w);
const char* EraName(Era era);  // "2026-07-28" or "2025"

// params._meta when it is an object; null otherwise.
Poco::JSON::Object::Ptr MetaOf(const Poco::JSON::Object::Ptr& params);

// The era `method` with `params` is served in: modern when params._meta names a protocol
// version, and for server/discover always (it exists only there); legacy otherwise.
Era EraOf(const std::string& method, const Poco::JSON::Object::Ptr& params);

// The modern era's checks of a request, in the order the revision gives them: _meta's version
// (present, matching the MCP-Protocol-Version header, served), _meta's client capabilities, then
// over HTTP the Mcp-Method header and — when `name_param` is not null (tools/call: "name",
// resources/read: "uri") and the body has that string — the Mcp-Name header. `http` is null on
// stdio. No error when the request may go on.
RpcError CheckModernRequest(const std::string& method, const Poco::JSON::Object::Ptr& params,
                            const HttpHeaders* http, const char* name_param);

// The legacy era's check over HTTP: an MCP-Protocol-Version header, when sent, names a legacy
// version. No error when the request may go on (always on stdio: `http` null).
RpcError CheckLegacyHttp(const HttpHeaders* http);

// A method's result object as `era` sends it: as is (legacy), or with resultType "complete" and
// _meta's serverInfo first (modern).
std::string DecorateResult(Era era, const std::string& result_json);

// A method's error as `era` spells it: a resource not found is -32002 in legacy and -32602 in
// modern (which must not send -32002); both carry data.uri when `uri` is short enough to repeat.
RpcError ResourceNotFound(Era era, const std::string& message, const std::string& uri);

// Whether a JSON-RPC batch may be read from this caller, and why not: over HTTP the
// MCP-Protocol-Version header decides (absent: 2025-03-26), on stdio the version `initialize`
// negotiated on the connection ("" when none was). No error when it may.
RpcError CheckBatch(const HttpHeaders* http, const std::string& negotiated);

// An Mcp-Name header's value: as sent, or decoded from =?base64?…?=. False when the encoding is
// broken (bad characters or padding).
bool DecodeHeaderValue(const std::string& raw, std::string* out);

}  // namespace rr
