// The built-in secret detectors (plugins/secrets), loaded from the built plugin exactly as the
// server loads it, through the SDK's test kit: what each category hides (the value only, in
// several formats and positions) and what it keeps.
//
// Token-shaped values are assembled at run time from a prefix and generated characters, so no
// literal in this file looks like a credential to a scanner.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace detectors_test {
namespace {

using repo_reader::TextKind;
using repo_reader::testkit::LoadedPlugin;
using repo_reader::testkit::Scanned;

const LoadedPlugin& Plugin() {
  static const LoadedPlugin plugin(std::string(RR_PLUGIN_DIR) + "/repo-reader-secrets.so");
  return plugin;
}

const char kAlnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const char kHex[] = "0123456789abcdef";
const char kDigits[] = "0123456789";
const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Characters drawn from `alphabet` by a fixed generator: the same on every run.
std::string Chars(const char* alphabet, size_t n, uint32_t seed) {
  const size_t size = std::char_traits<char>::length(alphabet);
  std::string out;
  uint64_t x = 0x9e3779b97f4a7c15ull ^ seed;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out.push_back(alphabet[x % size]);
  }
  return out;
}

// base64url without padding, as a JWT writes its parts.
std::string B64Url(const std::string& in) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kAlphabet[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(acc << (6 - bits)) & 63]);
  return out;
}

std::string Cat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& p : parts) out += p;
  return out;
}

Scanned Scan(const std::string& text, std::string_view path = {}, TextKind kind = TextKind::kFile) {
  Scanned s = Plugin().Scan(text, kind, path);
  EXPECT_TRUE(s.error.empty()) << s.error;
  return s;
}

// The text as the agent sees it.
std::string Redacted(const std::string& text, std::string_view path = {},
                     TextKind kind = TextKind::kFile) {
  return Scan(text, path, kind).redacted;
}

// Every byte of `value` (first occurrence) is hidden, and nothing of the text before it.
::testing::AssertionResult HidesExactly(const std::string& text, const std::string& value,
                                        std::string_view path = {},
                                        TextKind kind = TextKind::kFile) {
  const size_t at = text.find(value);
  if (at == std::string::npos) return ::testing::AssertionFailure() << "value not in the text";
  const Scanned s = Scan(text, path, kind);
  for (const auto& span : s.spans) {
    if (span.begin == at && span.end == at + value.size()) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "`" << value << "` is not hidden exactly in:\n"
                                       << s.redacted;
}

// Every byte of `value` is hidden (the span may reach further).
::testing::AssertionResult Hides(const std::string& text, const std::string& value,
                                 std::string_view path = {}, TextKind kind = TextKind::kFile) {
  if (Plugin().Hides(text, value, kind, path)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "`" << value << "` is shown in:\n"
                                       << Redacted(text, path, kind);
}

::testing::AssertionResult HidesNothing(const std::string& text, std::string_view path = {},
                                        TextKind kind = TextKind::kFile) {
  const Scanned s = Scan(text, path, kind);
  if (s.spans.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "hidden where nothing should be:\n" << s.redacted;
}

// --- The plugin

TEST(DetectorPlugin, LoadsAsTheBuiltInSecretDetectors) {
  ASSERT_TRUE(Plugin().ok()) << Plugin().error();
  const auto* entry = Plugin().entry();
  EXPECT_STREQ(entry->name, "repo-reader-secrets");
  EXPECT_EQ(entry->kinds, repo_reader::kSecretDetectorPlugin);
  EXPECT_EQ(entry->abi_version, repo_reader::kAbiVersion);
  EXPECT_EQ(entry->make_hosts, nullptr);
  EXPECT_NE(std::string(entry->description), "");
  const auto ids = Plugin().detector_ids();
  const std::set<std::string> expected = {
      "provider-tokens",    "settings",          "url-password",        "command-line",
      "prose-password",     "private-keys",      "prose-password-intl", "key-material",
      "discord-bot-tokens", "kubernetes-secrets"};
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), expected);
}

// --- Providers' tokens

struct ProviderCase {
  std::string token, what;
};

std::vector<ProviderCase> ProviderTokens() {
  return {
      {Cat({"gh", "p_", Chars(kAlnum, 36, 1)}), "GitHub token"},
      {Cat({"gh", "s_", Chars(kAlnum, 36, 2)}), "GitHub token"},
      {Cat({"github", "_pat_", Chars(kAlnum, 22, 3), "_", Chars(kAlnum, 59, 4)}), "GitHub token"},
      {Cat({"gl", "pat-", Chars(kAlnum, 20, 5)}), "GitLab token"},
      {Cat({"gl", "rt-", Chars(kAlnum, 20, 6)}), "GitLab token"},
      {Cat({"GR1348941", Chars(kAlnum, 20, 7)}), "GitLab runner token"},
      {Cat({"AK", "IA", Chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 8)}), "AWS access key"},
      {Cat({"xo", "xb-", Chars(kDigits, 13, 9), "-", Chars(kDigits, 13, 90), "-",
            Chars(kAlnum, 24, 91)}),
       "Slack token"},
      {Cat({"xa", "pp-1-A0", Chars(kDigits, 9, 10), "-", Chars(kDigits, 13, 92), "-",
            Chars(kHex, 64, 93)}),
       "Slack token"},
      {Cat({"sk", "_live_", Chars(kAlnum, 24, 11)}), "Stripe key"},
      {Cat({"rk", "_test_", Chars(kAlnum, 24, 12)}), "Stripe key"},
      {Cat({"AI", "za", Chars(kAlnum, 35, 13)}), "Google API key"},
      {Cat({"ya", "29.", Chars(kAlnum, 60, 14)}), "Google OAuth token"},
      {Cat({"GOC", "SPX-", Chars(kAlnum, 28, 15)}), "Google client secret"},
      {Cat({"sk", "-proj-", Chars(kAlnum, 48, 16), "T3Blbk", "FJ", Chars(kAlnum, 48, 17)}),
       "OpenAI key"},
      {Cat({"sk", "-ant-api03-", Chars(kAlnum, 93, 18), "AA"}), "Anthropic key"},
      {Cat({"npm", "_", Chars(kAlnum, 36, 19)}), "npm token"},
      {Cat({Chars(kDigits, 10, 94), ":AA", Chars(kAlnum, 33, 20)}), "Telegram bot token"},
      {Cat({"SK", Chars(kHex, 32, 21)}), "Twilio key"},
      {Cat({"SG", ".", Chars(kAlnum, 22, 22), ".", Chars(kAlnum, 43, 23)}), "SendGrid key"},
      {Cat({"shp", "at_", Chars(kHex, 32, 24)}), "Shopify token"},
      {Cat({"hf", "_", Chars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34, 25)}),
       "Hugging Face token"},
      {Cat({"pypi", "-AgEIcHlwaS5vcmc", Chars(kAlnum, 120, 26)}), "PyPI token"},
      {Cat({"dckr", "_pat_", Chars(kAlnum, 27, 27)}), "Docker Hub token"},
      {Cat({"dop", "_v1_", Chars(kHex, 64, 28)}), "DigitalOcean token"},
      {Cat({"key", "-", Chars(kHex, 32, 29)}), "Mailgun key"},
      {Cat({"HRKU", "-AA", Chars(kAlnum, 58, 30)}), "Heroku key"},
      {Cat({"ATA", "TT3", Chars(kAlnum, 186, 31)}), "Atlassian token"},
      {Cat({"PMAK", "-", Chars(kHex, 24, 32), "-", Chars(kHex, 34, 33)}), "Postman key"},
      {Cat({"glc", "_", Chars(kAlnum, 40, 34)}), "Grafana token"},
      {Cat({"NRAK", "-", Chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 27, 35)}), "New Relic key"},
      {Cat({"dapi", Chars(kHex, 32, 36)}), "Databricks token"},
      {Cat({"hvs", ".", Chars(kAlnum, 90, 37)}), "Vault token"},
      {Cat({Chars(kAlnum, 14, 38), ".atlas", "v1.", Chars(kAlnum, 67, 39)}), "Terraform token"},
      {Cat({"sntryu", "_", Chars(kHex, 64, 40)}), "Sentry token"},
      {Cat({"AGE-SECRET", "-KEY-1", Chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 41)}), "age key"},
      {Cat({"lin", "_api_", Chars(kAlnum, 40, 42)}), "Linear key"},
      {Cat({"sq0", "atp-", Chars(kAlnum, 22, 43)}), "Square token"},
      {Cat({"sbp", "_", Chars(kHex, 40, 44)}), "Supabase token"},
      {Cat({"pscale", "_tkn_", Chars(kAlnum, 43, 45)}), "PlanetScale token"},
      {Cat({"ntn", "_", Chars(kDigits, 11, 46), Chars(kAlnum, 35, 47)}), "Notion token"},
      {Cat({"CFP", "AT-", Chars(kAlnum, 43, 48)}), "Contentful token"},
      {Cat({"dp", ".pt.", Chars(kAlnum, 43, 49)}), "Doppler token"},
      {Cat({"LT", "AI", Chars(kAlnum, 20, 50)}), "Alibaba key"},
      {Cat({"fo1", "_", Chars(kAlnum, 43, 51)}), "Fly token"},
      {Cat({"pul", "-", Chars(kHex, 40, 52)}), "Pulumi token"},
      {Cat({"abc", "1Q~", Chars(kAlnum, 34, 53)}), "Azure client secret"},
      {Cat({Chars(kAlnum, 52, 54), "JQQJ99", Chars(kAlnum, 18, 55), "AZDO", Chars(kAlnum, 4, 56)}),
       "Azure DevOps token"},
      {Cat({"sk", ".eyJ1IjoiYWNtZSIsImEiOiJj", Chars(kAlnum, 20, 57), ".", Chars(kAlnum, 22, 58)}),
       "Mapbox token"},
      {Cat({"sntrys", "_eyJpYXQiOjE3MDAwMDAwMDB9", Chars(kAlnum, 60, 59)}), "Sentry token"},
      {Cat({"glsa", "_", Chars(kAlnum, 32, 65), "_", Chars(kHex, 8, 66)}), "Grafana token"},
      {Cat({"sq0", "csp-", Chars(kAlnum, 43, 67)}), "Square token"},
      {Cat({"EA", "AA", Chars(kAlnum, 60, 68)}), "Square token"},
      {Cat({"dp", ".st.", Chars(kAlnum, 43, 69)}), "Doppler token"},
      {Cat({"fm", "2_", Chars(kBase64, 120, 70)}), "Fly token"},
      {Cat({"xkey", "sib-", Chars(kHex, 64, 71), "-", Chars(kAlnum, 16, 72)}), "Brevo key"},
      {Cat({Chars(kHex, 32, 73), "-us", "12"}), "Mailchimp key"},
      {Cat({"sk", "-", Chars(kAlnum, 20, 74), "T3Blbk", "FJ", Chars(kAlnum, 20, 75)}), "API key"},
      {Cat({"rubygems", "_", Chars(kHex, 48, 76)}), "RubyGems token"},
      {Cat({"lsv2", "_pt_", Chars(kHex, 32, 130), "_", Chars(kHex, 10, 131)}), "LangSmith key"},
      {Cat({"apify", "_api_", Chars(kAlnum, 36, 132)}), "Apify token"},
      {Cat({"rootly", "_", Chars(kHex, 64, 133)}), "Rootly key"},
      {Cat({"CCIPAT", "_", Chars(kAlnum, 22, 134), "_", Chars(kHex, 40, 135)}), "CircleCI token"},
      {Cat({"spu", "-", Chars("abcdefghijklmnopqrstuvwxyz0123456789", 32, 136)}), "Spectral token"},
      {Cat({"pgar", "_", Chars(kAlnum, 27, 137)}), "pganalyze key"},
      {Cat({"da2", "-", Chars("abcdefghijklmnopqrstuvwxyz0123456789", 26, 138)}),
       "AWS AppSync key"},
      {Cat({"BBDC", "-", Chars(kAlnum, 44, 139)}), "Bitbucket Data Center token"},
      {Cat({"alcht", "_", Chars(kAlnum, 30, 140)}), "Alchemy key"},
      {Cat({"sk_", "pr_", Chars(kAlnum, 8, 141), "_", Chars(kHex, 40, 142)}), "PhotoRoom key"},
      {Cat({"bkua", "_", Chars("abcdefghijklmnopqrstuvwxyz0123456789", 40, 143)}),
       "Buildkite token"},
      {Cat({"API", "-", Chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 32, 144)}),
       "Octopus Deploy key"},
  };
}

