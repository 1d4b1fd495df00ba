// The built-in detectors on the formats and syntaxes other scanners' public rule sets know
// (bench/secrets/public_cases.py measures them on those scanners' own test cases, read at run
// time): where a setting's value sits in more languages, more providers' token formats, the
// placeholders documentation writes, and a hidden span always covering its whole token.
//
// Every value here is our own: assembled at run time from a prefix and generated characters,
// so no literal in this file looks like a credential to a scanner.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>
#include <vector>

#include "tests/secrets/builtin_scan.h"
#include "tests/secrets/generated_values.h"

namespace public_formats {
namespace {

using repo_reader::TextKind;
using repo_reader::testkit::Scanned;

using rr::testing::Chars;
using rr::testing::kHex;
const std::string& kAlnum = rr::testing::kBase62;
const std::string kLowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789";
const std::string kDigits = "0123456789";

std::string Cat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& p : parts) out += p;
  return out;
}

// The built-in plugin's scan and checks (tests/secrets/builtin_scan.h), the path optional here.
Scanned Scan(const std::string& text, std::string_view path, TextKind kind = TextKind::kFile) {
  return rr::testing::ScanAs(text, path, kind);
}
::testing::AssertionResult Hides(const std::string& text, const std::string& value,
                                 std::string_view path = {}, TextKind kind = TextKind::kFile) {
  return rr::testing::HidesWhole(text, value, path, kind);
}
::testing::AssertionResult HidesNothing(const std::string& text, std::string_view path = {},
                                        TextKind kind = TextKind::kFile) {
  return rr::testing::HidesNone(text, path, kind);
}

// A value with a token's shape and no provider's prefix: only where it sits shows it.
std::string Value(uint32_t seed) { return Chars(28, kAlnum, seed) + Chars(4, kDigits, seed); }

// --- Where a setting's value sits

TEST(DetectorSyntaxes, GoVarWithATypeIsReadAsAnAssignment) {
  const std::string v = Value(1);
  EXPECT_TRUE(Hides("var billingToken string = \"" + v + "\"\n", v, "internal/billing.go"));
  EXPECT_TRUE(Hides("const apiKey string = `" + v + "`\n", v, "cmd/main.go"));
  // A declaration alone, or a comparison, sets nothing.
  EXPECT_TRUE(HidesNothing("var billingToken string\nif token == other {\n", "x.go"));
}

TEST(DetectorSyntaxes, PhpAppendAndMakefileShellAssignmentsAreRead) {
  const std::string v = Value(2);
  EXPECT_TRUE(Hides("<?php\n$deployToken .= \"" + v + "\";\n", v, "src/deploy.php"));
  EXPECT_TRUE(Hides("DEPLOY_TOKEN ::= \"" + v + "\"\n", v, "Makefile"));
  EXPECT_TRUE(Hides("DEPLOY_TOKEN :::= " + v + "\n", v, "build/rules.mk"));
  // C++'s scope operator is no assignment.
  EXPECT_TRUE(HidesNothing("auto t = Session::token::kind;\n", "src/session.cc"));
}

TEST(DetectorSyntaxes, XmlElementWhoseValueIsOnItsOwnLine) {
  const std::string v = Value(3);
  EXPECT_TRUE(
      Hides("<settings>\n  <partnerApiKey>\n    " + v + "\n  </partnerApiKey>\n</settings>\n", v,
            "conf/partner.xml"));
  // Elements holding elements are no value.
  EXPECT_TRUE(HidesNothing("<apiKey>\n  <ref name=\"vault\"/>\n</apiKey>\n", "conf/ref.xml"));
  // A '>' is XML text like any other character (only '<' and '&' must be escaped).
  const std::string arrow = Cat({Chars(12, kAlnum, 5), "#`>", Chars(12, kAlnum, 6), "]!n/f1"});
  EXPECT_TRUE(Hides("<settings>\n  <sirvApiKey>\n    " + arrow + "\n  </sirvApiKey>\n</settings>\n",
                    arrow, "conf/sirv.xml"));
}

TEST(DetectorSyntaxes, VaultsSecretIdIsHiddenAnAwsSecretsIdKept) {
  // AppRole's SecretID, a UUID: the credential that logs in with a role_id.
  const std::string uuid =
      Cat({Chars(8, kHex, 80), "-", Chars(4, kHex, 81), "-4", Chars(3, kHex, 82), "-a",
           Chars(3, kHex, 83), "-", Chars(12, kHex, 84)});
  EXPECT_TRUE(Hides("role_id = \"app\"\nsecret_id = \"" + uuid + "\"\n", uuid, "vault/login.hcl"));
  EXPECT_TRUE(Hides("VAULT_SECRET_ID=" + uuid + "\n", uuid, "deploy/service.env"));
  EXPECT_TRUE(Hides("{\"secretId\": \"" + uuid + "\"}\n", uuid, "config/vault.json"));
  // AWS Secrets Manager names a secret by its secret_id: a name, a path, an ARN, a reference.
  EXPECT_TRUE(HidesNothing(
      "secret_id = \"prod/db/credentials\"\n"
      "secret_id = aws_secretsmanager_secret.db.id\n"
      "secret_id = \"arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-Ab12Cd\"\n",
      "infra/main.tf"));
}

