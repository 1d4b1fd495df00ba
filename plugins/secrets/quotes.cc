// The quotes of string literals as the settings detector reads them (quotes.h).
#include "quotes.h"

#include <algorithm>

namespace rr_secrets {

size_t QuoteBefore(std::string_view t, size_t at, char* quote) {
  if (at == 0) return 0;
  const char c = t[at - 1];
  if (c != '"' && c != '\'' && c != '`') return 0;
  *quote = c;
  size_t run = 0;
  while (at - 1 > run && t[at - 2 - run] == '\\') ++run;
  return run % 2 == 1 ? run + 1 : 1;
}

size_t QuoteAt(std::string_view t, size_t at, char* quote) {
  if (at >= t.size()) return 0;
  size_t run = 0;
  while (at + run < t.size() && t[at + run] == '\\') ++run;
  if (run % 2 == 1 && at + run < t.size() && (t[at + run] == '"' || t[at + run] == '\'')) {
    *quote = t[at + run];
    return run + 1;
  }
  if (run == 0 && (t[at] == '"' || t[at] == '\'' || t[at] == '`')) {
    *quote = t[at];
    return 1;
  }
  return 0;
}

size_t ClosingQuote(std::string_view t, size_t from, size_t line_end, char quote, size_t qlen) {
  for (size_t i = from; i < line_end; ++i) {
    if (qlen >= 2) {
      if (t[i] == '\\') {
        size_t run = 0;
        while (i + run < line_end && t[i + run] == '\\') ++run;
        if (run == qlen - 1 && i + run < line_end && t[i + run] == quote) return i;
        // An odd run escapes the character after it, which is skipped with it; an even one
        // is backslashes only.
        i += run % 2 == 1 ? run : run - 1;
      }
      continue;
    }
    if (t[i] == '\\') {
      ++i;
      continue;
    }
    if (t[i] == quote) return i;
  }
  return line_end;
}

char ScanQuotes(std::string_view t, size_t from, size_t at, char open, size_t* stopped) {
  *stopped = std::max(from, at);
  if (open == 0x7f) return open;
  size_t i = from;
  for (; i < at; ++i) {
    const char c = t[i];
    if (c == '\\') {
      ++i;
    } else if (open) {
      if (c == open) open = 0;
    } else if (c == '"' || c == '\'' || c == '`') {
      open = c;
    } else if (c == '#' || (c == '/' && i + 1 < at && t[i + 1] == '/')) {
      return 0x7f;
    }
  }
  *stopped = std::max(i, at);
  return open;
}

char OpenQuoteBefore(std::string_view t, size_t line_start, size_t at) {
  size_t stopped;
  return ScanQuotes(t, line_start, at, 0, &stopped);
}

char QuoteState::OpenAt(std::string_view t, size_t ls, size_t at) {
  if (ls != line_start || at < pos) {
    line_start = ls;
    pos = ls;
    open = 0;
  }
  open = ScanQuotes(t, pos, at, open, &pos);
  return open == 0x7f ? 0 : open;
}

}  // namespace rr_secrets
