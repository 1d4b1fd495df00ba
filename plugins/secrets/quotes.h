// The quotes of string literals as the settings detector (assignments.cc) reads them. A quote may
// be escaped at any depth, as JSON written inside a string writes it: \" inside one string,
// \\\" inside a string inside another. An odd run of backslashes escapes the quote; an even one
// is escaped backslashes before a real quote.
#pragma once

#include <cstddef>
#include <string_view>

namespace rr_secrets {

// The quote just before position `at` (", ', `, or an escaped \" \' \\\"…): its length with its
// backslashes, 0 when none; *quote is the quote character.
size_t QuoteBefore(std::string_view t, size_t at, char* quote);

// The quote at position `at`, escaped or not: its length, 0 when none.
size_t QuoteAt(std::string_view t, size_t at, char* quote);

// The end of a quoted value opened by `quote` (of `qlen` bytes) at `from`: the position of its
// closing quote (escaped as the opening one was), or `line_end` when it does not close there.
size_t ClosingQuote(std::string_view t, size_t from, size_t line_end, char quote, size_t qlen);

// The quote of a string literal open at `at`, reading from `from` where the quote `open` (or
// none) is open: an odd count of unescaped quotes of one kind. 0x7f: a comment began.
// *stopped: where reading stopped (past `at` when an escape straddles it).
char ScanQuotes(std::string_view t, size_t from, size_t at, char open, size_t* stopped);

// The quote of a string literal open at `at` on its line, or 0 (0x7f in a comment).
char OpenQuoteBefore(std::string_view t, size_t line_start, size_t at);

// OpenQuoteBefore for the keyword occurrences of one text, in order: a line is read once
// however many occurrences it holds.
struct QuoteState {
  size_t line_start = std::string_view::npos, pos = 0;
  char open = 0;
  char OpenAt(std::string_view t, size_t ls, size_t at);
};

}  // namespace rr_secrets