TEST(DetectorSyntaxes, UnquotedTokenShapedValueInCodeIsHidden) {
  const std::string v = Cat({"rrk_", Chars(30, kAlnum, 4), "7"});
  EXPECT_TRUE(Hides("API_KEY=" + v + "\n", v, "src/settings.py"));
  // Expressions stay: names, members, calls, constants, identifiers made of words.
  EXPECT_TRUE(HidesNothing(
      "API_KEY=load_api_key_v2\napi_token = settings.API_TOKEN_2024\nsecret = get_secret(2)\n"
      "password = user2_password_field\nTOKEN=DEFAULT_TOKEN_NAME_42\n",
      "src/settings.py"));
}

TEST(DetectorSyntaxes, ALiteralComparedWithTheNameFromBeforeIt) {
  const std::string v = Value(9);
  EXPECT_TRUE(Hides("if (\"" + v + "\" == password) {\n", v, "src/login.js"));
  EXPECT_TRUE(Hides("if ('" + v + "' !== api_key) {\n", v, "src/check.ts"));
  EXPECT_TRUE(Hides("if (\"" + v + "\" != my_secret) {\n", v, "auth.go"));
  // A comparison with a word, an empty string, or an assignment's other side is no secret.
  EXPECT_TRUE(
      HidesNothing("if (\"password\" == field) {}\nif (\"\" == password) {}\n"
                   "x = \"abc\" = token\nif (\"ok\" == token) {}\n",
                   "src/form.js"));
}

TEST(DetectorSyntaxes, CAndObjectiveCStringsAndAMisspeltName) {
  const std::string v = Value(11);
  const std::string wild = "q{{r}s)t${u]vwx(yz[frob>-_$#zork}}";
  EXPECT_TRUE(Hides("char secret[25] = \"" + v + "\";\n", v, "src/auth.c"));
  EXPECT_TRUE(Hides("db_password[] = \"" + v + "\";\n", v, "src/auth.c"));
  EXPECT_TRUE(Hides("my_password = @\"" + v + "\";\n", v, "Sources/Login.m"));
  EXPECT_TRUE(Hides("secrete = \"" + v + "\"\n", v, "app/settings.py"));
  EXPECT_TRUE(Hides("my_password_secure = \"" + v + "\"\n", v, "app/settings.py"));
  EXPECT_TRUE(Hides("if (\"" + v + "\" !== my_password_sec) {\n", v, "web/login.js"));
  // A Go raw string holding `${` is no template when its brackets do not pair up.
  EXPECT_TRUE(Hides("apiKey := `" + wild + "`\n", wild, "main.go"));
  // Glands secrete, and an array's element is read as its name's value, a reference kept.
  EXPECT_TRUE(HidesNothing("cells secrete mucus\ntokens[0] = next_token\n", "notes/bio.py"));
  // Outside code, `name[]=` appends to a list: git's credential helper protocol.
  EXPECT_TRUE(HidesNothing("\twwwauth[]=Multistage challenge=\"123\"\n", "t/t5563-auth.sh"));
}

TEST(DetectorSyntaxes, AuthorizationHeaderAfterABlank) {
  const std::string v = Chars(24, kAlnum, 5) + "==";
  EXPECT_TRUE(
      Hides("    proxy_set_header Authorization \"Basic " + v + "\";\n", v, "nginx/site.conf"));
  EXPECT_TRUE(
      HidesNothing("    proxy_set_header Authorization $http_authorization;\n", "nginx/site.conf"));
}

TEST(DetectorCommandLine, WindowsAndPuttyToolsPasswords) {
  EXPECT_TRUE(Hides("psexec \\\\build01 -u ops -p Tundra5521! cmd /c deploy.bat\n", "Tundra5521!",
                    "ops/run.bat"));
  EXPECT_TRUE(Hides("plink -ssh ops@build01 -pw Quarry8812 uptime\n", "Quarry8812", "ops/run.sh"));
  EXPECT_TRUE(
      Hides("sqlcmd -S db01 -U sa -P Lantern4471 -i init.sql\n", "Lantern4471", "db/init.sh"));
  EXPECT_TRUE(Hides("Connect-VIServer -Server vc01 -User ops -Password Hx7!tern42 -Force\n",
                    "Hx7!tern42", "ops/connect.ps1"));
  const std::string sonar = Chars(40, kHex, 56);
  EXPECT_TRUE(
      Hides("mvn sonar:sonar -Dsonar.host.url=https://sq.example -Dsonar.login=" + sonar + "\n",
            sonar, "ci/build.sh"));
  // Other tools' -p and -P are ports and paths.
  EXPECT_TRUE(HidesNothing("ssh -p 2222 ops@build01\nmkdir -p out\nrsync -P a b\n", "run.sh"));
}

TEST(DetectorSyntaxes, KubernetesSecretDataValuesAreHidden) {
  const std::string b64 = Chars(20, kAlnum, 50) + "==";
  const std::string plain = Chars(10, kLowerAlnum, 51);
  const std::string doc = "apiVersion: v1\ndata:\n  extra: " + b64 +
                          "\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  note: '" + plain +
                          "'\n---\nkind: ConfigMap\ndata:\n  mode: production\n";
  EXPECT_TRUE(Hides(doc, b64, "deploy/secret.yaml"));
  EXPECT_TRUE(Hides(doc, plain, "deploy/secret.yaml"));
  EXPECT_EQ(Scan(doc, "deploy/secret.yaml").redacted.find("production") == std::string::npos, false)
      << "a ConfigMap's data is not a Secret's";
  EXPECT_TRUE(
      HidesNothing("kind: SecretProviderClass\ndata:\n  objects: vault-db\n", "deploy/spc.yaml"));
}

