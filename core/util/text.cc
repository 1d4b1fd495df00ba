#include "core/util/text.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace rr {

size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  size_t len;
  uint32_t cp;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

namespace {

void AppendEscape(std::string& out, unsigned char c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
    case 0x1B:
      out += "\\e";
      return;
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
}

// A valid sequence that is a control character outside ASCII: C1 controls (U+0080-U+009F, CSI
// and NEL among them), and the marks and overrides that reorder text as it is shown
// (U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). Returns the code point, or 0.
uint32_t HiddenCodePoint(std::string_view s, size_t i, size_t len) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (len == 2 && b0 == 0xC2) {
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 <= 0x9F) return b1;  // U+0080-U+009F
  }
  if (len == 3 && b0 == 0xE2) {
    const uint32_t cp = 0x2000 | ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
                        (static_cast<unsigned char>(s[i + 2]) & 0x3F);
    if (cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2066 && cp <= 0x2069)) {
      return cp;
    }
  }
  return 0;
}

void AppendCodePointEscape(std::string& out, uint32_t cp) {
  char buf[12];
  std::snprintf(buf, sizeof buf, "\\u%04X", cp);
  out += buf;
}

}  // namespace

bool NeedsEscaping(std::string_view raw) {
  for (size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c < 0x20 || c == 0x7F) return true;
    const size_t len = Utf8SequenceLength(raw, i);
    if (len == 0 || HiddenCodePoint(raw, i, len)) return true;
    i += len;
  }
  return false;
}

