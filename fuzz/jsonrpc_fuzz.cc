// The JSON-RPC reader: a message as McpServer::Handle reads it (huge integers widened first,
// then Poco's parser at depth 64, a failed parse tried again as a lone value), its `id`,
// `method` and `params`, and a tool's `arguments` checked by Args::Check against a spec with
// every argument type. Also the writer: JsonQuote of any bytes must parse back as one string.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/tools/tool.h"
#include "core/util/json_text.h"

namespace {

const rr::ToolSpec& Spec() {
  static const rr::ToolSpec spec = [] {
    rr::ToolSpec s;
    s.name = "fuzz";
    s.args.push_back({"repo", rr::ArgType::kString, "", true, {}, {}, {}});
    s.args.push_back({"mode", rr::ArgType::kString, "", false, {}, {}, {"a", "b"}});
    s.args.push_back({"limit", rr::ArgType::kInteger, "", false, 1, 1000, {}});
    s.args.push_back({"any", rr::ArgType::kInteger, "", false, {}, {}, {}});
    s.args.push_back({"flag", rr::ArgType::kBoolean, "", false, {}, {}, {}});
    s.args.push_back({"paths", rr::ArgType::kStrings, "", false, 1, 20, {}});
    return s;
  }();
  return spec;
}

Poco::Dynamic::Var Parse(const std::string& text) {
  Poco::JSON::Parser parser;
  parser.setDepth(64);
  return parser.parse(text);
}

void Message(const std::string& message) {
  const std::optional<std::string> widened = rr::HugeIntegersAsDecimals(message);
  const std::string& text = widened ? *widened : message;
  Poco::Dynamic::Var parsed;
  try {
    parsed = Parse(text);
  } catch (const std::exception&) {
    try {
      Parse("[" + text + "]");
    } catch (const std::exception&) {
    }
    return;
  }
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) return;
  const auto msg = parsed.extract<Poco::JSON::Object::Ptr>();
  try {
    if (msg->has("id")) {
      const auto& id = msg->get("id");
      if (id.isString()) (void)id.extract<std::string>();
      if (id.isInteger()) (void)id.convert<int64_t>();
    }
    if (msg->has("method") && msg->get("method").isString()) {
      (void)rr::JsonQuote(msg->getValue<std::string>("method"));
    }
    const auto params = msg->getObject("params");
    if (!params) return;
    const auto args = params->getObject("arguments");
    auto checked = rr::Args::Check(Spec(), args ? args : params);
    if (checked) {
      (void)checked->String("repo");
      (void)checked->Integer("limit");
      (void)checked->Strings("paths");
      (void)checked->Boolean("flag", false);
    } else {
      (void)rr::JsonQuote(checked.error());
    }
  } catch (const Poco::Exception&) {
    // Poco's accessors throw on a value of another type: the server's own reads check types
    // first; here a throw is not a finding.
  } catch (const std::exception&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Message(text);
  // The writer: any bytes, quoted, read back as a single JSON string.
  const std::string quoted = rr::JsonQuote(text);
  try {
    const Poco::Dynamic::Var back = Parse("[" + quoted + "]");
    if (back.extract<Poco::JSON::Array::Ptr>()->size() != 1) std::abort();
  } catch (const std::exception&) {
    std::abort();  // JsonQuote wrote text that is not JSON
  }
  return 0;
}