TEST(DetectorSyntaxes, QuotedPasswordOfWordsIsAPassphraseInAFileOfSettings) {
  const std::string words = Cat({Chars(7, "abcdefghijklmnopqrstuvwxyz", 70), " ",
                                 Chars(5, "abcdefghijklmnopqrstuvwxyz", 71), " ",
                                 Chars(8, "abcdefghijklmnopqrstuvwxyz", 72)});
  EXPECT_TRUE(Hides("resource \"aws_db_instance\" \"main\" {\n  password = \"" + words + "\"\n}\n",
                    words, "infra/main.tf"));
  // An INI or .conf file, a .env file: nothing but settings either.
  EXPECT_TRUE(Hides("[db]\npassword = \"" + words + "\"\n", words, "etc/app.conf"));
  EXPECT_TRUE(Hides("DB_PASSWORD=\"" + words + "\"\n", words, "deploy/.env"));
  // A shell's *pwd names a folder: its command is kept.
  EXPECT_TRUE(HidesNothing("alias winpwd='cygpath -aw .'\n", "t/test-lib.sh"));
  // Words elsewhere are a message; a description and a variable are no password.
  EXPECT_TRUE(HidesNothing("errors:\n  password: \"" + words + "\"\n", "config/messages.yml"));
  EXPECT_TRUE(HidesNothing(
      "variable \"db_password\" {\n  description = \"The password of the database\"\n}\n"
      "resource \"a\" \"b\" {\n  password = var.db_password\n}\n",
      "infra/main.tf"));
}

// A value that names a field (user_password, userPassword) is kept where it is read as one: in
// code, and as words a separator parts. One word that only ends as a password's word, and
// camelCase words in a file of settings, are written as passwords are: hidden.
TEST(DetectorSyntaxes, APasswordWrittenLikeAFieldsNameIsHiddenWhereItCannotBeOne) {
  const std::string word = Chars(5, "abcdefghijklmnopqrstuvwxyz", 73) + "passwd";
  EXPECT_TRUE(Hides("password       = \"" + word + "\"\n", word, "infra/main.tf"));
  EXPECT_TRUE(Hides("DB_PASSWORD=" + word + "\n", word, "deploy/service.env"));
  const std::string camel = Cat({"Stage", Chars(6, "abcdefghijklmnopqrstuvwxyz", 74), "Password"});
  EXPECT_TRUE(
      Hides("<add key=\"ClearTextPassword\" value=\"" + camel + "\" />\n", camel, "NuGet.Config"));
  EXPECT_TRUE(Hides("db:\n  password: " + camel + "\n", camel, "config/app.yml"));
  EXPECT_TRUE(Hides("DB_PASSWORD=" + camel + "\n", camel, "deploy/service.env"));
  // Read as a field's name: camelCase in code, words a separator parts, the word itself.
  EXPECT_TRUE(HidesNothing("password = \"" + camel + "\"\n", "app/forms.py"));
  EXPECT_TRUE(HidesNothing("db:\n  password: user_password\n  secret: SECRET\n", "config/app.yml"));
  EXPECT_TRUE(HidesNothing("DB_PASSWORD=passwd\n", "deploy/service.env"));
}

// JSON written inside a string, once (`{\n\"auth\": \"…\"}`, its lines broken by escapes) or
// twice (a GitLab runner's TOML holding DOCKER_AUTH_CONFIG's JSON: \\\" for each quote): the
// quotes are escaped, the names and values are still read.
TEST(DetectorSyntaxes, JsonWrittenInsideAStringAtAnyDepth) {
  const std::string auth = Chars(28, kAlnum, 75) + "==";
  EXPECT_TRUE(Hides("{\\n\\\"auths\\\": {\\n\\\"auth\\\": \\\"" + auth + "\\\"\\n}\\n}\n", auth,
                    "notes/registry.txt"));
  const std::string runner =
      "environment = [\"DOCKER_AUTH_CONFIG={\\\\\\\"auths\\\\\\\":{\\\\\\\"" +
      std::string("registry.example.com:8081") + "\\\\\\\":{\\\\\\\"auth\\\\\\\":\\\\\\\"" + auth +
      "\\\\\\\"}}}\"]\n";
  EXPECT_TRUE(Hides(runner, auth, "config/config.toml"));
  // The same quotes round a reference keep it.
  EXPECT_TRUE(HidesNothing(
      "environment = "
      "[\"DOCKER_AUTH_CONFIG={\\\\\\\"auth\\\\\\\":\\\\\\\"${REGISTRY_AUTH}\\\\\\\"}\"]\n",
      "config/config.toml"));
}

