// The built-in detectors at work through the real tools, as an agent meets them: files of a
// committed repository read with read_file (and a window of one), names in listings, and error
// messages — each value hidden, the answer saying how many, and what an agent needs kept.
// The values are generated in the test from the providers' documented shapes; none is real.
#include <gtest/gtest.h>

#include <random>

#include "core/secrets/secret_filter.h"
#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace read_file_secrets_test {
namespace {

struct Case {
  std::string path;
  std::string content;
  std::string secret;  // must not appear in the answer
  std::string label;   // the answer shows [hidden: <label>…
};

std::vector<Case> Positives() {
  const std::string aws_id = "AKIA" + Chars(16, kUpperDigits, 1);
  const std::string aws_secret = Chars(40, kBase62 + "+/", 2);
  const std::string ghp = "ghp_" + Chars(36, kBase62, 3);
  const std::string glpat = "glpat-" + Chars(20, kBase62 + "-_", 4);
  const std::string slack = "xoxb-" + Chars(12, "0123456789", 5) + "-" +
                            Chars(12, "0123456789", 6) + "-" + Chars(24, kBase62, 7);
  const std::string stripe = "sk_live_" + Chars(24, kBase62, 8);
  const std::string google = "AIza" + Chars(35, kBase62 + "-_", 9);
  const std::string openai =
      "sk-proj-" + Chars(48, kBase62, 10) + "T3BlbkFJ" + Chars(48, kBase62, 11);
  const std::string anthropic = "sk-ant-api03-" + Chars(93, kBase62 + "-_", 12) + "AA";
  const std::string npm = "npm_" + Chars(36, kBase62, 13);
  const std::string telegram =
      "5" + Chars(9, "0123456789", 14) + ":AA" + Chars(33, kBase62 + "-_", 15);
  const std::string jwt =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ." +
      Chars(43, kBase62 + "-_", 16);
  const std::string sendgrid =
      "SG." + Chars(22, kBase62 + "-_", 17) + "." + Chars(43, kBase62 + "-_", 18);
  const std::string hf = "hf_" + Chars(34, kBase62, 19);
  const std::string dop = "dop_v1_" + Chars(64, kHex, 20);
  const std::string pw = "Tr0ub4dor-" + Chars(8, kBase62, 21);
  const std::string key_body1 = Chars(64, kBase62 + "+/", 22);
  const std::string key_body2 = Chars(64, kBase62 + "+/", 23);
  return {
      {"deploy/aws.ini", "[default]\naws_access_key_id = " + aws_id + "\n", aws_id, "AWS"},
      {"deploy/aws2.ini", "[default]\naws_secret_access_key = " + aws_secret + "\n", aws_secret,
       ""},
      {"config/settings.yml", "github_token: \"" + ghp + "\"\n", ghp, "GitHub"},
      {"ci/gitlab.sh",
       "curl --header \"PRIVATE-TOKEN: " + glpat + "\" https://gitlab.example.com\n", glpat, ""},
      {"bot/slack.json", "{\"slack\": {\"bot\": \"" + slack + "\"}}\n", slack, "Slack"},
      {"billing/stripe.py", "stripe.api_key = \"" + stripe + "\"\n", stripe, ""},
      {"web/maps.js", "const url = `https://maps.example.com/?key=" + google + "`;\n", google, ""},
      {"ai/openai.toml", "[openai]\nkey = \"" + openai + "\"\n", openai, ""},
      {"ai/claude.env.example.txt", "ANTHROPIC_API_KEY=" + anthropic + "\n", anthropic, ""},
      {"pkg/npmrc.txt", "//registry.npmjs.org/:_authToken=" + npm + "\n", npm, ""},
      {"bot/telegram.go", "bot, _ := tg.New(\"" + telegram + "\")\n", telegram, ""},
      {"api/session.txt", "Authorization: Bearer " + jwt + "\n", jwt, ""},
      {"mail/sendgrid.rb", "SENDGRID = '" + sendgrid + "'\n", sendgrid, ""},
      {"ml/hub.py", "login(token=\"" + hf + "\")\n", hf, ""},
      {"infra/do.tf", "provider \"digitalocean\" {\n  token = \"" + dop + "\"\n}\n", dop, ""},
      {"config/database.yml", "url: postgres://shop:" + pw + "@db.example.com:5432/shop\n", pw,
       "password"},
      {"config/cache.yml", "redis: redis://:" + pw + "@cache.example.com:6379/0\n", pw, "password"},
      {"config/app.properties", "db.password=" + pw + "\n", pw, ""},
      {"docs/setup.md", "Log in as admin; the password is " + pw + " until you change it.\n", pw,
       ""},
      {"keys/deploy_key.txt",
       "-----BEGIN RSA PRIVATE KEY-----\n" + key_body1 + "\n" + key_body2 +
           "\n-----END RSA PRIVATE KEY-----\n",
       key_body2, "private key"},
  };
}

struct Negative {
  std::string path;
  std::string content;
  std::string kept;  // must appear as it is
};

std::vector<Negative> Negatives() {
  return {
      {"ci/release.yml", "token: ${{ secrets.RELEASE_TOKEN }}\n", "${{ secrets.RELEASE_TOKEN }}"},
      {"app/settings.py", "password = os.environ[\"DB_PASSWORD\"]\n",
       "os.environ[\"DB_PASSWORD\"]"},
      {"web/api.ts", "const apiKey = process.env.API_KEY;\n", "process.env.API_KEY"},
      {"config/example.yml", "password: changeme\n", "changeme"},
      {"docs/readme.md", "Set api_key to <your-api-key> first.\n", "<your-api-key>"},
      {"build/lock.json", "\"integrity\": \"sha512-" + Chars(86, kBase62 + "+/", 30) + "==\"\n",
       "sha512-" + Chars(86, kBase62 + "+/", 30) + "=="},
      {"src/ids.txt", "commit 3f786850e387550fdab836ed7e6dc881de23001b\n",
       "3f786850e387550fdab836ed7e6dc881de23001b"},
      {"src/uuid.txt", "request_id: 123e4567-e89b-12d3-a456-426614174000\n",
       "123e4567-e89b-12d3-a456-426614174000"},
      {"config/llm.yml", "max_tokens: 4096\n", "max_tokens: 4096"},
      {"config/links.yml", "home: https://www.example.com/docs?page=2\n",
       "https://www.example.com/docs?page=2"},
      {"docs/aws.md", "Example: AKIAIOSFODNN7EXAMPLE\n", "AKIAIOSFODNN7EXAMPLE"},
      {"keys/id.pub",
       "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE" + Chars(32, kBase62, 31) + " dev@example\n",
       "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE"},
  };
}

class BuiltinDetectorsThroughReadFile : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    for (const auto& c : Positives()) repo_->Write(c.path, c.content);
    for (const auto& n : Negatives()) repo_->Write(n.path, n.content);
    repo_->Commit("Add configuration");
    harness_ =
        std::make_unique<ToolHarness>(std::vector<RepoConfig>{Served("shop", repo_->path())});
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::unique_ptr<ToolHarness> harness_;
};