std::string DisplayName(std::string_view raw) {
  if (!NeedsEscaping(raw)) return std::string(raw);
  std::string out;
  out.reserve(raw.size() + 8);
  for (size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c < 0x20 || c == 0x7F) {
      AppendEscape(out, c);
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(raw, i);
    if (len == 0) {
      AppendEscape(out, c);
      ++i;
      continue;
    }
    if (const uint32_t cp = HiddenCodePoint(raw, i, len)) {
      AppendCodePointEscape(out, cp);
    } else {
      out.append(raw.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string EchoArgument(std::string_view raw) {
  size_t characters = 0, prefix = 0;
  for (size_t i = 0; i < raw.size(); ++characters) {
    const size_t len = Utf8SequenceLength(raw, i);
    i += len ? len : 1;
    if (characters < kEchoedCharacters) prefix = i;
  }
  if (characters <= kEchoedCharacters) return DisplayName(raw);
  return DisplayName(raw.substr(0, prefix)) + "… (" + WithCommas(characters) + " characters)";
}

std::string DisplayText(std::string_view raw, std::string* scan) {
  std::string out;
  out.reserve(raw.size());
  // Once something is escaped (and a scan text is asked for), the scan text follows `out`.
  if (scan) scan->clear();
  std::string* blanked = nullptr;
  auto escaped = [&](size_t from, std::string_view as) {
    if (!scan) return;
    if (!blanked) {
      blanked = scan;
      blanked->assign(out, 0, from);
    }
    blanked->append(as);
  };
  for (size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c >= 0x20 && c < 0x7F) {
      // A run of printable ASCII, the common case, is copied at once.
      size_t j = i + 1;
      while (j < raw.size() && static_cast<unsigned char>(raw[j]) >= 0x20 &&
             static_cast<unsigned char>(raw[j]) < 0x7F) {
        ++j;
      }
      out.append(raw.data() + i, j - i);
      if (blanked) blanked->append(raw.data() + i, j - i);
      i = j;
      continue;
    }
    if (c == '\t') {
      out.push_back('\t');
      if (blanked) blanked->push_back('\t');
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      const size_t from = out.size();
      AppendEscape(out, c);
      ++i;
      if (c == '\r') {
        escaped(from, "\r\n");
      } else if (c == 0x1B && i < raw.size() && raw[i] == '[') {
        // A control sequence: ESC [, parameter bytes, intermediate bytes, a final byte.
        size_t j = i + 1;
        while (j < raw.size() && raw[j] >= 0x30 && raw[j] <= 0x3F) ++j;
        while (j < raw.size() && raw[j] >= 0x20 && raw[j] <= 0x2F) ++j;
        if (j < raw.size() && raw[j] >= 0x40 && raw[j] <= 0x7E) {
          ++j;
          out.append(raw.data() + i, j - i);
          i = j;
        }
        escaped(from, std::string(out.size() - from, ' '));
      } else {
        escaped(from, std::string(out.size() - from, ' '));
      }
      continue;
    }
    const size_t len = Utf8SequenceLength(raw, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      if (blanked) *blanked += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (const uint32_t cp = HiddenCodePoint(raw, i, len)) {
      const size_t from = out.size();
      AppendCodePointEscape(out, cp);
      escaped(from, std::string(out.size() - from, ' '));
    } else {
      out.append(raw.substr(i, len));
      if (blanked) blanked->append(raw.substr(i, len));
    }
    i += len;
  }
  return out;
}

size_t FileLineReader::Count() const {
  size_t total = 0;
  for (const char* p = bytes_.data(); p < bytes_.data() + bytes_.size(); ++total) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(bytes_.data() + bytes_.size() - p));
    p = nl ? static_cast<const char*>(nl) + 1 : bytes_.data() + bytes_.size();
  }
  return total;
}

std::string_view FileLineReader::Next() {
  size_t nl = bytes_.find('\n', pos_);
  if (nl == std::string_view::npos) nl = bytes_.size();
  std::string_view line = bytes_.substr(pos_, nl - pos_);
  // A line ending is "\r\n" or "\n"; a "\r" that ends the file without a "\n" is part of the
  // last line, and shown (escaped) like any lone "\r".
  if (nl < bytes_.size() && !line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = nl + 1;
  return line;
}

size_t CodePoints(std::string_view utf8) {
  // Every byte but a continuation byte (10xxxxxx) starts a code point. Eight bytes at a time: in
  // `x & ~(x << 1)` the top bit of each byte is its own bit 7 and not its bit 6, so the top bits
  // left by the mask are the continuation bytes; shifted down, each byte of the sum counts its
  // lane's (at most 255 words before the lanes are added up). On every answer's text, several
  // times an answer: a byte at a time it was the server's costliest function under load.
  constexpr uint64_t kTops = 0x8080808080808080ULL;
  const char* p = utf8.data();
  const size_t size = utf8.size();
  size_t continuations = 0, i = 0;
  while (i + 8 <= size) {
    uint64_t lanes = 0;
    for (int k = 0; k < 255 && i + 8 <= size; ++k, i += 8) {
      uint64_t x;
      std::memcpy(&x, p + i, 8);
      lanes += (x & ~(x << 1) & kTops) >> 7;
    }
    // The eight lanes added up: first in pairs into four 16-bit lanes (at most 510 each).
    lanes = (lanes & 0x00FF00FF00FF00FFULL) + ((lanes >> 8) & 0x00FF00FF00FF00FFULL);
    continuations += static_cast<size_t>((lanes * 0x0001000100010001ULL) >> 48);
  }
  if (i < size) {  // the last few bytes as one word, zeros after them (a zero starts one)
    uint64_t x = 0;
    std::memcpy(&x, p + i, size - i);
    const uint64_t tops = x & ~(x << 1) & kTops;
    for (uint64_t t = tops; t != 0; t &= t - 1) ++continuations;
  }
  return size - continuations;
}

size_t PrefixBytes(std::string_view utf8, size_t n) {
  size_t seen = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<unsigned char>(utf8[i]) & 0xC0) != 0x80) {
      if (seen == n) return i;
      ++seen;
    }
  }
  return utf8.size();
}

std::string WithCommas(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  const size_t lead = digits.size() % 3;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (i + 3 - lead) % 3 == 0) out.push_back(',');  // i - lead may be negative
    out.push_back(digits[i]);
  }
  return out;
}

std::string Plural(uint64_t n, std::string_view one, std::string_view many) {
  return WithCommas(n) + " " + std::string(n == 1 ? one : many);
}

std::string ShortDate(int64_t seconds, int offset_minutes) {
  const time_t t = static_cast<time_t>(seconds + int64_t{offset_minutes} * 60);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buf;
}

std::string HumanBytes(uint64_t n) {
  if (n < 1024) return Plural(n, "byte", "bytes");
  char buf[32];
  if (n < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KB", n / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", n / (1024.0 * 1024.0));
  }
  return std::string(buf) + " (" + WithCommas(n) + " bytes)";
}

std::string Megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace rr
