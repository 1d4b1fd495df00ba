// What the two private-key detectors (private_keys.cc, key_material.cc) share of reading a key's
// lines. Inline: key-material reads every line of every text with them.
#pragma once

#include <cstddef>
#include <string_view>

#include "text_scan.h"

namespace rr_secrets {

constexpr std::string_view kPrivateKeyWhat = "private key";

inline bool IsB64(char c) { return IsBase64(c) || c == '='; }

// The length of the escaped line breaks ending at t[e), not before t[from].
inline size_t EscapedBreakBefore(std::string_view t, size_t from, size_t e) {
  size_t b = e;
  while (b >= from + 2 && (t[b - 1] == 'n' || t[b - 1] == 'r') && t[b - 2] == '\\') {
    size_t k = b - 2;
    while (k > from && t[k - 1] == '\\') --k;
    b = k;
  }
  return e - b;
}

// The length of a comment's marker at s[p] and the blanks after it: `#`, `;`, `*` or `//`, then
// at least one blank (a key commented out line by line: `#    MIIEvg…`). 0 when there is none;
// base64 holds no blank, so a key's own line never reads as one.
inline size_t CommentMarkAt(std::string_view s, size_t p) {
  size_t c = p;
  if (c < s.size() && (s[c] == '#' || s[c] == ';' || s[c] == '*')) {
    ++c;
  } else if (c + 1 < s.size() && s[c] == '/' && s[c + 1] == '/') {
    c += 2;
  }
  if (c == p || c >= s.size() || !IsBlank(s[c])) return 0;
  while (c < s.size() && IsBlank(s[c])) ++c;
  return c - p;
}

// The content of a line with the decorations code and diffs put around key lines removed:
// blanks, a diff's '-' marker (and '+', when asked: it is also a base64 character), a comment's
// marker, quotes, a trailing comma, the '+' of a concatenation, a "\n" escape.
inline std::string_view LineCore(std::string_view line, bool strip_plus, size_t* offset) {
  size_t b = 0, e = line.size();
  if (e > 0 && line[e - 1] == '\r') --e;
  if (b < e && (line[b] == '-' || (strip_plus && line[b] == '+'))) ++b;
  while (b < e && (IsBlank(line[b]) || line[b] == '"' || line[b] == '\'')) ++b;
  b += CommentMarkAt(line.substr(0, e), b);
  for (;;) {
    const size_t before = e;
    while (e > b && (IsBlank(line[e - 1]) || line[e - 1] == ',' || line[e - 1] == ';' ||
                     line[e - 1] == ')' || line[e - 1] == '"' || line[e - 1] == '\'')) {
      --e;
    }
    if (e >= b + 2 && line[e - 1] == '+' && IsBlank(line[e - 2])) e -= 2;
    e -= EscapedBreakBefore(line, b, e);
    if (e == before) break;
  }
  if (offset) *offset = b;
  return line.substr(b, e - b);
}

inline bool IsHeaderLine(std::string_view core) {
  size_t i = 0;
  while (i < core.size() && (IsAlpha(core[i]) || core[i] == '-')) ++i;
  return i >= 4 && i + 1 < core.size() && core[i] == ':' && core[i + 1] == ' ';
}

inline bool AllBase64(std::string_view s) {
  for (char c : s) {
    if (!IsB64(c)) return false;
  }
  return !s.empty();
}

}  // namespace rr_secrets
