// settings: the value given to a setting named for a secret.
//
// At each keyword occurrence (pass, pw, secret, token, key, auth, cred, bearer…) the detector
// takes the whole name around it (db_password, apiKey, X-Api-Key, spring.datasource.password,
// --token) and decides from its words whether it names a secret: its last word does
// (password, secret, token, credentials, auth…, or key after api/access/secret/private…),
// once words that only qualify it are set aside (_value, _b64, _prod). Names that merely hold
// the word (author, token_type, password_min_length, secret_name, max_tokens) do not. A key
// that no word qualifies (KEY, adobe_key, bitfinexKey: a service's name, or nothing) names a
// secret only when its value has a token's shape (IsTokenShaped, and 20 characters or more: a
// token's alphabet, digits and letters mixed, not words, no placeholder): a lookup's, a sort's
// or a message's key is a word or a path, never that; and a public key, a table's or a lookup's
// (public_key, foreign_key, sort_key, cacheKey: IsKeyNonSecret) is never one. How a name's
// words are read is setting_names.h's.
//
// Then it reads how the value is given: `name: v`, `name = v`, `name := v`, `name => v`,
// `"name": "v"`, `<name>v</name>`, `name="v"` in a tag, `<add key="name" value="v"/>`,
// `("name", "v")`, `setName("v")`, `--name v`, Dockerfile's `ENV NAME v`, SQL's
// `PASSWORD 'v'`, a header's `Authorization: Bearer v`, a name inside a string
// ("Server=db;Password=v;", "?api_key=v&", a JSON string's "\nTOKEN=v\n"); and beside the
// name: `- name: API_TOKEN` with `value: v` on the lines after it (Kubernetes, ECS,
// CloudFormation), a Terraform variable's `default = "v"`. Only the value is reported,
// without quotes or an authorization scheme. A comment's line is read as prose.
//
// A value is kept when it is a reference or a placeholder (os.environ[…], ${VAR}, {{ … }},
// <your-token>, changeme, xxx, none…), a URL or a path, words people read, the name again, or a
// private key's PEM text (the private-keys detector shows its marker lines). The file's name
// says how to read an unquoted value: literal in YAML, .env, INI, TOML, properties, shell and
// Dockerfiles; an expression (a reference) in code, JSON and HCL; where the format is unknown
// (commit messages, prose), literal unless it is shaped like code (user_password,
// self.token, getToken()).
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "detectors.h"
#include "quotes.h"
#include "setting_names.h"

namespace rr_secrets {

namespace {

inline bool IsNameChar(char c) {
  return ClassOf(c) & (kLower | kUpper | kDigit | kUnderscore | kDash) || c == '.';
}

size_t SkipBlanks(std::string_view t, size_t i, size_t end) {
  while (i < end && IsBlank(t[i])) ++i;
  return i;
}

// An authorization scheme before a credential ("Bearer ", "Basic ", "token ").
size_t SchemeLength(std::string_view v) {
  static constexpr std::string_view kSchemes[] = {
      "bearer ", "api-token ", "apitoken ",  "basic ",  "token ",
      "bot ",    "digest ",    "oauth ",     "apikey ", "api-key ",
      "key ",    "ssws ",      "negotiate ", "hmac ",   "sharedaccesssignature ",
      "jwt "};
  for (auto s : kSchemes) {
    if (StartsWithNoCase(v, s)) {
      size_t n = s.size();
      while (n < v.size() && IsBlank(v[n])) ++n;
      return n;
    }
  }
  return 0;
}

bool IsUpperSnake(std::string_view v) {
  bool underscore = false;
  for (char c : v) {
    if (c == '_') {
      underscore = true;
    } else if (!(ClassOf(c) & (kUpper | kDigit))) {
      return false;
    }
  }
  return underscore;
}

// A segment of a dotted name shaped like an identifier a person wrote: snake_case,
// camelCase with words of a few letters, or an upper-case constant.
bool IsIdentifierWord(std::string_view w) {
  if (w.empty() || !(IsAlpha(w[0]) || w[0] == '_' || w[0] == '$')) return false;
  int lower = 0, upper = 0;
  for (char c : w) {
    const uint8_t k = ClassOf(c);
    if (k & kLower) {
      ++lower;
    } else if (k & kUpper) {
      ++upper;
    } else if (!(k & (kDigit | kUnderscore)) && c != '$') {
      return false;
    }
  }
  return upper == 0 || lower == 0 || (w.size() > 1 && lower >= 2 * upper);
}

bool IsObjectWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "self",    "this",    "config",   "cfg",         "conf",        "settings", "os",
      "env",     "process", "request",  "req",         "ctx",         "context",  "app",
      "user",    "opts",    "options",  "args",        "params",      "props",    "secrets",
      "vars",    "data",    "response", "res",         "credentials", "creds",    "auth",
      "session", "window",  "document", "db",          "client",      "values",   "module",
      "local",   "var",     "system",   "environment", "cls",         "current",  "form",
      "input",   "payload", "body",     "state",       "store",       "account",  "profile",
      "model",   "record",  "row",      "item",        "obj",         "object",   "result",
      "resp",    "keys",    "tokens",   "this_",       "super",       "parent",   "instance"};
  for (auto k : kWords) {
    if (EqualsNoCase(w, k)) return true;
  }
  return false;
}

// An unquoted value, where the format is unknown, shaped like code rather than a literal: a
// call, an index, an object's member (self.token, config.password), snake_case or camelCase
// words, an upper-case constant.
bool LooksLikeCode(std::string_view v) {
  if (v.empty()) return true;
  if (v.find('(') != std::string_view::npos || v.find('[') != std::string_view::npos) {
    return true;
  }
  if (IsUpperSnake(v) || v == "self" || v == "this" || v == "nil" || v == "None") return true;
  const size_t dot = v.find('.');
  if (dot != std::string_view::npos) {
    if (!IsObjectWord(v.substr(0, dot))) return false;
    for (size_t from = 0; from <= v.size();) {
      size_t next = v.find('.', from);
      if (next == std::string_view::npos) next = v.size();
      if (!IsIdentifierWord(v.substr(from, next - from))) return false;
      from = next + 1;
    }
    return true;
  }
  const Mix m = MixOf(v);
  if (m.digit > 0 || !IsIdentifierWord(v)) return false;
  const bool snake = m.upper == 0 && v.find('_') != std::string_view::npos;
  const bool pascal = (ClassOf(v[0]) & kUpper) && m.upper >= 2 && m.lower >= 3 * m.upper &&
                      v.find('_') == std::string_view::npos;
  if (pascal) return true;
  const bool camel =
      m.upper > 0 && (ClassOf(v[0]) & kLower) && v.find('_') == std::string_view::npos;
  return snake || camel;
}

// An unquoted value that no language would read as an expression: a bracket closed by
// another kind (`m{{h}o)p${e]…}}`). Pasted text, then, whatever the file's language. (An
// opened bracket left open is a call going on to the next line; a closing one with none open,
// the end of the call the setting is an argument of: `connect(password=pw)`.)
// A version or a range of them, as package manifests give a package named for a secret's word
// (`"js-tokens": "^3.0.0 || ^4.0.0"`, `"jsonwebtoken": "~9.0.2"`, `keyring>=23.0`).
bool IsVersionRange(std::string_view v) {
  if (v.substr(0, 4) == "npm:") v.remove_prefix(4);  // Yarn's lockfile: js-tokens: "npm:^4.0.0"
  bool digit = false, dot = false;
  for (char c : v) {
    if (IsDigit(c)) {
      digit = true;
    } else if (c == '.') {
      dot = true;
    } else if (!std::strchr("^~<>=|*xX -v", c)) {
      return false;
    }
  }
  return digit && dot;
}

// Lower-case words joined by dashes or underscores, two letters or more each and no digit: the
// name of something (a storage key, a cookie, a cache entry: `storageKey = "vite-ui-theme"`),
// not a key or a token, which are random.
bool IsWordsJoined(std::string_view v) {
  size_t words = 0, letters = 0;
  for (char c : v) {
    if (c >= 'a' && c <= 'z') {
      ++letters;
    } else if ((c == '-' || c == '_') && letters >= 2) {
      ++words;
      letters = 0;
    } else {
      return false;
    }
  }
  return words >= 1 && letters >= 2;
}

// A function's call, unquoted: `get_secret_value("…")`, `os.getenv("…")` (Python in a YAML
// block, a template's helper). Its name is lower-case words, dots and underscores.
bool IsCall(std::string_view v) {
  const size_t open = v.find('(');
  if (open < 3 || open == std::string_view::npos || v.back() != ')') return false;
  for (size_t i = 0; i < open; ++i) {
    const char c = v[i];
    if (!((c >= 'a' && c <= 'z') || c == '_' || c == '.')) return false;
  }
  return true;
}