// A configuration statement `name "value";` first on its line, as BIND's and rndc's key clauses
// write a secret (and detect-secrets' tests a password in several languages' files).
TEST(DetectorSyntaxes, AQuotedStatementFirstOnItsLine) {
  const std::string b64 = Chars(43, kAlnum, 80) + "=";
  EXPECT_TRUE(Hides("key \"rndc-key\" {\n\talgorithm hmac-sha256;\n\tsecret \"" + b64 + "\";\n};\n",
                    b64, "etc/bind/rndc.key"));
  const std::string wild = "q{{r}s)t${u]vwx(yz[frob>-_$#zork}}";
  EXPECT_TRUE(Hides("password \"" + wild + "\";\n", wild, "src/Config.java"));
  // A reference, an empty value, a name not first on its line, no ';' after: kept.
  EXPECT_TRUE(
      HidesNothing("\tsecret \"${RNDC_SECRET}\";\n\tpassword \"\";\n"
                   "log(\"set\") password \"" +
                       wild + "\";\nsecret \"" + wild + "\" is old\n",
                   "etc/bind/named.conf"));
}

// An assignment a formatter wrapped: the name and `=` end a line, the quoted value stands alone
// on the next (Prettier's `const apiKey =\n  "…";`, Black's `API_KEY = (\n`… not: a call).
TEST(DetectorSyntaxes, AValueAloneOnTheLineAfterItsAssignment) {
  const std::string key = Value(81);
  EXPECT_TRUE(
      Hides("const scrapingBeeApiKey =\n  \"" + key + "\"; // the key\n", key, "src/client.ts"));
  EXPECT_TRUE(Hides("DB_PASSWORD =\n    '" + key + "'\n", key, "app/settings.py"));
  // An expression that goes on, a template, a call: kept.
  EXPECT_TRUE(HidesNothing("const apiKey =\n  \"" + key +
                               "\" + suffix;\n"
                               "const token =\n  `${prefix}-" +
                               key +
                               "`;\n"
                               "password =\n  getPassword(\"" +
                               key + "\")\n",
                           "src/client.ts"));
}

// A token's value of six or seven characters is one when it mixes letters and digits; letters
// alone that short are a word.
TEST(DetectorSyntaxes, AShortTokenOfLettersAndDigitsIsHidden) {
  const std::string short_token = Cat({Chars(3, kAlnum, 76), "7", Chars(2, kAlnum, 77)});
  EXPECT_TRUE(Hides("POSTGRES_TOKEN=" + short_token + "\n", short_token, "deploy/service.env"));
  EXPECT_TRUE(Hides("  rabbitmq_token: " + short_token + "\n", short_token, "config/app.yml"));
  EXPECT_TRUE(
      HidesNothing("TOKEN=bearer\nAUTH_TOKEN=abcdef\nCSRF_TOKEN=a1b2c\n", "deploy/service.env"));
}

// The setting syntaxes of tools' own credential files and of CI and service managers: each
// hides a generated password, and keeps a reference or a placeholder in the same place.
TEST(DetectorSyntaxes, ToolsCredentialFilesServiceAndCiSettings) {
  struct Case {
    const char* path;
    std::string before, after;  // the text around the value
  };
  const std::vector<Case> cases = {
      {"home/.netrc", "machine api.example.org login alice password ", "\n"},
      {"home/.netrc", "machine api.example.org\n  login alice\n  password ", "\n"},
      {"home/.netrc", "default login bob password ", "\n"},
      {"etc/pip.conf", "[global]\nindex-url = https://alice:", "@pypi.example.org/simple\n"},
      {"home/.pypirc", "[pypi]\nusername = __token__\npassword = ", "\n"},
      {"backup/old-creds.txt", "https://alice:", "@git.example.org\n"},
      {"etc/app.service", "[Service]\nEnvironment=DB_PASSWORD=", "\n"},
      {"etc/app.service", "[Service]\nEnvironment=\"API_TOKEN=", "\" \"MODE=prod\"\n"},
      {".github/workflows/ci.yml", "jobs:\n  t:\n    env:\n      NPM_TOKEN: ", "\n"},
      {"gradle.properties", "systemProp.http.proxyPassword=", "\n"},
      {"settings.xml", "<server>\n  <id>x</id>\n  <password>", "</password>\n</server>\n"},
      {"appsettings.json", "{\n  \"Smtp\": {\n    \"Password\": \"", "\"\n  }\n}\n"},
      {"src/Db.cs", "var cs = \"Server=db;User ID=sa;Password=", ";\";\n"},
      {"app/db.py", "CONN = \"Host=db;Username=app;Password=", "\"\n"},
  };
  uint32_t seed = 80;
  for (const Case& c : cases) {
    const std::string pw = Chars(14, kAlnum, seed++);
    EXPECT_TRUE(Hides(c.before + pw + c.after, pw, c.path)) << c.path << ": " << c.before;
  }
  // A password that is a plain word, in a URL: the URL says it is one.
  const std::string word = Chars(8, "abcdefghijklmnopqrstuvwxyz", seed++);
  EXPECT_TRUE(
      Hides("Connect to postgres://admin:" + word + "@db.local/app\n", word, "docs/setup.md"));
  // References and placeholders in the same places are kept.
  EXPECT_TRUE(HidesNothing("Environment=DB_PASSWORD=${DB_PASSWORD}\n", "etc/app.service"));
  EXPECT_TRUE(HidesNothing("    env:\n      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n",
                           ".github/workflows/ci.yml"));
  EXPECT_TRUE(
      HidesNothing("machine example.com login <user> password <password>\n", "home/.netrc"));
  EXPECT_TRUE(HidesNothing("  password = var.db_password\n", "infra/main.tf"));
  EXPECT_TRUE(HidesNothing("{ \"Password\": \"%DB_PASSWORD%\" }\n", "appsettings.json"));
}

