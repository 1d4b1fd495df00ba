// Holes a review by attack found between the built-in detectors and what an agent is shown, each
// through the real tools: a value the detectors see in the file but not in the text as the
// answer writes it (a control character's escape joined to it), a value a long line's cut
// splits, a value a window shows without the lines that make it recognisable; and the loader
// taking a plugin through a folder others can write. The values are generated here from the
// providers' documented shapes; none is real.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <random>

#include "core/answer/pipeline.h"
#include "core/plugins/loader.h"
#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace review_leaks_test {
namespace {

class ReviewLeaks : public ::testing::Test {
 protected:
  void SetUp() override { repo_ = std::make_unique<TestRepo>(tmp_ / "shop"); }
  // Commits the files written so far and starts the server on the repository.
  void Serve() {
    repo_->Commit("Add files");
    harness_ =
        std::make_unique<ToolHarness>(std::vector<RepoConfig>{Served("shop", repo_->path())});
  }
  std::string Read(const std::string& path, const std::string& window = "") {
    auto a = harness_->Call("read_file", R"({"repo":"shop","path":")" + path + "\"" + window + "}");
    EXPECT_FALSE(a.is_error) << a.text;
    return a.text;
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::unique_ptr<ToolHarness> harness_;
};

// The answer shows a control character as an escape (\r, \e, \x01, \u200E). The filter read
// that escape, whose last letters joined the token after it, so a token's own boundary was
// gone: `\x01ghp_…` is no token to a detector that wants none of [A-Za-z0-9_] before it. The
// same file without the escape (the raw bytes) is hidden.
TEST_F(ReviewLeaks, AControlCharacterBesideATokenDoesNotShowIt) {
  const std::string ghp = "ghp_" + Chars(36, kBase62, 1);
  const std::string body = ghp.substr(4);
  // libgit2 calls a text binary with more than one in 128 bytes unprintable: pad the \x01 file.
  const std::string padding = "# " + std::string(300, '=') + "\n";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"logs/control.txt", padding + "x=\x01" + ghp + "\n"},
      {"logs/cr-only.txt", "tokens\r" + ghp + "\rend\n"},
      {"logs/form-feed.txt", "\x0c" + ghp + "\n"},
      {"logs/bidi.txt", "\xE2\x80\x8E" + ghp + "\n"},
      {"logs/colour.log", "\x1b[32m" + ghp + "\x1b[0m\n"},
  };
  for (const auto& [path, content] : files) repo_->Write(path, content);
  Serve();
  for (const auto& [path, content] : files) {
    const std::string a = Read(path);
    EXPECT_EQ(a.find(body), std::string::npos) << path << "\n" << a;
    EXPECT_NE(a.find("[hidden: GitHub token]"), std::string::npos) << path << "\n" << a;
  }
}

// In a JSON string, or a string in code, lines are joined with "\n": a token right after one
// had the escape's letter before it ("nghp_…"), and a token must start clear of letters. So had
// a token in a name shown with a control character escaped before it ("\x01ghp_…").
TEST_F(ReviewLeaks, ATokenRightAfterAnEscapeInAStringIsHidden) {
  const std::string ghp = "ghp_" + Chars(36, kBase62, 30);
  const std::string npm = "npm_" + Chars(36, kBase62, 31);
  const std::string aws_id = "AKIA" + Chars(16, kUpperDigits, 32);
  const std::string aws_secret = Chars(38, kBase62 + "+/", 33) + "Q/";
  const std::string discord = "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ." + Chars(27, kBase62, 34);
  repo_->Write("ci/notes.json", "{\"notes\": \"ci:\\n" + ghp + "\\n" + npm +
                                    "\",\n \"aws\": \"id:\\n" + aws_id + "\\n" + aws_secret +
                                    "\",\n \"bot\": \"run:\\t" + discord + "\"}\n");
  // A name is shown with its control characters escaped: "\x01ghp_…".
  const std::string named = "ghp_" + Chars(36, kBase62, 35);
  repo_->Write("names/\x01" + named + ".txt", "x\n");
  Serve();
  const std::string a = Read("ci/notes.json");
  for (const auto& secret : {ghp, npm, aws_id, aws_secret, discord}) {
    EXPECT_EQ(a.find(secret.substr(4)), std::string::npos) << secret << "\n" << a;
  }
  const auto listed = harness_->Call("list_files", R"({"repo":"shop","path":"names"})");
  EXPECT_EQ(listed.text.find(named.substr(4)), std::string::npos) << listed.text;
  EXPECT_NE(listed.text.find("[hidden: GitHub token]"), std::string::npos) << listed.text;
}

