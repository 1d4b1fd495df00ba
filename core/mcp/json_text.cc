#include "core/mcp/json_text.h"

#include <cstdio>

#include "core/util/text.h"

namespace rr {

std::string JsonQuote(std::string_view raw) {
  std::string out;
  out.reserve(raw.size() + 16);
  out.push_back('"');
  size_t i = 0;
  while (i < raw.size()) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      // A run of characters that need no escape, the common case, is copied at once.
      size_t j = i + 1;
      while (j < raw.size()) {
        const auto d = static_cast<unsigned char>(raw[j]);
        if (d < 0x20 || d >= 0x7F || d == '"' || d == '\\') break;
        ++j;
      }
      out.append(raw.data() + i, j - i);
      i = j;
      continue;
    }
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(raw, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
      ++i;
    } else {
      out.append(raw.substr(i, len));
      i += len;
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace rr
