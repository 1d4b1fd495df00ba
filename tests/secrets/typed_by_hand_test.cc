// The built-in detectors on values typed by hand rather than made by a provider: the outline of
// a Discord bot token, a JWT's header and claims with no signature, text pasted unquoted into
// code, and bare words given to a secret's name (a passphrase) -- with what must stay shown
// beside each: messages, dotted names, calls, a key's header name. Found by the other scanners'
// test cases (bench/secrets/public_cases.py, detect-secrets), written here from our own values.
//
// Every value here is assembled at run time from generated characters, so no literal in this
// file looks like a credential to a scanner.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>

#include "tests/secrets/builtin_scan.h"
#include "tests/secrets/generated_values.h"

namespace typed_by_hand {
namespace {

using repo_reader::testkit::Scanned;
using rr::testing::Chars;
const std::string& kAlnum = rr::testing::kBase62;
const std::string kLower = "abcdefghijklmnopqrstuvwxyz";

Scanned Scan(const std::string& text, std::string_view path) {
  return rr::testing::ScanAs(text, path);
}

::testing::AssertionResult Hides(const std::string& text, const std::string& value,
                                 std::string_view path = "notes/case.txt") {
  return rr::testing::HidesWhole(text, value, path);
}

::testing::AssertionResult HidesNothing(const std::string& text,
                                        std::string_view path = "notes/case.txt") {
  return rr::testing::HidesNone(text, path);
}

// Random characters with a digit, a lower- and an upper-case letter in them for sure.
std::string Mixed(size_t n, unsigned seed) { return "a7Q" + Chars(n - 3, kAlnum, seed); }

std::string Base64Url(const std::string& bytes) {
  static const char kAbc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kAbc[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kAbc[(acc << (6 - bits)) & 63]);
  return out;
}

// Three or more lower-case words, generated (none of them a message's word).
std::string Words(unsigned seed) {
  return Chars(6, kLower, seed) + " " + Chars(5, kLower, seed + 1) + " " +
         Chars(7, kLower, seed + 2) + " " + Chars(6, kLower, seed + 3);
}

// --- Discord: the outline of a bot token, typed by hand

TEST(TypedByHand, DiscordTokensOutlineIsHiddenWhenItsPartsAreRandom) {
  // Not the base64 of a numeric id (the shape the detector knows without a keyword), only the
  // outline: 24 to 26 from an M, N or O, then 6, then 27 or more.
  for (const char first : {'M', 'N', 'O'}) {
    for (const size_t id : {24, 25, 26}) {
      const std::string token = std::string(1, first) + Mixed(id - 1, id) + "." +
                                Chars(6, kAlnum, 7) + "." + Mixed(27 + id % 3 * 5, id + 1);
      EXPECT_TRUE(Hides(token + "\n", token)) << token;
      EXPECT_TRUE(Hides("DISCORD=" + token + "\n", token, "deploy/.env")) << token;
    }
  }
  // Where the id starts inside a longer run, as the scanners' patterns read it, the span covers
  // the whole run: nothing of it is shown before the hidden part.
  const std::string run =
      "AT" + std::string(1, 'M') + Mixed(23, 3) + "." + Chars(6, kAlnum, 4) + "." + Mixed(38, 5);
  EXPECT_TRUE(Hides(run + "\n", run));
}

TEST(TypedByHand, DiscordTokensOutlineKeepsWhatIsNotOne) {
  const std::string six = Chars(6, kAlnum, 8), last = Mixed(27, 9);
  // A part too short or too long, a first letter other than M, N or O.
  EXPECT_TRUE(HidesNothing("M" + Mixed(22, 1) + "." + six + "." + last + "\n"));
  EXPECT_TRUE(HidesNothing("M" + Mixed(23, 1) + "." + Chars(5, kAlnum, 2) + "." + last + "\n"));
  EXPECT_TRUE(HidesNothing("M" + Mixed(23, 1) + "." + six + "." + Mixed(26, 3) + "\n"));
  EXPECT_TRUE(HidesNothing("P" + Mixed(23, 1) + "." + six + "." + last + "\n"));
  // 27 before the dot, no M, N or O where a 24 to 26 long id would start.
  EXPECT_TRUE(HidesNothing("MTAy" + Mixed(23, 4) + "." + six + "." + last + "\n"));
  // Dotted names of the same outline: no digits, or one case only.
  EXPECT_TRUE(HidesNothing("ModuleConfigurationLoader.Public.ApplicationSettingsProviderFactory\n",
                           "src/App.java"));
  EXPECT_TRUE(HidesNothing("Mabcdefghijklmnopqrstuvw1.abcdef.abcdefghijklmnopqrstuvwxyz12\n"));
  // CamelCase dotted names with a digit: the middle is a word, or the parts hold words.
  EXPECT_TRUE(
      HidesNothing("import \"MyAwesomeComponent2Module.module.SomeOtherLongerComponent2Module\"\n",
                   "src/app.ts"));
  EXPECT_TRUE(HidesNothing("Oauth2ClientRegistrationX.config.Oauth2ClientRegistrationRepository;\n",
                           "src/App.java"));
  EXPECT_TRUE(HidesNothing(
      "Run `ModelTrainer2ExperimentRun.Runner.Evaluate2BestCheckpointWeights` first.\n",
      "docs/train.md"));
  // A bundle's hashed name: its middle is a word.
  EXPECT_TRUE(HidesNothing("M" + Mixed(23, 8) + ".bundle." + Mixed(27, 9) + "\n", "dist/x.txt"));
  // An id with no digit; a run that goes on after a '.' or '_' before it; a last part over 40,
  // or followed by another '.'.
  const std::string letters =
      "M" + Chars(23, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 5);
  EXPECT_TRUE(HidesNothing(letters + "." + six + "." + last + "\n"));
  const std::string token = "M" + Mixed(23, 6) + "." + six + "." + last;
  EXPECT_TRUE(Hides(token + "\n", token));  // (the same parts, as a token)
  EXPECT_TRUE(HidesNothing("x." + token + "\n"));
  EXPECT_TRUE(HidesNothing("x_" + token + "\n"));
  EXPECT_TRUE(HidesNothing("M" + Mixed(23, 6) + "." + six + "." + Mixed(41, 7) + "\n"));
  EXPECT_TRUE(HidesNothing(token + ".part\n"));
}

// --- JWT: a header and claims, no signature

TEST(TypedByHand, AJwtWithNoSignatureIsHiddenWhenItsClaimsAreWhole) {
  const std::string header = Base64Url(R"({"typ":"JWT","alg":"HS256"})");
  const std::string claims = Base64Url("{\"name\":\"" + Chars(8, kLower, 11) + "\",\"role\":\"" +
                                       Chars(6, kLower, 12) + "\"}");
  const std::string token = header + "." + claims;
  EXPECT_TRUE(Hides(token + "\n", token));
  EXPECT_TRUE(Hides("Authorization: Bearer " + token + "\n", token));
}

TEST(TypedByHand, AJwtHeaderBeforeRandomBase64IsNoToken) {
  // eyJ (`{"`) and then random characters: the claims do not decode to a JSON object, and a
  // header alone before other base64 is no token (TruffleHog's web3storage negative's shape).
  const std::string header = Base64Url(R"({"alg":"HS256","typ":"JWT"})");
  EXPECT_TRUE(HidesNothing("id = '" + header + ".eyJ" + Chars(26, kAlnum, 13) + "?x=1'\n"));
  // Claims that decode to a control byte between the braces are no JSON either.
  EXPECT_TRUE(HidesNothing(header + "." + Base64Url("{\"a\":\x01\"bcdef\"}") + "\n"));
}

// --- Text pasted unquoted into code

TEST(TypedByHand, PastedTextInCodeIsHiddenWhereNoExpressionCanBe) {
  const std::string w = Chars(3, kLower, 21), x = Chars(5, kLower, 22);
  // A bracket closed by another kind: no language reads it as an expression.
  const std::string v = w + "{{" + x + "}" + w + ")" + x + "${" + w + "]" + x + "(" + w + "}}";
  EXPECT_TRUE(Hides("db_pass := " + v + "\n", v, "internal/config.go"));
  EXPECT_TRUE(Hides("\tpassword = " + v + ",\n", v, "internal/config.go"));
  EXPECT_TRUE(Hides("secret := " + v + "`\n", v, "internal/config.go"));
  // The span stops before the line's closing punctuation.
  const Scanned s = Scan("password = " + v + ",\n", "internal/config.go");
  ASSERT_EQ(s.spans.size(), 1u) << s.redacted;
  EXPECT_EQ(s.redacted, "password = [hidden: password],\n");
}

TEST(TypedByHand, ExpressionsInCodeAreStillKept) {
  EXPECT_TRUE(HidesNothing("db.connect(user=u, password=pw)\n", "app/db.py"));
  EXPECT_TRUE(HidesNothing("token = jwt.encode(\n    claims, key)\n", "app/auth.py"));
  EXPECT_TRUE(HidesNothing("password := cfg.Get(\"db\")[0]\n", "internal/config.go"));
  EXPECT_TRUE(HidesNothing("secret = {k: v for k, v in items}\n", "app/x.py"));
  // Brackets inside strings and regular expressions: parsers call their variables `token`.
  EXPECT_TRUE(HidesNothing("token = text[text.find(\"{\"):]\n", "app/parse.py"));
  EXPECT_TRUE(HidesNothing("password = line.split(\"{\")[1]\n", "app/parse.py"));
  EXPECT_TRUE(HidesNothing("token = BRACKETS[\")\"]\n", "app/lexer.py"));
  EXPECT_TRUE(HidesNothing("const token = src.match(/[({]/)[0];\n", "src/lexer.js"));
  EXPECT_TRUE(HidesNothing("token := s[strings.Index(s,\"(\"):strings.Index(s,\"}\")]\n",
                           "internal/lex.go"));
  EXPECT_TRUE(HidesNothing("token=strchr(s,'{')+(s[0]==')');\n", "src/parse.c"));
  // Nor does a value run over the rest of a minified line, or into markup.
  EXPECT_TRUE(HidesNothing("var a=1,token=t.split(\"{\")[1],b=function(){return[1]},d=\"x\";\n",
                           "dist/app.min.js"));
  EXPECT_TRUE(HidesNothing("return fn(a[b)}>{children}</div>;\n", "src/view.tsx"));
  // Or over a run longer than a password is.
  EXPECT_TRUE(HidesNothing("password = a{b)" + Chars(200, kAlnum, 71) + "\n", "internal/x.go"));
}

// --- An API key named after the service it opens

TEST(TypedByHand, AnApiKeyNamedAfterItsServiceIsAnApiKey) {
  const std::string v = Mixed(24, 31);
  EXPECT_TRUE(Hides("apikey_myservice: \"" + v + "\"\n", v, "src/config.js"));
  EXPECT_TRUE(Hides("API_KEY_STRIPE=" + v + "\n", v, "deploy/.env"));
  // A word about the key is not a service: its header's name, where it is read from.
  EXPECT_TRUE(HidesNothing("apikey_header: \"X-Service-Auth-Value\"\n", "src/config.js"));
  EXPECT_TRUE(HidesNothing("API_KEY_ENV=SERVICE_KEY_FROM_VAULT\n", "deploy/.env"));
  EXPECT_TRUE(
      HidesNothing("apikey_name: \"billing-7-prod\"\napikey_hint: \"b7x1\"\n", "src/config.js"));
  // The service's name reads so only before a value made to be secret: not a region, a
  // cipher's name, an icon, a class or words.
  EXPECT_TRUE(HidesNothing("api_key_zone: us-east-1\n", "config/app.yml"));
  EXPECT_TRUE(HidesNothing("const apiKeyCipher = \"aes256gcm\";\n", "src/crypto.ts"));
  EXPECT_TRUE(HidesNothing("apiKeyWidget: \"key2-outline\",\n", "src/ui.js"));
  EXPECT_TRUE(HidesNothing("api_key_fallback = \"ApiKey2Model\"\n", "app/models.py"));
  EXPECT_TRUE(HidesNothing("api_key_mood = \"pending manual review\"\n", "app/models.py"));
}

// --- Bare words given to a secret's name

TEST(TypedByHand, BareWordsGivenToASecretsNameAreAPassphrase) {
  const std::string w = Words(41);
  EXPECT_TRUE(Hides("KEYWORD_TOKEN = \"" + w + "\"\n", w, "app/settings.py"));
  EXPECT_TRUE(Hides("{\n  \"api_key\": \"" + w + "\"\n}\n", w, "config/settings.json"));
  EXPECT_TRUE(Hides("service:\n  private_token: " + w + "\n", w, "config/settings.yaml"));
  EXPECT_TRUE(Hides("var serviceSecret string = \"" + w + "\"\n", w, "internal/keys.go"));
  EXPECT_TRUE(Hides("<settings>\n  <serviceApiKey>\n    " + w + "\n  </serviceApiKey>\n", w,
                    "config/app.xml"));
  EXPECT_TRUE(Hides("service.api.key=" + w + "\n", w, "src/main/resources/app.properties"));
  // A qualifier after the password's word: password_super_secure is a password's name.
  EXPECT_TRUE(Hides("password_super_secure = \"" + w + "\"\n", w, "etc/app.conf"));
}

TEST(TypedByHand, MessagesGivenToASecretsNameAreKept) {
  // A message says what is wanted or wrong, starts with a capital, or ends in punctuation;
  // a placeholder holds a secret's word or a blank to fill.
  for (const std::string& m :
       {std::string("is required"), std::string("must match the confirmation"),
        std::string("Enter your password"), std::string("token expired at login"),
        std::string("super secret private key here"), std::string("not set yet"),
        std::string("doesnt start right"), std::string("Needs rotating soon."),
        std::string("two words")}) {
    EXPECT_TRUE(HidesNothing("password = \"" + m + "\"\n", "app/forms.py")) << m;
    EXPECT_TRUE(HidesNothing("api_token: \"" + m + "\"\n", "config/app.yml")) << m;
  }
  // A catalogue of messages, whatever its words: Symfony's and Java's messages files,
  // Android's strings.
  const std::string w = Words(51);
  EXPECT_TRUE(HidesNothing("errors:\n  password: \"" + w + "\"\n", "config/messages.en.yml"));
  EXPECT_TRUE(
      HidesNothing("login.password=" + w + "\n", "src/main/resources/messages_fr.properties"));
  EXPECT_TRUE(HidesNothing("<resources>\n  <string name=\"password\">" + w + "</string>\n",
                           "app/src/main/res/values-de/strings.xml"));
  // Words given to a name that only holds a secret's word are no secret either.
  EXPECT_TRUE(HidesNothing("token_type = \"" + w + "\"\n", "app/settings.py"));
  // A lone `token` or `secret` in code is as often a word of text or a game's.
  EXPECT_TRUE(HidesNothing("token = \"" + w + "\"\ntokens = \"" + w + "\"\n", "nlp/split.py"));
  EXPECT_TRUE(HidesNothing("secret = \"" + w + "\"\n", "app/game.py"));
  // Translations kept in messages/ or intl/ (next-intl, FormatJS), in any language.
  EXPECT_TRUE(HidesNothing("{\"api_token\": \"" + w + "\"}\n", "messages/fr.json"));
  EXPECT_TRUE(HidesNothing("{\"api_token\": \"" + w + "\"}\n", "src/intl/de.json"));
}

TEST(TypedByHand, CodeNamedMessagesIsStillCode) {
  // Only a file of data named messages… is a catalogue: code named so keeps its secrets hidden
  // and its expressions shown.
  const std::string v = "Qw" + Chars(22, kLower, 61);
  EXPECT_TRUE(Hides("API_TOKEN = \"" + v + "\"\n", v, "lib/messages_helper.rb"));
  EXPECT_TRUE(Hides("apiToken := \"" + v + "\"\n", v, "internal/chat/messages.go"));
  EXPECT_TRUE(HidesNothing("secret = someObject.nested2.secretValue\n", "src/messages.ts"));
}

}  // namespace
}  // namespace typed_by_hand
