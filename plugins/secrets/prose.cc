// prose-password, prose-password-intl: a password written in a sentence.
//
// "the password is hunter2", "the staging password was `x7!k`", "log in with password
// Quartz311#", "use `x7!k` as the password", "pw is abc123"; German "das Passwort ist / lautet …",
// French "le mot de passe est … / : …", Spanish "la contraseña es …", Portuguese "a senha é …",
// Italian "la password è …", Dutch "het wachtwoord is …", Swedish "lösenordet är …", Polish "hasło:
// …", Turkish "şifre: …", Russian "пароль: …", Chinese "密码：…" / "密码是 …", Japanese
// "パスワードは … です", Korean "비밀번호: …". The word, up to a few words more ("the admin
// password for the router is"), a verb or (in other languages than English, where "password: x" is
// the settings detector's) a colon or a dash, then the value: a quoted phrase, or one word less the
// punctuation ending the sentence.
//
// An unquoted value must look made to be a password (a digit, a symbol, case mixed inside
// it): ordinary words of the sentence (is required, ist erforderlich, est stocké) are kept, and
// so are placeholders and references.
//
// The words written in ASCII are keywords. The others have none, so prose-password-intl is
// called on every text: it skips ASCII 32 bytes at a time and looks at non-ASCII bytes
// only, which costs little next to the server's own pass.
#include <array>
#include <cstring>
#include <memory>

#include "detectors.h"

namespace rr_secrets {

namespace {

bool InList(std::string_view w, const std::string_view* list, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (EqualsNoCase(w, list[i])) return true;
  }
  return false;
}

// Words that follow "password is" in ordinary sentences, in the languages read here.
bool IsStopWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "a", "an", "the", "not", "now", "set", "required", "incorrect", "correct", "wrong", "invalid",
      "valid", "empty", "missing", "too", "stored", "saved", "sent", "used", "needed", "optional",
      "mandatory", "case", "case-sensitive", "sensitive", "different", "same", "never", "always",
      "only", "also", "still", "being", "random", "ok", "okay", "in", "at", "on", "for", "from",
      "to", "of", "by", "with", "as", "and", "or", "but", "if", "then", "that", "this", "these",
      "those", "it", "its", "your", "you", "my", "our", "their", "his", "her", "we", "they", "what",
      "which", "who", "how", "when", "where", "why", "no", "none", "null", "nil", "blank", "given",
      "known", "shown", "hidden", "unknown", "weak", "strong", "short", "long", "secure",
      "insecure", "safe", "unsafe", "good", "bad", "fine", "right", "first", "last", "new", "old",
      "current", "default", "temporary", "one", "two", "all", "any", "some", "each", "every",
      "more", "less", "most", "least", "very", "quite", "just", "there", "here", "true", "false",
      "undefined", "about", "into", "over", "under", "after", "before", "without", "within",
      "between", "so", "such", "available", "unique", "plain", "plaintext", "cleartext", "must",
      "should", "will", "would", "can", "could", "may", "might", "has", "have", "had", "be", "been",
      "was", "were", "is", "are", "do", "does", "did", "done", "made", "part", "secret", "password",
      "pass", "passwd", "pw", "pwd", "token", "key", "string", "text", "value", "field", "variable",
      "parameter", "argument", "option", "setting", "hash", "length", "minimum", "maximum", "min",
      "max", "like", "because", "since", "unless", "until", "while", "whether", "either", "already",
      "again", "ever", "often", "exactly", "enough", "much", "many", "few", "other", "another",
      "both", "reset", "change", "manager", "policy", "prompt", "login", "user", "username",
      "account", "protected", "authentication", "expires", "expired", "rotation",
      // German
      "ist", "nicht", "falsch", "richtig", "leer", "erforderlich", "zu", "der", "die", "das", "ein",
      "eine", "dein", "ihr", "mein", "unser", "jetzt", "noch", "bereits", "immer", "nie", "auch",
      "nur", "sehr", "wird", "wurde", "muss", "soll", "kann", "geheim", "siehe", "im", "korrekt",
      "vergessen", "gespeichert", "ge\xc3\xa4ndert",
      // French
      "est", "pas", "le", "la", "les", "un", "une", "votre", "ton", "mon", "notre", "vide",
      "requis", "obligatoire", "invalide", "trop", "maintenant", "toujours", "jamais", "aussi",
      "seulement", "dans", "voir", "stock\xc3\xa9", "chang\xc3\xa9", "expir\xc3\xa9",
      // Spanish, Portuguese, Italian, Dutch, Swedish, Polish
      "es", "el", "los", "las", "una", "tu", "su", "mi", "ahora", "ya", "siempre", "nunca", "solo",
      "muy", "obligatoria", "obligatorio", "requerida", "requerido", "incorrecta", "guardada",
      "almacenada", "armazenada", "o", "os", "as", "um", "uma", "seu", "sua", "meu", "minha",
      "vazia", "agora", "sempre", "nel", "nella", "non", "il", "lo", "het", "een", "niet",
      "verplicht", "opgeslagen", "zie", "en", "ett", "inte", "och", "se", "nie", "jest", "w", "na",
      "zobacz", "wymagane"};
  return InList(w, kWords, sizeof kWords / sizeof kWords[0]);
}

