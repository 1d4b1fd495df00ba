// acme-tokens' own tests: the built plugin loaded as the server loads it (repo_reader/testkit.h),
// run on sample texts, with its spans checked.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>

namespace {

using repo_reader::TextKind;
using repo_reader::testkit::LoadedPlugin;
using repo_reader::testkit::Scanned;

// Tokens with valid checksums, made for these tests.
constexpr const char* kLive = "acme_live_Ky9Pf34qY6Nb3wWD25RQ4F5ZR3qasWKa";
constexpr const char* kLive2 = "acme_live_7yEeeby3abP3E2Zs8IQ9Y7aJZqhBwnib";
constexpr const char* kTest = "acme_test_6baeCN6Zj4a3dDVhYRnKTbxTNJFos5kZ";

const LoadedPlugin& Plugin() {
  static const LoadedPlugin plugin(ACME_TOKENS_PLUGIN);
  return plugin;
}

std::string Hidden(const std::string& before, const std::string& after) {
  return before + "[hidden: Acme token]" + after;
}

TEST(AcmeTokens, LoadsAsTheServerLoadsIt) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  EXPECT_STREQ(Plugin().entry()->name, "acme-tokens");
  EXPECT_EQ(Plugin().entry()->abi_version, repo_reader::kAbiVersion);
  EXPECT_EQ(Plugin().detector_ids(), std::vector<std::string>{"acme-token"});
}

TEST(AcmeTokens, HidesALiveTokenAndNothingAroundIt) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  const std::string text = std::string("api_token: \"") + kLive + "\"\n";
  const Scanned s = Plugin().Scan(text, TextKind::kFile, "config/app.yml");
  ASSERT_TRUE(s.error.empty()) << s.error;
  ASSERT_EQ(s.spans.size(), 1u);
  EXPECT_EQ(s.spans[0].begin, text.find(kLive));
  EXPECT_EQ(s.spans[0].end, text.find(kLive) + std::string(kLive).size());
  EXPECT_EQ(s.spans[0].what, "Acme token");
  EXPECT_EQ(s.redacted, Hidden("api_token: \"", "\"\n"));
}

TEST(AcmeTokens, HidesTokensWhereverTheyStand) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  const std::string live = kLive, live2 = kLive2;
  struct Case {
    std::string text, path, redacted;
    TextKind kind;
  } cases[] = {
      {"ACME_TOKEN=" + live, ".env.example", Hidden("ACME_TOKEN=", ""), TextKind::kFile},
      {"{\"token\":\"" + live + "\"}", "a.json", Hidden("{\"token\":\"", "\"}"), TextKind::kFile},
      {"curl https://api.acme.test/v1?key=" + live + "&x=1", "",
       Hidden("curl "
              "https://api.acme.test/v1?key=",
              "&x=1"),
       TextKind::kOther},
      {"-old: " + live + "\r\n+new: " + live2 + "\r\n", "",
       "-old: " + Hidden("", "\r\n") + "+new: " + Hidden("", "\r\n"), TextKind::kDiff},
      {"Rotate " + live + ".", "", Hidden("Rotate ", "."), TextKind::kCommitMessage},
      {"notes/" + live + ".txt", "", Hidden("notes/", ".txt"), TextKind::kPath},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const Scanned s = Plugin().Scan(c.text, c.kind, c.path);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.redacted, c.redacted);
  }
}

TEST(AcmeTokens, HidesTestTokensUnlessTheOperatorSaysShow) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  EXPECT_TRUE(Plugin().Hides(std::string("key = ") + kTest, kTest));

  const LoadedPlugin showing(ACME_TOKENS_PLUGIN, {{"test_tokens", "show"}});
  ASSERT_TRUE(showing.ok()) << showing.error();
  EXPECT_EQ(showing.Scan(std::string("key = ") + kTest).redacted, std::string("key = ") + kTest);
  EXPECT_FALSE(showing.Hides(std::string("key = ") + kLive, kTest));
  EXPECT_TRUE(showing.Hides(std::string("key = ") + kLive, kLive));
}

TEST(AcmeTokens, KeepsATokenWhoseChecksumIsWrong) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  std::string wrong = kLive;
  wrong.back() = wrong.back() == 'a' ? 'b' : 'a';
  const std::string text = "token: " + wrong + "\n";
  const Scanned s = Plugin().Scan(text);
  ASSERT_TRUE(s.error.empty()) << s.error;
  EXPECT_TRUE(s.spans.empty());
  EXPECT_EQ(s.redacted, text);
}

TEST(AcmeTokens, KeepsPlaceholdersAndLookalikes) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  const std::string live = kLive;
  for (const std::string& text : {
           std::string("token: acme_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
           std::string("token: acme_live_<your-token>"),
           std::string("token: acme_live_${ACME_TOKEN}"),
           std::string("token: acme_"),
           std::string("acme_live_"),
           "token: ACME_LIVE_" + live.substr(10),  // the prefix is lowercase
           "token: " + live + "0",                 // runs on: not a token
           "token: x" + live,                      // starts inside a word
           "token: " + live.substr(0, live.size() - 1),
       }) {
    SCOPED_TRACE(text);
    const Scanned s = Plugin().Scan(text);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.redacted, text);
  }
}

TEST(AcmeTokens, RefusesSettingsItDoesNotKnow) {
  const LoadedPlugin typo(ACME_TOKENS_PLUGIN, {{"test_token", "show"}});
  EXPECT_FALSE(typo.ok());
  EXPECT_NE(typo.error().find("unknown setting `test_token`"), std::string::npos) << typo.error();

  const LoadedPlugin bad_value(ACME_TOKENS_PLUGIN, {{"test_tokens", "maybe"}});
  EXPECT_FALSE(bad_value.ok());
  EXPECT_NE(bad_value.error().find("`hide` or `show`"), std::string::npos) << bad_value.error();
}

}  // namespace