TEST(DetectorProviderTokens, EachProviderFormatIsHiddenAloneWhateverItsName) {
  for (const auto& c : ProviderTokens()) {
    // A name that says nothing, so only the format can tell.
    const std::string text = "remote = \"" + c.token + "\"\n";
    EXPECT_EQ(Redacted(text, "config/app.toml"), "remote = \"[hidden: " + c.what + "]\"\n")
        << c.token;
  }
}

TEST(DetectorProviderTokens, TokensAreHiddenInEveryPosition) {
  for (const auto& c : ProviderTokens()) {
    const std::string& tok = c.token;
    EXPECT_TRUE(HidesExactly("curl -H 'Authorization: Bearer " + tok + "' https://api.test/\n", tok,
                             "deploy.sh"));
    EXPECT_TRUE(HidesExactly("{\"env\": \"A=1\\nX=" + tok + "\\nB=2\"}", tok, "app.json"));
    EXPECT_TRUE(HidesExactly("+  value: " + tok + "\r\n", tok, "k8s.yaml", TextKind::kDiff));
    EXPECT_TRUE(HidesExactly("Rotate " + tok + ", it leaked.", tok, {}, TextKind::kCommitMessage));
    EXPECT_TRUE(HidesExactly(tok, tok));  // the whole text, no line end
  }
}

TEST(DetectorProviderTokens, WebhookUrlsHideTheirSecretPart) {
  const std::string slack =
      Cat({"T0", Chars(kAlnum, 8, 60), "/B0", Chars(kAlnum, 8, 61), "/", Chars(kAlnum, 24, 62)});
  EXPECT_EQ(Redacted("url: https://hooks.slack.com/services/" + slack + "\n"),
            "url: https://hooks.slack.com/services/[hidden: Slack webhook]\n");
  const std::string discord = Chars(kAlnum, 68, 63);
  const std::string id = Chars(kDigits, 18, 64);
  EXPECT_EQ(Redacted("https://discord.com/api/webhooks/" + id + "/" + discord),
            "https://discord.com/api/webhooks/" + id + "/[hidden: Discord webhook]");
}

TEST(DetectorProviderTokens, KeysInsideConnectionStringsAndSignedUrlsAreHidden) {
  const std::string account_key = Chars(kBase64, 86, 110) + "==";
  EXPECT_TRUE(
      HidesExactly("\"Storage\": \"DefaultEndpointsProtocol=https;AccountName=acme;"
                   "AccountKey=" +
                       account_key + ";EndpointSuffix=core.windows.net\"",
                   account_key, "appsettings.json"));
  const std::string sig = Chars(kAlnum, 43, 111) + "%3D";
  EXPECT_TRUE(
      HidesExactly("https://acme.blob.core.windows.net/c/f.zip?sv=2022-11-02&se=2030-01-"
                   "01&sr=b&sp=r&sig=" +
                       sig + "\n",
                   sig, "docs/download.md"));
}