// Verbs that introduce the value.
bool IsVerb(std::string_view w, bool english) {
  static constexpr std::string_view kEnglish[] = {"is", "was", "are", "remains"};
  static constexpr std::string_view kOther[] = {
      "is",           "was", "ist",      "lautet",   "war",       "est",
      "es",           "era", "\xc3\xa9", "\xc3\xa8", "\xc3\xa4r", "er",
      "on",           "je",  "jest",     "to",       "are",       "\xd1\x8d\xd1\x82\xd0\xbe",
      "\xe2\x80\x94", "-"};
  return InList(w, kEnglish, sizeof kEnglish / sizeof kEnglish[0]) ||
         (InList(w, kOther, sizeof kOther / sizeof kOther[0]) && (!english || w != "to"));
}

// Words a verb may bring before the value: "is now hunter2", "ist jetzt …".
bool IsFiller(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "now",       "still",       "just",  "simply",
      "currently", "temporarily", "jetzt", "immer",
      "noch",      "maintenant",  "ahora", "agora",
      "ora",       "nu",          "teraz", "\xd1\x82\xd0\xb5\xd0\xbf\xd0\xb5\xd1\x80\xd1\x8c"};
  return InList(w, kWords, sizeof kWords / sizeof kWords[0]);
}

// Marks after which the value follows directly, in any language: ':' (and the full-width
// one), '=', dashes, Chinese 是/為/为, Japanese は, Korean 는/은.
size_t MarkLength(std::string_view t, size_t p) {
  static constexpr std::string_view kMarks[] = {"\xef\xbc\x9a",
                                                "\xe6\x98\xaf",
                                                "\xe7\x82\xba",
                                                "\xe4\xb8\xba",
                                                "\xe3\x81\xaf",
                                                "\xeb\x8a\x94",
                                                "\xec\x9d\x80",
                                                "\xe2\x80\x94",
                                                "\xe2\x80\x93",
                                                ":",
                                                "="};
  for (auto m : kMarks) {
    if (t.substr(p, m.size()) == m) return m.size();
  }
  return 0;
}

// Reads the next blank-separated word in [*p, end), returning it (empty at the end).
std::string_view NextWord(std::string_view t, size_t* p, size_t end) {
  size_t i = *p;
  while (i < end && IsBlank(t[i])) ++i;
  size_t j = i;
  while (j < end && !IsBlank(t[j])) ++j;
  *p = j;
  return t.substr(i, j - i);
}

// Made to be a password rather than a word: a digit, an ASCII symbol, case mixed inside it.
bool LooksMade(std::string_view v) {
  int digit = 0, symbol = 0, lower = 0, upper = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    const uint8_t k = ClassOf(c);
    if (k & kDigit) {
      ++digit;
    } else if (k & kLower) {
      ++lower;
    } else if (k & kUpper) {
      if (i > 0) ++upper;
    } else if (static_cast<unsigned char>(c) < 0x80 && c != '-' && c != '\'') {
      ++symbol;
    }
  }
  return digit > 0 || symbol > 0 || (upper > 0 && lower > 0);
}

