#include "setting_names.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "text_scan.h"

namespace rr_secrets {

namespace {

// A set of words looked up by binary search (the lists below are long and asked at every
// keyword occurrence).
class WordSet {
 public:
  WordSet(std::initializer_list<std::string_view> words) : words_(words) {
    std::sort(words_.begin(), words_.end());
  }
  bool Has(std::string_view w) const { return std::binary_search(words_.begin(), words_.end(), w); }

 private:
  std::vector<std::string_view> words_;
};

bool In(std::string_view w, std::initializer_list<std::string_view> set) {
  for (auto s : set) {
    if (w == s) return true;
  }
  return false;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Words that only qualify the word before them (password_confirmation, api_key_prod).
bool IsQualifier(std::string_view w) {
  if (w.size() >= 2 && w[0] == 'v' && std::all_of(w.begin() + 1, w.end(), IsDigit)) return true;
  static const WordSet kWords = {
      "value",      "val",          "str",         "string",  "b64",     "base64",    "hex",
      "encoded",    "enc",          "encrypted",   "raw",     "plain",   "plaintext", "data",
      "confirm",    "confirmation", "again",       "repeat",  "new",     "old",       "prod",
      "production", "dev",          "development", "staging", "stage",   "live",      "local",
      "default",    "primary",      "secondary",   "backup",  "current", "override",  "base",
      "literal",    "sandbox",      "test",        "qa",      "uat",     "preprod",   "cleartext",
      "main",       "one",          "two",         "hash",    "hashed",  "digest",    "secure",
      "sec",        "super"};
  return kWords.Has(w);
}

bool IsKeyQualifier(std::string_view w) {
  static const WordSet kWords = {
      "api",        "access",       "secret",      "private",    "signing",
      "sign",       "signature",    "encryption",  "encrypt",    "decryption",
      "decrypt",    "crypt",        "crypto",      "cipher",     "master",
      "client",     "app",          "application", "auth",       "authentication",
      "account",    "storage",      "shared",      "admin",      "deploy",
      "webhook",    "hmac",         "jwt",         "session",    "license",
      "licence",    "subscription", "service",     "consumer",   "aes",
      "server",     "root",         "partner",     "merchant",   "developer",
      "write",      "ingest",       "ingestion",   "rest",       "secure",
      "security",   "datadog",      "dd",          "sendgrid",   "stripe",
      "mailgun",    "mailchimp",    "twilio",      "algolia",    "pusher",
      "openai",     "anthropic",    "gemini",      "google",     "maps",
      "firebase",   "github",       "gitlab",      "slack",      "heroku",
      "aws",        "azure",        "gcp",         "cloudflare", "mapbox",
      "segment",    "sentry",       "newrelic",    "bugsnag",    "rollbar",
      "pagerduty",  "okta",         "auth0",       "contentful", "shopify",
      "square",     "paypal",       "braintree",   "plaid",      "nexmo",
      "vonage",     "postmark",     "sparkpost",   "mandrill",   "airtable",
      "notion",     "linear",       "hubspot",     "intercom",   "zendesk",
      "openrouter", "groq",         "mistral",     "cohere",     "huggingface",
      "hf",         "replicate",    "pinecone",    "supabase",   "elastic",
      "meili",      "typesense",    "x",           "ssh",        "gpg",
      "pgp",        "wallet",       "bot",         "user",       "personal",
      "management", "hook",         "cookie",      "csrf",       "otp",
      "totp",       "mfa",          "recovery",    "dropbox",    "box",
      "heroku",     "netlify",      "vercel",      "docker",     "npm",
      "pypi",       "nuget"};
  return kWords.Has(w);
}

// True when a run of letters ends with a word of 2 to `longest` letters that `is` knows.
bool EndsWithWord(std::string_view q, size_t longest, bool (*is)(std::string_view)) {
  for (size_t n = std::min(q.size(), longest); n >= 2; --n) {
    if (is(q.substr(q.size() - n))) return true;
  }
  return false;
}

// Words before an unqualified "key" that make it a database's, a lookup's or a public key, never
// a secret (partition_key, foreignKey, sort_key, public_key, cacheKey; gpg's --recv-keys takes
// a public key's fingerprint).
bool IsKeyNonSecret(std::string_view w) {
  static const WordSet kWords = {
      "public",    "pub",          "foreign",  "sort",        "partition", "range",  "row",
      "unique",    "composite",    "natural",  "surrogate",   "cache",     "lookup", "map",
      "dict",      "hash",         "index",    "object",      "bucket",    "s3",     "i18n",
      "message",   "translation",  "locale",   "label",       "field",     "column", "attribute",
      "attr",      "prop",         "property", "idempotency", "dedup",     "dedupe", "group",
      "routing",   "shard",        "issuer",   "subject",     "host",      "known",  "verify",
      "verifying", "verification", "react",    "list",        "item",      "node",   "entry",
      "metric",    "setting",      "config",   "redis",       "lock",      "recv"};
  return kWords.Has(w);
}

// Words before "token" that make it not a credential (page tokens, LLM token counts).
bool IsTokenNonSecret(std::string_view w) {
  return In(w,
            {"page",       "next",         "prev",    "previous",  "continuation", "cancellation",
             "cancel",     "pagination",   "cursor",  "sync",      "max",          "min",
             "num",        "total",        "count",   "input",     "output",       "prompt",
             "completion", "eos",          "bos",     "pad",       "unk",          "sep",
             "cls",        "mask",         "special", "stop",      "end",          "start",
             "lexer",      "parser",       "syntax",  "word",      "sentence",     "split",
             "length",     "limit",        "budget",  "reasoning", "cached",       "context",
             "embedding",  "rate",         "resume",  "change",    "design",       "color",
             "colour",     "style",        "theme",   "css",       "last",         "first",
             "current",    "cancellation", "is",      "has",       "expected",     "unexpected",
             "invalid",    "eof",          "csrf",    "xsrf",      "authenticity", "public",
             "jsonweb",    "verification", "anti",    "creation"});
}

// Words after "api key" that name something about the key, not a service it opens.
bool IsApiKeyAttribute(std::string_view w) {
  static const WordSet kWords = {
      "id",       "ids",         "name",       "names",      "header",    "headers",
      "param",    "params",      "parameter",  "query",      "env",       "var",
      "variable", "file",        "path",       "url",        "uri",       "location",
      "prefix",   "suffix",      "length",     "len",        "size",      "type",
      "format",   "required",    "enabled",    "enable",     "disabled",  "source",
      "field",    "label",       "prompt",     "hint",       "help",      "description",
      "desc",     "error",       "message",    "msg",        "count",     "list",
      "version",  "expiry",      "expires",    "expiration", "created",   "placeholder",
      "regex",    "pattern",     "mode",       "option",     "options",   "setting",
      "settings", "config",      "provider",   "store",      "storage",   "manager",
      "service",  "scope",       "scopes",     "owner",      "user",      "policy",
      "rotation", "last",        "title",      "input",      "missing",   "invalid",
      "valid",    "check",       "validation", "text",       "region",    "status",
      "ref",      "icon",        "class",      "widget",     "encoding",  "cipher",
      "strategy", "permissions", "permission", "purpose",    "algorithm", "algo",
      "state",    "kind",        "usage",      "quota",      "limit",     "ttl",
      "timeout",  "lifetime",    "rotated",    "updated",    "method",    "scheme",
      "style",    "color",       "button",     "link",       "page",      "view",
      "form",     "modal",       "dialog",     "table",      "column",    "model",
      "schema",   "spec",        "doc",        "docs",       "example",   "sample",
      "template", "hash",        "digest",     "fingerprint"};
  return kWords.Has(w);
}

bool IsNegatingFirstWord(std::string_view w) {
  static const WordSet kWords = {
      "is", "has", "use", "uses", "using", "enable", "enabled", "disable", "disabled", "show",
      "hide", "require", "requires", "required", "validate", "verify", "check", "forgot", "forget",
      "remember", "toggle", "allow", "no", "without", "min", "max", "num", "should", "can", "must",
      "need", "needs", "want", "generate", "on", "handle", "get", "fetch", "load", "read", "parse",
      "hash", "encode", "decode", "compare", "match", "test", "mock", "fake",
      // Helm's existingSecret, existingSecretPasswordKey: the name of a Secret, of its entry
      "existing"};
  return kWords.Has(w);
}

}  // namespace

const char* WhatOf(Kind kind) {
  switch (kind) {
    case Kind::kPassword:
      return "password";
    case Kind::kSecret:
      return "secret";
    case Kind::kToken:
      return "token";
    case Kind::kKey:
    case Kind::kBareKey:
      return "key";
    case Kind::kApiKey:
    case Kind::kServiceApiKey:
      return "API key";
    case Kind::kAuth:
    case Kind::kCredential:
      return "credentials";
    case Kind::kNone:
      break;
  }
  return "secret";
}

void Split(std::string_view name, Words* out) {
  out->count = 0;
  if (name.size() > sizeof out->buffer) name = name.substr(name.size() - sizeof out->buffer);
  size_t begin = std::string_view::npos;
  auto close = [&](size_t end) {
    if (begin == std::string_view::npos) return;
    if (out->count == Words::kMax) {
      std::copy(out->word + 1, out->word + Words::kMax, out->word);
      --out->count;
    }
    out->word[out->count++] = std::string_view(out->buffer + begin, end - begin);
    begin = std::string_view::npos;
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    out->buffer[i] = Lower(c);
    if (!IsAlnum(c)) {
      close(i);
      continue;
    }
    if (begin != std::string_view::npos && i > 0) {
      const uint8_t prev = ClassOf(name[i - 1]);
      const uint8_t cur = ClassOf(c);
      const bool lower_to_upper = (prev & (kLower | kDigit)) && (cur & kUpper);
      const bool acronym_end = (prev & kUpper) && (cur & kUpper) && i + 1 < name.size() &&
                               (ClassOf(name[i + 1]) & kLower);
      if (lower_to_upper || acronym_end) close(i);
    }
    if (begin == std::string_view::npos) begin = i;
  }
  close(name.size());
}

bool IsRandomRun(const Words& words) {
  int short_words = 0;
  for (int i = 0; i < words.count; ++i) short_words += words.word[i].size() <= 2;
  return short_words >= 4;
}

bool IsPasswordWordItself(std::string_view w) {
  return In(w, {"password", "passwords", "passwd", "pwd", "pw", "pass", "passphrase", "pswd",
                "passw", "pword", "passwort", "kennwort", "passcode"});
}

bool IsPasswordWord(std::string_view w) {
  if (IsPasswordWordItself(w)) return true;
  return EndsWith(w, "password") || EndsWith(w, "passwd") || EndsWith(w, "passphrase") ||
         (w.size() > 3 && EndsWith(w, "pwd") && w != "oldpwd") || EndsWith(w, "passwort");
}

Kind KindOfWords(const Words& words) {
  int n = words.count;
  while (n > 0 && std::all_of(words.word[n - 1].begin(), words.word[n - 1].end(), IsDigit)) --n;
  while (n > 1 && IsQualifier(words.word[n - 1])) --n;
  if (n == 0) return Kind::kNone;
  std::string_view head = words.word[n - 1];
  while (!head.empty() && IsDigit(head.back())) head.remove_suffix(1);
  // A qualifier written onto the word: "secretkeybase", "apikeyprod", "passwordvalue".
  for (std::string_view q : {"base", "value", "b64", "base64", "hex", "prod", "str", "string"}) {
    if (head.size() > q.size() + 3 && EndsWith(head, q)) {
      const std::string_view rest = head.substr(0, head.size() - q.size());
      if (EndsWith(rest, "key") || EndsWith(rest, "secret") || EndsWith(rest, "token") ||
          EndsWith(rest, "password")) {
        head = rest;
        break;
      }
    }
  }
  const std::string_view prev = n > 1 ? words.word[n - 2] : std::string_view();
  if (n > 1 && IsNegatingFirstWord(words.word[0])) return Kind::kNone;

  if (IsPasswordWord(head)) return Kind::kPassword;
  // "secrete": a secret's name misspelt, as code writes it.
  if (head == "secret" || head == "secrets" || head == "secrete" ||
      (head.size() > 6 && EndsWith(head, "secret"))) {
    return Kind::kSecret;
  }
  if (head == "token" || head == "tokens" || head == "bearer") {
    return IsTokenNonSecret(prev) ? Kind::kNone : Kind::kToken;
  }
  if (head.size() > 5 && EndsWith(head, "token")) {
    return IsTokenNonSecret(head.substr(0, head.size() - 5)) ? Kind::kNone : Kind::kToken;
  }
  if (head == "key" || head == "keys") {
    if (prev == "api") return Kind::kApiKey;
    if (IsKeyQualifier(prev)) return Kind::kKey;
    return IsKeyNonSecret(prev) ? Kind::kNone : Kind::kBareKey;
  }
  if (head.size() > 3 && (EndsWith(head, "key") || EndsWith(head, "keys"))) {
    // One word written without separators: "apikey", "mailgunsigningkey", "DDAPPKEY".
    const std::string_view q = head.substr(0, head.size() - (EndsWith(head, "keys") ? 4 : 3));
    if (EndsWith(q, "api")) return Kind::kApiKey;
    // The word before "key": one that makes it a secret's name (up to 14 letters), else one
    // that makes it a table's or a public key's (up to 12).
    if (EndsWithWord(q, 14, IsKeyQualifier)) return Kind::kKey;
    return EndsWithWord(q, 12, IsKeyNonSecret) ? Kind::kNone : Kind::kBareKey;
  }
  if (head == "auth" || head == "authorization" ||
      (head.size() > 4 && EndsWith(head, "auth") && head != "oauth")) {
    return Kind::kAuth;
  }
  if (In(head, {"credential", "credentials", "creds", "cred"})) return Kind::kCredential;
  if (head == "login" && (prev == "sonar" || prev == "dsonar")) {
    return Kind::kToken;  // sonar.login (-Dsonar.login=…) holds a token
  }
  // Vault AppRole's secret_id (VAULT_SECRET_ID, secretId) is its credential; AWS names a secret
  // by a secret_id (a name, a path, an ARN), which has no token's shape (kBareKey's rule).
  if (head == "id" && prev == "secret") return Kind::kBareKey;
  auto pat_owner = [](std::string_view w) {
    static const WordSet kWords = {"github", "gitlab", "ado",  "azure",     "devops", "personal",
                                   "access", "gh",     "glab", "bitbucket", "hf",     "api",
                                   "docker", "npm",    "git",  "vsts",      "tfs"};
    return kWords.Has(w);
  };
  if ((head == "pat" && pat_owner(prev)) ||
      (head.size() > 3 && EndsWith(head, "pat") && pat_owner(head.substr(0, head.size() - 3)))) {
    return Kind::kToken;
  }
  // An API key named after what it opens: apikey_myservice, API_KEY_STRIPE. The last word is
  // then the service's name, unless it is one that says something about the key (its header,
  // its length, where it is read from).
  const bool api_key_before =
      prev == "apikey" || (prev == "key" && n > 2 && words.word[n - 3] == "api");
  if (api_key_before && head.size() >= 3 && std::all_of(head.begin(), head.end(), IsAlpha) &&
      !IsApiKeyAttribute(head)) {
    return Kind::kServiceApiKey;
  }
  return Kind::kNone;
}
}  // namespace rr_secrets