constexpr size_t kMaxPastedValue = 128;

bool CannotBeAnExpression(std::string_view v) {
  char open[64];
  size_t depth = 0;
  for (char c : v) {
    if (c == '(' || c == '[' || c == '{') {
      if (depth == sizeof open) return false;
      open[depth++] = c;
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (depth == 0) continue;
      if (open[depth - 1] != want) return true;
      --depth;
    }
  }
  return false;
}

// A value that looks made to be secret rather than a word: digits or symbols (not just the
// separators of kebab-case or dotted words), case mixed inside it, or long.
bool IsSecretLike(std::string_view v) {
  const Mix m = MixOf(v);
  int separators = 0;
  for (char c : v) separators += c == '-' || c == '_' || c == '.';
  if (m.digit > 0 || m.symbol > separators) return true;
  if (m.upper == 0) return false;  // lower-case words: always-impersonate, the_repository
  if (v.size() >= 16) return true;
  const int inner_upper = m.upper - ((ClassOf(v[0]) & kUpper) ? 1 : 0);
  return inner_upper > 0 && m.lower > 0;
}

// An unquoted value in code that no expression looks like: 16 or more characters of a token's
// alphabet, digits and letters mixed, not an identifier made of words (user2_token_value,
// MAX_RETRY_COUNT_10), not a member or a call.
bool IsTokenShaped(std::string_view v) {
  if (v.size() < 16 || v.size() > 512 || LooksLikeCode(v) || IsUpperSnake(v)) return false;
  for (char c : v) {
    if (!(IsTokenChar(c) || c == '+' || c == '/' || c == '=' || c == '~')) return false;
  }
  const Mix m = MixOf(v);
  if (m.digit < 2 || m.lower + m.upper < 4) return false;
  if (v.find('/') != std::string_view::npos && !(m.upper > 0 && m.lower > 0)) return false;
  int word_segments = 0;
  size_t longest = 0;
  for (size_t from = 0; from <= v.size();) {
    size_t next = v.find_first_of("_-", from);
    if (next == std::string_view::npos) next = v.size();
    const std::string_view seg = v.substr(from, next - from);
    longest = std::max(longest, seg.size());
    word_segments += seg.size() >= 3 && std::all_of(seg.begin(), seg.end(), IsAlpha);
    from = next + 1;
  }
  return !(word_segments >= 2 && longest < 16);
}

// A regular expression given as the value ("[^\\W\\d]\\w*", "(?:…)").
bool IsPattern(std::string_view v) {
  for (std::string_view p : {"(?:", "[^", ".*", "[a-z", "[A-Z", "[0-9", "\\w*", "\\w+", "\\d+"}) {
    if (v.find(p) != std::string_view::npos) return true;
  }
  return false;
}

// The longest run of one repeated byte (000000…, AAAA…: a fixture, not a secret).
size_t LongestRun(std::string_view v) {
  size_t best = 0, run = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    run = (i > 0 && v[i] == v[i - 1]) ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

bool IsPathLike(std::string_view v) {
  if (v.empty()) return false;
  const bool rooted = v[0] == '/' || v[0] == '~' || v.substr(0, 2) == "./" ||
                      v.substr(0, 3) == "../" ||
                      (v.size() > 2 && IsAlpha(v[0]) && v[1] == ':' && v[2] == '\\');
  if (!rooted) return false;
  int slashes = 0;
  for (char c : v) {
    if (c == '/' || c == '\\') {
      ++slashes;
    } else if (!(IsWord(c) || c == '.' || c == '-' || c == '~' || c == ':')) {
      return false;
    }
  }
  return slashes >= 2 || v.find('.') != std::string_view::npos;
}

// Bare words: three or more words of lower-case letters, one space apart, none of them a
// word that messages, labels and placeholders are made of ("is required", "not set", "your
// api key here", "enter the password") or a secret's own word. Such words given to a secret's
// name are a passphrase ("correct horse battery staple"), not a message: a message starts
// with a capital or ends in punctuation, or says what is wrong or wanted.
bool IsBareWords(std::string_view v) {
  static const std::string_view kMessageWords[] = {
      "a",        "an",         "the",         "is",      "are",     "was",     "were",
      "be",       "been",       "not",         "no",      "none",    "please",  "must",
      "should",   "cannot",     "can",         "will",    "would",   "could",   "to",
      "of",       "for",        "your",        "you",     "my",      "our",     "this",
      "that",     "here",       "there",       "enter",   "insert",  "replace", "put",
      "set",      "unset",      "change",      "me",      "invalid", "missing", "required",
      "wrong",    "incorrect",  "failed",      "fail",    "error",   "expired", "match",
      "matches",  "characters", "least",       "empty",   "example", "sample",  "dummy",
      "fake",     "test",       "placeholder", "default", "goes",    "secret",  "secrets",
      "password", "passwords",  "passphrase",  "token",   "tokens",  "key",     "keys",
      "api",      "credential", "credentials", "auth",    "login",   "pass",    "pwd",
      "user",     "username",   "used",        "use",     "see",     "todo",    "fixme",
      "do",       "does",       "did",         "has",     "have",    "if",      "when",
      "only",     "into",       "by",          "from",    "on",      "in",      "at",
      "it",       "its",        "as",          "or",      "dont",    "doesnt",  "isnt",
      "cant",     "wont",       "didnt",       "arent"};
  size_t words = 0;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j < v.size() && v[j] >= 'a' && v[j] <= 'z') ++j;
    if (j - i < 2) return false;
    const std::string_view w = v.substr(i, j - i);
    for (std::string_view m : kMessageWords) {
      if (w == m) return false;
    }
    ++words;
    if (j == v.size()) break;
    if (v[j] != ' ' || j + 1 == v.size()) return false;
    i = j + 1;
  }
  return words >= 3;
}

bool IsTranslationOfPassword(std::string_view v) {
  static constexpr std::string_view kWords[] = {
      "passwort",
      "kennwort",
      "mot de passe",
      "contrase\xc3\xb1"
      "a",
      "contrasena",
      "senha",
      "wachtwoord",
      "l\xc3\xb6senord",
      "salasana",
      "has\xc5\x82o",
      "heslo",
      "parola",
      "\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c",
      "\xd0\x9f\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c",
      "\xe5\xaf\x86\xe7\xa0\x81",
      "\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89",
      "\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8",
      "jelsz\xc3\xb3",
      "adgangskode",
      "passord",
      "token",
      "secret",
      "geheimnis",
      "jeton",
      "clave",
      "chiave",
      "schl\xc3\xbcssel"};
  for (auto w : kWords) {
    if (EqualsNoCase(v, w)) return true;
  }
  return false;
}

// A value naming a field rather than being one: an identifier made of words, one of them a
// secret's ("user_password", "accessToken", "id-it-revPassphrase", "_authToken").
bool IsFieldName(std::string_view v) {
  for (char c : v) {
    if (!(IsAlpha(c) || c == '_' || c == '-' || c == '.')) return false;
  }
  Words words;
  Split(v, &words);
  if (words.count < 2 && v.find_first_of("_-.") == std::string_view::npos) {
    // One word: only the secret words themselves, in any case ("PASSWORD", "passwd"). A word
    // that merely ends as one ("rootpasswd", "adminpassword") is written as a password is, not
    // as a field's name: no separator or capital parts its words.
    if (words.count != 1) return false;
    const std::string_view w = words.word[0];
    return IsPasswordWordItself(w) || w == "token" || w == "secret" || w == "apikey";
  }
  for (int i = 0; i < words.count; ++i) {
    const std::string_view w = words.word[i];
    if (IsPasswordWord(w) || w.find("token") != std::string_view::npos ||
        w.find("secret") != std::string_view::npos || w == "key" || w == "auth" ||
        w.find("cred") != std::string_view::npos || w == "apikey" || w == "passphrase") {
      return true;
    }
  }
  return false;
}

// An HTTP header's name as it is written: two or more words of letters joined by '-', each a
// capital and small letters or a short capitalised word ("Content-Type", "X-Request-ID"). A
// machine's token is never written so; a passphrase may be, so a password's or a secret's value
// is not asked.
bool IsHeaderName(std::string_view v) {
  int parts = 0;
  for (size_t s = 0; s <= v.size();) {
    const size_t dash = std::min(v.find('-', s), v.size());
    const std::string_view w = v.substr(s, dash - s);
    if (w.empty() || !(ClassOf(w[0]) & kUpper)) return false;
    bool lower = true, upper = true;
    for (char c : w.substr(1)) {
      lower = lower && (ClassOf(c) & kLower);
      upper = upper && (ClassOf(c) & kUpper);
    }
    if (!lower && !(upper && w.size() <= 4)) return false;
    ++parts;
    s = dash + 1;
  }
  return parts >= 2;
}