// A setting's dotted path (`auth.rbac.rootPassword`): two parts or more from a lower-case one,
// each letters whose every capital starts a word of two lower-case letters more (camelCase, not
// the random mix of `velvet.lpBjDj`).
bool IsSettingPath(std::string_view v) {
  if (v.empty() || !(ClassOf(v[0]) & kLower)) return false;
  size_t parts = 1, letters = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (ClassOf(c) & kUpper) {
      if (i + 2 >= v.size() || !(ClassOf(v[i + 1]) & kLower) || !(ClassOf(v[i + 2]) & kLower)) {
        return false;
      }
      ++letters;
    } else if (ClassOf(c) & kLower) {
      ++letters;
    } else if (c == '.' && letters > 0) {
      ++parts;
      letters = 0;
    } else {
      return false;
    }
  }
  return parts >= 2 && letters > 0;
}

// Reports the value that starts after the blanks at `p` on the line ending at `end`.
void ReportValue(std::string_view t, size_t p, size_t end, SpanSink& sink) {
  while (p < end && IsBlank(t[p])) ++p;
  if (p >= end) return;
  size_t vb = p, ve;
  bool quoted = false;
  const char open = t[p];
  if (open == '"' || open == '\'' || open == '`') {
    vb = p + 1;
    ve = vb;
    while (ve < end && t[ve] != open) ++ve;
    if (ve == end) return;  // a quote that does not close: code, not a quoted value
    quoted = true;
  } else if (t.substr(p, 3) == "\xe2\x80\x9c" || t.substr(p, 3) == "\xe3\x80\x8c" ||
             t.substr(p, 2) == "\xc2\xab") {
    vb = p + (t[p] == '\xc2' ? 2 : 3);
    while (vb < end && IsBlank(t[vb])) ++vb;
    ve = vb;
    while (ve < end && t.substr(ve, 3) != "\xe2\x80\x9d" && t.substr(ve, 3) != "\xe3\x80\x8d" &&
           t.substr(ve, 2) != "\xc2\xbb") {
      ++ve;
    }
    while (ve > vb && IsBlank(t[ve - 1])) --ve;
    quoted = true;
  } else {
    // One word; an ASCII value also ends where other script resumes ("…です", "…。").
    ve = p;
    const bool ascii = static_cast<unsigned char>(t[p]) < 0x80;
    // A quote ends it too: the sentence is a string's ("Password is required")).
    while (ve < end && !IsBlank(t[ve]) && !(ascii && static_cast<unsigned char>(t[ve]) >= 0x80) &&
           !(ve > vb && (t[ve] == '"' || t[ve] == '\'' || t[ve] == '`'))) {
      ++ve;
    }
    while (ve > vb && std::strchr(".,;:)]}\"'", t[ve - 1])) --ve;
  }
  if (ve <= vb) return;
  const std::string_view value = t.substr(vb, ve - vb);
  if (value.size() < 3 || IsPlaceholder(value) || IsReference(value)) return;
  if (value.find("://") != std::string_view::npos) return;
  if (quoted && IsSettingPath(value)) return;  // a password on "auth.rbac.rootPassword"
  // An ordinary word ends the sentence with its mark ("… password is required!").
  std::string_view word = value;
  while (!word.empty() && (word.back() == '!' || word.back() == '?')) word.remove_suffix(1);
  if (quoted ? IsProseText(value) : (IsStopWord(word) || !LooksMade(value))) return;
  Report(sink, t, vb, ve, "password");
}

// A word right after "password" that is its value ("with password Quartz311#"): letters with
// digits or symbols, starting with a letter or digit, not a call or an operator.
bool IsDirectValue(std::string_view w) {
  while (!w.empty() && (w.back() == '.' || w.back() == ',' || w.back() == '?' || w.back() == '!')) {
    w.remove_suffix(1);
  }
  if (w.size() < 6 || !IsAlnum(w[0]) || IsStopWord(w)) return false;
  int letters = 0, digits = 0, marks = 0, inner_upper = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    const char c = w[i];
    if (IsAlpha(c)) {
      ++letters;
      if (i > 0 && (ClassOf(c) & kUpper)) ++inner_upper;
    } else if (IsDigit(c)) {
      ++digits;
    } else if (c == '(' || c == ')' || c == '/' || c == '\\' || c == '<' || c == '>') {
      return false;
    } else if (c != '.' && c != '_' && c != '-') {
      ++marks;
    }
  }
  return letters > 0 && (digits > 0 || marks > 0 || (inner_upper > 0 && letters > inner_upper));
}