TEST(DetectorProviderTokens, AwsSecretKeyBesideItsIdIsHidden) {
  const std::string id = Cat({"AK", "IA", Chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 70)});
  const std::string secret = Chars(kBase64, 40, 71);
  EXPECT_TRUE(HidesExactly("Access key ID,Secret access key\n" + id + "," + secret + "\n", secret,
                           "credentials.csv"));
  EXPECT_TRUE(HidesExactly("aws_secret_access_key = " + secret + "\n", secret, ".aws/credentials"));
}

TEST(DetectorProviderTokens, JwtAndDiscordBotTokenAreHiddenByShape) {
  const std::string jwt =
      Cat({"ey", "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.", "eyJzdWIiOiIxMjM0NTY3OD",
           "kwIiwibmFtZSI6IkFkYSJ9.", Chars(kAlnum, 43, 80)});
  EXPECT_TRUE(HidesExactly("Authorization: Bearer " + jwt + "\n", jwt));
  // base64 of a bot's numeric id, a timestamp, an HMAC.
  const std::string bot =
      Cat({"MTE1NzI2NDQ3MjMzODM2Njk5Ng", ".", Chars(kAlnum, 6, 81), ".", Chars(kAlnum, 38, 82)});
  EXPECT_TRUE(
      HidesExactly("The old value " + bot + " still works.", bot, {}, TextKind::kCommitMessage));
}

TEST(DetectorProviderTokens, DocumentationExamplesAndLookAlikesAreKept) {
  EXPECT_TRUE(HidesNothing("aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n", "README.md"));
  EXPECT_TRUE(
      HidesNothing(Cat({"GITHUB_TOKEN=gh", "p_", std::string(36, 'x'), "\n"}), "docs/setup.md"));
  EXPECT_TRUE(HidesNothing(Cat({"fake = \"gh", "p_", std::string(36, 'A'), "\"\n"}),
                           "tests/fixtures/fake_tokens.py"));
  EXPECT_TRUE(HidesNothing("pip install scikit-learn sk-learn-extra task-runner\n"));
  EXPECT_TRUE(HidesNothing(Cat({"publishable = \"pk", "_live_", Chars(kAlnum, 24, 90), "\"\n"}),
                           "web/stripe.js"));
  EXPECT_TRUE(
      HidesNothing("#define KEY_ENTER 0x1c\nint desk_sk = task_key(monkey);\n", "src/keys.h"));
}

// jwt.io's published example (its header, and claims naming "1234567890" and "John Doe") is a
// documentation value and is kept; the same claims under another header, or other claims, are
// a token and are hidden.
TEST(DetectorProviderTokens, JwtIoPublishedExampleIsKeptOtherJwtsHidden) {
  const std::string header = B64Url(R"({"alg":"HS256","typ":"JWT"})");
  const std::string sig = Chars(kAlnum, 43, 120);
  const std::string documented =
      header + "." + B64Url(R"({"sub":"1234567890","name":"John Doe","iat":1516239022})") + "." +
      sig;
  EXPECT_TRUE(HidesNothing("Paste " + documented + " into the debugger.\n", "docs/auth.md"));
  const std::string other_claims =
      header + "." + B64Url(R"({"sub":")" + Chars(kDigits, 10, 121) + R"(","name":"Ada"})") + "." +
      sig;
  EXPECT_TRUE(HidesExactly("Paste " + other_claims + " into the debugger.\n", other_claims,
                           "docs/auth.md"));
  const std::string other_header =
      B64Url(R"({"alg":"RS256","typ":"JWT"})") + "." +
      B64Url(R"({"sub":"1234567890","name":"John Doe","iat":1516239022})") + "." + sig;
  EXPECT_TRUE(HidesExactly("Paste " + other_header + " into the debugger.\n", other_header,
                           "docs/auth.md"));
  // A header that is no JSON object (cut short before its closing brace) makes no token.
  const std::string cut = B64Url(R"({"alg":"HS256","typ":"JWT")") + "." +
                          B64Url(R"({"sub":")" + Chars(kDigits, 10, 145) + R"("})") + "." + sig;
  EXPECT_TRUE(HidesNothing("sample: " + cut + "\n", "docs/notes.md"));
  // Letters typed into a header keep its braces but decode to control bytes: no JSON, no token.
  // Line breaks inside the JSON are still JSON.
  const std::string claims = B64Url(R"({"sub":")" + Chars(kDigits, 10, 146) + R"("})");
  for (const char* letters : {"qwer", "asdfghjk"}) {
    std::string typed = B64Url(R"({"alg":"HS256","typ":"JWT"})");
    typed.insert(6, letters);
    typed.insert(24, letters);
    EXPECT_TRUE(
        HidesNothing("sample: " + typed + "." + claims + "." + sig + "\n", "docs/notes.md"));
  }
  const std::string broken =
      B64Url("{\"typ\":\"JWT\",\r\n\"alg\":\"HS256\"}") + "." + claims + "." + sig;
  EXPECT_TRUE(HidesExactly("sample: " + broken + "\n", broken, "docs/notes.md"));
}

// GitLab's incoming-mail (25), pipeline-trigger (40), agent (50 or more) and OAuth application
// (64) tokens have a length of their own: that length is hidden, another is kept.
TEST(DetectorProviderTokens, GitLabTokensOfAFixedLengthOnlyAtThatLength) {
  const char kTokenAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  const struct {
    const char* prefix;
    size_t length;
  } kinds[] = {{"glimt-", 25}, {"glptt-", 40}, {"glagent-", 50}, {"gloas-", 64}};
  uint32_t seed = 160;
  for (const auto& k : kinds) {
    const std::string token = std::string(k.prefix) + Chars(kTokenAlphabet, k.length, seed++);
    EXPECT_TRUE(HidesExactly("remote = \"" + token + "\"\n", token, "config/app.toml"));
    const std::string shorter = std::string(k.prefix) + Chars(kTokenAlphabet, k.length - 3, seed++);
    EXPECT_TRUE(HidesNothing("remote = \"" + shorter + "\"\n", "config/app.toml")) << shorter;
  }
  const std::string longer = "gloas-" + Chars(kTokenAlphabet, 70, seed++);
  EXPECT_TRUE(HidesNothing("remote = \"" + longer + "\"\n", "config/app.toml"));
}

// A prefix inside a URL's path is part of a page's name, not a key: …/API-<32 capitals>.
TEST(DetectorProviderTokens, OctopusPrefixInAUrlPathIsKept) {
  const std::string page = Cat({"API", "-", Chars("ABCDEF0123456789", 26, 146)});
  EXPECT_TRUE(HidesNothing("https://team.notion.site/" + page + "\n", "docs/links.md"));
}