// A password written in a sentence or a comment is hidden; a sentence about passwords is kept.
TEST(DetectorProsePassword, PasswordInACommentOrASentenceIsHiddenAndProseAboutOneIsKept) {
  const std::string pw = Chars(9, kLowerAlnum, 90);
  EXPECT_TRUE(Hides("the password is " + pw + ", change it after login.\n", pw, "docs/setup.md"));
  EXPECT_TRUE(Hides("// admin password: " + pw + "\n", pw, "src/admin.go"));
  EXPECT_TRUE(Hides("/* the password is " + pw + " */\n", pw, "src/db.c"));
  EXPECT_TRUE(HidesNothing("The password is required for every login.\n", "docs/a.md"));
  EXPECT_TRUE(HidesNothing("If the password is wrong, the server answers 401.\n", "docs/a.md"));
  EXPECT_TRUE(
      HidesNothing("the password is hashed with bcrypt before it is stored.\n", "docs/a.md"));
  EXPECT_TRUE(HidesNothing("/* password is checked against the hash below */\n", "src/a.c"));
  EXPECT_TRUE(HidesNothing("// password: see the vault entry db/admin\n", "src/a.go"));
}

TEST(DetectorSyntaxes, KubernetesDataThatDecodesToAPlaceholderWordIsKept) {
  auto b64 = [](const std::string& in) {
    static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
      uint32_t n = static_cast<unsigned char>(in[i]) << 16;
      if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
      if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
      out += kB64[(n >> 18) & 63];
      out += kB64[(n >> 12) & 63];
      out += i + 1 < in.size() ? kB64[(n >> 6) & 63] : '=';
      out += i + 2 < in.size() ? kB64[n & 63] : '=';
    }
    return out;
  };
  auto secret = [](const std::string& value) {
    return "apiVersion: v1\nkind: Secret\ndata:\n  extra: " + value + "\n";
  };
  // "bar\n", "none": words documentation writes, in base64.
  EXPECT_TRUE(HidesNothing(secret(b64("bar\n")), "deploy/secret.yaml"));
  EXPECT_TRUE(HidesNothing(secret(b64("none")), "deploy/secret.yaml"));
  // A password in base64 stays hidden, short or long, a placeholder word of 8 or more too.
  for (const std::string& word :
       {Chars(6, kLowerAlnum, 60), Chars(14, kAlnum, 61), std::string("my") + "password"}) {
    const std::string value = b64(word);
    EXPECT_TRUE(Hides(secret(value), value, "deploy/secret.yaml")) << word;
  }
}

TEST(DetectorPlaceholders, AValueMaskedWithHashesIsKept) {
  const std::string masked = Cat({"xo", "xp-", Chars(12, kDigits, 62), "-", Chars(12, kDigits, 63),
                                  "-", Chars(12, kDigits, 66), "-", std::string(20, '#')});
  EXPECT_TRUE(HidesNothing("\"token4\": \"" + masked + "\"\n", "notes/slack.txt"));
  // A password holding a '#' or two is still a password.
  const std::string pw = Chars(6, kAlnum, 64) + "##" + Chars(6, kAlnum, 65);
  EXPECT_TRUE(Hides("\"token4\": \"" + pw + "\"\n", pw, "notes/slack.txt"));
}

// --- Providers' formats

// A 512-bit key in base64 (86 characters and "==": Azure Storage's and Cosmos DB's account keys)
// is hidden whatever names it; a SHA-512 digest an integrity field names, the storage
// emulator's published key, and a run of another length are kept.
TEST(DetectorProviderTokens, A512BitKeyInBase64IsHiddenWhateverNamesIt) {
  const std::string b64 = kAlnum + "+/";
  const std::string key = Chars(86, b64, 78) + "==";
  EXPECT_TRUE(
      Hides("new Dictionary<string, string> {\n  { \"AccountKey\", \"" + key + "\" },\n};\n", key,
            "src/Storage.cs"));
  EXPECT_TRUE(Hides("cleanup.exe -storagename acct -storagekey " + key + " -container backups\n",
                    key, "scripts/cleanup.ps1"));
  EXPECT_TRUE(Hides("export const key =\n  process.env.ACCOUNT_KEY ||\n  \"" + key + "\";\n", key,
                    "src/storage.ts"));
  EXPECT_TRUE(HidesNothing("\"integrity\": \"sha512-" + key + "\"\n", "package-lock.json"));
  EXPECT_TRUE(HidesNothing(
      Cat({"The emulator's account key is Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6",
           "IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw== in every install.\n"}),
      "docs/emulator.md"));
  const std::string longer = Chars(87, b64, 79) + "=";
  EXPECT_TRUE(HidesNothing("checksum " + longer + "\n", "docs/notes.md"));
}