// After the password word ending at `p`: up to a few words, then a verb or (not in English)
// a mark, then the value. In English a value made to be a password may follow the word
// directly ("with password Quartz311#").
void AfterWord(std::string_view t, size_t p, bool english, SpanSink& sink) {
  const size_t end = ContentEnd(t, p);
  size_t q = p;
  if (!english) {
    while (q < end && IsBlank(t[q])) ++q;
    const size_t mark = MarkLength(t, q);
    if (mark) {
      ReportValue(t, q + mark, end, sink);
      return;
    }
    q = p;
  }
  std::string_view previous;
  for (int words = 0; words < 8 && q < end; ++words) {
    std::string_view w = NextWord(t, &q, end);
    if (w.empty()) return;
    const size_t word_at = q - w.size();
    if (english && words == 0 && word_at > p && IsDirectValue(w)) {
      ReportValue(t, word_at, end, sink);
      return;
    }
    if (!english) {
      if (w.size() > 1 && w.back() == ':') {  // "für den Server:"
        ReportValue(t, q, end, sink);
        return;
      }
    }
    std::string_view bare = w;
    if (bare.size() > 1 && bare.back() == ':') bare.remove_suffix(1);
    const bool verb =
        IsVerb(bare, english) || (bare == "to" && (previous == "changed" || previous == "set" ||
                                                   previous == "reset" || previous == "updated"));
    previous = bare;
    if (!verb) {
      const char last = w.back();
      if (last == '.' || last == '!' || last == '?' || last == ',' || last == ';' || last == ')') {
        return;
      }
      continue;
    }
    size_t r = q;
    for (int f = 0; f < 3; ++f) {
      size_t s = r;
      const std::string_view next = NextWord(t, &s, end);
      if (next.empty() || !IsFiller(next)) break;
      r = s;
    }
    size_t s = r;
    while (s < end && IsBlank(t[s])) ++s;
    if (s < end && t[s] == ':') r = s + 1;
    // In English a dash gives a value only as the last word of its line ("password - x7!k"): a
    // title goes on ("Recover Password - FastAPI Template").
    if (english && (bare == "-" || bare == "\xe2\x80\x94")) {
      size_t after = r;
      NextWord(t, &after, end);
      size_t more = after;
      const std::string_view next = NextWord(t, &more, end);
      if (!next.empty() && IsAlnum(next[0])) return;
    }
    ReportValue(t, r, end, sink);
    return;
  }
}

