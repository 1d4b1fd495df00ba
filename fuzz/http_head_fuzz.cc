// The HTTP request head and body framing as the HTTP front (core/mcp/http_front.cc) reads
// them: the head up to its blank line is checked by HttpFront::CheckHead with the single-header
// list the transport gives it (core/mcp/http_transport.cc), and a head it lets through is read
// by Boost.Beast's request parser with the front's settings (a head of at most 16 KiB, a body of
// at most 64 KiB here, eager), body and all, then its fields as the handler reads them. Several
// requests on one connection are read one after another, as the front does.
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/mcp/http_front.h"

namespace {

namespace http = boost::beast::http;

// As http_transport.cc gives them to the front.
const std::vector<std::pair<std::string, int>>& SingleHeaders() {
  static const std::vector<std::pair<std::string, int>> list = {{"Host", -32600},
                                                                {"Content-Length", -32600},
                                                                {"Authorization", -32600},
                                                                {"Origin", -32600},
                                                                {"Mcp-Method", -32020},
                                                                {"Mcp-Name", -32020},
                                                                {"MCP-Protocol-Version", -32020}};
  return list;
}

constexpr size_t kMaxHead = 16 * 1024;
constexpr size_t kMaxBody = 64 * 1024;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string in(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 8 && !in.empty(); ++i) {
    size_t skip = 0;  // RFC 9112 2.2: empty lines before a request line are ignored
    while (in.size() >= skip + 2 && in[skip] == '\r' && in[skip + 1] == '\n') skip += 2;
    in.erase(0, skip);
    const size_t end = in.find("\r\n\r\n");
    if (end == std::string::npos || end + 4 > kMaxHead) return 0;  // waits, or 431
    if (auto err =
            rr::HttpFront::CheckHead(std::string_view(in).substr(0, end + 4), SingleHeaders())) {
      if (err->status < 400 || err->status > 599 || err->message.empty()) std::abort();
      return 0;  // refused, and the connection closes
    }
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<uint32_t>(kMaxHead));
    parser.body_limit(kMaxBody);
    parser.eager(true);
    boost::beast::error_code ec;
    size_t used = 0;
    while (!parser.is_done() && used < in.size()) {
      const size_t n = parser.put(boost::asio::buffer(in.data() + used, in.size() - used), ec);
      used += n;
      if (ec == http::error::need_more) break;
      if (ec || n == 0) return 0;  // 400 or 413, and the connection closes
    }
    if (!parser.is_done()) return 0;  // waits for the rest
    const auto& req = parser.get();
    (void)req.method();
    (void)req.target();
    (void)req.find("Host");
    (void)req.find("Origin");
    (void)req.find("Authorization");
    if (req.body().size() > kMaxBody) std::abort();
    if (!req.keep_alive()) return 0;
    in.erase(0, used);
  }
  return 0;
}
