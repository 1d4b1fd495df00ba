// The last-resort detectors of problem lines (core/secrets/problem_filter.h): what the core
// hides in a line it writes before any plugin's detectors are loaded.
#include "core/secrets/problem_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace rr {
namespace problem_filter_test {
namespace {

std::string Shown(const std::string& line) {
  std::string error;
  auto filter = SecretFilter::Make(LastResortDetectors(), &error);
  EXPECT_TRUE(filter) << error;
  const ScanResult r = filter->Scan(line, TextKind::kOther);
  EXPECT_TRUE(r.ok()) << r.failure;
  return SecretFilter::Redact(line, r.spans);
}

TEST(LastResortDetectors, HideAUrlsPasswordAndATokensShape) {
  EXPECT_EQ(Shown("plugin `/opt/postgres://admin:hunter@db/x.so`: does not exist"),
            "plugin `/opt/postgres://admin:[hidden: password]@db/x.so`: does not exist");
  EXPECT_EQ(Shown("unexpected argument `ghp_0123456789abcdefABCDEF0123456789abcd`"),
            "unexpected argument `[hidden: token]`");
}

TEST(LastResortDetectors, KeepWhatAProblemLineNeedsToBeUnderstood) {
  for (const std::string line :
       {"/etc/repo-reader.yaml:8:5: plugin `acme-tokens`: /usr/local/lib/repo-reader/plugins/"
        "acme-tokens.so does not exist",
        "https://github.com/acme/shop.git: the built-in host plugin is not installed",
        "the environment variable REPO_READER_TOKEN (http token_env) is not set"}) {
    EXPECT_EQ(Shown(line), line);
  }
}

}  // namespace
}  // namespace problem_filter_test
}  // namespace rr