// A word of prose starts at `at`: after a blank, a quote, a bracket or a mark that begins a
// line of notes, not inside an identifier or a run of base64 ("…j+Pw deploy@ci").
bool WordStartsAt(std::string_view t, size_t at) {
  if (at == 0) return true;
  const char c = t[at - 1];
  if (IsBlank(c) || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`' || c == '(' ||
      c == '[' || c == '*' || c == '#' || c == '>') {
    return true;
  }
  return (c == '+' || c == '-') && (at == 1 || t[at - 2] == '\n');
}

// "use `X` as the password", "use X as your password": the value before the word. Answers
// whether the sentence had that shape.
bool ValueBefore(std::string_view t, size_t at, SpanSink& sink) {
  const size_t ls = LineStart(t, at);
  size_t i = at;
  auto word_before = [&](size_t* pos) {
    size_t e = *pos;
    while (e > ls && IsBlank(t[e - 1])) --e;
    size_t b = e;
    while (b > ls && !IsBlank(t[b - 1])) --b;
    *pos = b;
    return t.substr(b, e - b);
  };
  std::string_view w = word_before(&i);
  if (EqualsNoCase(w, "the") || EqualsNoCase(w, "your") || EqualsNoCase(w, "a") ||
      EqualsNoCase(w, "new")) {
    w = word_before(&i);
  }
  if (!EqualsNoCase(w, "as")) return false;
  std::string_view value = word_before(&i);
  size_t vb = i, ve = i + value.size();
  std::string_view verb = word_before(&i);
  if (!verb.empty() && (verb[0] == '+' || verb[0] == '-') && i == ls) verb.remove_prefix(1);
  if (!(EqualsNoCase(verb, "use") || EqualsNoCase(verb, "using") || EqualsNoCase(verb, "set") ||
        EqualsNoCase(verb, "enter") || EqualsNoCase(verb, "type"))) {
    return false;
  }
  const bool quoted =
      ve - vb >= 2 && (t[vb] == '`' || t[vb] == '"' || t[vb] == '\'') && t[ve - 1] == t[vb];
  if (quoted) {
    ++vb;
    --ve;
  }
  value = t.substr(vb, ve - vb);
  if (value.size() < 3 || IsPlaceholder(value) || IsReference(value)) return true;
  if (!quoted && (IsStopWord(value) || !LooksMade(value))) return true;
  Report(sink, t, vb, ve, "password");
  return true;
}

struct Word {
  std::string_view word;  // lower case
  bool english;
};

// The ASCII words, as keywords. "mot de passe" and "contrase(ña)" are checked where found.
const Word kWords[] = {
    {"password", true},     {"passwords", true},   {"passwd", true},
    {"passphrase", true},   {"pw", true},          {"pwd", true},
    {"passwort", false},    {"kennwort", false},   {"mot de passe", false},
    {"contrasena", false},  {"senha", false},      {"wachtwoord", false},
    {"parola", false},      {"passord", false},    {"salasana", false},
    {"adgangskode", false}, {"heslo", false},      {"lozinka", false},
    {"jelszo", false},      {"sifre", false},      {"haslo", false},
    {"losenord", false},    {"losenordet", false},
};

class ProsePasswords final : public Detector {
 public:
  ProsePasswords()
      : Detector(
            "prose-password",
            {"password", "passwd",  "passphrase", "pw",     "passwort", "kennwort", "mot de passe",
             "contrase", "senha",   "wachtwoord", "parola", "passord",  "salasana", "adgangskode",
             "heslo",    "lozinka", "jelszo",     "sifre",  "haslo",    "losenord"}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t done = 0;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      if (at < done || at >= t.size()) continue;
      if (!WordStartsAt(t, at)) continue;
      size_t e = at;
      bool english = false, known = false;
      if (StartsWithNoCase(t.substr(at), "mot de passe")) {
        e = at + 12;
        known = true;
      } else if (StartsWithNoCase(t.substr(at), "contrase")) {
        e = at + 8;
        if (t.substr(e, 3) ==
            "\xc3\xb1"
            "a") {
          e += 3;
          known = true;
        } else if (e < t.size() && Lower(t[e]) == 'n' && e + 1 < t.size() &&
                   Lower(t[e + 1]) == 'a') {
          e += 2;
          known = true;
        }
      } else {
        while (e < t.size() && IsAlpha(t[e])) ++e;
        const std::string_view word = t.substr(at, e - at);
        for (const Word& w : kWords) {
          if (EqualsNoCase(word, w.word)) {
            known = true;
            english = w.english;
          }
        }
      }
      if (!known) continue;
      if (e < t.size() && (IsAlnum(t[e]) || t[e] == '_')) continue;
      if (english && ValueBefore(t, at, sink)) {
        done = e;
        continue;
      }
      AfterWord(t, e, english, sink);
      done = e;
    }
  }
};

struct Needle {
  std::string_view bytes;  // from the first non-ASCII byte
  size_t back;             // ASCII bytes of the word before it ("has" of "hasło")
  std::string_view before_lower;
};

// The non-ASCII words, from their first non-ASCII byte.
constexpr Needle kNeedles[] = {
    {"\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb", 0, ""},                      // пароль
    {"\xd0\x9f\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb", 0, ""},                      // Пароль
    {"\xd0\x9f\xd0\x90\xd0\xa0\xd0\x9e\xd0\x9b\xd0\xac", 0, ""},              // ПАРОЛЬ
    {"\xe5\xaf\x86\xe7\xa0\x81", 0, ""},                                      // 密码
    {"\xe5\xaf\x86\xe7\xa2\xbc", 0, ""},                                      // 密碼
    {"\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89", 0, ""},  // パスワード
    {"\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8", 0, ""},              // 비밀번호
    {"\xc5\x9e"
     "ifre",
     0, ""},  // Şifre
    {"\xc5\x9f"
     "ifre",
     0, ""},                                                              // şifre
    {"\xc5\x82o", 3, "has"},                                              // hasło
    {"\xc3\xb6senord", 1, "l"},                                           // lösenord
    {"\xc3\xb3", 5, "jelsz"},                                             // jelszó
    {"\xce\xba\xcf\x89\xce\xb4\xce\xb9\xce\xba\xcf\x8c\xcf\x82", 0, ""},  // κωδικός
};

