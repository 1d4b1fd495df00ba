#include "core/answer/pipeline.h"

#include <gtest/gtest.h>

#include "core/util/text.h"

namespace rr {
namespace pipeline_test {
namespace {

Draft Numbered(size_t n) {
  Draft d;
  d.header = "shop · main @ 0123456789ab (2026-03-01)";
  for (size_t i = 1; i <= n; ++i) d.lines.push_back("line " + std::to_string(i));
  return d;
}

TEST(AnswerPipeline, ShortAnswerIsWhole) {
  AnswerPipeline p(5000);
  EXPECT_EQ(p.Finish(Numbered(2)), "shop · main @ 0123456789ab (2026-03-01)\nline 1\nline 2");
}

TEST(AnswerPipeline, LongAnswerIsCutAtTheLimitWithANoteSayingHowToContinue) {
  AnswerPipeline p(5000);
  Draft d = Numbered(5000);
  d.cut_note = [](const std::vector<std::string>& lines, size_t first) {
    return "[continue from " + lines[first] + "]";
  };
  const std::string out = p.Finish(d);
  EXPECT_LE(CodePoints(out), 5000u);
  const size_t note = out.rfind("\n[continue from line ");
  ASSERT_NE(note, std::string::npos) << out.substr(out.size() - 200);
  // The line named in the note is the first one not shown.
  const std::string next = out.substr(note + 21, out.size() - note - 22);
  EXPECT_EQ(out.find("\nline " + next + "\n"), std::string::npos);
  EXPECT_NE(out.find("\nline " + std::to_string(std::stoi(next) - 1) + "\n"), std::string::npos);
}

TEST(AnswerPipeline, HeaderCanDependOnHowManyLinesFit) {
  AnswerPipeline p(5000);
  Draft d = Numbered(3000);
  d.header_for = [](size_t shown) { return "shown " + std::to_string(shown); };
  const std::string out = p.Finish(d);
  const size_t shown = std::stoul(out.substr(6, out.find('\n') - 6));
  EXPECT_GT(shown, 100u);
  EXPECT_LT(shown, 3000u);
  EXPECT_NE(out.find("\nline " + std::to_string(shown) + "\n"), std::string::npos);
  EXPECT_EQ(out.find("\nline " + std::to_string(shown + 1) + "\n"), std::string::npos);
}

TEST(AnswerPipeline, CapCountsCharactersNotBytes) {
  AnswerPipeline p(5000);
  Draft d;
  d.header = "h";
  for (int i = 0; i < 3000; ++i) d.lines.push_back("ééé");  // 3 characters, 6 bytes
  const std::string out = p.Finish(d);
  EXPECT_LE(CodePoints(out), 5000u);
  EXPECT_GT(CodePoints(out), 4500u);
}

// The seam the secret filter plugs into: every answer and every error passes through the
// output filters, last.
class Marker : public OutputFilter {
 public:
  std::string Apply(std::string text) const override {
    size_t at;
    while ((at = text.find("SECRET")) != std::string::npos) text.replace(at, 6, "[hidden]");
    return text + "\n[filtered]";
  }
};

TEST(AnswerPipeline, OutputFiltersSeeAnswersAndErrorsLast) {
  AnswerPipeline p(5000, {std::make_shared<Marker>()});
  Draft d;
  d.header = "h";
  d.lines = {"SECRET value"};
  EXPECT_EQ(p.Finish(d), "h\n[hidden] value\n[filtered]");
  EXPECT_EQ(p.FinishError("no SECRET here"), "no [hidden] here\n[filtered]");
}

}  // namespace
}  // namespace pipeline_test
}  // namespace rr