// Pinecone keys are "pcsk_", a key id of 5 or 6 characters, "_", 63 characters; OpenAI admin keys
// are "sk-admin-", 58 characters, the signature T3BlbkFJ, 58 more, and project keys of the first
// keys' length 20, the signature, 20. The prefix with another shape is no key of theirs and is
// kept where nothing else names it a secret.
TEST(DetectorProviderTokens, PineconeAndOpenAiAdminKeysOnlyInTheirOwnShape) {
  const std::string pinecone =
      Cat({"pc", "sk_", Chars(kAlnum, 5, 122), "_", Chars(kAlnum, 63, 123)});
  EXPECT_TRUE(HidesExactly("index = connect(\"" + pinecone + "\")\n", pinecone, "app/db.py"));
  const std::string short_id =
      Cat({"pc", "sk_", Chars(kAlnum, 4, 124), "_", Chars(kAlnum, 63, 125)});
  const std::string no_id = Cat({"pc", "sk__", Chars(kAlnum, 63, 126)});
  EXPECT_TRUE(HidesNothing("see " + short_id + " and " + no_id + "\n", "docs/notes.md"));

  const std::string admin =
      Cat({"sk-", "admin-", Chars(kAlnum, 58, 127), "T3Blbk", "FJ", Chars(kAlnum, 58, 128)});
  EXPECT_TRUE(HidesExactly("client = OpenAI(\"" + admin + "\")\n", admin, "app/ai.py"));
  const std::string unsigned_admin = Cat({"sk-", "admin-", Chars(kAlnum, 120, 129)});
  EXPECT_TRUE(HidesNothing("e.g. " + unsigned_admin + "\n", "docs/notes.md"));
  // A project key of the first keys' length holds the signature after 20 characters; another
  // run of 8 there makes no key. Longer project keys are hidden whatever they hold.
  const std::string first =
      Cat({"sk-", "proj-", Chars(kAlnum, 20, 130), "T3Blbk", "FJ", Chars(kAlnum, 20, 131)});
  EXPECT_TRUE(HidesExactly("key: " + first + "\n", first, "docs/notes.md"));
  const std::string resigned =
      Cat({"sk-", "proj-", Chars(kAlnum, 20, 130), "T4Blbk", "FJ", Chars(kAlnum, 20, 131)});
  EXPECT_TRUE(HidesNothing("e.g. " + resigned + "\n", "docs/notes.md"));
  const std::string longer = Cat({"sk-", "proj-", Chars(kAlnum, 96, 132)});
  EXPECT_TRUE(HidesExactly("e.g. " + longer + "\n", longer, "docs/notes.md"));
}

// --- Passwords in URLs

TEST(DetectorUrlPassword, OnlyThePasswordOfAUrlIsHidden) {
  EXPECT_EQ(Redacted("database: postgres://shop:Xk9-pw2!@db.example.com/shop\n", "app.yml"),
            "database: postgres://shop:[hidden: password]@db.example.com/shop\n");
  EXPECT_EQ(Redacted("REDIS_URL=redis://:Hn4kq8Zr2@cache:6379/0\n", ".env"),
            "REDIS_URL=redis://:[hidden: password]@cache:6379/0\n");
  EXPECT_TRUE(HidesExactly("\"url\": \"https:\\/\\/ci:Tq7vLm2x@nexus.test\\/repo\"", "Tq7vLm2x",
                           "package.json"));
  EXPECT_TRUE(HidesExactly("-url = \"mysql://root:p@ss:w0rd@mysql:3306/app\"\r\n", "p@ss:w0rd",
                           "db.tf", TextKind::kDiff));
}

TEST(DetectorUrlPassword, UrlsWithoutAPasswordAreKept) {
  EXPECT_TRUE(HidesNothing(
      "see https://example.com:8443/docs?page=2#x and git@github.com:acme/shop.git\n"
      "ssh://git@gitlab.test:2222/acme/shop.git https://user@example.com/\n"
      "postgres://user:<password>@localhost/app redis://:${REDIS_PASSWORD}@cache:6379\n"
      "https://host:8080/users/alice@example.com\n",
      "README.md"));
}

// --- Settings named for a secret

struct SettingCase {
  const char* path;
  std::string text;
  std::string value;
};

std::vector<SettingCase> SettingCases() {
  const std::string v = "Tr0ub4dor&3x";
  const std::string k = Chars(kAlnum, 32, 100);
  return {
      {"config/app.yml", "database:\n  password: " + v + "\n", v},
      {"config/app.yml", "api_key: '" + k + "'  # rotate yearly\n", k},
      {"config/app.json", "{\"db\": {\"password\": \"" + v + "\", \"host\": \"db\"}}", v},
      {"config/app.json", "{\"client_secret\": \"a\\\"b" + k + "\"}", "a\\\"b" + k},
      {".env", "DB_PASSWORD=" + v + "\nAPI_TOKEN=\"" + k + "\"\n", v},
      {".env.production", "STRIPE_SECRET_KEY=" + k + "\r\n", k},
      {"conf/app.ini", "[db]\npassword = " + v + " ; old one\n", v},
      {"pyproject.toml", "[tool.x]\ntoken = \"" + k + "\"\n", k},
      {"app.properties", "spring.datasource.password=" + v + "\n", v},
      {"web.config", "<add key=\"ApiKey\" value=\"" + k + "\" />\n", k},
      {"pom.xml", "<server><password>" + v + "</password></server>\n", v},
      {"settings.xml", "<db user=\"app\" password=\"" + v + "\"/>\n", v},
      {"app/settings.py", "SECRET_KEY = '" + k + "'\n", k},
      {"app/db.py", "conn = connect(host=\"db\", password=\"" + v + "\")\n", v},
      {"src/api.ts", "const client = new Client({ apiKey: '" + k + "' });\n", k},
      {"main.go", "\tpassword := \"" + v + "\"\n", v},
      {"Db.java", "ds.setPassword(\"" + v + "\");\n", v},
      {"Db.java", "props.put(\"password\", \"" + v + "\");\n", v},
      {"config.rb", "  :password => \"" + v + "\",\n", v},
      {"config.php", "    'db_password' => '" + v + "',\n", v},
      {"Startup.cs", "    options.ClientSecret = \"" + k + "\";\n", k},
      {"src/config.rs", "const API_TOKEN: &str = \"" + k + "\";\n", k},
      {"deploy.sh", "export GITHUB_TOKEN=" + k + "\n", k},
      {"deploy.sh", "./tool --password=" + v + " --verbose\n", v},
      {"Dockerfile", "ENV DB_PASSWORD " + v + "\n", v},
      {"main.tf", "  password = \"" + v + "\"\n", v},
      {"variables.tf",
       "variable \"db_password\" {\n  type    = string\n  default = \"" + v + "\"\n}\n", v},
      {"k8s/deploy.yaml", "env:\n  - name: API_KEY\n    value: \"" + k + "\"\n", k},
      {"requests/admin.http", "GET /admin\nAuthorization: Basic " + k + "\n", k},
      {"requests/admin.http", "X-Api-Key: " + k + "\n", k},
      {"appsettings.json", "\"Db\": \"Server=db;User Id=app;Password=" + v + ";Encrypt=true\"\n",
       v},
      {"notes.md", "call https://api.test/v1?api_key=" + k + "&q=1\n", k},
      {"", "Set the password: " + v + " on staging", v},
      {"config.ini", "[mail]\nmailgunsigningkey = " + k + "\n", k},
      {"src/Api.java", "static final String DDAPPLICATIONKEY = \"" + k + "\";\n", k},
      {"ecs/task.json", "{\"name\": \"DB_PASSWORD\", \"value\": \"" + v + "\"}\n", v},
  };
}

TEST(DetectorSettings, ValueOfASettingNamedForASecretIsHiddenInEachFormat) {
  for (const auto& c : SettingCases()) {
    EXPECT_TRUE(HidesExactly(c.text, c.value, c.path)) << c.path;
  }
}

