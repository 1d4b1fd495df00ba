// What stands for a secret without being one: a placeholder value (changeme, <your-token>,
// xxxx, example…) and a token's body made up by hand or published in a provider's own
// documentation (docs/safety.md, "Placeholders").
#include <string>
#include <string_view>

#include "text_scan.h"

namespace rr_secrets {

bool IsPlaceholder(std::string_view raw) {
  const std::string_view value = Trim(raw);
  if (value.empty()) return true;
  const size_t bar = value.find('|');
  if (bar != std::string_view::npos && bar > 0 && bar + 1 < value.size()) {
    // Alternatives written as documentation does: "true|false", "<token>|none".
    return IsPlaceholder(value.substr(0, bar)) && IsPlaceholder(value.substr(bar + 1));
  }
  if (value.size() >= 2 && ((value.front() == '<' && value.back() == '>') ||
                            (value.front() == '[' && value.back() == ']') ||
                            (value.front() == '(' && value.back() == ')'))) {
    return true;
  }
  // Half a pair of angle brackets round words: `<Your API token>` cut at its first blank.
  if (value.front() == '<' || value.back() == '>') {
    bool words = value.size() >= 3;
    for (char c : value.substr(1, value.size() - 2)) {
      words = words && (IsAlpha(c) || c == '_' || c == '-' || c == ' ' || c == ':');
    }
    if (words) return true;
  }
  // One character over and over (yyy, zzzzzz), or no letter or digit at all (!!!!, @#$%, and
  // Latin-1's signs and Unicode's general punctuation: ¿ ¨ « • — …). Any other character past
  // ASCII counts as a letter.
  if (value.find_first_not_of(value.front()) == std::string_view::npos) return true;
  bool alnum = false;
  for (size_t i = 0; i < value.size() && !alnum; ++i) {
    const auto u = static_cast<unsigned char>(value[i]);
    const auto next = i + 1 < value.size() ? static_cast<unsigned char>(value[i + 1]) : 0;
    if (u == 0xC2 && next >= 0xA0 && next <= 0xBF) {
      i += 1;  // U+00A0–U+00BF
    } else if (u == 0xE2 && (next == 0x80 || next == 0x81) && i + 2 < value.size()) {
      i += 2;  // U+2000–U+207F
    } else {
      alnum = IsAlnum(value[i]) || u >= 0x80;
    }
  }
  if (!alnum) return true;
  const std::string v = LowerCopy(value);
  if (v.find_first_not_of("x*.#-_?0 \xe2\x80\xa2") == std::string::npos) return true;
  if (OneOf(v, {"none",
                "inherit",  // GitHub Actions' `secrets: inherit`
                "null",
                "nil",
                "true",
                "false",
                "yes",
                "no",
                "on",
                "off",
                "undefined",
                "empty",
                "n/a",
                "na",
                "tbd",
                "todo",
                "fixme",
                "secret",
                "password",
                "passwd",
                "pass",
                "pwd",
                "token",
                "key",
                "apikey",
                "api_key",
                "api-key",
                "string",
                "str",
                "value",
                "redacted",
                "hidden",
                "masked",
                "omitted",
                "removed",
                "sensitive",
                "unset",
                "foo",
                "bar",
                "foobar",
                "baz",
                "default",
                "required",
                "optional",
                "mypassword",
                "yourpassword",
                "mysecret",
                "yoursecret",
                "mytoken",
                "yourtoken",
                "secretkey",
                "secret_key",
                "accesskey",
                "access_key",
                "privatekey",
                "private_key",
                "client_secret",
                "clientsecret",
                "auth_token",
                "authtoken",
                "access_token",
                "accesstoken",
                "bearer",
                "basic",
                "sample",
                "demo",
                "dummy",
                "example",
                "placeholder",
                "encrypted",
                "hashed",  // Laravel's casts: 'password' => 'hashed'
                "******",
                "generated",
                "random",
                "auto",
                "changed",
                "blank",
                "nothing",
                "tmp",
                "temp",
                "abc",
                "abc123",
                "test",
                "testing",
                "none given",
                "-",
                "?",
                "!",
                "~",
                "''",
                "\"\""})) {
    return true;
  }
  // Characters a value was masked with: xoxp-…-####################.
  if (v.find("####") != std::string::npos) return true;
  return ContainsAny(v, {"changeme",      "change_me",    "change-me",
                         "change.me",     "changeit",     "change_it",
                         "changethis",    "change_this",  "change-this",
                         "example",       "placeholder",  "dummy",
                         "redacted",      "your_",        "your-",
                         "your.",         "yourpass",     "yoursecret",
                         "yourtoken",     "yourkey",      "yourapi",
                         "your ",         "replace_me",   "replace-me",
                         "replaceme",     "replace_with", "replace-with",
                         "insert_",       "insert-",      "insertyour",
                         "enter_your",    "enter-your",   "enteryour",
                         "put_your",      "put-your",     "<your",
                         "xxxx",          "****",         "\xe2\x80\xa2\xe2\x80\xa2",
                         "...",           "\xe2\x80\xa6", "todo",
                         "fixme",         "not_set",      "notset",
                         "not-set",       "not_a_real",   "fake",
                         "not-a-real",    "notareal",     "fake_",
                         "fake-",         "_here",        "-here",
                         "sample_",       "sample-",      "my_secret",
                         "my-secret",     "my_password",  "my-password",
                         "my_token",      "my-token",     "my_api",
                         "my-api",        "secret_here",  "token_here",
                         "password_here", "s3cr3t_here"});
}

namespace {

// The tail of a token written by hand: a run of one character (…aaaaaaaaaa), or a short pattern
// over and over (…123123123123, …abababab). Random text has neither at this length.
bool HasMadeUpTail(std::string_view token) {
  size_t run = 1;
  for (size_t i = token.size() / 2 + 1; i < token.size(); ++i) {
    run = token[i] == token[i - 1] ? run + 1 : 1;
    if (run >= 10) return true;
  }
  constexpr size_t kTail = 16;
  if (token.size() < kTail + 4) return false;
  const std::string_view tail = token.substr(token.size() - kTail - 4);
  for (size_t period = 2; period <= 4; ++period) {
    bool repeats = true;
    for (size_t i = period; i < tail.size() && repeats; ++i) repeats = tail[i] == tail[i - period];
    if (repeats) return true;
  }
  return false;
}

// A run of eight letters or digits counted in order (abcdefgh, klmnopqr, 23456789), which a
// person types and random text all but never holds (about once in 10^11 places).
bool HasCountedRun(std::string_view token) {
  size_t run = 1;
  for (size_t i = 1; i < token.size(); ++i) {
    const char a = Lower(token[i - 1]), b = Lower(token[i]);
    const bool counted = b == a + 1 && ((a >= 'a' && b <= 'z') || (a >= '0' && b <= '9'));
    run = counted ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

// Values published in providers' own documentation and SDKs, shown in countless READMEs and
// vendored copies: Stripe's test key of its API reference, jwt.io's sample token, Telegram's
// Bot API example, and the API keys of the example and test configurations committed in
// Firebase's Android SDK (its google-services.json files), which every copy of those samples
// carries, and the well-known account key of Azure's storage emulator.
bool IsPublishedExample(std::string_view token) {
  static constexpr std::string_view kExamples[] = {
      "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
      "pk_test_TYooMQauvdEDq54NiTphI7jx",
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
      "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
      "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
      "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
      "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
      "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
      "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
      "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
      "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
      "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
      "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
      "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
      "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
      "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
      "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
      "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
      "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
      "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
      // The account key of Azure's storage emulators (Azurite), the same in every install.
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
  };
  for (auto e : kExamples) {
    if (token == e) return true;
  }
  return false;
}

}  // namespace

bool IsPlaceholderToken(std::string_view token) {
  if (HasMadeUpTail(token) || HasCountedRun(token) || IsPublishedExample(token)) return true;
  const std::string v = LowerCopy(token);
  if (ContainsAny(v, {"example", "xxxxx", "*****", "00000000", "placeholder", "dummy", "redacted",
                      "your_", "your-", "insert", "replace", "fake"})) {
    return true;
  }
  return MixOf(token).distinct <= 5;
}

}  // namespace rr_secrets