// command-line read a line's words as a shell would, quotes keeping a word together: a command
// given as a string (a package.json script, a compose file's command, os.system("…")) was one
// word, and its password was shown.
TEST_F(ReviewLeaks, APasswordInACommandGivenAsAStringIsHidden) {
  const std::string pw = "Tr0ub4dor" + Chars(8, kBase62, 40);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"package.json",
       "{\"scripts\": {\"seed\": \"curl -u admin:" + pw + " https://x.example\"}}\n"},
      {"docker-compose.yml", "    command: \"redis-cli -a " + pw + " ping\"\n"},
      {"tools/load.py", "os.system(\"mysql -uroot -p" + pw + " shop < dump.sql\")\n"},
      {"Dockerfile", "RUN [\"sh\", \"-c\", \"curl -u admin:" + pw + " https://x.example\"]\n"},
  };
  for (const auto& [path, content] : files) repo_->Write(path, content);
  Serve();
  for (const auto& [path, content] : files) {
    const std::string a = Read(path);
    EXPECT_EQ(a.find(pw), std::string::npos) << path << "\n" << a;
    EXPECT_NE(a.find("[hidden: password]"), std::string::npos) << path << "\n" << a;
  }
}

// settings read a value on the name's line only: a YAML block scalar (`password: |` and the
// lines below) was shown whole.
TEST_F(ReviewLeaks, AYamlBlockValueOfASecretSettingIsHidden) {
  const std::string pw = "Tr0ub4dor-" + Chars(8, kBase62, 41);
  repo_->Write("chart/values.yaml",
               "db:\n  user: shop\n  password: |\n    " + pw + "\n  host: db.example.com\n");
  repo_->Write("chart/other.yaml", "db:\n  password: >-\n    " + pw + "\nnote: |\n  plain text\n");
  Serve();
  for (const char* path : {"chart/values.yaml", "chart/other.yaml"}) {
    const std::string a = Read(path);
    EXPECT_EQ(a.find(pw), std::string::npos) << path << "\n" << a;
    EXPECT_NE(a.find("[hidden: password]"), std::string::npos) << path << "\n" << a;
  }
  EXPECT_NE(Read("chart/values.yaml").find("host: db.example.com"), std::string::npos);
  EXPECT_NE(Read("chart/other.yaml").find("plain text"), std::string::npos);
}