// A key no word qualifies (`KEY=`, a service's name before Key) holds a secret when its value has
// a token's shape; a key that is a word, a path, a short or 16-digit id, a placeholder, or a
// public key's, a table's or a lookup's is kept. (TruffleHog's detector tests write keys so:
// `[DEBUG] Using adobe KEY=…`, Go's `bitfinexKey := "…"`.)
TEST(DetectorSettings, AnUnqualifiedKeyHidesATokenShapedValueOnly) {
  const std::string k = Chars(kAlnum, 32, 160);
  const std::string h = Chars(kHex, 32, 161);
  EXPECT_TRUE(HidesExactly("\t[DEBUG] Using adobe KEY=" + k + "\n", k, "notes/case.txt"));
  EXPECT_TRUE(HidesExactly("[DEBUG] Using Key=" + h + "\n", h, "logs/run.log"));
  EXPECT_TRUE(HidesExactly("\tbitfinexKey := \"" + k + "\"\n", k, "main.go"));
  EXPECT_TRUE(HidesExactly("key: " + k + "\n", k, "config/app.yml"));
  EXPECT_TRUE(HidesNothing("key = \"user.profile.title\"\nKEY=ENTER\nkey: id_rsa_2\n", "app.ini"));
  EXPECT_TRUE(HidesNothing("KEY=13B6F51ECDDE430D\n", "t/t5534-push-signed.sh"));
  // A property list's key names an entry; gpg's --recv-keys takes a public key's fingerprint.
  EXPECT_TRUE(
      HidesNothing("<dict>\n\t<key>1D60A3F5E4B4C2D1A0F9E8D7C6B5A4</key>\n\t<string>x</string>\n",
                   "App/Info.plist"));
  EXPECT_TRUE(HidesNothing("<key>\n  " + h + "\n</key>\n", "Settings.plist"));
  EXPECT_TRUE(
      HidesNothing("gpg --keyserver hkps://keys.openpgp.org --recv-keys "
                   "7169605F62C751356D054A26A821E680E5FA6305\n",
                   "Dockerfile"));
  EXPECT_TRUE(HidesExactly("<apiKey>" + k + "</apiKey>\n", k, "conf/app.xml"));
  // A header's name given to a constant named for a token (TruffleHog's fastly case); a
  // password written so is a passphrase and still hidden.
  EXPECT_TRUE(HidesNothing(
      "const contentTypeToken string = \"Content-Type\"\nrequestIdToken = 'X-Request-ID'\n",
      "client.go"));
  EXPECT_TRUE(
      HidesExactly("password = \"Correct-Horse-Battery\"\n", "Correct-Horse-Battery", "app.ini"));
  EXPECT_TRUE(HidesExactly("token = \"Xq7-" + k + "\"\n", "Xq7-" + k, "app.ini"));
  EXPECT_TRUE(HidesNothing("public_key = \"" + k + "\"\nforeignKey=" + k + "\nsort_key: " + k +
                               "\ncacheKey = '" + k + "'\n",
                           "config/app.ini"));
  EXPECT_TRUE(HidesNothing(
      "key = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\"\n", "src/b64.py"));
}

// `slack token - 'value'`: a dash between a secret's name and a quoted value, as notes and logs
// write it. A subtraction (`token - '0'`) and a dash with no quoted value are no setting.
TEST(DetectorSettings, NameDashQuotedValueIsASetting) {
  const std::string value = Chars(kAlnum, 32, 150);
  EXPECT_TRUE(HidesExactly("zulip token - '" + value + "'\n", value, "notes/rotation.txt"));
  EXPECT_TRUE(HidesExactly("billing password - \"" + value + "\"\n", value, "docs/ops.md"));
  EXPECT_TRUE(HidesNothing("int digit = token - '0';\nthe token - see the vault\n", "src/parse.c"));
}

// Jenkins writes each credential encrypted as {base64}, the base64 starting AQAAABAAAA: the
// material is hidden, whatever element holds it; the braces stay.
TEST(DetectorProviderTokens, JenkinsEncryptedCredentialIsHidden) {
  const std::string secret = Cat({"AQAAABAA", "AAAQ", Chars(kBase64, 42, 151), "="});
  EXPECT_EQ(Redacted("<password>{" + secret + "}</password>\n", "credentials.xml"),
            "<password>{[hidden: Jenkins secret]}</password>\n");
  EXPECT_TRUE(HidesExactly("<apiToken>{" + secret + "}</apiToken>\n", secret, "config.xml"));
  EXPECT_TRUE(HidesNothing("<id>{" + Chars(kAlnum, 8, 152) + "}</id>\n", "credentials.xml"));
}

TEST(DetectorSettings, OnlyTheValueIsHiddenNotTheNameOrQuotes) {
  EXPECT_EQ(Redacted("  \"password\": \"Tr0ub4dor&3\",\n", "config.json"),
            "  \"password\": \"[hidden: password]\",\n");
  EXPECT_EQ(Redacted("Authorization: Bearer abcDEF123456ghiJKL\n", "api.http"),
            "Authorization: Bearer [hidden: credentials]\n");
  EXPECT_EQ(Redacted("password: hunter2\r\nuser: ada\r\n", "app.yml"),
            "password: [hidden: password]\r\nuser: ada\r\n");
}

TEST(DetectorSettings, DiffLinesAreReadWithTheFormatOfTheirFile) {
  const std::string diff =
      "diff --git a/config/app.yml b/config/app.yml\n"
      "--- a/config/app.yml\n"
      "+++ b/config/app.yml\n"
      "@@ -1,2 +1,2 @@\n"
      "-  password: Old-pw-2023\n"
      "+  password: New-pw-2024\n"
      " user: app\n"
      "diff --git a/app/db.py b/app/db.py\n"
      "--- a/app/db.py\n"
      "+++ b/app/db.py\n"
      "@@ -1 +1 @@\n"
      "+password = user_password\n";
  const Scanned s = Scan(diff, {}, TextKind::kDiff);
  EXPECT_NE(s.redacted.find("-  password: [hidden: password]\n"), std::string::npos) << s.redacted;
  EXPECT_NE(s.redacted.find("+  password: [hidden: password]\n"), std::string::npos) << s.redacted;
  EXPECT_NE(s.redacted.find("+password = user_password\n"), std::string::npos) << s.redacted;
}

TEST(DetectorSettings, PairedNameAndValueLinesAreReadTogether) {
  const std::string v = "Falcon4225?x";
  const std::string diff =
      "@@ -12,3 +12,3 @@\n"
      "             - name: API_TOKEN\n"
      "-              value: Old-Value-123\n"
      "+              value: " +
      v +
      "\n"
      "             - name: LOG_LEVEL\n"
      "               value: info\n";
  const Scanned s = Scan(diff, "k8s/deploy.yaml", TextKind::kDiff);
  EXPECT_NE(s.redacted.find("-              value: [hidden: token]\n"), std::string::npos)
      << s.redacted;
  EXPECT_NE(s.redacted.find("+              value: [hidden: token]\n"), std::string::npos)
      << s.redacted;
  EXPECT_NE(s.redacted.find("value: info"), std::string::npos) << s.redacted;
  // Only the item's own value: the next <add> is another setting.
  EXPECT_TRUE(
      HidesNothing("<add key=\"ConsumerSecret\" value=\"your-token-goes-here\" />\n"
                   "<add key=\"Region\" value=\"westeurope\" />\n",
                   "Web.config"));
}

TEST(DetectorSettings, ReferencesAndPlaceholdersAreKept) {
  EXPECT_TRUE(
      HidesNothing("password = os.environ[\"DB_PASSWORD\"]\n"
                   "token = os.getenv('API_TOKEN')\n"
                   "api_key = settings.API_KEY\n"
                   "secret = self.secret\n"
                   "password = user_password\n"
                   "token: str = None\n"
                   "def login(password: str, token: Optional[str] = None): ...\n"
                   "access_token = get_token()\n"
                   "max_tokens = 4096\n",
                   "app/config.py"));
  EXPECT_TRUE(
      HidesNothing("const apiKey = process.env.API_KEY;\nconst token: string = opts.token;\n"
                   "headers: { Authorization: `Bearer ${token}` }\n",
                   "src/client.ts"));
  EXPECT_TRUE(
      HidesNothing("password: ${DB_PASSWORD}\n"
                   "api_key: \"{{ .Values.apiKey }}\"\n"
                   "token: ${{ secrets.GITHUB_TOKEN }}\n"
                   "client_secret: <your-client-secret>\n"
                   "secret: changeme\n"
                   "password: \"********\"\n"
                   "auth_token: xxxxxxxxxxxxxxxx\n"
                   "api_key: your_api_key_here\n"
                   "secret_key: REDACTED\n"
                   "password: null\n"
                   "token: ~\n"
                   "credentials: {}\n"
                   "password: example\n",
                   "config/app.yml"));
  EXPECT_TRUE(HidesNothing("DB_PASSWORD=%DB_PASSWORD%\nTOKEN=$TOKEN\nSECRET=\n", "run.env"));
}

