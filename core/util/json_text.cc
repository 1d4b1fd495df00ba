#include "core/util/json_text.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/util/text.h"

namespace rr {

namespace {

// Whether none of the eight bytes of `x` needs more than copying into a JSON string: no control
// character (< 0x20), DEL, byte of 0x80 or more, '"' or '\\'. Exact whenever it says true (each
// test below finds every byte of its kind; a borrow can only add a false alarm, after which the
// bytes are looked at one by one).
inline bool PlainWord(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kTops = 0x8080808080808080ULL;
  const auto any_zero = [](uint64_t v) { return (v - kOnes) & ~v & kTops; };
  const uint64_t below_space = (x - kOnes * 0x20) & ~x & kTops;
  return ((x & kTops) | below_space | any_zero(x ^ (kOnes * '"')) | any_zero(x ^ (kOnes * '\\')) |
          any_zero(x ^ (kOnes * 0x7F))) == 0;
}

}  // namespace

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
        if (j + 8 <= raw.size()) {  // eight plain bytes at a time while there are
          uint64_t x;
          std::memcpy(&x, raw.data() + j, 8);
          if (PlainWord(x)) {
            j += 8;
            continue;
          }
        }
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

namespace {

// A forward-only reader over the start of a message.
class Scan {
 public:
  explicit Scan(std::string_view text) : s_(text) {}

  bool AtEnd() const { return i_ >= s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[i_]; }
  void SkipSpace() {
    while (!AtEnd() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Take(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++i_;
    return true;
  }

  // A string at the reader (its opening quote), decoded into *out (when given). False when it
  // is not a complete, valid JSON string.
  bool String(std::string* out) {
    if (!Take('"')) return false;
    while (!AtEnd()) {
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') {
        if (out) out->push_back(static_cast<char>(c));
        continue;
      }
      if (AtEnd()) return false;
      const char e = s_[i_++];
      char plain = 0;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          plain = e;
          break;
        case 'b':
          plain = '\b';
          break;
        case 'f':
          plain = '\f';
          break;
        case 'n':
          plain = '\n';
          break;
        case 'r':
          plain = '\r';
          break;
        case 't':
          plain = '\t';
          break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00) {  // a high surrogate: its low one must follow
            uint32_t low = 0;
            if (!Take('\\') || !Take('u') || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) {
              return false;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return false;
          }
          if (out) AppendUtf8(cp, out);
          continue;
        }
        default:
          return false;
      }
      if (out) out->push_back(plain);
    }
    return false;
  }

  // A number at the reader, as written; false when it is not a complete JSON number.
  bool Number(std::string_view* out) {
    const size_t from = i_;
    Take('-');
    if (Take('0')) {
    } else if (!Digits()) {
      return false;
    }
    if (Take('.') && !Digits()) return false;
    if (Take('e') || Take('E')) {
      if (!Take('+')) Take('-');
      if (!Digits()) return false;
    }
    if (AtEnd()) return false;  // it may go on past what was read
    const char next = s_[i_];
    if ((next >= '0' && next <= '9') || next == '.' || next == 'e' || next == 'E' || next == '+' ||
        next == '-') {
      return false;  // not JSON: 01, 1.2.3
    }
    *out = s_.substr(from, i_ - from);
    return true;
  }

  // Any value at the reader, skipped: objects and arrays by counting their brackets. False when
  // it is not JSON as far as the text goes.
  bool SkipValue() {
    size_t depth = 0;
    do {
      SkipSpace();
      const char c = Peek();
      if (c == '"') {
        if (!String(nullptr)) return false;
      } else if (c == '{' || c == '[') {
        ++i_;
        ++depth;
        continue;  // its first member or item (or its end) follows
      } else if (c == '}' || c == ']') {
        if (depth == 0) return false;
        ++i_;
        --depth;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        std::string_view n;
        if (!Number(&n)) return false;
      } else if (!Word("true") && !Word("false") && !Word("null")) {
        return false;
      }
      // After a value inside a collection: `:` after a key, `,` before the next, or the end.
      SkipSpace();
      while (depth > 0 && (Peek() == '}' || Peek() == ']')) {
        ++i_;
        --depth;
        SkipSpace();
      }
      if (depth > 0 && !Take(',') && !Take(':')) return false;
    } while (depth > 0);
    return true;
  }

 private:
  bool Digits() {
    const size_t from = i_;
    while (!AtEnd() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > from;
  }
  bool Hex4(uint32_t* v) {
    if (s_.size() - i_ < 4 || AtEnd()) return false;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return false;
      *v = *v * 16 + static_cast<uint32_t>(d);
    }
    return true;
  }
  bool Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::string LeadingRequestId(std::string_view text) {
  Scan scan(text.substr(0, kRequestIdScanBytes));
  scan.SkipSpace();
  if (!scan.Take('{')) return "";
  while (true) {
    scan.SkipSpace();
    std::string key;
    if (!scan.String(&key)) return "";  // the object's end, or not JSON: no id so far
    scan.SkipSpace();
    if (!scan.Take(':')) return "";
    scan.SkipSpace();
    if (key == "id") {
      if (scan.Peek() == '"') {
        std::string id;
        return scan.String(&id) ? JsonQuote(id) : "";
      }
      std::string_view n;
      if (!scan.Number(&n)) return "";
      const size_t digits = n.size() - (n.front() == '-');
      if (n.find_first_of(".eE") != std::string_view::npos || digits > 18) return "";
      if (digits > 1 && n[n.size() - digits] == '0') return "";
      return std::string(n == "-0" ? "0" : n);
    }
    if (!scan.SkipValue()) return "";
    scan.SkipSpace();
    if (!scan.Take(',')) return "";  // the object ends without an id, or not JSON
  }
}

}  // namespace rr
