// LeadingRequestId: the id of a request too large to parse, read from its first bytes. Only a
// member "id" of the top-level object counts, and only a string or an integer -- never an "id"
// inside a nested object, an array or a string, and nothing past the bytes it reads.
#include <gtest/gtest.h>

#include <string>

#include "core/mcp/server.h"
#include "core/util/json_text.h"

namespace rr::testing {
namespace leading_request_id_test {
namespace {

TEST(LeadingRequestId, ReadsATopLevelIntegerOrStringAsTheServerWritesIds) {
  EXPECT_EQ(LeadingRequestId(R"({"jsonrpc":"2.0","id":7,"method":"ping"})"), "7");
  EXPECT_EQ(LeadingRequestId(R"(  { "id" : -12 , "method":"ping"})"), "-12");
  EXPECT_EQ(LeadingRequestId(R"({"id":"call-1","params":{"pad":"xxxx)"), "\"call-1\"");
  EXPECT_EQ(LeadingRequestId(R"({"id":"a\"b\u00e9\ud83d\ude00\n","x":1})"),
            JsonQuote("a\"b\xC3\xA9\xF0\x9F\x98\x80\n"));
  // After members of every kind, nested ones included.
  EXPECT_EQ(LeadingRequestId(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"x",)"
                             R"("arguments":{"id":99,"list":[{"id":98},[],{}],"s":"\"id\":97"}},)"
                             R"("t":true,"n":null,"f":-1.5e3,"id":5,"more":"xx)"),
            "5");
}

TEST(LeadingRequestId, AnythingElseIsNoId) {
  for (const char* text : {
           R"({"method":"ping","params":{"id":3}})",           // nested only
           R"({"method":"ping","params":{"id":3,"pad":"xxx)",  // nested, message cut
           R"({"params":["id",4],"method":"ping"})",           // in an array
           R"({"method":"\"id\":5"})",                         // inside a string
           R"({"id":1.5,"method":"ping"})",                    // not an integer
           R"({"id":1e3,"method":"ping"})",
           R"({"id":01,"method":"ping"})",                   // not JSON
           R"({"id":1234567890123456789,"method":"ping"})",  // past 18 digits
           R"({"id":null,"method":"ping"})",
           R"({"id":true,"method":"ping"})",
           R"({"id":{"a":1},"method":"ping"})",
           R"({"id":"unclosed)",  // the string goes on past the head
           R"({"id":12)",         // the number may go on
           R"({"id":"bad \x escape"})",
           R"({"id":"\ud83d alone"})",
           R"(["id",1])",
           R"(x{"id":1})",
           R"({"a" "id":1})",
           "",
       }) {
    EXPECT_EQ(LeadingRequestId(text), "") << text;
  }
  // An id past the bytes read is not looked for.
  const std::string far = "{\"pad\":\"" + std::string(kRequestIdScanBytes, 'x') + "\",\"id\":6}";
  EXPECT_EQ(LeadingRequestId(far), "");
  // Deep nesting costs no stack: it is counted, not recursed into.
  const std::string deep =
      "{\"p\":" + std::string(30000, '[') + std::string(30000, ']') + ",\"id\":8}";
  EXPECT_EQ(LeadingRequestId(deep), "8");
}

TEST(LeadingRequestId, TheOversizedErrorCarriesIt) {
  const std::string head = R"({"jsonrpc":"2.0","id":"big","method":"tools/call","params":{)";
  const std::string e = McpServer::OversizedMessageError(8u << 20, head);
  EXPECT_EQ(e.rfind(R"({"jsonrpc":"2.0","id":"big","error":{"code":-32600,)", 0), 0u) << e;
  EXPECT_NE(e.find("larger than 8,388,608 bytes"), std::string::npos) << e;
  EXPECT_EQ(McpServer::OversizedMessageError(8u << 20).rfind(R"({"jsonrpc":"2.0","id":null,)", 0),
            0u);
}

}  // namespace
}  // namespace leading_request_id_test
}  // namespace rr::testing