TEST(DetectorSettings, NamesThatMerelyHoldTheWordAreKept) {
  EXPECT_TRUE(HidesNothing(
      "author: Ada Lovelace\n"
      "token_type: Bearer\n"
      "password_min_length: 12\n"
      "auth_method: oauth2\n"
      "secret_name: tls-cert\n"
      "token_url: https://oauth2.example.com/token\n"
      "password_field: user_password\n"
      "passwordless: true\n"
      "keyboard_layout: dvorak\n"
      "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq0n0rWvQmK3zEw1LfH0p7bq2s9gkV3Z9x\n"
      "ssh_key_path: ~/.ssh/id_ed25519\n"
      "next_page_token: CAoQAA\n",
      "config/app.yml"));
}

TEST(DetectorSettings, TranslationsAndSentencesAreKept) {
  EXPECT_TRUE(HidesNothing("password: Passwort\nforgot_password: Passwort vergessen?\n",
                           "config/locales/de.yml"));
  EXPECT_TRUE(
      HidesNothing("\"password\": \"Mot de passe\",\n\"token\": \"Jeton\"\n", "src/i18n/fr.json"));
  EXPECT_TRUE(HidesNothing("/// - password: MySQL password of the user\n", "src/session.h"));
}

TEST(DetectorCommandLine, PasswordsGivenToCommandsAreHidden) {
  EXPECT_EQ(Redacted("curl -u deploy:Glacier7140! https://nexus.test/status\n", "check.sh"),
            "curl -u deploy:[hidden: password] https://nexus.test/status\n");
  EXPECT_TRUE(HidesExactly("docker login -u admin -p Saffron3818# registry.test\n", "Saffron3818#",
                           "ci/push.sh"));
  EXPECT_TRUE(HidesExactly("mysql -u root -pS3cretPw app < dump.sql\n", "S3cretPw", "load.sh"));
  EXPECT_TRUE(HidesNothing(
      "docker run -p 8080:80 app\ncurl -u \"$USER:$PASS\" https://x.test\nmkdir -p out\n",
      "run.sh"));
}

// --- Passwords in prose

TEST(DetectorProsePassword, PasswordWrittenInASentenceIsHidden) {
  EXPECT_TRUE(HidesExactly("The admin password for the router is Juniper5018?.", "Juniper5018?", {},
                           TextKind::kCommitMessage));
  EXPECT_TRUE(HidesExactly("# the password is Tundra9576? (same as staging)\n", "Tundra9576?",
                           "tools/maintenance.py"));
  EXPECT_TRUE(
      HidesExactly("Log in as admin with password Quartz311#.\n", "Quartz311#", "wiki/access.md"));
  EXPECT_TRUE(HidesExactly("pw is abc123xyz\n", "abc123xyz", "notes.txt"));
  EXPECT_TRUE(HidesExactly("+use `glacier-bfamvV` as the password\n", "glacier-bfamvV",
                           "docs/access.md", TextKind::kDiff));
  EXPECT_TRUE(HidesExactly("Das Passwort lautet Thunder2333?.", "Thunder2333?", {},
                           TextKind::kCommitMessage));
  EXPECT_TRUE(HidesExactly("mot de passe : Orbit8106!\n", "Orbit8106!", "README.txt"));
  EXPECT_TRUE(
      HidesExactly("La contrase\xc3\xb1"
                   "a es Sunflower1624!\n",
                   "Sunflower1624!", "README.txt"));
  EXPECT_TRUE(HidesExactly("\xd0\x9f\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c: Maple7339?\n",
                           "Maple7339?", {}, TextKind::kCommitMessage));
  EXPECT_TRUE(
      HidesExactly("\xe5\xaf\x86\xe7\xa0\x81\xef\xbc\x9a"
                   "Glacier3423#\n",
                   "Glacier3423#", "README.txt"));
}

// Each word written outside ASCII, after text that is non-ASCII throughout (Cyrillic, accented
// Latin, CJK): the detector passes over bytes no word starts with, so every word's first two
// bytes must still be looked at.
TEST(DetectorProsePassword, EveryNonAsciiWordIsFoundAmongOtherNonAsciiText) {
  const std::string lead =
      "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 "     // Привет
      "\xc3\xa9\xc3\xbc\xc3\xb1 \xe6\x97\xa5\xe6\x9c\xac. ";  // éüñ 日本.
  const char* words[] = {
      "\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c",              // пароль
      "\xd0\x9f\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c",              // Пароль
      "\xd0\x9f\xd0\x90\xd0\xa0\xd0\x9e\xd0\x9b\xd0\xac",              // ПАРОЛЬ
      "\xe5\xaf\x86\xe7\xa0\x81",                                      // 密码
      "\xe5\xaf\x86\xe7\xa2\xbc",                                      // 密碼
      "\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89",  // パスワード
      "\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8",              // 비밀번호
      "\xc5\x9eifre",                                                  // Şifre
      "\xc5\x9fifre",                                                  // şifre
      "has\xc5\x82o",                                                  // hasło
      "l\xc3\xb6senord",                                               // lösenord
      "jelsz\xc3\xb3",                                                 // jelszó
      "\xce\xba\xcf\x89\xce\xb4\xce\xb9\xce\xba\xcf\x8c\xcf\x82",      // κωδικός
  };
  for (const char* word : words) {
    SCOPED_TRACE(word);
    EXPECT_TRUE(HidesExactly(lead + word + ": Maple7339?\n", "Maple7339?", "notes.txt"));
  }
}

TEST(DetectorProsePassword, OrdinarySentencesAboutPasswordsAreKept) {
  EXPECT_TRUE(HidesNothing(
      "The password is required and is stored as a bcrypt hash.\n"
      "If the password is incorrect, the form shows an error.\n"
      "password.encode() is called before hashing; if (password !== confirmPassword) {}\n"
      "Passwort: siehe Tresor.\n"
      "Le mot de passe est stock\xc3\xa9 dans le coffre.\n"
      "La contrase\xc3\xb1"
      "a es obligatoria.\n",
      "docs/security.md"));
}

// --- Private keys

std::string KeyBody(const std::string& der_prefix, size_t lines, uint32_t seed,
                    const std::string& prefix = "", const std::string& eol = "\n") {
  std::string all = der_prefix + Chars(kBase64, lines * 64 - der_prefix.size() - 4, seed) + "AQAB";
  std::string out;
  for (size_t i = 0; i < all.size(); i += 64) out += prefix + all.substr(i, 64) + eol;
  return out;
}

const char kPkcs8[] = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ";