TEST(DetectorProviderTokens, MoreProvidersFormatsAreHiddenWhateverTheirName) {
  const std::string jwt = Cat({"ey", "JhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.", Chars(43, kAlnum, 6)});
  // base64 of the JWT above, as a Kubernetes Secret's data holds it: starts "ZXlK".
  const std::string b64jwt =
      Cat({"ZXlK", "aGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlKOS4", Chars(40, kAlnum, 7)});
  const std::string docker = Cat(
      {"eyJh", "dXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7ImF1dGgiOiJ", Chars(40, kAlnum, 8), "fX19"});
  const std::string teams =
      Cat({Chars(8, kHex, 9),   "-",  Chars(4, kHex, 10),  "-4",
           Chars(3, kHex, 11),  "-8", Chars(3, kHex, 12),  "-",
           Chars(12, kHex, 13), "@",  Chars(8, kHex, 14),  "-",
           Chars(4, kHex, 15),  "-4", Chars(3, kHex, 16),  "-9",
           Chars(3, kHex, 17),  "-",  Chars(12, kHex, 18), "/IncomingWebhook/",
           Chars(32, kHex, 19)});
  for (const std::string& token :
       {Cat({"sg", "p_", Chars(40, "0123456789abcdefABCDEF", 20)}),
        Cat({"sg", "p_local_", Chars(40, kHex, 21)}), Cat({"p8", "e-", Chars(31, kAlnum, 22), "7"}),
        Cat({"AK", "Cp", Chars(69, kAlnum, 23)}), Cat({"cmVmd", "Gtu", Chars(56, kAlnum, 24)}),
        Cat({std::string(22, 'A'), Chars(30, kAlnum, 25), "%2B", Chars(40, kAlnum, 26)}),
        Cat({"django", "-insecure-", Chars(30, kLowerAlnum, 27), "(!x)@",
             Chars(15, kLowerAlnum, 28)}),
        Cat({Chars(22, kAlnum, 82), "==:", Chars(32, kAlnum, 83)}),  // Tableau's token
        b64jwt, docker}) {
    EXPECT_TRUE(Hides("remote = \"" + token + "\"\n", token, "config/app.toml")) << token;
    EXPECT_TRUE(Hides("Rotated " + token + " today.\n", token, {}, TextKind::kCommitMessage));
  }
  const std::string url = "https://acme.webhook.office.com/webhookb2/" + teams;
  EXPECT_TRUE(Hides("notify: " + url + "\n", teams, "ci/notify.yml"));
  (void)jwt;
}

TEST(DetectorProviderTokens, FinageKeyGluedToItsPrefixIsHidden) {
  const std::string upper_digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const std::string key = Cat({"API_", "KEY", Chars(30, upper_digits, 71), "7Q"});
  EXPECT_TRUE(Hides("\"api\": \"" + key + "\",\n", key, "fixtures/detectors.json"));
  EXPECT_TRUE(Hides("Using " + key + " for quotes\n", key, "notes.txt"));
  // The name of a setting, or the prefix at another length, is no key.
  EXPECT_TRUE(HidesNothing("API_KEY_NAME = \"x\"\nAPI_KEYS" + Chars(12, upper_digits, 72) + "\n",
                           "notes.txt"));
}

TEST(DetectorProviderTokens, WrongLengthOrAlphabetForAKnownPrefixIsKept) {
  EXPECT_TRUE(HidesNothing(Cat({"id: sg", "p_", Chars(39, kHex, 30), "\n"}), "notes.txt"));
  EXPECT_TRUE(HidesNothing(Cat({"id: sg", "p_", Chars(38, kHex, 31), "!x\n"}), "notes.txt"));
  EXPECT_TRUE(HidesNothing(Cat({"id: sntry", "u_", Chars(65, kHex, 33), "\n"}), "notes.txt"));
  EXPECT_TRUE(HidesNothing(Cat({"see xo", "xb-12345-abcd234 and xo", "xp-1-TokenGoesHere\n"}),
                           "docs/slack.md"));
  EXPECT_TRUE(
      HidesNothing(Cat({"id: sk-ant-", "api03-", Chars(40, kAlnum, 34), "AA\n"}), "notes.txt"));
  // A made-up tail: one character over and over, or a short pattern repeated.
  EXPECT_TRUE(HidesNothing(Cat({"id: glc_", std::string(40, '1'), "=\n"}), "notes.txt"));
  EXPECT_TRUE(HidesNothing(Cat({"id: GR1348941", "123123123123123123123\n"}), "notes.txt"));
  // A file's name that starts like a token.
  EXPECT_TRUE(HidesNothing(Cat({"<img src=\"/media/box.ico-", Chars(32, kHex, 35), ".png\">\n"}),
                           "web/index.html"));
  // A prefix inside a run of base64.
  EXPECT_TRUE(HidesNothing(
      Cat({"  data: ", Chars(40, kAlnum, 36), "+AI", "za", Chars(35, kAlnum, 37), "\n"}),
      "fixtures/blob.yaml"));
  // A prefix inside a longer word or a URL's path.
  EXPECT_TRUE(HidesNothing(
      Cat({"![logo](https://img.example/assets/xsgp_", Chars(40, kHex, 32), ".png)\n"}),
      "README.md"));
}

// --- Placeholders documentation writes

