// Writing JSON text. Our own writer, not Poco's Stringifier: every string we send must come out
// as valid JSON whatever bytes it held (Poco 1.11 writes \a and \v escapes JSON does not have
// unless told otherwise), and answers of 40,000 characters are written on every call.
// Reading: Poco's parser wraps an integer literal past 64 bits silently (18446744073709551617
// reads as 1); HugeIntegersAsDecimals turns such literals into decimals first, so they read as
// the large non-integer numbers they are and are refused where an integer is expected.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rr {

// `s` as a JSON string literal, quotes included. Control characters are escaped; bytes that
// are not valid UTF-8 become U+FFFD, so the output is always valid JSON in valid UTF-8.
std::string JsonQuote(std::string_view s);

// `json` with every integer literal outside [-2^63, 2^64) written as a decimal ("…7.0"), or
// nothing when it has none (the common case: no copy). Strings are left alone; text that is not
// JSON is scanned as far as it goes and left for the parser to refuse.
std::optional<std::string> HugeIntegersAsDecimals(std::string_view json);

// How much of a message LeadingRequestId reads.
inline constexpr size_t kRequestIdScanBytes = 64 * 1024;

// The id of a JSON-RPC request read from the start of its text alone, for a message too large
// to parse whole: the first kRequestIdScanBytes of `text` are scanned, once and without
// recursion, for a member "id" of the top-level object (never one of a nested object, nor text
// inside a string) whose value is a string or an integer of at most 18 digits. Returns it as
// the server writes ids (JsonQuote of the string, the integer's digits), or "" when there is no
// such member in that much of the text, or the text is not JSON as far as it goes.
std::string LeadingRequestId(std::string_view text);

}  // namespace rr
