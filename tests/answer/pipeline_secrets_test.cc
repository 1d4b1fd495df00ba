// The answer pipeline with the secret filter in it: every piece of an answer is filtered, the
// body is seen as one text (a block across lines, a window opened inside a block), the cap
// counts what is shown, the answer ends with how many values were hidden, and an answer a
// detector failed on is withheld.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/answer/pipeline.h"
#include "core/secrets/server_log.h"
#include "core/util/text.h"

namespace rr {
namespace pipeline_secrets_test {
namespace {

using repo_reader::ScanInput;
using repo_reader::SecretDetector;
using repo_reader::SpanSink;

// Hides "tok_" + the word characters after it; and, for a file, everything between a line
// "-----BEGIN KEY-----" and "-----END KEY-----" (to the end of the text without one).
class TestDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "test"; }
  std::vector<std::string> keywords() const override { return {"tok_", "-----begin key"}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    for (size_t i = 0; i < in.hit_count; ++i) {
      const size_t at = in.hits[i].offset;
      if (in.hits[i].keyword == 0) {
        size_t end = at + 4;
        while (end < in.text.size() && (isalnum(static_cast<unsigned char>(in.text[end])))) ++end;
        if (end > at + 4) sink.Add(at, end, "test token");
      } else {
        size_t body = in.text.find('\n', at);
        if (body == std::string_view::npos) continue;
        ++body;
        size_t end = in.text.find("-----END KEY-----", body);
        if (end == std::string_view::npos)
          end = in.text.size();
        else if (end > body)
          --end;  // keep the END line's newline out
        if (end > body) sink.Add(body, end, "private key");
      }
    }
  }
};

// Throws with a message that quotes the text it was given.
class Echoer : public SecretDetector {
 public:
  const char* id() const noexcept override { return "echoer"; }
  std::vector<std::string> keywords() const override { return {"boom"}; }
  void Scan(const ScanInput& in, SpanSink&) const override {
    throw std::runtime_error("cannot read " + std::string(in.text));
  }
};

class Thrower : public SecretDetector {
 public:
  const char* id() const noexcept override { return "thrower"; }
  std::vector<std::string> keywords() const override { return {"boom"}; }
  void Scan(const ScanInput&, SpanSink&) const override { throw std::runtime_error("no"); }
};

AnswerPipeline Pipeline(size_t limit = 5000, bool thrower = false) {
  std::vector<SecretFilter::Detector> ds = {{std::make_shared<TestDetector>(), "test"}};
  if (thrower) ds.push_back({std::make_shared<Thrower>(), "test"});
  std::string error;
  auto f = SecretFilter::Make(std::move(ds), &error);
  EXPECT_TRUE(f) << error;
  return AnswerPipeline(limit, {}, f);
}

// Line `n` numbered as read_file numbers it: width 2, then two spaces.
std::string Numbered(size_t n, const std::string& line) {
  const std::string digits = std::to_string(n);
  return std::string(2 - digits.size(), ' ') + digits + "  " + line;
}

Draft FileDraft(const std::vector<std::string>& lines, size_t first = 1) {
  Draft d;
  d.header = "shop · main @ 0123456789ab (2026-03-01) · config/app.yml";
  d.ShowsFile("config/app.yml", 4);
  for (size_t i = 0; i < lines.size(); ++i) d.lines.push_back(Numbered(first + i, lines[i]));
  return d;
}

TEST(PipelineSecrets, AValueInTheBodyIsHiddenAndTheAnswerSaysHowMany) {
  const std::string out = Pipeline().Finish(FileDraft({"name: shop", "key: tok_abc123 # x"}));
  EXPECT_EQ(out,
            "shop · main @ 0123456789ab (2026-03-01) · config/app.yml\n"
            " 1  name: shop\n"
            " 2  key: [hidden: test token] # x\n" +
                HiddenNote(1));
}

TEST(PipelineSecrets, AnAnswerWithNothingToHideIsUnchanged) {
  EXPECT_EQ(Pipeline().Finish(FileDraft({"a", "b"})),
            "shop · main @ 0123456789ab (2026-03-01) · config/app.yml\n 1  a\n 2  b");
}

TEST(PipelineSecrets, HeaderClosingAndErrorsAreFilteredToo) {
  Draft d = FileDraft({"plain"});
  d.header = "shop · tok_inheader";
  d.closing = {"see tok_inclosing"};
  const std::string out = Pipeline().Finish(d);
  EXPECT_EQ(out.find("tok_in"), std::string::npos) << out;
  EXPECT_NE(out.find(HiddenNote(2)), std::string::npos) << out;
  const std::string err = Pipeline().FinishError("no such file `tok_abc`");
  EXPECT_EQ(err, "no such file `[hidden: test token]`\n" + HiddenNote(1));
}

TEST(PipelineSecrets, TheLineNumberColumnIsNotPartOfTheText) {
  // A detector that reads the text from the line's start: "-----BEGIN KEY-----" is at the start
  // of a line's own text, after the number column.
  const std::string out = Pipeline().Finish(
      FileDraft({"-----BEGIN KEY-----", "AAAA", "BBBB", "-----END KEY-----", "after"}));
  EXPECT_EQ(out.find("AAAA"), std::string::npos) << out;
  EXPECT_EQ(out.find("BBBB"), std::string::npos) << out;
  EXPECT_NE(out.find(" 1  -----BEGIN KEY-----\n 2  [hidden: private key]\n"
                     " 3  [hidden: private key]\n 4  -----END KEY-----\n 5  after"),
            std::string::npos)
      << out;
  // A block across lines is one value.
  EXPECT_NE(out.find(HiddenNote(1)), std::string::npos) << out;
}

// A block's source holding only what comes before it in the file.
BlockSource SourceBefore(const std::string& before) {
  BlockSource s;
  s.text = std::make_shared<const std::string>(before);
  s.begin = s.end = before.size();
  return s;
}

TEST(PipelineSecrets, AWindowOpenedInsideABlockIsHiddenFromItsFirstLine) {
  // read_file from line 3 of a file whose block began on line 1.
  Draft d = FileDraft({"CCCC", "-----END KEY-----", "after"}, 3);
  d.AddBlock(0, d.lines.size(), SourceBefore("-----BEGIN KEY-----\nAAAA\n"));
  const std::string out = Pipeline().Finish(d);
  EXPECT_EQ(out.find("CCCC"), std::string::npos) << out;
  EXPECT_EQ(out.find("AAAA"), std::string::npos) << out;  // the source is never shown
  EXPECT_NE(out.find(" 3  [hidden: private key]\n 4  -----END KEY-----"), std::string::npos) << out;
  // Without its source the window would have been shown as it is: the source is what hides it.
  Draft bare = FileDraft({"CCCC", "-----END KEY-----", "after"}, 3);
  EXPECT_NE(Pipeline().Finish(bare).find("CCCC"), std::string::npos);
}

TEST(PipelineSecrets, ABlockClosedBeforeTheWindowDoesNotHideIt) {
  Draft d = FileDraft({"plain text", "more"}, 5);
  d.AddBlock(0, d.lines.size(), SourceBefore("-----BEGIN KEY-----\nAAAA\n-----END KEY-----\n"));
  const std::string out = Pipeline().Finish(d);
  EXPECT_NE(out.find("plain text"), std::string::npos) << out;
  EXPECT_EQ(out.find("hidden"), std::string::npos) << out;
}

// blame's layout: a commit line before each group of a file's lines. Each commit line is read
// on its own, and the file's lines around it as one text: a block whose lines came in different
// commits is one value, and the commit line between them is not part of it.
TEST(PipelineSecrets, AsideLinesAreReadOnTheirOwnAndTheFileAroundThemAsOneText) {
  Draft d = FileDraft({});
  d.AddOwnLine("0123456789ab Ada Lovelace — Add the key");
  d.lines.push_back(Numbered(1, "-----BEGIN KEY-----"));
  d.lines.push_back(Numbered(2, "AAAA"));
  d.AddOwnLine("80f39763c22b Grace Hopper — Rotate the key tok_insubject");
  d.lines.push_back(Numbered(3, "BBBB"));
  d.lines.push_back(Numbered(4, "-----END KEY-----"));
  const std::string out = Pipeline().Finish(d);
  EXPECT_EQ(out,
            "shop · main @ 0123456789ab (2026-03-01) · config/app.yml\n"
            "0123456789ab Ada Lovelace — Add the key\n"
            " 1  -----BEGIN KEY-----\n"
            " 2  [hidden: private key]\n"
            "80f39763c22b Grace Hopper — Rotate the key [hidden: test token]\n"
            " 3  [hidden: private key]\n"
            " 4  -----END KEY-----\n" +
                HiddenNote(2));
}

TEST(PipelineSecrets, AWindowEndingInsideABlockHidesItToTheEnd) {
  const std::string out =
      Pipeline().Finish(FileDraft({"x", "-----BEGIN KEY-----", "AAAA", "BBBB"}));
  EXPECT_EQ(out.find("AAAA"), std::string::npos) << out;
  EXPECT_EQ(out.find("BBBB"), std::string::npos) << out;
}

TEST(PipelineSecrets, TheCapCountsWhatIsShownAndOnlyShownValuesAreCounted) {
  std::vector<std::string> lines;
  for (int i = 0; i < 2000; ++i)
    lines.push_back("v" + std::to_string(i) + ": tok_" + std::to_string(i) + "x");
  Draft d;
  d.header = "header";
  d.lines = lines;
  d.ShowsFile("", 0);
  const std::string out = Pipeline(5000).Finish(d);
  EXPECT_LE(CodePoints(out), 5000u);
  size_t shown = 0;
  for (size_t at = out.find("[hidden: test token]"); at != std::string::npos;
       at = out.find("[hidden: test token]", at + 1)) {
    ++shown;
  }
  ASSERT_GT(shown, 10u);
  EXPECT_NE(out.find(HiddenNote(shown)), std::string::npos) << out.substr(out.size() - 300);
  EXPECT_EQ(out.find("tok_"), std::string::npos);
}

TEST(PipelineSecrets, AnswerADetectorFailedOnIsWithheldNotShown) {
  AnswerPipeline p = Pipeline(5000, /*thrower=*/true);
  const std::string out = p.Finish(FileDraft({"boom", "tok_visible-if-unfiltered plain"}));
  EXPECT_EQ(out.find("plain"), std::string::npos) << out;
  EXPECT_NE(out.find("withheld"), std::string::npos) << out;
  const std::string err = p.FinishError("boom: plain");
  EXPECT_EQ(err.find("plain"), std::string::npos) << err;
  EXPECT_NE(err.find("withheld"), std::string::npos) << err;
}

TEST(PipelineSecrets, ANumberColumnHoldingTextIsScannedAsText) {
  // Only digits, spaces, ':' and '-' make a number column; anything else is part of the text.
  Draft d = FileDraft({"plain"});
  d.lines.push_back("tok_inlinehead");
  const std::string out = Pipeline().Finish(d);
  EXPECT_EQ(out.find("tok_inlinehead"), std::string::npos) << out;
}

TEST(PipelineSecrets, ALogLineTheFilterFailsOnIsLeftOutWithoutWhatTheDetectorSaid) {
  std::string error;
  auto f = SecretFilter::Make({{std::make_shared<Echoer>(), "test"}}, &error);
  ASSERT_TRUE(f) << error;
  SetLogFilter(f);
  ::testing::internal::CaptureStderr();
  LogLine("boom with tok_quoted_by_the_exception");
  // The withheld answer's own log line names the failure, which quotes the text again.
  const std::string out = AnswerPipeline(5000, {}, f).FinishError("boom tok_in_an_error");
  const std::string log = ::testing::internal::GetCapturedStderr();
  SetLogFilter(nullptr);
  EXPECT_EQ(log.find("tok_"), std::string::npos) << log;
  EXPECT_NE(log.find("left out"), std::string::npos) << log;
  EXPECT_NE(log.find("echoer"), std::string::npos) << log;
  EXPECT_EQ(out.find("tok_"), std::string::npos) << out;
}

}  // namespace
}  // namespace pipeline_secrets_test
}  // namespace rr
