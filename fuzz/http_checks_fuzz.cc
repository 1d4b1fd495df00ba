// What the HTTP handler checks of a request once the front has read it: the MCP headers against
// the body (CheckModernRequest, CheckLegacyHttp, CheckBatch), the =?base64?…?= decoding of
// Mcp-Name (DecodeHeaderValue), the era a request is served in (EraOf) and how a result and a
// missing resource are spelt in it (DecorateResult, ResourceNotFound). The input: the three
// headers (each present or absent), the body's method, the negotiated version, then the params
// as JSON. Checked besides not crashing: an error's message stays within a few hundred
// characters more than the server's own words (agent text is echoed cut), its data is JSON, and
// a decorated result is JSON when the result was.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

#include "core/mcp/era.h"
#include "fuzz/fuzz_util.h"

namespace {

Poco::Dynamic::Var Parse(const std::string& text) {
  Poco::JSON::Parser parser;
  parser.setDepth(64);
  return parser.parse(text);
}

void CheckError(const rr::RpcError& e) {
  if (!e) return;
  // The longest fixed wording is under 300 characters; what is echoed is cut to 200 a value.
  if (e.message.size() > 1200) std::abort();
  if (!e.data_json.empty()) {
    try {
      Parse(e.data_json);
    } catch (const Poco::Exception&) {
      std::abort();
    }
  }
}

std::optional<std::string> Header(rr_fuzz::Input& in) {
  const bool present = in.Byte() & 1;
  const std::string value(in.Part(4096));
  if (!present) return std::nullopt;
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rr_fuzz::Input in(data, size);
  rr::HttpHeaders headers;
  headers.protocol_version = Header(in);
  headers.method = Header(in);
  headers.name = Header(in);
  const std::string method(in.Part(256));
  const std::string negotiated(in.Part(64));
  const uint8_t which = in.Byte();
  const std::string params_text(in.Rest());

  if (headers.name) {
    std::string decoded;
    if (rr::DecodeHeaderValue(*headers.name, &decoded) && decoded.size() > headers.name->size()) {
      std::abort();  // decoding never makes a value longer
    }
  }

  Poco::JSON::Object::Ptr params;
  try {
    const Poco::Dynamic::Var v = Parse(params_text);
    if (v.type() == typeid(Poco::JSON::Object::Ptr)) params = v.extract<Poco::JSON::Object::Ptr>();
  } catch (const std::exception&) {
  }
  const rr::HttpHeaders* http = (which & 1) ? &headers : nullptr;
  const char* name_param = (which & 2) ? "name" : (which & 4) ? "uri" : nullptr;
  try {
    const rr::Era era = rr::EraOf(method, params);
    CheckError(rr::CheckModernRequest(method, params, http, name_param));
    CheckError(rr::CheckLegacyHttp(http));
    CheckError(rr::CheckBatch(http, negotiated));
    CheckError(rr::ResourceNotFound(era, "resource not found", params_text));
    if (params) {
      // A result object as a method writes it, decorated for its era, is still one object.
      std::ostringstream result;
      params->stringify(result);
      const std::string decorated = rr::DecorateResult(era, result.str());
      if (Parse(decorated).type() != typeid(Poco::JSON::Object::Ptr)) std::abort();
    }
  } catch (const Poco::Exception&) {
    // Poco's accessors throw on a value of another type; the era's functions check types first,
    // so a throw from them is a finding.
    std::abort();
  }
  return 0;
}
