// How MCP's stdio transport frames messages: one JSON-RPC message a line, split on '\n', a
// trailing '\r' dropped, empty lines skipped. A line longer than the limit is never kept whole:
// once more than `max_bytes` of it have arrived it is reported as oversized (with the part read so
// far, from which the caller may read the request's id) and the rest of it, up to its '\n', is
// skipped. Memory is bounded by the limit plus one chunk fed, whatever the input.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace rr {

class LineFramer {
 public:
  // A complete message (no '\n', no trailing '\r', never empty, at most max_bytes).
  using OnMessage = std::function<void(const std::string& message)>;
  // A line past the limit: its start as read so far (more than max_bytes of it).
  using OnOversized = std::function<void(const std::string& head)>;

  explicit LineFramer(size_t max_bytes) : max_(max_bytes) {}

  // The next bytes of the stream, in any chunking.
  void Feed(std::string_view bytes, const OnMessage& on_message, const OnOversized& on_oversized);
  // End of the stream: a last line without its '\n' is a message too (when within the limit).
  void Finish(const OnMessage& on_message);

 private:
  void Complete(const OnMessage& on_message);

  size_t max_;
  std::string line_;       // the line being read
  bool skipping_ = false;  // inside a line already reported as oversized
};

}  // namespace rr
