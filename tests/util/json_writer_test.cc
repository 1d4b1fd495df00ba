#include "core/util/json_writer.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace rr {
namespace json_writer_test {
namespace {

Poco::JSON::Object::Ptr Parse(const std::string& text) {
  Poco::JSON::Parser p;
  return p.parse(text).extract<Poco::JSON::Object::Ptr>();
}

TEST(JsonWriter, CommasAndBracketsWhereJsonNeedsThem) {
  JsonWriter w;
  w.BeginObject()
      .Field("name", "a")
      .Field("n", 3)
      .Field("big", std::numeric_limits<uint64_t>::max())
      .Field("neg", int64_t{-7})
      .Field("yes", true)
      .Key("none")
      .Null()
      .Key("list")
      .BeginArray();
  for (int i = 0; i < 3; ++i) w.BeginObject().Field("i", i).End();
  w.BeginArray().End().Raw("{\"pre\":1}").End().Key("empty").BeginObject().End().End();
  EXPECT_EQ(w.Take(),
            "{\"name\":\"a\",\"n\":3,\"big\":18446744073709551615,\"neg\":-7,\"yes\":true,"
            "\"none\":null,\"list\":[{\"i\":0},{\"i\":1},{\"i\":2},[],{\"pre\":1}],\"empty\":{}}");
}

TEST(JsonWriter, AnyBytesInKeysAndStringsComeOutAsValidJson) {
  const std::string nasty = std::string("q\"b\\s\n\t\x01\x7f", 10) + "\xff\xfe" + "é\"}";
  JsonWriter w;
  w.BeginObject().Field(nasty, nasty).End();
  const std::string text = w.Take();
  auto obj = Parse(text);  // throws if the text is not JSON
  ASSERT_EQ(obj->size(), 1u);
  const std::string value = obj->begin()->second.extract<std::string>();
  EXPECT_EQ(value.substr(0, 10), nasty.substr(0, 10));
  EXPECT_NE(value.find("\xEF\xBF\xBD"), std::string::npos) << "invalid UTF-8 becomes U+FFFD";
}

TEST(JsonWriter, MisuseThrowsInsteadOfWritingBrokenJson) {
  {
    JsonWriter w;
    w.BeginObject();
    EXPECT_THROW(w.String("value without key"), std::logic_error);
  }
  {
    JsonWriter w;
    w.BeginArray();
    EXPECT_THROW(w.Key("k"), std::logic_error);
  }
  {
    JsonWriter w;
    w.BeginObject().Key("k");
    EXPECT_THROW(w.Key("k2"), std::logic_error);
    EXPECT_THROW(w.End(), std::logic_error);
  }
  {
    JsonWriter w;
    EXPECT_THROW(w.End(), std::logic_error);
    EXPECT_THROW(w.Take(), std::logic_error);
    w.BeginObject();
    EXPECT_THROW(w.Take(), std::logic_error);
    w.End();
    EXPECT_THROW(w.Int(1), std::logic_error) << "a second top-level value";
    EXPECT_EQ(w.Take(), "{}");
  }
  {
    JsonWriter w;
    w.BeginArray();
    EXPECT_THROW(w.Raw(""), std::logic_error);
  }
}

}  // namespace
}  // namespace json_writer_test
}  // namespace rr