TEST(DetectorPrivateKeys, KeyMaterialIsHiddenAndMarkerLinesStayVisible) {
  const std::string body = KeyBody(kPkcs8, 6, 200);
  const std::string text =
      "key: |\n-----BEGIN PRIVATE KEY-----\n" + body + "-----END PRIVATE KEY-----\nnext: 1\n";
  EXPECT_EQ(Redacted(text, "secrets.yml"),
            "key: |\n-----BEGIN PRIVATE KEY-----\n[hidden: private key]\n"
            "-----END PRIVATE KEY-----\nnext: 1\n");
  for (const char* kind : {"RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "}) {
    const std::string t = std::string("-----BEGIN ") + kind + "PRIVATE KEY-----\r\n" +
                          KeyBody("MIIEpAIBAAKCAQEA", 4, 201, "", "\r\n") + "-----END " + kind +
                          "PRIVATE KEY-----\r\n";
    EXPECT_TRUE(Hides(t, KeyBody("MIIEpAIBAAKCAQEA", 4, 201, "", "\r\n").substr(0, 200))) << kind;
    EXPECT_NE(Redacted(t).find(std::string("-----END ") + kind + "PRIVATE KEY-----"),
              std::string::npos);
  }
}

TEST(DetectorPrivateKeys, ABlockWrittenOnOneLineIsHiddenBetweenItsMarkers) {
  // Its lines joined by spaces, as an environment variable or a JSON value holds it, however
  // short the lines.
  const std::string body =
      Cat({"Rg8T", Chars(kBase64, 9, 240), " G+z", Chars(kBase64, 30, 241), "Fw7 Y+"});
  const std::string text = "GITHUB_APP_KEY = \"-----BEGIN RSA PRIVATE KEY----- " + body +
                           " -----END RSA PRIVATE KEY-----\"\n";
  EXPECT_TRUE(Hides(text, body, "app/settings.py"));
  EXPECT_NE(Redacted(text, "app/settings.py").find("-----END RSA PRIVATE KEY-----"),
            std::string::npos);
  EXPECT_NE(Redacted(text, "app/settings.py")
                .find("-----BEGIN RSA PRIVATE KEY----- [hidden: private key] -----END"),
            std::string::npos)
      << Redacted(text, "app/settings.py");
  // Words between the markers on one line are prose about them, a digit and capitals in them
  // too.
  EXPECT_TRUE(HidesNothing(
      "A key starts with -----BEGIN PRIVATE KEY----- and ends with -----END PRIVATE KEY-----\n",
      "docs/keys.md"));
  EXPECT_TRUE(HidesNothing(
      "-----BEGIN PRIVATE KEY----- Paste your PKCS8 key here -----END PRIVATE KEY-----\n"
      "-----BEGIN PRIVATE KEY----- Base64 DER of RFC 5208 Section 5 -----END PRIVATE KEY-----\n",
      "docs/keys.md"));
  EXPECT_TRUE(HidesNothing(
      "KEY=\"-----BEGIN PRIVATE KEY----- Put Your Key 2 Here -----END PRIVATE KEY-----\"\n",
      "deploy/.env.example"));
}

TEST(DetectorPrivateKeys, PgpPrivateKeyBlockIsHidden) {
  const std::string body = "Version: GnuPG v2\n\nlQOYBF" + Chars(kBase64, 58, 210) + "\n" +
                           Chars(kBase64, 64, 211) + "\n=Ab3d\n";
  const std::string text =
      "-----BEGIN PGP PRIVATE KEY BLOCK-----\n" + body + "-----END PGP PRIVATE KEY BLOCK-----\n";
  EXPECT_TRUE(Hides(text, body.substr(0, body.size() - 1)));
}

TEST(DetectorPrivateKeys, AWindowStartingOrEndingInsideABlockHidesItsPart) {
  const std::string body = KeyBody(kPkcs8, 5, 220);
  // Starts inside: no BEGIN line, an END line.
  EXPECT_EQ(Redacted(body + "-----END PRIVATE KEY-----\n"),
            "[hidden: private key]\n-----END PRIVATE KEY-----\n");
  // Ends inside: a BEGIN line, no END line.
  EXPECT_EQ(Redacted("-----BEGIN RSA PRIVATE KEY-----\n" + body),
            "-----BEGIN RSA PRIVATE KEY-----\n[hidden: private key]\n");
}

TEST(DetectorPrivateKeys, KeyInAJsonStringWithEscapesIsHidden) {
  std::string escaped;
  const std::string body = KeyBody(kPkcs8, 4, 230);
  for (char c : body) escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
  const std::string text =
      "{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE "
      "KEY-----\\n" +
      escaped +
      "-----END PRIVATE KEY-----\\n\", "
      "\"client_email\": \"ci@acme.iam.gserviceaccount.com\"}";
  const Scanned s = Scan(text, "sa.json");
  EXPECT_NE(s.redacted.find("\"-----BEGIN PRIVATE KEY-----\\n[hidden: private key]\\n-----END "
                            "PRIVATE KEY-----\\n\""),
            std::string::npos)
      << s.redacted;
  EXPECT_NE(s.redacted.find("ci@acme.iam.gserviceaccount.com"), std::string::npos);
}

TEST(DetectorPrivateKeys, KeyInADiffHunkIsHidden) {
  const std::string body = KeyBody("MIIEpAIBAAKCAQEA", 5, 240, "+");
  const std::string diff = "@@ -0,0 +1,7 @@\n+-----BEGIN RSA PRIVATE KEY-----\n" + body +
                           "+-----END RSA PRIVATE KEY-----\n";
  EXPECT_TRUE(Hides(diff, body.substr(1, body.size() - 2), {}, TextKind::kDiff));
  // A hunk that shows only key lines, no marker at all.
  EXPECT_TRUE(Hides("@@ -10,3 +10,3 @@\n" + KeyBody("", 3, 241, " ") + "-" +
                        Chars(kBase64, 64, 242) + "\n+" + Chars(kBase64, 64, 243) + "\n",
                    Chars(kBase64, 64, 242), {}, TextKind::kDiff));
}

TEST(DetectorPrivateKeys, KeyWrittenInBase64OnOneLineIsHidden) {
  // base64 of "-----BEGIN RSA PRIVATE KEY-----\n" and of its first line.
  const std::string pem64 = Cat({"LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB",
                                 Chars(kAlnum, 200, 250), "Cg=="});
  EXPECT_TRUE(
      HidesExactly("users:\n- user:\n    client-key-data: " + pem64 + "\n", pem64, ".kube/config"));
  const std::string der = Cat({kPkcs8, Chars(kBase64, 300, 251), "=="});
  EXPECT_TRUE(HidesExactly("\"privateKey\": \"" + der + "\"", der, "keys.json"));
  const std::string openssh =
      Cat({"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", Chars(kAlnum, 80, 252)});
  EXPECT_TRUE(HidesExactly("PRIVATE_KEY=" + openssh + "\n", openssh, "docker/app.env"));
}

