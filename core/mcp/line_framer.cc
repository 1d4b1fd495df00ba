#include "core/mcp/line_framer.h"

namespace rr {

void LineFramer::Complete(const OnMessage& on_message) {
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  if (!line_.empty()) on_message(line_);
}

void LineFramer::Feed(std::string_view bytes, const OnMessage& on_message,
                      const OnOversized& on_oversized) {
  while (!bytes.empty()) {
    const size_t nl = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, nl);  // up to the line's end or the chunk's
    if (!skipping_) {
      line_.append(piece);
      if (line_.size() > max_) {
        on_oversized(line_);
        skipping_ = true;
      } else if (nl != std::string_view::npos) {
        Complete(on_message);
      }
    }
    if (nl == std::string_view::npos) break;
    // The line ended: the next one starts clean, whatever this one was.
    line_.clear();
    if (skipping_) line_.shrink_to_fit();
    skipping_ = false;
    bytes.remove_prefix(nl + 1);
  }
  if (skipping_ && !line_.empty()) {
    line_.clear();
    line_.shrink_to_fit();
  }
}

void LineFramer::Finish(const OnMessage& on_message) {
  if (!skipping_) Complete(on_message);
  line_.clear();
  skipping_ = false;
}

}  // namespace rr