// The pairs of bytes the needles start with (every needle has two at least), as a bit per
// second byte for each first byte: any other non-ASCII byte is passed over at once, without
// comparing a needle. Text in Cyrillic, Greek or CJK is non-ASCII throughout; this keeps it to
// one table lookup a byte.
constexpr std::array<std::array<uint64_t, 4>, 256> MakeLeadPairs() {
  std::array<std::array<uint64_t, 4>, 256> pairs{};
  for (const Needle& n : kNeedles) {
    const auto first = static_cast<unsigned char>(n.bytes[0]);
    const auto second = static_cast<unsigned char>(n.bytes[1]);
    pairs[first][second / 64] |= uint64_t{1} << (second % 64);
  }
  return pairs;
}
constexpr std::array<std::array<uint64_t, 4>, 256> kLeadPairs = MakeLeadPairs();
constexpr bool EveryNeedleHasTwoBytes() {
  for (const Needle& n : kNeedles) {
    if (n.bytes.size() < 2) return false;
  }
  return true;
}
static_assert(EveryNeedleHasTwoBytes(), "kLeadPairs reads each needle's first two bytes");

// True when a needle may start at data[i] (i + 1 < size).
inline bool MayStart(const unsigned char* data, size_t i) {
  const unsigned char second = data[i + 1];
  return (kLeadPairs[data[i]][second / 64] >> (second % 64)) & 1;
}

class ProsePasswordsIntl final : public Detector {
 public:
  ProsePasswordsIntl() : Detector("prose-password-intl", {}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    const auto* data = reinterpret_cast<const unsigned char*>(t.data());
    const size_t size = t.size();
    size_t i = 0;
    while (i < size) {
      while (i + 32 <= size) {
        uint64_t w[4];
        std::memcpy(w, data + i, 32);
        if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull) break;
        i += 32;
      }
      while (i + 8 <= size) {
        uint64_t w;
        std::memcpy(&w, data + i, 8);
        if (w & 0x8080808080808080ull) break;
        i += 8;
      }
      // A needle is two bytes at least: the last byte starts none.
      while (i + 1 < size && (data[i] < 0x80 || !MayStart(data, i))) ++i;
      if (i + 1 >= size) return;
      const size_t next = Match(t, i, sink);
      i = next > i ? next : i + 1;
    }
  }

 private:
  // Checks the words starting (or, for their ASCII head, ending) at the non-ASCII byte at `i`;
  // answers where to look next.
  static size_t Match(std::string_view t, size_t i, SpanSink& sink) {
    for (const Needle& n : kNeedles) {
      if (t.substr(i, n.bytes.size()) != n.bytes) continue;
      if (i < n.back || !EqualsNoCase(t.substr(i - n.back, n.back), n.before_lower)) continue;
      const size_t start = i - n.back;
      if (start > 0 && (IsAlnum(t[start - 1]) || t[start - 1] == '_')) continue;
      size_t e = i + n.bytes.size();
      // Endings: Russian пароль/пароля/паролем, Swedish lösenordet, Turkish şifreniz.
      for (int k = 0; k < 3 && e + 1 < t.size(); ++k) {
        if ((t[e] == '\xd0' || t[e] == '\xd1') && n.bytes[0] == '\xd0') {
          e += 2;
        } else if (IsAlpha(t[e]) && static_cast<unsigned char>(n.bytes[0]) < 0xe0) {
          ++e;
        } else {
          break;
        }
      }
      AfterWord(t, e, false, sink);
      return e;
    }
    return i + 1;
  }
};

}  // namespace

std::unique_ptr<Detector> MakeProsePasswords() { return std::make_unique<ProsePasswords>(); }
std::unique_ptr<Detector> MakeProsePasswordsIntl() {
  return std::make_unique<ProsePasswordsIntl>();
}

}  // namespace rr_secrets
