// Writing JSON text. Our own writer, not Poco's Stringifier: every string we send must come out
// as valid JSON whatever bytes it held (Poco 1.11 writes \a and \v escapes JSON does not have
// unless told otherwise), and answers of 40,000 characters are written on every call.
#pragma once

#include <string>
#include <string_view>

namespace rr {

// `s` as a JSON string literal, quotes included. Control characters are escaped; bytes that
// are not valid UTF-8 become U+FFFD, so the output is always valid JSON in valid UTF-8.
std::string JsonQuote(std::string_view s);

}  // namespace rr
