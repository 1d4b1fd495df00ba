#include "core/util/json_text.h"

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

namespace rr {
namespace {

// Whether the digits of an integer literal (no sign) name a value past the limit for its sign.
bool PastLimit(std::string_view digits, bool negative) {
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  const std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
  if (digits.size() != limit.size()) return digits.size() > limit.size();
  return digits > limit;
}

}  // namespace

std::optional<std::string> HugeIntegersAsDecimals(std::string_view json) {
  std::optional<std::string> out;
  size_t copied = 0;  // bytes of `json` already in *out
  size_t i = 0;
  while (i < json.size()) {
    const char c = json[i];
    if (c == '"') {
      for (++i; i < json.size() && json[i] != '"'; ++i) {
        if (json[i] == '\\') ++i;
      }
      ++i;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      ++i;
      continue;
    }
    const size_t start = i;
    bool integer = true;
    for (++i; i < json.size(); ++i) {
      const char d = json[i];
      if (d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-') {
        integer = false;
      } else if (d < '0' || d > '9') {
        break;
      }
    }
    if (!integer) continue;
    const bool negative = json[start] == '-';
    if (!PastLimit(json.substr(start + (negative ? 1 : 0), i - start - (negative ? 1 : 0)),
                   negative)) {
      continue;
    }
    if (!out) {
      out.emplace();
      out->reserve(json.size() + 8);
    }
    out->append(json.substr(copied, i - copied));
    out->append(".0");
    copied = i;
  }
  if (out) out->append(json.substr(copied));
  return out;
}

}  // namespace rr