TEST(DetectorPlaceholders, DocumentationPlaceholdersAreKept) {
  EXPECT_TRUE(HidesNothing("curl -u <user:password> https://api.example.com/v1/me\n", "README.md"));
  EXPECT_TRUE(HidesNothing("curl --user \"xxx:yyy\" https://api.example.com/v1/me\n", "README.md"));
  EXPECT_TRUE(HidesNothing("Authorization: Bearer <Your API token>\n", "docs/api.md"));
  EXPECT_TRUE(HidesNothing("password = \"somefakekey\"\n", "tests/conftest.py"));
  EXPECT_TRUE(HidesNothing("password: \"!!!!!!!!\"\nsecret: '#$%^&*()'\n", "docs/example.yml"));
  // Signs past ASCII are no letters either (detect-secrets' keyword tests keep this one).
  EXPECT_TRUE(HidesNothing("password: ',.:-\u00a8@*\u00bf?!'\ntoken: \"\u2014\u2022\u2026!!\"\n",
                           "src/Config.java"));
  EXPECT_TRUE(
      Hides("password: '\u00bfA\u00f1ejo#2024?'\n", "\u00bfA\u00f1ejo#2024?", "src/Config.java"));
  EXPECT_TRUE(HidesNothing("    t.pass(\"tests/pass/main_return.rs\");\n", "tests/ui.rs"));
  // Not credentials: a form's CSRF token, a value sops encrypted, a shell command's output.
  EXPECT_TRUE(
      HidesNothing(Cat({"<input name=\"authenticity_token\" value=\"", Chars(40, kAlnum, 52),
                        "\">\ncsrf-token=", Chars(40, kAlnum, 53), "\n"}),
                   "app/views/form.html"));
  EXPECT_TRUE(
      HidesNothing("db-password: ENC[AES256_GCM,data:" + Chars(16, kAlnum, 54) + "==,type:str]\n",
                   "secrets.enc.yaml"));
  EXPECT_TRUE(
      HidesNothing("-e SUMO_ACCESS_KEY=`vault read -field=key secret/sumo`\n", "deploy/run.sh"));
}

// The API keys of the example and test configurations committed in Firebase's Android SDK are
// published: kept wherever they are copied to. The same key with one character changed is a
// key of someone's own and is hidden.
TEST(DetectorPlaceholders, FirebaseSdkExampleKeysAreKeptOtherGoogleKeysHidden) {
  const std::string published = Cat({"AI", "zaSyAnLA7Nfe", "LquW1tJFpx_eQCxoX-oo6YyIs"});
  EXPECT_TRUE(HidesNothing(published + "\n", "notes.txt"));
  EXPECT_TRUE(HidesNothing("{\"api_key\": [{\"current_key\": \"" + published + "\"}]}\n",
                           "app/google-services.json"));
  const std::string own = Cat({"AI", "zaSyAnLA7Nfe", "LquW1tJFpx_eQCxoX-oo6YyIt"});
  EXPECT_TRUE(Hides(own + "\n", own, "notes.txt"));
  EXPECT_TRUE(Hides("{\"api_key\": [{\"current_key\": \"" + own + "\"}]}\n", own,
                    "app/google-services.json"));
}

// A run of eight letters or digits counted in order (qRsTuVwX, 23456789) is typed by a person:
// the same value with the run's letters out of order is hidden.
TEST(DetectorPlaceholders, ATokenHoldingACountedRunIsKept) {
  const std::string head = Chars(13, kAlnum, 60), tail = Chars(12, kAlnum, 61);
  EXPECT_TRUE(HidesNothing(Cat({"maps: AI", "zaSy", head, "qRsTuVwX", tail, "\n"}), "notes.txt"));
  const std::string shuffled = Cat({"AI", "zaSy", head, "qRtSuVxW", tail});
  EXPECT_TRUE(Hides("maps: " + shuffled + "\n", shuffled, "notes.txt"));
  // A key no word qualifies, which must have a token's shape.
  const std::string key = Cat({Chars(10, kAlnum, 62), "23456789", Chars(10, kAlnum, 63)});
  EXPECT_TRUE(HidesNothing("KEY=" + key + "\n", "deploy/service.env"));
  const std::string random_key = Cat({Chars(10, kAlnum, 62), "29468735", Chars(10, kAlnum, 63)});
  EXPECT_TRUE(Hides("KEY=" + random_key + "\n", random_key, "deploy/service.env"));
}

TEST(DetectorPlaceholders, ATemplatesBracketsPairUpAPasswordsNeedNot) {
  // Punctuation that holds "{x}" or "${" but closes brackets it never opened is a password, not
  // a template: hidden.
  const std::string wild = "q{{r}s)t${u]vwx(yz[frob>-_$#zork}}";
  EXPECT_TRUE(Hides("apikey = " + wild + "\n", wild, "config/app.ini"));
  EXPECT_TRUE(Hides("password = \"" + wild + "\";\n", wild, "src/db.c"));
  EXPECT_TRUE(Hides("db_pass: " + wild + "\n", wild, "config/app.yml"));
  // Templates pair their brackets, even cut at a blank: kept.
  EXPECT_TRUE(
      HidesNothing("password: ${link}\napi_key: \"{{ .Values.key }}\"\n"
                   "secret: \"{0}:{1}\"\ntoken: \"{{ lookup('env', 'T') }}\"\n"
                   "password: \"%(pw)s\"\nsecret: {{ vault_secret\n",
                   "config/app.yml"));
}