// How a value is given to its name.
enum class Op { kColon, kAssign, kElement, kPair, kCall, kSpace };

struct Value {
  size_t begin = 0, end = 0;
  bool quoted = false;
  bool template_string = false;  // f"…", `…${}…`
};

bool IsCommentStart(std::string_view t, size_t line_start, size_t at) {
  size_t i = line_start;
  if (i < at && (t[i] == '+' || t[i] == '-' || t[i] == ' ')) ++i;
  i = SkipBlanks(t, i, at);
  const std::string_view head = t.substr(i, at - i);
  return head.substr(0, 1) == "#" || head.substr(0, 2) == "//" || head.substr(0, 2) == "/*" ||
         head.substr(0, 1) == "*" || head.substr(0, 2) == "--" || head.substr(0, 4) == "<!--" ||
         head.substr(0, 1) == ";" || head.substr(0, 1) == "%" || head.substr(0, 4) == "REM " ||
         head.substr(0, 3) == "\"\"\"" || head.substr(0, 2) == "> ";
}

class Settings final : public Detector {
 public:
  Settings()
      : Detector("settings", {"pass", "pw", "secret", "token", "key", "auth", "cred", "bearer",
                              "passwort", "kennwort", "pat", "sonar"}) {}
  // The letters that may follow each keyword (in keywords_' order) inside a word that names a
  // secret: "pass" goes on as password or passphrase, never as passenger or passive. Every
  // secret word holds a keyword occurrence of its own, so an occurrence that goes on otherwise
  // (keyboard, tokenizer, author) is skipped before the name around it is read.
  static constexpr std::string_view kContinuations[][7] = {
      {"", "word", "words", "wd", "phrase", "wort", "code"},
      {"", "d", "s", "", "", "", ""},
      {"", "s", "e", "value", "", "", ""},
      {"", "s", "value", "", "", "", ""},
      {"", "s", "base", "value", "", "", ""},
      {"", "orization", "z", "", "", "", ""},
      {"", "s", "ential", "entials", "", "", ""},
      {"", "", "", "", "", "", ""},
      {"", "", "", "", "", "", ""},
      {"", "", "", "", "", "", ""},
      {"", "s", "", "", "", "", ""},
      {"", "", "", "", "", "", ""},
  };

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    PathAt paths(in);
    QuoteState quotes;
    size_t last_name_end = std::string_view::npos;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      const uint32_t k = in.hits[h].keyword;
      if (at >= t.size() || k >= keywords_.size()) continue;
      if (!SecretWordAt(t, at, keywords_[k].size(), k)) continue;
      size_t b = at, e = at;
      while (b > 0 && at - b < 64 && IsNameChar(t[b - 1])) --b;
      while (e < t.size() && e - at < 64 && IsNameChar(t[e])) ++e;
      if (e == last_name_end) continue;
      last_name_end = e;
      // A name after an escape inside a string ("…\nAPI_TOKEN=…"): the escape is not part of it.
      if (b < at && b > 0 && t[b - 1] == '\\' && (t[b] == 'n' || t[b] == 't' || t[b] == 'r')) {
        ++b;
      }
      while (e > b && (t[e - 1] == '.' || t[e - 1] == '-')) --e;
      while (b < e && (t[b] == '.' || t[b] == '-')) ++b;
      if (b >= e || b > at) continue;
      if (InUrn(t, b)) continue;  // urn:k8s:secret:tls:cert names a Secret's entry
      if (b >= 2 && (t[b - 1] == '+' || t[b - 1] == '/') && IsAlnum(t[b - 2])) {
        continue;  // inside base64
      }
      Words words;
      Split(t.substr(b, e - b), &words);
      // `--token v`, and PowerShell's `-Password v` / `-Token v` (one dash, the whole word).
      const bool dashed =
          (b >= 2 && t[b - 1] == '-' && t[b - 2] == '-') ||
          (b >= 1 && t[b - 1] == '-' && (b == 1 || IsBlank(t[b - 2])) && words.count == 1 &&
           (IsFullPasswordWord(words) || words.word[0] == "token" || words.word[0] == "apikey" ||
            words.word[0] == "secret"));
      const Kind kind = KindOfWords(words);
      if (kind == Kind::kNone || IsRandomRun(words)) continue;
      OneSetting(in, paths, &quotes, b, e, dashed, kind, words, sink);
    }
  }

 private:
  // True when the keyword occurrence at `at` ends a word's run of letters as a secret word
  // does (see kContinuations).
  static bool SecretWordAt(std::string_view t, size_t at, size_t length, uint32_t keyword) {
    const size_t from = at + length;
    if (from > t.size() || keyword >= sizeof kContinuations / sizeof kContinuations[0]) {
      return false;
    }
    size_t j = from;
    const uint8_t cls = ClassOf(t[from - 1]) & (kLower | kUpper);
    while (j < t.size() && (ClassOf(t[j]) & cls)) ++j;
    // "TOKENValue": the last capital starts the next word.
    if (cls == kUpper && j > from && j < t.size() && (ClassOf(t[j]) & kLower)) --j;
    const size_t n = j - from;
    for (std::string_view c : kContinuations[keyword]) {
      if (c.size() == n && (n == 0 || EqualsNoCase(t.substr(from, n), c))) return true;
    }
    return false;
  }

  struct Name {
    size_t b, e;
    Kind kind;
    const Words* words;
  };

  void OneSetting(const ScanInput& in, PathAt& paths, QuoteState* quotes, size_t b, size_t e,
                  bool dashed, Kind kind, const Words& words, SpanSink& sink) const {
    const std::string_view t = in.text;
    const Name name{b, e, kind, &words};
    const size_t line_start = LineStart(t, b);
    const size_t line_end = ContentEnd(t, e);
    const Format file_format = paths.FormatAt(b);
    const bool comment = IsCommentStart(t, line_start, b);
    const Format format = comment ? Format::kUnknown : file_format;
    // A documentation tag (`@param password: …`, ` * @FOO_TOKEN: …`) describes, not sets.
    if (comment && b > 0 && (t[b - 1] == '@' || t[b - 1] == '\\')) return;

    char name_quote = 0;
    const size_t name_qlen = QuoteBefore(t, b, &name_quote);
    bool name_quoted = false;
    char in_string = 0;  // the quote of a string the name sits inside ("Password=x;…")
    size_t p = e;
    if (name_qlen) {
      char q = 0;
      if (QuoteAt(t, p, &q) == name_qlen && q == name_quote) {
        p += name_qlen;
        name_quoted = true;
      } else {
        in_string = name_quote;
      }
    }
    if (!name_qlen && b >= 2 && t[b - 2] == '\\' &&
        (t[b - 1] == 'n' || t[b - 1] == 't' || t[b - 1] == 'r')) {
      in_string = '"';
    }
    if (!name_quoted && !in_string && !comment &&
        (format == Format::kCode || format == Format::kJson || format == Format::kHcl)) {
      in_string = quotes->OpenAt(t, line_start, name_qlen ? b - name_qlen : b);
    }
    if (in_string && !name_qlen) {
      // Inside a string, a name stands after a separator ("a=1;Password=x", "\nTOKEN=x"), not
      // inside another value ("arn:…:secret:prod/x").
      const char c = b > 0 ? t[b - 1] : ' ';
      if (!(IsBlank(c) || c == ';' || c == '&' || c == '?' || c == ',' || c == '{' || c == '(' ||
            (b >= 2 && t[b - 2] == '\\'))) {
        return;
      }
    }
    if (PairedValue(t, name, name_qlen, format, sink)) return;

    const char before = b > name_qlen ? t[b - 1 - name_qlen] : '\n';
    // A query's or a connection string's parameter: the separator before the name.
    const char in_params = !name_quoted && (before == ';' || before == '?' || before == '&') &&
                                   !AfterHtmlEntity(t, b - name_qlen)
                               ? before
                               : 0;
    const bool element = !name_quoted && b > 0 && t[b - 1] == '<';
    // An element named just `key` holds a dictionary's key (a property list's
    // `<key>NSExtension</key>`, whatever its letters), not a secret.
    if (element && kind == Kind::kBareKey && EqualsNoCase(t.substr(b, e - b), "key")) return;

    // C's `char secret[25] = "…"`, `secret[] = "…"`: an array's size between name and value
    // (in code only: a shell's or git's `wwwauth[]=Negotiate` appends to a list).
    if (format == Format::kCode && !name_quoted && p < line_end && t[p] == '[') {
      size_t q = p + 1;
      while (q < line_end && q - p < 6 && IsDigit(t[q])) ++q;
      if (q < line_end && t[q] == ']') p = q + 1;
    }
    const size_t after_name = p;
    p = SkipBlanks(t, p, line_end);
    if (p >= line_end) return;
    const char c = t[p];
    const char c1 = p + 1 < line_end ? t[p + 1] : '\0';
    const char c2 = p + 2 < line_end ? t[p + 2] : '\0';
    Op op;
    if (c == ':' && c1 == ':') {
      // Makefile's `::=` and `:::=`; any other `::` is a scope (Foo::token).
      if (c2 == '=') {
        p += 3;
      } else if (c2 == ':' && p + 3 < line_end && t[p + 3] == '=') {
        p += 4;
      } else {
        return;
      }
      op = Op::kAssign;
    } else if (c == ':') {
      if (name_quoted && !KeyPosition(t, line_start, b - name_qlen)) return;
      op = c1 == '=' ? Op::kAssign : Op::kColon;
      p += c1 == '=' ? 2 : 1;
    } else if (c == '.' && c1 == '=') {
      op = Op::kAssign;  // PHP's `$token .= "…"`
      p += 2;
    } else if (c == '=') {
      if (c1 == '~') return;
      op = Op::kAssign;
      p += c1 == '=' ? (c2 == '=' ? 3 : 2) : (c1 == '>' ? 2 : 1);
    } else if ((c == '!' || c == '?') && c1 == '=') {
      op = Op::kAssign;
      p += c2 == '=' ? 3 : 2;
    } else if (c == '>' && (element || (name_quoted && IsBlankOrTagAttr(t, b, name_qlen)))) {
      op = Op::kElement;
      p += 1;
    } else if (c == ',' && name_quoted && OpensCall(t, b - name_qlen)) {
      op = Op::kPair;
      p += 1;
    } else if (c == '(' && p == after_name && IsSetter(t, b, e) &&
               words.word[words.count - 1] != "pass") {  // t.pass("…"): a verb
      op = Op::kCall;
      p += 1;
    } else if (size_t typed = TypedAssignment(t, line_start, b, p, line_end)) {
      op = Op::kAssign;  // Go's `var fooToken string = "…"`
      p = typed;
    } else if (name_quoted && p > after_name && StartsWithNoCase(t.substr(p), "value=")) {
      op = Op::kAssign;
      p += 6;
    } else if (p > after_name &&
               (dashed || IsDockerEnv(t, b) ||
                (kind == Kind::kPassword && (c == '"' || c == '\'') && !name_quoted && !in_string &&
                 (format == Format::kUnknown || IsSqlPath(paths.At(b))) &&
                 (b == line_start || IsBlank(t[b - 1])) && IsFullPasswordWord(words)) ||
                (words.count == 1 && EqualsNoCase(t.substr(b, e - b), "bearer")) ||
                ((kind == Kind::kPassword || kind == Kind::kSecret) && !name_quoted && !in_string &&
                 QuotedStatement(t, line_start, b, p, line_end)) ||
                (kind == Kind::kAuth && SchemeFollows(t, p, line_end)))) {
      op = Op::kSpace;  // also nginx's `proxy_set_header Authorization "Basic …"`
    } else if (c == '-' && c1 == ' ' && p > after_name && !name_quoted && !in_string) {
      // `slack token - 'xoxb-…'`: a dash between a name and a quoted value, as notes and logs
      // write it (a subtraction's operand is no quoted value of eight characters).
      const size_t q = SkipBlanks(t, p + 1, line_end);
      if (q >= line_end || (t[q] != '\'' && t[q] != '"')) return;
      op = Op::kAssign;
      p += 1;
    } else {
      if (!name_quoted && !in_string) ComparedBefore(t, b, line_start, format, name, sink);
      return;
    }
    p = SkipBlanks(t, p, line_end);
    if (p >= line_end) {
      if (op == Op::kElement) ElementOnItsOwnLine(t, line_end, format, name, sink);
      if (op == Op::kAssign && !in_string && !name_quoted &&
          (format == Format::kCode || format == Format::kUnknown)) {
        ValueOnTheNextLine(t, line_end, format, name, sink);
      }
      return;
    }

    // A setting inside a template's action (`{{- $secretValue = join "," … }}`, Helm's) is
    // the template's code: its value, unquoted, is an expression.
    if (t[p] != '"' && t[p] != '\'' && InTemplateAction(t, line_start, b)) return;
    if (op == Op::kColon && format == Format::kCode && t[p] != '"' && t[p] != '\'' && t[p] != '`') {
      // A type annotation: `token: str = "…"`, `const TOKEN: &str = "…"` read on after the
      // `=`; `token: string` alone is a declaration.
      size_t q = p;
      while (q < line_end && t[q] != '=' && t[q] != ';' && t[q] != ',' && t[q] != ')' &&
             t[q] != '{') {
        ++q;
      }
      if (q + 1 < line_end && t[q] == '=' && t[q + 1] != '=' && t[q + 1] != '>') {
        p = SkipBlanks(t, q + 1, line_end);
        if (p >= line_end) return;
      } else {
        return;
      }
    }
    if (op == Op::kColon && format == Format::kYaml && (t[p] == '|' || t[p] == '>')) {
      BlockValue(t, p, line_start, line_end, name, sink);
      return;
    }
    ReadAndReport(t, p, line_end, op, in_string, in_params, format, name, sink);
  }

  // An authorization scheme at `p`, in quotes or not ("Basic …", Bearer …).
  static std::string LowerName(std::string_view name) {
    std::string out(name);
    for (char& c : out) c = Lower(c);
    return out;
  }

  static bool SchemeFollows(std::string_view t, size_t p, size_t line_end) {
    if (p < line_end && (t[p] == '"' || t[p] == '\'')) ++p;
    return p < line_end && SchemeLength(t.substr(p, std::min<size_t>(32, line_end - p))) > 0;
  }

  // `var NAME TYPE = value` (Go), with `var` or `const` first on the line: the position after
  // the `=`, or 0.
  static size_t TypedAssignment(std::string_view t, size_t line_start, size_t b, size_t p,
                                size_t line_end) {
    size_t s = line_start;
    if (s < b && (t[s] == '+' || t[s] == '-' || t[s] == ' ')) ++s;
    s = SkipBlanks(t, s, b);
    const std::string_view head = t.substr(s, b - s);
    if (head != "var " && head != "const ") return 0;
    size_t q = p;
    while (q < line_end &&
           (IsWord(t[q]) || t[q] == '.' || t[q] == '*' || t[q] == '[' || t[q] == ']')) {
      ++q;
    }
    if (q == p || q >= line_end || !IsBlank(t[q])) return 0;
    q = SkipBlanks(t, q, line_end);
    if (q + 1 >= line_end || t[q] != '=' || t[q + 1] == '=') return 0;
    return q + 1;
  }

  // Where the text of the line after the one ending at `line_end` starts (past a diff's mark
  // and blanks), and its end in *end; npos when there is no next line.
  static size_t NextLineText(std::string_view t, size_t line_end, size_t* end) {
    if (line_end >= t.size()) return std::string_view::npos;
    const size_t next = LineEnd(t, line_end) + 1;
    if (next >= t.size()) return std::string_view::npos;
    *end = ContentEnd(t, next);
    size_t p = next;
    if (p < *end && (t[p] == '+' || t[p] == ' ')) ++p;  // a diff's line
    return SkipBlanks(t, p, *end);
  }

  // `<apiKey>` alone on its line, the value on the next line and the closing tag on the one
  // after: the middle line is the value.
  static void ElementOnItsOwnLine(std::string_view t, size_t line_end, Format format,
                                  const Name& name, SpanSink& sink) {
    size_t next_end = 0;
    const size_t vb = NextLineText(t, line_end, &next_end);
    if (vb == std::string_view::npos) return;
    size_t ve = next_end;
    while (ve > vb && IsBlank(t[ve - 1])) --ve;
    if (vb >= ve || t[vb] == '<') return;
    for (size_t i = vb; i < ve; ++i) {
      if (t[i] == '<') return;  // markup; a '>' is XML text like any other character
    }
    if (next_end >= t.size()) return;
    size_t close = LineEnd(t, next_end) + 1;
    if (close < t.size() && (t[close] == '+' || t[close] == ' ')) ++close;
    close = SkipBlanks(t, close, ContentEnd(t, close));
    if (t.substr(close, 2) != "</") return;
    const Value v{vb, ve, true, false};
    if (!Judge(name.kind, format, v, t.substr(vb, ve - vb), t.substr(name.b, name.e - name.b),
               *name.words, true)) {
      return;
    }
    Report(sink, t, vb, ve, WhatOf(name.kind));
  }

  // `const apiKey =` ending its line and the quoted value alone on the next, as a formatter
  // wraps a long assignment (Prettier, Black, clang-format): `"…";`, `"…",` or `"…"`.
  static void ValueOnTheNextLine(std::string_view t, size_t line_end, Format format,
                                 const Name& name, SpanSink& sink) {
    size_t next_end = 0;
    const size_t p = NextLineText(t, line_end, &next_end);
    if (p == std::string_view::npos) return;
    if (p >= next_end || (t[p] != '"' && t[p] != '\'' && t[p] != '`')) return;
    const size_t close = ClosingQuote(t, p + 1, next_end, t[p], 1);
    if (close >= next_end) return;
    size_t after = SkipBlanks(t, close + 1, next_end);
    if (after < next_end && (t[after] == ';' || t[after] == ',')) ++after;
    after = SkipBlanks(t, after, next_end);
    const std::string_view rest = t.substr(after, next_end - after);
    // Only a comment may follow; anything else means an expression goes on.
    if (!rest.empty() && rest.substr(0, 2) != "//" && rest.substr(0, 2) != "/*" && rest[0] != '#') {
      return;
    }
    const std::string_view inside = t.substr(p + 1, close - p - 1);
    const Value v{p + 1, close, true, t[p] == '`' && inside.find("${") != std::string_view::npos};
    if (v.begin >= v.end) return;
    if (!Judge(name.kind, format, v, t.substr(v.begin, v.end - v.begin),
               t.substr(name.b, name.e - name.b), *name.words, false)) {
      return;
    }
    Report(sink, t, v.begin, v.end, WhatOf(name.kind));
  }

  // A YAML block scalar: `password: |` (or >, |-, >+2…) and the lines below it indented more
  // than the name's line. The block's text is the value; a private key's PEM text is left to
  // the private-keys detector, as on one line.
  static void BlockValue(std::string_view t, size_t p, size_t line_start, size_t line_end,
                         const Name& name, SpanSink& sink) {
    size_t q = p + 1;
    while (q < line_end && (t[q] == '+' || t[q] == '-' || IsDigit(t[q]))) ++q;
    q = SkipBlanks(t, q, line_end);
    if (q < line_end && t[q] != '#') return;
    size_t indent = 0;
    while (line_start + indent < line_end && t[line_start + indent] == ' ') ++indent;
    size_t begin = std::string_view::npos, end = 0;
    size_t line = LineEnd(t, line_end) + 1;
    for (int lines = 0; line < t.size() && lines < 64; ++lines) {
      const size_t le = ContentEnd(t, line);
      size_t i = line;
      while (i < le && t[i] == ' ') ++i;
      if (i < le) {
        if (i - line <= indent) break;  // a line no more indented than the name's: the block ended
        if (begin == std::string_view::npos) begin = i;
        end = le;
        while (end > i && IsBlank(t[end - 1])) --end;
      }
      line = LineEnd(t, line) + 1;
    }
    if (begin == std::string_view::npos) return;
    const std::string_view value = t.substr(begin, end - begin);
    const size_t first_line = std::min(value.size(), value.find('\n'));
    Value v{begin, begin + first_line, false, false};
    if (!Judge(name.kind, Format::kYaml, v, value.substr(0, first_line),
               t.substr(name.b, name.e - name.b), *name.words, true)) {
      return;
    }
    Report(sink, t, begin, end, WhatOf(name.kind));
  }

  // Reads the value at `p` and reports it when it is a secret.
  static void ReadAndReport(std::string_view t, size_t p, size_t line_end, Op op, char in_string,
                            char in_params, Format format, const Name& name, SpanSink& sink) {
    // An authorization scheme stays visible; the credential after it is the secret.
    bool scheme = false;
    if (t[p] != '"' && t[p] != '\'' && t[p] != '`' && t[p] != '\\') {
      const size_t n = SchemeLength(t.substr(p, std::min<size_t>(32, line_end - p)));
      if (n && p + n < line_end) {
        p += n;
        scheme = true;
      }
    }
    Value v;
    if (!ReadValue(t, p, line_end, op, in_string, in_params, format, &v)) return;
    if ((op == Op::kPair || op == Op::kCall) && !v.quoted) return;
    if (op == Op::kPair && !ClosesCall(t, v.end + 1, line_end)) return;
    if (v.quoted && IsPrefixOfAnExpression(t, v, line_end)) return;
    // A name, a blank and a word that is no credential, less the punctuation of a sentence:
    // prose ("bearer token authentication", "bearer token, the value …"), a scheme or not.
    if (op == Op::kSpace) {
      std::string_view word = t.substr(v.begin, v.end - v.begin);
      while (!word.empty() && std::strchr(",.;:!?)", word.back())) word.remove_suffix(1);
      if (!IsSecretLike(word)) return;
    }
    // A pair of capitalized words is an enumeration (`('Secret', 'ConfigMap')`).
    if (op == Op::kPair && IsWords(t.substr(v.begin, v.end - v.begin)) &&
        (ClassOf(t[v.begin]) & kUpper)) {
      return;
    }
    if (((format == Format::kUnknown && !in_string) || in_string) && op == Op::kColon &&
        !v.quoted && !scheme && IsWords(t.substr(v.begin, v.end - v.begin)) &&
        WordFollows(t, v.end, line_end)) {
      // a sentence: "password: MySQL password", "SECRET: PKCS-12 bag with …", and in a
      // string a test's report, `echo "Pass: no-op when …"`
      return;
    }
    if (op == Op::kElement && !ClosesElement(t, v.end, line_end)) return;
    std::string_view value = t.substr(v.begin, v.end - v.begin);
    if (v.quoted) {
      // Blanks padding a quoted token (`token = ' iahNbq… '`) are not part of it: a value of
      // one word between them is judged, and hidden, without them.
      size_t b = v.begin, e = v.end;
      while (b < e && IsBlank(t[b])) ++b;
      while (e > b && IsBlank(t[e - 1])) --e;
      if (b < e && (b != v.begin || e != v.end) &&
          t.substr(b, e - b).find_first_of(" \t") == std::string_view::npos) {
        v.begin = b;
        v.end = e;
        value = t.substr(b, e - b);
      }
      const size_t n = SchemeLength(value);
      if (n) {
        v.begin += n;
        value = t.substr(v.begin, v.end - v.begin);
        scheme = true;
      }
    }
    if (!Judge(name.kind, format, v, value, t.substr(name.b, name.e - name.b), *name.words,
               scheme || in_string || in_params)) {
      // (A private key's PEM text in it is the private-keys detector's, named as one.)
      if (value.find('{') != std::string_view::npos &&
          value.find("-----BEGIN") == std::string_view::npos && IsReference(value)) {
        KeysInsideATemplate(t, v.begin, v.end, name.kind, sink);
      }
      return;
    }
    Report(sink, t, v.begin, v.end, WhatOf(name.kind));
  }

  // A template's braces name where a value comes from; a key written inside them is still a key
  // (`{name AQAAABAAA <key>}`, `{{ "<key>" | b64encode }}`): each run of 20 or more base64
  // characters with both cases and digits, not an identifier's camelCase words, or of one case
  // and digits in a token's shape, is hidden -- with the whole word it stands in (up to a blank,
  // a brace or a quote), so a key holding '=', ':' or '%' inside (`…qLX=iEOIrJRZ`) is never
  // shown in part.
  static void KeysInsideATemplate(std::string_view t, size_t begin, size_t end, Kind kind,
                                  SpanSink& sink) {
    for (size_t i = begin; i < end;) {
      if (!(IsBase64(t[i]) || t[i] == '_' || t[i] == '-')) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < end && (IsBase64(t[j]) || t[j] == '_' || t[j] == '-')) ++j;
      while (j < end && t[j] == '=') ++j;
      const std::string_view run = t.substr(i, j - i);
      const Mix m = MixOf(run);
      // Both cases and digits, not camelCase words; or one case with digits in a token's shape
      // (IsTokenShaped: no words between dashes), as lower-case keys are written.
      if (run.size() >= 20 && !IsPlaceholderToken(run) &&
          ((m.upper >= 2 && m.lower >= 2 && m.digit >= 2 && m.lower < 2 * m.upper) ||
           ((m.upper == 0 || m.lower == 0) && IsTokenShaped(run)))) {
        auto in_word = [](char c) {
          return !IsBlank(c) && c != '{' && c != '}' && c != '"' && c != '\'' && c != '`';
        };
        size_t b = i;
        while (b > begin && in_word(t[b - 1])) --b;
        while (j < end && in_word(t[j])) ++j;
        Report(sink, t, b, j, WhatOf(kind));
      }
      i = j;
    }
  }

  // `if ("…" == password)`, `"…" !== secret`: a quoted literal compared with the name from
  // before it, as code checks a password written into it.
  static void ComparedBefore(std::string_view t, size_t b, size_t line_start, Format format,
                             const Name& name, SpanSink& sink) {
    size_t q = b;
    while (q > line_start && IsBlank(t[q - 1])) --q;
    size_t op = q;
    while (op > line_start && q - op < 3 && t[op - 1] == '=') --op;
    const bool negated = op > line_start && t[op - 1] == '!';
    if (q == op || (!negated && q - op < 2)) return;
    if (negated) --op;
    size_t close = op;
    while (close > line_start && IsBlank(t[close - 1])) --close;
    if (close <= line_start) return;
    const char quote = t[--close];
    if (quote != '"' && quote != '\'' && quote != '`') return;
    size_t open = close;
    while (open > line_start && t[open - 1] != quote) --open;
    if (open <= line_start || (open >= 2 && t[open - 2] == '\\')) return;
    Value v;
    v.begin = open;
    v.end = close;
    v.quoted = true;
    const std::string_view value = t.substr(v.begin, v.end - v.begin);
    if (Judge(name.kind, format, v, value, t.substr(name.b, name.e - name.b), *name.words, false)) {
      Report(sink, t, v.begin, v.end, WhatOf(name.kind));
    }
  }

  // Values given beside the name rather than after it: `- name: DB_PASSWORD` then
  // `value: …` (Kubernetes env, ECS, CloudFormation: a "name"/"key" and a "value"), and a
  // Terraform variable's `default = …`.
  static bool PairedValue(std::string_view t, const Name& name, size_t name_qlen, Format format,
                          SpanSink& sink) {
    size_t q = name.b - name_qlen;
    while (q > 0 && IsBlank(t[q - 1])) --q;
    const size_t limit = std::min(t.size(), name.e + 400);
    if (q > 0 && (t[q - 1] == ':' || t[q - 1] == '=')) {
      size_t k = q - 1;
      while (k > 0 && IsBlank(t[k - 1])) --k;
      if (k > 0 && (t[k - 1] == '"' || t[k - 1] == '\'')) --k;
      size_t kb = k;
      while (kb > 0 && IsAlpha(t[kb - 1])) --kb;
      const std::string_view key = t.substr(kb, k - kb);
      if (!EqualsNoCase(key, "name") && !EqualsNoCase(key, "key")) return false;
      // The "value" key of the same item: later on the name's line (JSON, XML), or starting
      // the lines right after it (YAML; in a diff, the removed and the added line both).
      bool found = false;
      const size_t name_line_end = ContentEnd(t, name.e);
      size_t i = ValueKeyAt(t, name.e, name_line_end);
      if (i != std::string_view::npos) {
        found = true;
        ReportPaired(t, i, format, name, sink);
        return true;
      }
      for (size_t line = name_line_end; line < limit;) {
        line = LineEnd(t, line) + 1;
        if (line >= t.size()) break;
        size_t j = line;
        if (j < t.size() && (t[j] == '+' || t[j] == '-' || t[j] == ' ')) ++j;
        while (j < t.size() && (IsBlank(t[j]) || t[j] == '"' || t[j] == '\'')) ++j;
        const size_t le = ContentEnd(t, j);
        const size_t v = ValueKeyAt(t, j, std::min(le, j + 8));
        if (v != j) break;
        found = true;
        ReportPaired(t, v, format, name, sink);
        line = le;
      }
      return found || EqualsNoCase(key, "name");
    }
    if (format == Format::kHcl && name_qlen && q >= 8 && t.substr(q - 8, 8) == "variable") {
      for (size_t i = name.e; i + 7 < limit; ++i) {
        if (t[i] == '}' && (i == 0 || t[i - 1] == '\n')) return true;
        if (t[i] != 'd' || t.substr(i, 7) != "default" || !IsBlank(t[i - 1])) continue;
        size_t p = SkipBlanks(t, i + 7, t.size());
        if (p >= t.size() || t[p] != '=') continue;
        p = SkipBlanks(t, p + 1, t.size());
        const size_t line_end = ContentEnd(t, p);
        if (p < line_end) {
          ReadAndReport(t, p, line_end, Op::kAssign, 0, 0, format, name, sink);
        }
        i = line_end;
      }
      return true;
    }
    return false;
  }

  // True when a quoted name at `quote_at` stands where a key does: first on its line (or after
  // an escaped line break or tab, in JSON written inside a string: `{\n\"auth\": …`), or after
  // '{', ',', '(', '[', or a YAML list's '-' (not after a ternary's '?').
  static bool KeyPosition(std::string_view t, size_t line_start, size_t quote_at) {
    size_t i = quote_at;
    while (i > line_start && IsBlank(t[i - 1])) --i;
    while (i > line_start && t[i - 1] == '\\') --i;
    if (i == line_start) return true;
    if (i >= line_start + 2 && t[i - 2] == '\\' &&
        (t[i - 1] == 'n' || t[i - 1] == 'r' || t[i - 1] == 't')) {
      return true;
    }
    const char c = t[i - 1];
    return c == '{' || c == ',' || c == '(' || c == '[' || c == '-' || c == '+' ||
           (i - 1 == line_start && c == ' ');
  }

  // "password", "passwd", "passphrase" but not "pass" or "pw", which are also verbs and
  // abbreviations in prose ("did not pass "-v" options"), nor a word ending "pwd", which in a
  // shell names a working folder (`winpwd='cygpath -aw .'`).
  static bool IsFullPasswordWord(const Words& words) {
    const std::string_view w = words.word[words.count - 1];
    return w.size() > 4 && IsPasswordWord(w) && w.substr(w.size() - 3) != "pwd";
  }

  // A configuration statement `name "value";` first on its line (BIND's and rndc's
  // `secret "…";`, `password "…";`): the quoted value closes, then only ';' ends the line.
  static bool QuotedStatement(std::string_view t, size_t line_start, size_t b, size_t p,
                              size_t line_end) {
    if (SkipBlanks(t, line_start, b) != b || (t[p] != '"' && t[p] != '\'')) return false;
    const size_t close = ClosingQuote(t, p + 1, line_end, t[p], 1);
    if (close >= line_end || close == p + 1) return false;
    const size_t semi = SkipBlanks(t, close + 1, line_end);
    return semi < line_end && t[semi] == ';' && SkipBlanks(t, semi + 1, line_end) == line_end;
  }

  static bool IsSqlPath(std::string_view path) {
    return path.size() > 4 && EqualsNoCase(path.substr(path.size() - 4), ".sql");
  }

  // `&ldquo;secret:1…`: the ';' before the name ends an HTML entity, not a parameter.
  static bool AfterHtmlEntity(std::string_view t, size_t at) {
    if (at < 3 || t[at - 1] != ';') return false;
    size_t i = at - 1;
    while (i > 0 && at - i < 10 && IsAlnum(t[i - 1])) --i;
    return i > 0 && i < at - 1 && t[i - 1] == '&';
  }

  // `" --username=" + user`, `'Bearer %s' % token`: a string that an expression completes.
  static bool IsPrefixOfAnExpression(std::string_view t, const Value& v, size_t line_end) {
    const size_t after = SkipBlanks(t, v.end + 1, line_end);
    if (after >= line_end || (t[after] != '+' && t[after] != '%')) return false;
    const std::string_view value = t.substr(v.begin, v.end - v.begin);
    const char last = value.empty() ? ' ' : value.back();
    return IsBlank(value.front()) || IsBlank(last) || last == ':' || last == '=' || last == '/' ||
           last == '-';
  }

  static bool ClosesCall(std::string_view t, size_t at, size_t line_end) {
    at = SkipBlanks(t, at, line_end);
    return at < line_end && (t[at] == ')' || t[at] == ']');
  }

  // Letters, and hyphens inside them ("no-op", "read-only").
  static bool IsWords(std::string_view v) {
    if (v.empty() || !IsAlpha(v.front()) || !IsAlpha(v.back())) return false;
    for (char c : v) {
      if (!IsAlpha(c) && c != '-') return false;
    }
    return true;
  }

  static bool WordFollows(std::string_view t, size_t at, size_t line_end) {
    at = SkipBlanks(t, at, line_end);
    int letters = 0;
    while (at < line_end && IsAlpha(t[at])) {
      ++at;
      ++letters;
    }
    return letters >= 2 && (at == line_end || IsBlank(t[at]) || t[at] == '.' || t[at] == ',');
  }

  // Where a `value` key (value:, "value":, value=) starts in [from, to), or npos.
  static size_t ValueKeyAt(std::string_view t, size_t from, size_t to) {
    for (size_t i = from; i + 5 <= to; ++i) {
      if ((t[i] != 'v' && t[i] != 'V') || (i > 0 && IsNameChar(t[i - 1]))) continue;
      if (!StartsWithNoCase(t.substr(i), "value")) continue;
      size_t p = i + 5;
      if (p < t.size() && (t[p] == '"' || t[p] == '\'')) ++p;
      p = SkipBlanks(t, p, t.size());
      if (p < t.size() && (t[p] == ':' || t[p] == '=')) return i;
    }
    return std::string_view::npos;
  }

  static void ReportPaired(std::string_view t, size_t key, Format format, const Name& name,
                           SpanSink& sink) {
    size_t p = key + 5;
    if (t[p] == '"' || t[p] == '\'') ++p;
    p = SkipBlanks(t, p, t.size());
    p = SkipBlanks(t, p + 1, t.size());
    const size_t line_end = ContentEnd(t, p);
    if (p >= line_end) return;
    ReadAndReport(t, p, line_end, Op::kColon, 0, 0,
                  format == Format::kUnknown || format == Format::kCode ? Format::kYaml : format,
                  name, sink);
  }

  static bool ClosesElement(std::string_view t, size_t at, size_t line_end) {
    return at + 1 < line_end && t[at] == '<' && t[at + 1] == '/';
  }

  static bool IsBlankOrTagAttr(std::string_view t, size_t b, size_t qlen) {
    // `<entry key="password">v</entry>`: a quoted attribute value closing a tag.
    if (b < qlen + 2) return false;
    size_t i = b - qlen - 1;
    if (t[i] != '=') return false;
    while (i > 0 && t[i - 1] != '<' && t[i - 1] != '>' && t[i - 1] != '\n') --i;
    return i > 0 && t[i - 1] == '<';
  }

  static bool OpensCall(std::string_view t, size_t quote_at) {
    size_t i = quote_at;
    while (i > 0 && IsBlank(t[i - 1])) --i;
    return i > 0 && (t[i - 1] == '(' || t[i - 1] == '[' || t[i - 1] == '{');
  }

  // `setPassword(…)`, `withToken(…)`, a builder's `.password(…)`: the name's last segment.
  static bool IsSetter(std::string_view t, size_t b, size_t e) {
    const std::string_view name = t.substr(b, e - b);
    const size_t dot = name.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
    Words words;
    Split(last, &words);
    if (words.count >= 2 && (words.word[0] == "set" || words.word[0] == "with")) return true;
    return words.count == 1 && (dot != std::string_view::npos || (b > 0 && t[b - 1] == '.'));
  }

  static bool IsDockerEnv(std::string_view t, size_t b) {
    size_t s = LineStart(t, b);
    if (s < b && (t[s] == '+' || t[s] == '-' || t[s] == ' ')) ++s;
    s = SkipBlanks(t, s, b);
    const std::string_view head = t.substr(s, b - s);
    return head == "ENV " || head == "ARG " || head == "env " || head == "export " ||
           head == "set " || head == "setx ";
  }

  static bool ReadValue(std::string_view t, size_t p, size_t line_end, Op op, char in_string,
                        char in_params, Format format, Value* v) {
    char quote = 0;
    size_t prefix = 0;
    // A string's prefix: Python's r"…", f"…", b"…", Objective-C's @"…".
    if (p + 1 < line_end && std::strchr("rbfuRBFU@", t[p]) &&
        (t[p + 1] == '"' || t[p + 1] == '\'')) {
      prefix = 1;
      v->template_string = t[p] == 'f' || t[p] == 'F';
    }
    const size_t qlen = QuoteAt(t, p + prefix, &quote);
    if (qlen && !(in_string && quote == in_string && qlen == 1)) {
      v->quoted = true;
      v->begin = p + prefix + qlen;
      v->end = ClosingQuote(t, v->begin, line_end, quote, qlen);
      const std::string_view inside = t.substr(v->begin, v->end - v->begin);
      if (quote == '`' &&
          (format == Format::kEnv ||
           (inside.find("${") != std::string_view::npos && !HasStrayCloser(inside)) ||
           (format == Format::kUnknown && inside.find(' ') != std::string_view::npos))) {
        v->template_string = true;  // a template, or in a shell a command's output
      }
      return v->end > v->begin;
    }
    // The default of a variable's expansion, `${DB_PASSWORD:hunter2}` (Spring) or
    // `${DB_PASSWORD:-hunter2}` (shell): up to its closing brace.
    size_t colon = p >= 2 && t[p - 1] == ':' ? p - 1 : 0;
    if (p >= 3 && (t[p - 1] == '-' || t[p - 1] == '=') && t[p - 2] == ':') colon = p - 2;  // :-, :=
    if (colon && ExpansionNameBefore(t, colon)) {
      if (colon == p - 1 && p < line_end && (t[p] == '-' || t[p] == '=')) ++p;
      size_t close = p;
      while (close < line_end && t[close] != '}') ++close;
      if (close == line_end) return false;
      v->begin = p;
      v->end = close;
      return v->end > v->begin;
    }
    v->begin = p;
    size_t end = p;
    if (op == Op::kElement) {
      while (end < line_end && t[end] != '<') ++end;
    } else if (in_string || in_params) {
      const bool query = in_params == '?' || in_params == '&';
      while (end < line_end && !IsBlank(t[end]) && t[end] != ';' && !(query && t[end] == '&') &&
             t[end] != '"' && t[end] != '\'' && t[end] != '`' && !(in_string && t[end] == '\\')) {
        ++end;
      }
    } else if (format == Format::kEnv || format == Format::kIni || format == Format::kYaml) {
      if (t[p] == '#' || t[p] == ';') return false;  // nothing but a comment
      const bool flow = format == Format::kYaml && LineHasFlowMapping(t, p);
      // Inside a quoted command (`curl -H 'Authorization: Bearer …'`) the quote ends it.
      char enclosing = OpenQuoteBefore(t, LineStart(t, p), p);
      if (enclosing == 0x7f) enclosing = 0;  // in a comment
      while (end < line_end) {
        const char c = t[end];
        if (enclosing && c == enclosing) break;
        if (IsBlank(c) && end + 1 < line_end && (t[end + 1] == '#' || t[end + 1] == ';')) break;
        if (flow && (c == ',' || c == '}')) break;
        if ((format == Format::kEnv || op == Op::kSpace) && IsBlank(c)) break;
        ++end;
      }
    } else {
      while (end < line_end && !IsBlank(t[end]) && !std::strchr(",;)}]\"'`<>", t[end]) &&
             !StartsHtmlEntity(t, end, line_end)) {
        ++end;
      }
      // Text pasted unquoted that no expression can be (a bracket closed by another kind) runs
      // to the next blank, less the punctuation that closes the line (`,`, `;`, a quote) --
      // when what it runs over holds no string, regular expression, assignment or markup (a
      // bracket in `text.find("{")`, `/[({]/`, `a=1,b=…` or `</p>` is no pasted text) and
      // stays short, as a password does.
      if (end < line_end && !IsBlank(t[end])) {
        size_t run = end;
        while (run < line_end && run - p <= kMaxPastedValue && !IsBlank(t[run])) ++run;
        const bool whole = run == line_end || IsBlank(t[run]);  // not cut short by the bound
        while (run > end && std::strchr(",;\"'`", t[run - 1])) --run;
        const std::string_view pasted = t.substr(p, run - p);
        if (whole && pasted.find_first_of("\"'`/=<") == std::string_view::npos &&
            CannotBeAnExpression(pasted)) {
          end = run;
        }
      }
    }
    while (end > p && IsBlank(t[end - 1])) --end;
    v->end = end;
    return v->end > v->begin;
  }

  // `b` is inside a template's action on its line: a `{{` or `{%` before it that no `}}` or
  // `%}` has closed.
  static bool InTemplateAction(std::string_view t, size_t line_start, size_t b) {
    const std::string_view before = t.substr(line_start, b - line_start);
    const size_t mustache = before.rfind("{{"), jinja = before.rfind("{%");
    size_t open = mustache;
    if (open == std::string_view::npos || (jinja != std::string_view::npos && jinja > open)) {
      open = jinja;
    }
    if (open == std::string_view::npos) return false;
    const std::string_view after = before.substr(open);
    return after.find("}}") == std::string_view::npos && after.find("%}") == std::string_view::npos;
  }

  // The name at `b` is a part of a URN (`urn:k8s:secret:name:key`): colons before it, back to
  // `urn:`, with no blank between.
  static bool InUrn(std::string_view t, size_t b) {
    if (b == 0 || t[b - 1] != ':') return false;
    size_t i = b;
    while (i > 0 && b - i < 128 && !IsBlank(t[i - 1]) && t[i - 1] != '"' && t[i - 1] != '\'' &&
           t[i - 1] != '\n') {
      --i;
    }
    return b - i >= 4 && EqualsNoCase(t.substr(i, 4), "urn:");
  }

  // A variable's name ends at `colon`, right after the `${` that opens it.
  static bool ExpansionNameBefore(std::string_view t, size_t colon) {
    size_t i = colon;
    while (i > 0 && colon - i < 128 && (IsAlnum(t[i - 1]) || t[i - 1] == '_' || t[i - 1] == '.')) {
      --i;
    }
    return i < colon && i >= 2 && t[i - 1] == '{' && t[i - 2] == '$';
  }

  // "&rdquo;", "&#39;": an HTML entity, which ends an unquoted value in prose.
  static bool StartsHtmlEntity(std::string_view t, size_t at, size_t line_end) {
    if (t[at] != '&') return false;
    size_t i = at + 1;
    if (i < line_end && t[i] == '#') ++i;
    const size_t from = i;
    while (i < line_end && i - from < 8 && IsAlnum(t[i])) ++i;
    return i > from + 1 && i < line_end && t[i] == ';';
  }

  static bool LineHasFlowMapping(std::string_view t, size_t p) {
    for (size_t i = LineStart(t, p); i < p; ++i) {
      if (t[i] == '{') return true;
    }
    return false;
  }

  // `literal`: the value is written as one whatever the format (after an authorization
  // scheme, inside a string, in a query or a connection string).
  static bool Judge(Kind kind, Format format, const Value& v, std::string_view value,
                    std::string_view name, const Words& words, bool literal) {
    if (value.empty() || v.template_string || IsBlank(value[0])) return false;
    if (value.size() > 1 && value[0] == '-' && (value[1] == '-' || IsAlpha(value[1])) &&
        value.find(' ') == std::string_view::npos && value.size() < 24) {
      return false;  // an option: "--quiet", "-v/-q"
    }
    if (value.substr(0, 5) == "-----") return false;
    if (IsReference(value) || IsPlaceholder(value)) return false;
    // A run of one character (xxxxxxxx, 00000000) makes a placeholder, unless the value is long
    // around it (base64 of binary data starts AAAAAAAA…).
    if (value.size() >= 8 && LongestRun(value) >= 8 && LongestRun(value) * 3 > value.size()) {
      return false;
    }
    if (value.size() > name.size() && !IsAlnum(value[name.size()]) &&
        StartsWithNoCase(value, LowerName(name))) {
      return false;  // the name again, with more after it ("TOKEN = …" inside its own value)
    }
    if (value.size() == name.size()) {
      bool same = true;
      for (size_t i = 0; i < value.size() && same; ++i) same = Lower(value[i]) == Lower(name[i]);
      if (same) return false;
    }
    for (int i = 0; i < words.count; ++i) {
      if (EqualsNoCase(value, words.word[i])) return false;
    }
    // The name's last words again, as one (`forward.ProxyAuthorization: "ProxyAuthorization"`,
    // a header's name given to its constant).
    if (value.size() <= 64 && words.count >= 2) {
      std::string tail;
      for (int k = words.count - 1; k >= 0; --k) {
        tail.insert(0, words.word[k]);
        if (tail.size() > value.size()) break;
        if (k < words.count - 1 && EqualsNoCase(value, tail)) return false;
      }
    }
    if (value.find("://") != std::string_view::npos) return false;
    // Words are a passphrase where nothing else is written: a quoted password of Terraform, of
    // an INI or .conf file, of a .env or shell file named so in full (`password = "correct
    // horse battery"`; a shell's `winpwd='cygpath -aw .'` names a folder); elsewhere (code,
    // JSON, YAML, XML) words are a message or its translation, unless they are bare words.
    // And bare words (IsBareWords) given to a password, or to a secret, a token or a key whose
    // name says more than the one word (KEYWORD_TOKEN, privateApiKey: a lone `token` or `secret`
    // in code is as often a word of text or a game's), are one in any file but a catalogue of
    // messages.
    const bool passphrase =
        (kind == Kind::kPassword && v.quoted &&
         (format == Format::kHcl ||
          ((format == Format::kIni || format == Format::kEnv) && IsFullPasswordWord(words)))) ||
        (format != Format::kTranslation &&
         (kind == Kind::kPassword ||
          (words.count >= 2 &&
           (kind == Kind::kSecret || kind == Kind::kToken || kind == Kind::kApiKey ||
            kind == Kind::kKey || kind == Kind::kCredential))) &&
         IsBareWords(value));
    if (IsPathLike(value) || (IsProseText(value) && !passphrase) ||
        IsTranslationOfPassword(value)) {
      return false;
    }
    // A value naming a field (user_password, userPassword) is a reference in code and JSON; in
    // a file of settings (YAML, .env, INI, XML) only one whose words a separator parts is read
    // so: camelCase there is written as a password is ("TestSourcePassword").
    const bool settings_file = format == Format::kYaml || format == Format::kEnv ||
                               format == Format::kIni || format == Format::kXml;
    if (IsFieldName(value) &&
        !(settings_file && value.find_first_of("_-.") == std::string_view::npos)) {
      return false;
    }
    if (IsPattern(value)) return false;
    if (kind != Kind::kPassword && kind != Kind::kSecret && IsHeaderName(value)) return false;
    if (format == Format::kTranslation && MixOf(value).digit == 0) return false;
    if (format == Format::kYaml && (value[0] == '*' || value[0] == '&' || value[0] == '!')) {
      return false;
    }
    if (!v.quoted && !literal) {
      // In code an unquoted value is an expression, unless it has a token's shape: a secret
      // pasted without quotes (`API_KEY=rrk_…` in settings.py) is still a secret.
      if ((format == Format::kCode || format == Format::kHcl || format == Format::kJson) &&
          !IsTokenShaped(value) && !CannotBeAnExpression(value)) {
        return false;
      }
      if (format == Format::kUnknown && (LooksLikeCode(value) || !IsSecretLike(value))) {
        return false;
      }
      if (value[0] == '{' || value[0] == '[' || value[0] == '|' || value[0] == '>') return false;
    }
    if (IsUpperSnake(value) || IsVersionRange(value) || (!v.quoted && IsCall(value))) return false;
    if (kind != Kind::kPassword && kind != Kind::kSecret && kind != Kind::kAuth &&
        kind != Kind::kCredential && IsWordsJoined(value)) {
      return false;
    }
    const Mix m = MixOf(value);
    const bool digits_only = m.digit == static_cast<int>(value.size());
    switch (kind) {
      case Kind::kPassword:
        return value.size() >= 4 || (value.size() >= 3 && m.digit > 0 && m.digit < 3);
      case Kind::kToken:  // a numeric one only when long and no counted sequence (1234567890…);
                          // a short one (6 or 7) when it mixes letters and digits (d7N8bs)
        return digits_only ? value.size() >= 16 && !IsPlaceholderToken(value)
                           : value.size() >= 8 ||
                                 (value.size() >= 6 && m.digit > 0 && m.lower + m.upper > 0);
      case Kind::kAuth:
        return value.size() >= 8 && (m.digit > 0 || m.upper > 0 || m.symbol > 0);
      case Kind::kSecret:
      case Kind::kCredential:
        return value.size() >= 6 && !(digits_only && value.size() < 8);
      case Kind::kKey:
      case Kind::kApiKey:
        return value.size() >= 8 && !(digits_only && value.size() < 12);
      case Kind::kServiceApiKey:
        // Its name's last word is free (apikey_myservice, but api_key_region): only a value
        // made to be secret, never words or a short setting (us-east-1, aes256gcm).
        return value.size() >= 16 && IsSecretLike(value) && m.space == 0;
      case Kind::kBareKey:
        // 20 or more: a 16-digit hex key id (gpg's KEY=13B6F51ECDDE430D) is public.
        return value.size() >= 20 && IsTokenShaped(value) && !IsPlaceholderToken(value);
      case Kind::kNone:
        break;
    }
    return false;
  }
};

}  // namespace

std::unique_ptr<Detector> MakeSettings() { return std::make_unique<Settings>(); }

}  // namespace rr_secrets
