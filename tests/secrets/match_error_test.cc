// A pattern of the built-in plugin whose match PCRE2 cannot decide (its JIT stack or match
// limit runs out) is a failure of the detector, never "no secret": the filter names the
// detector and its plugin, and the text is withheld. The test plugin `match-error`
// (tests/plugins/match_error.cc) is built on the built-in plugin's own Detector and Pattern.
#include <gtest/gtest.h>

#include <string>

#include "core/plugins/loader.h"
#include "core/secrets/secret_filter.h"

namespace rr {
namespace match_error_test {
namespace {

std::shared_ptr<const SecretFilter> MatchErrorFilter() {
  PluginsConfig config;
  config.builtin_detectors = false;
  PluginSpec spec;
  spec.path = std::string(RR_TEST_PLUGIN_DIR) + "/match-error.so";
  config.plugins.push_back(spec);
  auto loaded = LoadPlugins(config);
  EXPECT_TRUE(loaded) << loaded.error();
  return loaded ? loaded->secrets : nullptr;
}

TEST(SecretPatternMatchError, IsADetectorFailureAndTheTextIsWithheld) {
  const auto filter = MatchErrorFilter();
  ASSERT_TRUE(filter);
  // A short text: the pattern matches, and hides its keyword.
  const ScanResult small = filter->Scan("stack-probe ab\n", TextKind::kFile, "notes.txt");
  ASSERT_TRUE(small.ok()) << small.failure;
  ASSERT_EQ(small.spans.size(), 1u);

  // A long one: PCRE2 answers an error, not "no match".
  std::string text = "token: stack-probe ";
  for (int i = 0; i < 150000; ++i) text += "ba";
  text += "\n";
  const ScanResult r = filter->Scan(text, TextKind::kFile, "notes.txt");
  EXPECT_FALSE(r.ok()) << "a match PCRE2 could not decide was taken for \"no secret\"";
  EXPECT_EQ(r.failed_by, "secret detector `stack-hungry` of plugin `match-error`");
  EXPECT_NE(r.failure.find("threw: a pattern could not be matched (PCRE2 error -46"),
            std::string::npos)
      << r.failure;
  EXPECT_EQ(r.failure.find("baba"), std::string::npos) << "the failure quotes the text";
}

}  // namespace
}  // namespace match_error_test
}  // namespace rr