TEST(DetectorPlaceholders, ADollarInsideAGeneratedPasswordIsNoVariable) {
  // A '$' before a run that mixes both cases with digits in two places or more is the middle
  // of a generated password, not a variable: the value is hidden whole (it was kept as a
  // reference, and another detector hid part of it).
  const std::string wild =
      Cat({"Nq4#w&X(/", Chars(9, kAlnum, 70), "$Ze", "TU2N4y", Chars(14, kAlnum, 71), "p5"});
  EXPECT_TRUE(Hides("{\n  \"deploy_token\": \"" + wild + "\"\n}\n", wild, "config/app.json"));
  EXPECT_TRUE(Hides("DEPLOY_TOKEN = \"" + wild + "\"\n", wild, "app/settings.py"));
  const std::string leading = Cat({"$Qv7", "Hw", Chars(16, kAlnum, 72), "k3M"});
  EXPECT_TRUE(Hides("deploy_token: \"" + leading + "\"\n", leading, "config/app.yml"));
  // Variables, whatever their case, are kept.
  EXPECT_TRUE(
      HidesNothing("password: \"prefix:$DbPassword2\"\ntoken: \"Bearer $ACCESS_TOKEN_V2\"\n"
                   "secret: \"$clientSecret\"\napi_key: \"$S3_UPLOAD_KEY\"\n",
                   "config/app.yml"));
}

TEST(DetectorPlaceholders, AKeyWrittenInsideATemplateIsHiddenTheTemplateKept) {
  const std::string key = Cat({"Xq7", Chars(34, kAlnum, 61), "Zt42"});
  const std::string xml = "<secret>{billing AQAAABAAA " + key + "}</secret>\n";
  EXPECT_TRUE(Hides(xml, key, "jenkins/credentials.xml"));
  EXPECT_NE(Scan(xml, "jenkins/credentials.xml").redacted.find("{billing AQAAABAAA "),
            std::string::npos);
  const std::string helm = "api_key: '{{ \"" + key + "\" | b64enc }}'\n";
  EXPECT_TRUE(Hides(helm, key, "charts/app/values.yaml"));
  // A key of one case and digits, as many providers write theirs (TruffleHog's cases do so).
  const std::string lower = Cat({"k9", Chars(30, kLowerAlnum, 62)});
  const std::string lower_xml = "<secret>{billing AQAAABAAA " + lower + "}</secret>\n";
  EXPECT_TRUE(Hides(lower_xml, lower, "jenkins/credentials.xml"));
  // A key holding '=', ':' or '%' inside is hidden as the whole word it stands in, never in
  // part (the run after the '=' alone is too short to be a key).
  for (const std::string sep : {"=", ":", "%"}) {
    const std::string joined = Cat({"ATCTT3x", Chars(15, kAlnum, 63), sep, "iEOIrJRZ"});
    const std::string joined_xml = "<secret>{AQAAABAAA " + joined + "}</secret>\n";
    EXPECT_TRUE(Hides(joined_xml, joined, "jenkins/credentials.xml")) << sep;
    EXPECT_NE(Scan(joined_xml, "jenkins/credentials.xml").redacted.find("{AQAAABAAA "),
              std::string::npos);
  }
  // Names, members and hashes inside a template are no keys.
  EXPECT_TRUE(
      HidesNothing("token: ${{ secrets.DEPLOY_TOKEN_V2 }}\n"
                   "password: \"{{ .Values.global.postgresqlPassword2024 }}\"\n"
                   "secret: \"{{ hashFiles('**/requirements-dev3.txt') }}\"\n"
                   "password: \"{{ lookup('env', 'app-db-password-2024-v2') }}\"\n",
                   "config/app.yml"));
}

// --- A hidden span covers its whole token

// Blanks padding a quoted value are not the value's: the token between them is judged, and
// hidden, as when written without them; a value of several words is not made one by them.
TEST(DetectorWholeTokens, BlanksPaddingAQuotedTokenAreNotPartOfIt) {
  const std::string v = Value(64);
  EXPECT_TRUE(Hides("pandascore token = ' " + v + " '\n", v, "notes/case.txt"));
  EXPECT_TRUE(Hides("API_TOKEN = \"  " + v + "\"\n", v, "app/settings.py"));
  EXPECT_TRUE(Hides("{\"token\": \"" + v + " \"}\n", v, "config/app.json"));
  const Scanned s = Scan("pandascore token = ' " + v + " '\n", "notes/case.txt");
  EXPECT_NE(s.redacted.find("' [hidden: "), std::string::npos) << s.redacted;
  EXPECT_TRUE(HidesNothing("message = \" see the docs \"\n", "app/settings.py"));
}

TEST(DetectorWholeTokens, ASpanNeverEndsInsideAToken) {
  // A format matched by its first characters, the token going on after them: hidden whole,
  // never with its tail shown.
  const std::string longer = Cat({"shp", "at_", Chars(32, kHex, 40), "7q9z"});
  const Scanned s = Scan("remote = " + longer + "\n", "notes.txt");
  EXPECT_EQ(s.redacted.find("7q9z"), std::string::npos) << s.redacted;
  EXPECT_TRUE(Hides("remote = " + longer + "\n", longer, "notes.txt"));
  // base64's padding goes with the token.
  const std::string padded =
      Cat({"ey", "JhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.", Chars(43, kAlnum, 43), "=="});
  EXPECT_TRUE(Hides("Authorization: Bearer " + padded + "\n", padded, "notes.txt"));
  const std::string telegram = Cat({Chars(10, kDigits, 41), ":AA", Chars(33, kAlnum, 42), "x7"});
  EXPECT_TRUE(Hides("bot: \"" + telegram + "\"\n", telegram, "bot.yml"));
}

}  // namespace
}  // namespace public_formats