// A service account's JSON kept as a string inside another JSON (a CI variable,
// terraform.tfvars.json, a notebook's cell) writes its key's line breaks as "\\n": its BEGIN line
// seemed followed by no key material, and the key was shown whole. So was a token after such a
// break.
TEST_F(ReviewLeaks, AKeyOrATokenInAJsonStringInsideAnotherIsHidden) {
  const std::string b64 = kBase62 + "+/";
  std::vector<std::string> key = {"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + Chars(32, b64, 50)};
  for (unsigned i = 0; i < 8; ++i) key.push_back(Chars(64, b64, 51 + i));
  std::string pem = "-----BEGIN PRIVATE KEY-----\\\\n";
  for (const auto& k : key) pem += k + "\\\\n";
  pem += "-----END PRIVATE KEY-----\\\\n";
  const std::string ghp = "ghp_" + Chars(36, kBase62, 60);
  repo_->Write("deploy/terraform.tfvars.json",
               "{\"google_credentials\": \"{\\\"type\\\": \\\"service_account\\\", "
               "\\\"private_key\\\": \\\"" +
                   pem + "\\\"}\",\n \"notes\": \"{\\\"ci\\\": \\\"tokens:\\\\n" + ghp +
                   "\\\"}\"}\n");
  Serve();
  const std::string a = Read("deploy/terraform.tfvars.json");
  for (const auto& k : key) EXPECT_EQ(a.find(k.substr(8, 24)), std::string::npos) << a;
  EXPECT_NE(a.find("[hidden: private key]"), std::string::npos) << a;
  EXPECT_EQ(a.find(ghp.substr(4)), std::string::npos) << a;
}

// A line over 2,000 characters is cut, back to where a word ends when one ends near. A
// password holds characters that end no word, so the cut can fall inside it: the part before
// the cut, without the `@host` that makes it a URL's password, was shown.
TEST_F(ReviewLeaks, ALongLineCutInsideAValueShowsNoneOfIt) {
  // The URL's password starts at byte 1,996: the cut at 2,000 falls after "Xk9!".
  const std::string line =
      std::string(1979, 'x') + " postgres://shop:Xk9!mQ2#zz7@db.example.com/shop";
  repo_->Write("min/app.js", line + "\n");
  Serve();
  const std::string a = Read("min/app.js");
  EXPECT_EQ(a.find("shop:Xk9"), std::string::npos) << a.substr(a.size() > 300 ? a.size() - 300 : 0);
  EXPECT_NE(a.find("more characters on this line]"), std::string::npos);
}

// A window (start_line, max_lines) was scanned with nothing around it but an open PEM block:
// a value recognised by the lines beside it (an AWS secret key by its key id, a Kubernetes env
// entry's value by its name) was shown when the window left them out, and an agent could read
// a run of key lines one line at a time.
TEST_F(ReviewLeaks, AWindowShowsNoValueTheWholeFileHides) {
  const std::string aws_id = "AKIA" + Chars(16, kUpperDigits, 2);
  const std::string aws_secret = Chars(38, kBase62 + "+/", 3) + "Q/";
  repo_->Write("app/creds.js", "const creds = new AWS.Credentials(\"" + aws_id + "\",\n    \"" +
                                   aws_secret + "\");\n");
  const std::string b64 = kBase62 + "+/";
  std::vector<std::string> key;
  std::string body = "The deploy key's body, as the old tool printed it:\n";
  for (unsigned i = 0; i < 5; ++i) {
    key.push_back(Chars(64, b64, 10 + i));
    body += key.back() + "\n";
  }
  body += "Ask the platform team for the rest.\n";
  repo_->Write("docs/key-body.txt", body);
  const std::string pw = "Tr0ub4dor-" + Chars(8, kBase62, 4);
  repo_->Write("k8s/deploy.yaml",
               "        env:\n          - name: DB_PASSWORD\n            value: " + pw +
                   "\n          - name: DB_HOST\n");
  Serve();

  // The whole file hides both.
  std::string a = Read("app/creds.js");
  ASSERT_EQ(a.find(aws_secret), std::string::npos) << a;
  a = Read("docs/key-body.txt");
  for (const auto& k : key) ASSERT_EQ(a.find(k), std::string::npos) << a;

  a = Read("k8s/deploy.yaml");
  ASSERT_EQ(a.find(pw), std::string::npos) << a;

  a = Read("app/creds.js", R"(,"start_line":2)");
  EXPECT_EQ(a.find(aws_secret), std::string::npos) << a;
  a = Read("k8s/deploy.yaml", R"(,"start_line":3)");
  EXPECT_EQ(a.find(pw), std::string::npos) << a;
  for (const char* window : {R"(,"start_line":2,"max_lines":1)", R"(,"start_line":4,"max_lines":1)",
                             R"(,"start_line":6,"max_lines":1)", R"(,"start_line":1,"max_lines":2)",
                             R"(,"start_line":6)"}) {
    a = Read("docs/key-body.txt", window);
    for (const auto& k : key) EXPECT_EQ(a.find(k), std::string::npos) << window << "\n" << a;
  }
}

// An error longer than the answer is cut after its values are hidden; its closing line counted
// every hidden value, the ones cut away too.
TEST(ReviewLeaksPipeline, ACutErrorCountsOnlyTheHiddenValuesItShows) {
  const std::string first = "ghp_" + Chars(36, kBase62, 20);
  const std::string second = "ghp_" + Chars(36, kBase62, 21);
  const std::string message = "no file or folder `a/" + first + "/" + std::string(600, 'x') + "/" +
                              second + ".txt` in `shop`";
  const std::string out = AnswerPipeline(400, {}, BuiltinPlugins().secrets).FinishError(message);
  EXPECT_EQ(out.find(first), std::string::npos) << out;
  EXPECT_EQ(out.find(second), std::string::npos) << out;
  EXPECT_NE(out.find("[the message was cut at"), std::string::npos) << out;
  EXPECT_NE(out.find("[1 value that looks like a secret is hidden"), std::string::npos) << out;
}

// The loader checked the folder of the file a plugin resolves to, never the folder it was
// named in: a plugin folder anyone can write, holding a link, was used — anyone could point the
// link at another library, and the server would load it at its next start.
TEST(ReviewLeaksLoader, APluginFolderOthersCanWriteIsRefusedEvenThroughALink) {
  TempDir tmp;
  const std::string folder = tmp / "plugins";
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  ASSERT_EQ(chmod(folder.c_str(), 0777), 0);
  const std::string builtin = std::string(RR_PLUGIN_DIR) + "/repo-reader-secrets.so";
  ASSERT_EQ(symlink(builtin.c_str(), (folder + "/repo-reader-secrets.so").c_str()), 0);
  PluginsConfig config;
  config.folder = folder;
  auto loaded = LoadPlugins(config);
  ASSERT_FALSE(loaded) << "a plugin was loaded through a folder anyone can write";
  EXPECT_NE(loaded.error().find("can be written by anyone"), std::string::npos) << loaded.error();

  // The same by path.
  config = PluginsConfig{};
  config.builtin_detectors = false;
  config.folder = RR_PLUGIN_DIR;
  PluginSpec spec;
  spec.path = folder + "/repo-reader-secrets.so";
  config.plugins.push_back(spec);
  loaded = LoadPlugins(config);
  ASSERT_FALSE(loaded) << "a plugin was loaded through a folder anyone can write";
  EXPECT_NE(loaded.error().find("can be written by anyone"), std::string::npos) << loaded.error();
}

}  // namespace
}  // namespace review_leaks_test
}  // namespace rr::testing
