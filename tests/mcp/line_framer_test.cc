// The stdio framing (core/mcp/line_framer.h): messages split on '\n' whatever the chunking, '\r'
// before the '\n' dropped, empty lines skipped, a line past the limit reported once with its start
// and skipped to its end, and memory bounded by the limit whatever the stream.
#include "core/mcp/line_framer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rr {
namespace line_framer_test {
namespace {

struct Seen {
  std::vector<std::string> messages;
  std::vector<std::string> oversized;
};

// Feeds `stream` in chunks of `chunk` bytes, then ends it.
Seen Frame(const std::string& stream, size_t max, size_t chunk) {
  Seen seen;
  LineFramer framer(max);
  const LineFramer::OnMessage on_message = [&](const std::string& m) {
    seen.messages.push_back(m);
  };
  const LineFramer::OnOversized on_oversized = [&](const std::string& h) {
    seen.oversized.push_back(h);
  };
  for (size_t i = 0; i < stream.size(); i += chunk) {
    framer.Feed(std::string_view(stream).substr(i, chunk), on_message, on_oversized);
  }
  framer.Finish(on_message);
  return seen;
}

TEST(LineFramer, SplitsOnNewlinesWhateverTheChunking) {
  const std::string stream = "{\"a\":1}\n\n{\"b\":2}\r\n\r\n{\"c\":3}";
  for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    const Seen seen = Frame(stream, 100, chunk);
    EXPECT_EQ(seen.messages, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}))
        << "chunk " << chunk;
    EXPECT_TRUE(seen.oversized.empty());
  }
}

TEST(LineFramer, ALastLineWithoutNewlineEndsWithItsCarriageReturnDropped) {
  EXPECT_EQ(Frame("{\"a\":1}\r", 100, 3).messages, std::vector<std::string>{"{\"a\":1}"});
}

TEST(LineFramer, AnOversizedLineIsReportedOnceAndSkippedToItsEnd) {
  const std::string big = "{\"id\":7,\"method\":\"" + std::string(50, 'x') + "\"}";
  const std::string stream = "{\"a\":1}\n" + big + "\n{\"b\":2}\n" + big;
  for (size_t chunk : {size_t{1}, size_t{5}, size_t{16}, stream.size()}) {
    const Seen seen = Frame(stream, 20, chunk);
    // The last big line has no '\n': it is still refused, never handed on whole.
    EXPECT_EQ(seen.messages, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"})) << chunk;
    ASSERT_EQ(seen.oversized.size(), 2u) << chunk;
    for (const std::string& head : seen.oversized) {
      EXPECT_GT(head.size(), 20u);
      EXPECT_EQ(head, big.substr(0, head.size()));  // its start, from which the id is read
      EXPECT_LE(head.size(), 20 + chunk);           // never more than the limit and one chunk
    }
  }
}

TEST(LineFramer, ALineOfExactlyTheLimitIsAMessage) {
  const std::string line(20, 'a');
  const Seen seen = Frame(line + "\n" + line + "a\n", 20, 7);
  EXPECT_EQ(seen.messages, std::vector<std::string>{line});
  EXPECT_EQ(seen.oversized.size(), 1u);
}

TEST(LineFramer, AStreamWithNoNewlineHoldsNoMoreThanTheLimit) {
  // 4 MB of one line against a limit of 1 KB: reported once, and the framer keeps none of it.
  LineFramer framer(1024);
  size_t reported = 0;
  size_t largest_head = 0;
  const std::string chunk(64 * 1024, 'z');
  for (int i = 0; i < 64; ++i) {
    framer.Feed(
        chunk, [](const std::string&) { FAIL() << "a message from an oversized line"; },
        [&](const std::string& head) {
          ++reported;
          largest_head = std::max(largest_head, head.size());
        });
  }
  framer.Finish([](const std::string&) { FAIL() << "a message at the end"; });
  EXPECT_EQ(reported, 1u);
  EXPECT_LE(largest_head, 1024u + chunk.size());
}

}  // namespace
}  // namespace line_framer_test
}  // namespace rr
