// A small streaming JSON writer for the results we build: compact text (no spaces, as every
// answer has always been written), commas and closing brackets placed by the writer, every
// string through JsonQuote (core/util/json_text.h), so valid JSON in valid UTF-8 whatever bytes
// a string held. Keys are written in the order given.
//
//   JsonWriter w;
//   w.BeginObject().Field("uri", uri).Key("resources").BeginArray();
//   for (...) w.BeginObject().Field("size", n).End();
//   w.End().End();
//   std::string json = w.Take();
//
// Misuse (a value where a key is due, a key outside an object, End with nothing open, Take with
// something open) is a mistake in our code, not in input: it throws std::logic_error, which the
// server answers as an internal error, so it can never send broken JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rr {

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& BeginArray();
  // Closes the innermost open object or array.
  JsonWriter& End();
  // The next member's name (inside an object only).
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view s);
  JsonWriter& Int(int64_t n);
  JsonWriter& Uint(uint64_t n);
  JsonWriter& Bool(bool b);
  JsonWriter& Null();
  // A value already written as JSON text (an object another function built): written as given.
  JsonWriter& Raw(std::string_view json);

  // A member: Key(key) then the value.
  JsonWriter& Field(std::string_view key, std::string_view s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, const char* s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, const std::string& s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, bool b) { return Key(key).Bool(b); }
  template <class N, class = std::enable_if_t<std::is_integral_v<N> && !std::is_same_v<N, bool>>>
  JsonWriter& Field(std::string_view key, N n) {
    Key(key);
    if constexpr (std::is_signed_v<N>) return Int(static_cast<int64_t>(n));
    return Uint(static_cast<uint64_t>(n));
  }

  // The text written; everything opened must have been closed.
  std::string Take();
  // How many bytes are written so far (for callers that keep within a size).
  size_t size() const { return out_.size(); }

 private:
  struct Level {
    char close;          // '}' or ']'
    bool empty = true;   // nothing written in it yet
    bool keyed = false;  // an object whose key was just written: its value is due
  };
  // Before any value: the comma, and the checks that a value may come here.
  void Value();

  std::string out_;
  std::vector<Level> open_;
  bool done_ = false;  // a whole top-level value is written
};

}  // namespace rr
