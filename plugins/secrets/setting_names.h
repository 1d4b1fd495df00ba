// The names of secret settings: a name split into words (db_password, apiKey, X-Api-Key) and
// what kind of secret its words name, if any (assignments.cc reads the values given to them).
#pragma once

#include <string_view>

namespace rr_secrets {

// kServiceApiKey: an API key named after the service it opens (apikey_myservice), its last word
// free: hidden only when its value looks made to be secret (assignments.cc).
enum class Kind {
  kNone,
  kPassword,
  kSecret,
  kToken,
  kKey,
  kBareKey,
  kApiKey,
  kServiceApiKey,
  kAuth,
  kCredential
};

// What a hidden value of this kind is called in the answer ("[hidden: password]").
const char* WhatOf(Kind kind);

// A name split into lower-case words: "X-Api-Key" -> x api key; "APIKey" -> api key;
// "db_password2" -> db password2.
struct Words {
  static constexpr int kMax = 12;
  char buffer[96];
  std::string_view word[kMax];
  int count = 0;
};

// Splits a name into lower-case words (at most Words::kMax, the last ones kept).
void Split(std::string_view name, Words* out);

// What the words of a name call the value given to it: its last word decides, once qualifiers
// (_value, _b64, _prod, digits) are set aside; kNone for a name that only holds a secret's word
// (author, token_type, max_tokens).
Kind KindOfWords(const Words& words);

// A word that names a password (password, passwd, pwd, db_passphrase…).
bool IsPasswordWord(std::string_view w);

// One of the words for a password itself (password, passwd, pwd, passphrase…), not a word that
// ends as one (rootpasswd).
bool IsPasswordWordItself(std::string_view w);

// A "name" cut out of random text (base64, a hash): many words of one or two letters.
bool IsRandomRun(const Words& words);

}  // namespace rr_secrets
