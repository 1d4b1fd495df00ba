#include "core/util/json_writer.h"

#include <stdexcept>

#include "core/util/json_text.h"

namespace rr {

void JsonWriter::Value() {
  if (open_.empty()) {
    if (done_) throw std::logic_error("JsonWriter: a second value at the top level");
    done_ = true;
    return;
  }
  Level& l = open_.back();
  if (l.close == '}') {
    if (!l.keyed) throw std::logic_error("JsonWriter: a value in an object without its key");
    l.keyed = false;
    return;  // the comma came before the key
  }
  if (!l.empty) out_.push_back(',');
  l.empty = false;
}

JsonWriter& JsonWriter::BeginObject() {
  Value();
  out_.push_back('{');
  open_.push_back({'}'});
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  Value();
  out_.push_back('[');
  open_.push_back({']'});
  return *this;
}

JsonWriter& JsonWriter::End() {
  if (open_.empty()) throw std::logic_error("JsonWriter: End with nothing open");
  if (open_.back().keyed) throw std::logic_error("JsonWriter: End after a key with no value");
  out_.push_back(open_.back().close);
  open_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  if (open_.empty() || open_.back().close != '}') {
    throw std::logic_error("JsonWriter: a key outside an object");
  }
  Level& l = open_.back();
  if (l.keyed) throw std::logic_error("JsonWriter: two keys in a row");
  if (!l.empty) out_.push_back(',');
  l.empty = false;
  l.keyed = true;
  out_ += JsonQuote(key);
  out_.push_back(':');
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  Value();
  out_ += JsonQuote(s);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t n) {
  Value();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t n) {
  Value();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool b) {
  Value();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null() {
  Value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  if (json.empty()) throw std::logic_error("JsonWriter: an empty raw value");
  Value();
  out_ += json;
  return *this;
}

std::string JsonWriter::Take() {
  if (!open_.empty()) throw std::logic_error("JsonWriter: Take with an object or array open");
  if (!done_) throw std::logic_error("JsonWriter: Take with nothing written");
  done_ = false;
  return std::move(out_);
}

}  // namespace rr
