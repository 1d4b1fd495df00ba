// Secrets in what show_commit and diff show: the diff is read by the secret filter as a diff
// (Draft::ShowsDiff), so a value is hidden in an added or removed line as it would be in the
// file itself — the format of the file named by the section's header included.
#include <gtest/gtest.h>

#include <string>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace changes_secrets_test {
namespace {

TEST(ChangesSecrets, ValuesInAddedAndRemovedLinesAreHidden) {
  const std::string token = "ghp_" + Chars(36, kBase62, 7);
  const std::string old_token = "ghp_" + Chars(36, kBase62, 8);
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("config/app.yml", "db:\n  user: app\ngithub_token: " + old_token + "\n");
  r.Commit("First");
  // A letters-only password is a secret in a YAML file; only the diff's header says the lines
  // come from one.
  r.Write("config/app.yml",
          "db:\n  user: app\n  password: correcthorsebattery\ngithub_token: " + token + "\n");
  r.Commit("Rotate the token " + token);
  ToolHarness h({Served("shop", r.path())});
  const std::vector<std::string> answers = {
      h.Call("show_commit", R"({"repo":"shop","commit":"main"})").text,
      h.Call("diff", R"({"repo":"shop","base":"main~1","head":"main"})").text,
      h.Call("show_commit", R"({"repo":"shop","commit":"main","path":"config/app.yml"})").text};
  for (const auto& a : answers) {
    EXPECT_TRUE(HasNot(a, token));
    EXPECT_TRUE(HasNot(a, old_token));
    EXPECT_TRUE(HasNot(a, "correcthorsebattery"));
    EXPECT_TRUE(Has(a, "\n+github_token: [hidden: GitHub token]\n"));
    EXPECT_TRUE(Has(a, "\n-github_token: [hidden: GitHub token]\n"));
    EXPECT_TRUE(Has(a, "\n+  password: [hidden: password]\n"));
    EXPECT_TRUE(Has(a, "values that look like secrets are hidden"));
  }
  EXPECT_TRUE(Has(answers[0], "    Rotate the token [hidden: GitHub token]\n"));
}

}  // namespace
}  // namespace changes_secrets_test
}  // namespace rr::testing