TEST(DetectorPrivateKeys, PublicKeysCertificatesAndImagesAreKept) {
  const std::string cert_body = KeyBody("MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa", 6, 260);
  EXPECT_TRUE(
      HidesNothing("-----BEGIN CERTIFICATE-----\n" + cert_body + "-----END CERTIFICATE-----\n"));
  EXPECT_TRUE(HidesNothing("-----BEGIN PUBLIC KEY-----\n" +
                           KeyBody("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 5, 261) +
                           "-----END PUBLIC KEY-----\n"));
  // A certificate's body alone, as a window may show it.
  EXPECT_TRUE(HidesNothing(cert_body));
  EXPECT_TRUE(HidesNothing(
      "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + Chars(kBase64, 300, 262) + " ada@laptop\n",
      "authorized_keys"));
  // certificate-authority-data: base64 of "-----BEGIN CERTIFICATE-----".
  EXPECT_TRUE(HidesNothing("certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J" +
                               Chars(kAlnum, 200, 263) + "\n",
                           ".kube/config"));
  EXPECT_TRUE(HidesNothing("<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" +
                               Chars(kBase64, 400, 264) + "\">\n",
                           "index.html"));
  // A parser's constant: a BEGIN line with no key after it.
  EXPECT_TRUE(HidesNothing(
      "static const char kBegin[] = \"-----BEGIN RSA PRIVATE KEY-----\";\n"
      "static const char kEnd[] = \"-----END RSA PRIVATE KEY-----\";\nint parse(void);\n",
      "src/pem.c"));
}

// --- Things a repository is full of

TEST(DetectorHardNegatives, IdsHashesAndOrdinaryValuesAreKept) {
  EXPECT_TRUE(
      HidesNothing("commit 9fceb02d0ae598e95dc970b74767f19372d61af8\n"
                   "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
                   "request_id: 123e4567-e89b-12d3-a456-426614174000\n"
                   "version: 1.24.3-rc.1+build.5\n"
                   "color: #1e90ff; background: rgba(0,0,0,.5)\n",
                   "NOTES.md"));
  EXPECT_TRUE(HidesNothing(
      "\"integrity\": \"sha512-" + Chars(kBase64, 86, 300) +
          "==\",\n"
          "\"resolved\": \"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz\"\n",
      "package-lock.json"));
  EXPECT_TRUE(HidesNothing("def authenticate(username, password):\n    return check(password)\n",
                           "app/auth.py"));
}

// Lines met in real code and documentation that once looked like settings to the detectors.
TEST(DetectorHardNegatives, LinesFromRealCodeAndDocumentationAreKept) {
  EXPECT_TRUE(HidesNothing("#define LN_userPassword \"userPassword\"\n", "openssl/obj_mac.h"));
  EXPECT_TRUE(HidesNothing(" * @NL80211_ATTR_TDLS_DIALOG_TOKEN: Non-zero token for a dialog\n",
                           "linux/nl80211.h"));
  EXPECT_TRUE(HidesNothing("my $out = $as->{pass} ? \"PASS\" : \"FAIL\";\n", "Event.pm"));
  EXPECT_TRUE(HidesNothing("for (const key of ['_auth', '_authToken', 'username']) {}\n",
                           "config/index.js"));
  EXPECT_TRUE(HidesNothing("print(\"shlex: token=\" + repr(raw))\n", "shlex.py"));
  EXPECT_TRUE(HidesNothing("jsonnet_token = r'[^\\W\\d]\\w*'\n", "lexers/jsonnet.py"));
  EXPECT_TRUE(HidesNothing("creds = \" --username=\" + auth\n", "package_index.py"));
  EXPECT_TRUE(HidesNothing(" * \"git pull --rebase\" did not pass \"-v/-q\" options\n",
                           "RelNotes/1.8.3.txt"));
  EXPECT_TRUE(HidesNothing("#jdk.security.krb5.default.initiate.credential=always-impersonate\n",
                           "java.security"));
  EXPECT_TRUE(HidesNothing("# com.sun.management.jmxremote.ssl.need.client.auth=true|false\n",
                           "management.properties"));
  EXPECT_TRUE(HidesNothing("like &ldquo;secret:1&rdquo;, &ldquo;secret:2&rdquo;\n", "nettle.html"));
  EXPECT_TRUE(HidesNothing("  UserEncPass := NoUser;\n", "examples/testpass.pp"));
  EXPECT_TRUE(HidesNothing("-auth=anonymous:$FROM_EMAIL\n", "File/Fetch.pm"));
  // An XML signature's value and a certificate's body split over lines.
  EXPECT_TRUE(HidesNothing("<dsig:SignatureValue>" + Chars(kBase64, 64, 500) + "\n" +
                               Chars(kBase64, 64, 501) + "\n" + Chars(kBase64, 64, 502) +
                               "</dsig:SignatureValue>\n",
                           "sign-res.xml"));
  EXPECT_TRUE(HidesNothing(Chars(kBase64, 30, 503) + "BgNVBAMT" + Chars(kBase64, 26, 504) + "\n" +
                           Chars(kBase64, 64, 505) + "\n" + Chars(kBase64, 64, 506) + "\n"));
}

// --- Contract

TEST(DetectorPlugin, DetectorsAreSafeToRunOnManyThreadsAtOnce) {
  const auto* entry = Plugin().entry();
  ASSERT_NE(entry, nullptr);
  // Fresh detectors over the C boundary, as the server makes them (the test kit's plugin keeps
  // the library loaded).
  auto made = repo_reader::host::MakeDetectors(*entry, {}, nullptr);
  ASSERT_TRUE(made.error.empty()) << made.error;
  std::string text;
  for (const auto& c : SettingCases()) text += c.text;
  for (const auto& c : ProviderTokens()) text += "x = " + c.token + "\n";
  text += "-----BEGIN PRIVATE KEY-----\n" + KeyBody(kPkcs8, 6, 400) + "-----END PRIVATE KEY-----\n";
  struct Collect : repo_reader::SpanSink {
    std::vector<std::pair<size_t, size_t>> spans;
    void Add(size_t b, size_t e, std::string_view) override { spans.push_back({b, e}); }
  };
  // Every detector on every keyword's occurrences, as the server would call it.
  auto run = [&]() {
    std::vector<std::pair<size_t, size_t>> all;
    std::string lower(text);
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const auto& d : made.made) {
      std::vector<repo_reader::KeywordHit> hits;
      const auto words = d->keywords();
      for (uint32_t k = 0; k < words.size(); ++k) {
        std::string w = words[k];
        for (auto& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        for (size_t at = lower.find(w); at != std::string::npos; at = lower.find(w, at + 1)) {
          hits.push_back({static_cast<uint32_t>(at), k});
        }
      }
      std::sort(hits.begin(), hits.end(),
                [](const auto& a, const auto& b) { return a.offset < b.offset; });
      if (!words.empty() && hits.empty()) continue;
      Collect sink;
      d->Scan({text, TextKind::kFile, "mixed.txt", hits.data(), hits.size()}, sink);
      all.insert(all.end(), sink.spans.begin(), sink.spans.end());
    }
    std::sort(all.begin(), all.end());
    return all;
  };
  const auto expected = run();
  ASSERT_FALSE(expected.empty());
  std::vector<std::thread> threads;
  std::vector<int> same(4, 0);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      bool ok = true;
      for (int r = 0; r < 20; ++r) ok = ok && run() == expected;
      same[i] = ok;
    });
  }
  for (auto& t : threads) t.join();
  for (int s : same) EXPECT_TRUE(s);
}

// One line of a megabyte full of keywords (minified code, a blob): each occurrence reads a
// bounded stretch around it, so the scan stays linear. A quadratic scan would take minutes.
TEST(DetectorPlugin, ALongLineFullOfKeywordsIsScannedInBoundedTime) {
  std::string line;
  while (line.size() < (1u << 20)) line += "token=ab1 password: \"x\" key-";
  const auto start = std::chrono::steady_clock::now();
  const Scanned s = Plugin().Scan(line, TextKind::kFile, ".env");
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(s.error.empty()) << s.error;
  EXPECT_LT(seconds, 20.0);
}

TEST(DetectorPlugin, EmptyAndBinaryLookingTextsAreScannedWithoutFailure) {
  EXPECT_TRUE(HidesNothing(""));
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise.push_back(static_cast<char>((i * 131 + 7) & 0xff));
  const Scanned s = Plugin().Scan(noise);
  EXPECT_TRUE(s.error.empty()) << s.error;
  EXPECT_TRUE(Scan("password").spans.empty());
  EXPECT_TRUE(Scan("-----BEGIN RSA PRIVATE KEY-----").spans.empty());
  EXPECT_TRUE(Scan("https://").spans.empty());
}

}  // namespace
}  // namespace detectors_test
