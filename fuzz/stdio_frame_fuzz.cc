// The stdio framing: a byte stream as StdioTransport reads it, split into messages by
// LineFramer in chunkings the input chooses, against a plain reading of the same stream. Every
// message must be a line of the stream within the limit ('\r' before '\n' dropped, empty lines
// skipped), every line past the limit reported once with its start and no more than the limit and
// one chunk of it, nothing else handed on. The start of each oversized line then goes through
// LeadingRequestId, which must give nothing or one JSON id (a string, or an integer of at most 18
// digits) that parses back.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/mcp/line_framer.h"
#include "core/util/json_text.h"

namespace {

void CheckId(const std::string& head) {
  const std::string id = rr::LeadingRequestId(head);
  if (id.empty()) return;
  try {
    Poco::JSON::Parser parser;
    const auto back = parser.parse("[" + id + "]").extract<Poco::JSON::Array::Ptr>();
    if (back->size() != 1) std::abort();
    const Poco::Dynamic::Var v = back->get(0);
    if (!v.isString() && !v.isInteger()) std::abort();
  } catch (const Poco::Exception&) {
    std::abort();  // an id that is not JSON would make the refusal unreadable
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t max = 1 + data[0] % 64;
  uint32_t state = data[1] | 1u;
  const std::string stream(reinterpret_cast<const char*>(data) + 2, size - 2);

  // What the framer must do, from the whole stream at once.
  std::vector<std::string> want_messages;
  std::vector<std::string> oversized_lines;
  size_t start = 0;
  while (start <= stream.size()) {
    const size_t nl = stream.find('\n', start);
    const bool last = nl == std::string::npos;
    std::string line = stream.substr(start, last ? std::string::npos : nl - start);
    if (line.size() > max) {
      oversized_lines.push_back(line);
    } else {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) want_messages.push_back(line);
    }
    if (last) break;
    start = nl + 1;
  }

  // What it does, fed in chunks of 1 to 32 bytes.
  rr::LineFramer framer(max);
  std::vector<std::string> got_messages;
  std::vector<std::string> heads;
  const rr::LineFramer::OnMessage on_message = [&](const std::string& m) {
    got_messages.push_back(m);
  };
  const rr::LineFramer::OnOversized on_oversized = [&](const std::string& h) {
    heads.push_back(h);
  };
  for (size_t i = 0; i < stream.size();) {
    state = state * 1103515245u + 12345u;
    const size_t chunk = 1 + (state >> 16) % 32;
    framer.Feed(std::string_view(stream).substr(i, chunk), on_message, on_oversized);
    i += chunk;
  }
  framer.Finish(on_message);

  if (got_messages != want_messages) std::abort();
  if (heads.size() != oversized_lines.size()) std::abort();
  for (size_t k = 0; k < heads.size(); ++k) {
    const std::string& head = heads[k];
    if (head.size() <= max || head.size() > max + 32) std::abort();
    if (oversized_lines[k].compare(0, head.size(), head) != 0) std::abort();
    CheckId(head);
  }
  return 0;
}