TEST_F(BuiltinDetectorsThroughReadFile, EveryCategoryIsHiddenAndTheAnswerSaysSo) {
  for (const auto& c : Positives()) {
    auto a = harness_->Call("read_file", R"({"repo":"shop","path":")" + c.path + "\"}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_EQ(a.text.find(c.secret), std::string::npos) << c.path << "\n" << a.text;
    EXPECT_NE(a.text.find("[hidden: " + c.label), std::string::npos) << c.path << "\n" << a.text;
    EXPECT_NE(a.text.find("looks like a secret is hidden as `[hidden: …]`"), std::string::npos)
        << c.path << "\n"
        << a.text;
  }
}

TEST_F(BuiltinDetectorsThroughReadFile, WhatAnAgentNeedsIsKept) {
  for (const auto& n : Negatives()) {
    auto a = harness_->Call("read_file", R"({"repo":"shop","path":")" + n.path + "\"}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_NE(a.text.find(n.kept), std::string::npos) << n.path << "\n" << a.text;
    EXPECT_EQ(a.text.find("[hidden:"), std::string::npos) << n.path << "\n" << a.text;
  }
  // The setting's name stays, so the agent knows what is there.
  auto a = harness_->Call("read_file", R"({"repo":"shop","path":"config/settings.yml"})");
  EXPECT_NE(a.text.find("1  github_token: \"[hidden: GitHub"), std::string::npos) << a.text;
}

TEST_F(BuiltinDetectorsThroughReadFile, AWindowInsideAPrivateKeyShowsNoneOfIt) {
  // Lines 1–4: BEGIN, two lines of key, END. A window of line 3 alone, and of lines 2–3.
  const Case key = Positives().back();
  const std::string first_line = key.content.substr(32, 64);
  for (const char* args :
       {R"({"repo":"shop","path":"keys/deploy_key.txt","start_line":3,"max_lines":1})",
        R"({"repo":"shop","path":"keys/deploy_key.txt","start_line":2,"max_lines":2})",
        R"({"repo":"shop","path":"keys/deploy_key.txt","start_line":3})"}) {
    auto a = harness_->Call("read_file", args);
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_EQ(a.text.find(key.secret), std::string::npos) << args << "\n" << a.text;
    EXPECT_EQ(a.text.find(first_line), std::string::npos) << args << "\n" << a.text;
    EXPECT_NE(a.text.find("[hidden: private key]"), std::string::npos) << args << "\n" << a.text;
  }
}

TEST_F(BuiltinDetectorsThroughReadFile, ErrorsAndNamesAreFilteredToo) {
  const std::string ghp = "ghp_" + Chars(36, kBase62, 40);
  // A path that names a token, asked for: the error echoes the path.
  auto a = harness_->Call("read_file", R"({"repo":"shop","path":"tokens/)" + ghp + R"(.txt"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text.find(ghp), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("[hidden: GitHub"), std::string::npos) << a.text;
  // A ref that is a token: the error names the ref.
  a = harness_->Call("read_file", R"({"repo":"shop","ref":")" + ghp + R"(","path":"a"})");
  EXPECT_TRUE(a.is_error);
  EXPECT_EQ(a.text.find(ghp), std::string::npos) << a.text;
  // A file and a branch named after a token, listed.
  repo_->Write("leak/" + ghp + ".txt", "x\n");
  repo_->Commit("Add a file named after a token");
  repo_->Git({"branch", "fix-" + ghp});
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"list_files", R"({"repo":"shop","path":"leak"})"},
           {"list_files", R"({"repo":"shop","recursive":true})"},
           {"list_refs", R"({"repo":"shop"})"}}) {
    a = harness_->Call(tool, args);
    EXPECT_EQ(a.text.find(ghp), std::string::npos) << tool << "\n" << a.text;
    EXPECT_NE(a.text.find("[hidden: GitHub"), std::string::npos) << tool << "\n" << a.text;
  }
  for (const auto& m : harness_->Sent()) EXPECT_EQ(m.find(ghp), std::string::npos) << m;
}

TEST_F(BuiltinDetectorsThroughReadFile, AboutNamesTheDetectorsInForce) {
  auto a = harness_->Call("about");
  EXPECT_NE(a.text.find("secret filter: repo-reader-secrets"), std::string::npos) << a.text;
}

}  // namespace
}  // namespace read_file_secrets_test
}  // namespace rr::testing
