// Shared helpers: byte classes, lines, formats by file name, references. Placeholders are
// placeholders.cc's.
#include "text_scan.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "regex.h"

namespace rr_secrets {

std::string LowerCopy(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = Lower(c);
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (IsBlank(s.front()) || s.front() == '\r' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  for (auto w : words) {
    if (s == w) return true;
  }
  return false;
}

bool ContainsAny(std::string_view s, std::initializer_list<std::string_view> parts) {
  for (auto p : parts) {
    if (s.find(p) != std::string_view::npos) return true;
  }
  return false;
}

namespace {

bool StartsWithAny(std::string_view s, std::initializer_list<std::string_view> parts) {
  for (auto p : parts) {
    if (s.substr(0, p.size()) == p) return true;
  }
  return false;
}

}  // namespace

bool StartsWithNoCase(std::string_view text, std::string_view lower) {
  if (text.size() < lower.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (Lower(text[i]) != lower[i]) return false;
  }
  return true;
}

bool EqualsNoCase(std::string_view text, std::string_view lower) {
  return text.size() == lower.size() && StartsWithNoCase(text, lower);
}

bool ContainsNoCase(std::string_view text, std::string_view lower) {
  if (lower.empty()) return true;
  for (size_t i = 0; i + lower.size() <= text.size(); ++i) {
    if (Lower(text[i]) == lower[0] && StartsWithNoCase(text.substr(i), lower)) return true;
  }
  return false;
}

size_t LineStart(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  const size_t floor = pos > kLineReach ? pos - kLineReach : 0;
  const void* nl = memrchr(text.data() + floor, '\n', pos - floor);
  return nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1 : floor;
}

size_t LineEnd(std::string_view text, size_t pos) {
  if (pos >= text.size()) return text.size();
  const size_t limit = std::min(text.size(), pos + kLineReach);
  const void* nl = std::memchr(text.data() + pos, '\n', limit - pos);
  return nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : limit;
}

size_t ContentEnd(std::string_view text, size_t pos) {
  size_t end = LineEnd(text, pos);
  if (end > pos && text[end - 1] == '\r') --end;
  return end;
}

Mix MixOf(std::string_view value) {
  Mix m;
  bool seen[256] = {};
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (!seen[u]) {
      seen[u] = true;
      ++m.distinct;
    }
    const uint8_t k = kByteClass[u];
    if (k & kLower) {
      ++m.lower;
    } else if (k & kUpper) {
      ++m.upper;
    } else if (k & kDigit) {
      ++m.digit;
    } else if (k & kBlank) {
      ++m.space;
    } else {
      ++m.symbol;
    }
  }
  return m;
}

Format FormatOfPath(std::string_view path) {
  if (path.empty()) return Format::kUnknown;
  const size_t slash = path.find_last_of('/');
  const std::string name =
      LowerCopy(slash == std::string_view::npos ? path : path.substr(slash + 1));
  const std::string full = LowerCopy(path);
  const size_t dot = name.find_last_of('.');
  const std::string ext = dot == std::string::npos ? std::string() : name.substr(dot + 1);

  if (ContainsAny(full,
                  {"/locales/", "/locale/", "/i18n/", "/lang/", "/translations/", "/l10n/"}) ||
      StartsWithAny(full, {"locales/", "locale/", "i18n/", "lang/", "translations/", "l10n/"}) ||
      OneOf(ext, {"po", "pot", "xliff", "xlf", "strings", "resx", "arb"}) ||
      // A catalogue of messages by its name, a file of data (code named so is code): Symfony's
      // and Java's messages.en.yml, messages_fr.properties; next-intl's messages/fr.json,
      // intl/de.json; Android's res/values*/strings.xml.
      (OneOf(ext, {"json", "yml", "yaml", "properties", "toml"}) &&
       (name.rfind("messages.", 0) == 0 || name.rfind("messages_", 0) == 0 ||
        ContainsAny(full, {"/messages/", "/intl/"}) ||
        StartsWithAny(full, {"messages/", "intl/"}))) ||
      (name == "strings.xml" && full.find("res/values") != std::string::npos)) {
    return Format::kTranslation;
  }
  if (name == ".env" || name.rfind(".env.", 0) == 0 || ext == "env" || name == ".envrc" ||
      name == "dockerfile" || name.rfind("dockerfile.", 0) == 0 || ext == "dockerfile" ||
      name == "containerfile" || name == "makefile" || ext == "mk" || name == ".npmrc" ||
      name == ".pypirc" || name == ".netrc" ||
      OneOf(ext, {"sh", "bash", "zsh", "ksh", "fish", "bat", "cmd", "ps1", "psm1", "envrc"})) {
    return Format::kEnv;
  }
  if (OneOf(ext, {"yml", "yaml"}) || name == ".yarnrc") return Format::kYaml;
  if (OneOf(ext, {"json", "jsonc", "json5", "ipynb", "har", "tfstate"})) return Format::kJson;
  if (OneOf(ext, {"ini", "cfg", "conf", "cnf", "toml", "properties", "prop", "props",
                  "editorconfig", "gitconfig", "desktop", "service", "pgpass", "htpasswd"}) ||
      name == "credentials" || name == "config" || name == ".gitconfig" || name == ".pgpass") {
    return Format::kIni;
  }
  if (OneOf(ext, {"xml", "config", "csproj", "vbproj", "xaml", "plist", "pom", "wsdl", "xsd", "svg",
                  "jmx"})) {
    return Format::kXml;
  }
  if (OneOf(ext, {"tf", "tfvars", "hcl", "nomad"})) return Format::kHcl;
  if (OneOf(ext, {"py",    "pyi", "js",  "mjs",   "cjs",  "ts",     "tsx",    "jsx",    "go",
                  "java",  "kt",  "kts", "scala", "rb",   "php",    "cs",     "vb",     "fs",
                  "swift", "rs",  "c",   "cc",    "cpp",  "cxx",    "h",      "hh",     "hpp",
                  "hxx",   "m",   "mm",  "dart",  "lua",  "pl",     "pm",     "r",      "jl",
                  "ex",    "exs", "erl", "clj",   "cljs", "groovy", "gradle", "vue",    "svelte",
                  "zig",   "nim", "cr",  "elm",   "hs",   "ml",     "sql",    "coffee", "sol",
                  "pas",   "pp",  "dpr", "lpr",   "ada",  "adb",    "ads",    "f90",    "for",
                  "cob",   "vbs", "bas", "tcl",   "awk",  "d",      "v",      "sv"})) {
    return Format::kCode;
  }
  return Format::kUnknown;
}

Format PathAt::FormatAt(size_t pos) {
  // Asked at every setting a scan looks at, mostly of one path: worked out once a path.
  const std::string_view path = At(pos);
  if (known_ && path.data() == known_path_.data() && path.size() == known_path_.size()) {
    return known_format_;
  }
  known_ = true;
  known_path_ = path;
  known_format_ = FormatOf(path);
  return known_format_;
}

Format PathAt::FormatOf(std::string_view path) const {
  const Format format = FormatOfPath(path);
  if (format != Format::kUnknown || input_.kind != TextKind::kFile) return format;
  // A script without an extension says what it is on its first line.
  const std::string_view t = input_.text;
  if (t.substr(0, 2) == "#!") {
    const std::string_view first = t.substr(0, t.find('\n'));
    if (first.find("sh") != std::string_view::npos) return Format::kEnv;
    if (first.find("python") != std::string_view::npos ||
        first.find("node") != std::string_view::npos ||
        first.find("ruby") != std::string_view::npos ||
        first.find("perl") != std::string_view::npos) {
      return Format::kCode;
    }
  }
  return format;
}

std::string_view PathAt::At(size_t pos) {
  if (input_.kind != TextKind::kDiff) return input_.path;
  if (!indexed_) {
    indexed_ = true;
    const std::string_view t = input_.text;
    for (size_t at = 0; at < t.size();) {
      const size_t end = ContentEnd(t, at);
      const std::string_view line = t.substr(at, end - at);
      std::string_view path;
      if (line.substr(0, 4) == "+++ ") {
        path = line.substr(4);
        if (path.substr(0, 2) == "b/") path.remove_prefix(2);
      } else if (line.substr(0, 11) == "diff --git ") {
        const size_t b = line.rfind(" b/");
        if (b != std::string_view::npos) path = line.substr(b + 3);
      }
      const size_t tab = path.find('\t');
      if (tab != std::string_view::npos) path = path.substr(0, tab);
      if (!path.empty() && path != "/dev/null") headers_.emplace_back(at, path);
      at = LineEnd(t, at) + 1;
    }
  }
  auto it = std::upper_bound(headers_.begin(), headers_.end(), pos,
                             [](size_t p, const auto& h) { return p < h.first; });
  if (it == headers_.begin()) return input_.path;
  return std::prev(it)->second;
}

bool HasStrayCloser(std::string_view v) {
  constexpr size_t kDepth = 32;
  char open[kDepth];
  size_t depth = 0;
  for (char c : v) {
    if (c == '(' || c == '[' || c == '{') {
      if (depth < kDepth) open[depth] = c;
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return true;
      --depth;
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (depth < kDepth && open[depth] != want) return true;
    }
  }
  return false;
}

// The name after a '$' at `at` reads as a variable's (HOME, FROM_EMAIL, dbPassword, s3Bucket),
// not as the middle of a random string: a run that mixes both cases with digits in two places
// or more ("$ZeTU2N4yCFgKp5…" in a generated password) is no name anyone wrote.
bool NamesVariableAt(std::string_view v, size_t at) {
  size_t i = at + 1;
  if (i < v.size() && (v[i] == '{' || v[i] == '(')) return true;
  int digit_runs = 0;
  bool lower = false, upper = false, in_digits = false;
  for (; i < v.size() && (IsAlnum(v[i]) || v[i] == '_'); ++i) {
    const bool digit = IsDigit(v[i]);
    if (digit && !in_digits) ++digit_runs;
    in_digits = digit;
    lower = lower || (ClassOf(v[i]) & kLower);
    upper = upper || (ClassOf(v[i]) & kUpper);
  }
  return !(lower && upper && digit_runs >= 2);
}

bool IsReference(std::string_view raw) {
  const std::string_view value = Trim(raw);
  if (value.empty()) return false;
  if (value[0] == '$' && value.size() > 1 &&
      (IsAlpha(value[1]) || value[1] == '_' || value[1] == '{' || value[1] == '(') &&
      NamesVariableAt(value, 0)) {
    return true;
  }
  if (value.size() > 2 && value.front() == '%' && value.back() == '%') return true;
  for (size_t i = 1; i + 1 < value.size(); ++i) {
    // An interpolated variable after a separator: "anonymous:$FROM_EMAIL", "x-${ENV}".
    if (value[i] == '$' && !IsAlnum(value[i - 1]) &&
        ((ClassOf(value[i + 1]) & kUpper) || value[i + 1] == '{' || value[i + 1] == '(') &&
        NamesVariableAt(value, i)) {
      return true;
    }
  }
  // A value sops encrypted (ENC[AES256_GCM,data:…]), or a template's braces — which pair up: a
  // value whose brackets close what they never opened is punctuation, not a template.
  if (value.substr(0, 4) == "ENC[") return true;
  // A URN names a thing (Traefik's `urn:k8s:secret:name:key`, a Secret's entry by name).
  if (value.size() > 6 && EqualsNoCase(value.substr(0, 4), "urn:") && IsAlnum(value[4]))
    return true;
  // Apache's and Logstash's %{VAR} (`%{HTTP:Authorization}`), also when the reading stopped
  // at its brace.
  if (value.size() > 3 && value[0] == '%' && value[1] == '{' && IsAlpha(value[2])) return true;
  const bool paired = !HasStrayCloser(value);
  if (value[0] == '{' && paired) return true;
  const std::string v = LowerCopy(value);
  if (ContainsAny(v, {"<%", "{%"})) return true;
  if (paired && ContainsAny(v, {"${", "{{", "}}", "#{"})) return true;
  const size_t paren = v.find("((");
  if (paired && paren != std::string::npos && v.find("))", paren) != std::string::npos) {
    return true;
  }
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i] != '%' ||
        (i > 0 && !(v[i - 1] == ' ' || v[i - 1] == '=' || v[i - 1] == ':' || v[i - 1] == '/'))) {
      continue;
    }
    // A format string: "Bearer %s", "%(password)s".
    if ((v[i + 1] == 's' || v[i + 1] == 'v' || v[i + 1] == 'd') &&
        (i + 2 == v.size() || !IsAlnum(v[i + 2]))) {
      return true;
    }
    if (v[i + 1] == '(') {
      size_t j = i + 2;
      while (j < v.size() && (IsAlnum(v[j]) || v[j] == '_')) ++j;
      if (j > i + 2 && j + 1 < v.size() && v[j] == ')' && IsAlpha(v[j + 1])) return true;
    }
  }
  const size_t open = v.find('{');
  if (paired && open != std::string::npos && v.find('}', open) != std::string::npos) return true;
  return StartsWithAny(v, {"os.environ",
                           "os.getenv",
                           "getenv(",
                           "process.env",
                           "env[",
                           "env.",
                           "env(",
                           "environ[",
                           "system.getenv",
                           "environment.",
                           "secrets.",
                           "vars.",
                           "var.",
                           "local.",
                           "data.",
                           "module.",
                           "vault:",
                           "vault(",
                           "!vault",
                           "ref+",
                           "arn:aws:secretsmanager",
                           "arn:aws:ssm",
                           "sm://",
                           "secretkeyref",
                           "import.meta.env",
                           "deno.env",
                           "$env:",
                           "@microsoft.keyvault",
                           "keyvault:",
                           "op://",
                           "lookup(",
                           "file(",
                           "!ref",
                           "!secret",
                           "!env",
                           "!sub",
                           "!getatt",
                           "awssecretsmanager",
                           "ssm:",
                           "gcp:",
                           "azure:",
                           "settings.",
                           "config.",
                           "conf.",
                           "cfg.",
                           "options.",
                           "params.",
                           "env:",
                           "secret:",
                           "secretref:",
                           "keyvaultref:",
                           "from_secret"});
}

// Decodes up to `max` bytes of base64 (or base64url) from t[at...]; stops at the first byte that
// is not base64.
std::string DecodeBase64(std::string_view t, size_t at, size_t max) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = at; i < t.size() && out.size() < max; ++i) {
    const int v = value(t[i]);
    if (v < 0) break;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

bool IsProseText(std::string_view raw) {
  const std::string_view value = Trim(raw);
  int words = 0;
  bool in_word = false;
  for (char c : value) {
    if (IsDigit(c)) return false;
    const bool letter = IsAlpha(c) || (static_cast<unsigned char>(c) >= 0x80) || c == '\'';
    if (letter) {
      if (!in_word) ++words;
      in_word = true;
    } else if (IsBlank(c)) {
      in_word = false;
    } else if (c == '.' || c == ',' || c == '!' || c == '?' || c == ':' || c == '-' || c == '(' ||
               c == ')' || c == ';') {
      in_word = false;
    } else {
      return false;
    }
  }
  return words >= 2 && value.find(' ') != std::string_view::npos;
}

namespace {

// Widens each span that ends inside a run of a token's characters to the end of the run: a
// value is hidden whole or not at all, never with its tail shown ("[hidden: token]9"). The
// characters are a token's (letters, digits, _ and -), and + / = as well where the span holds
// one of them (base64), then base64's padding. At most kReach bytes on. (Where a span starts
// is each detector's to get right: `-pS3cret` shows its `-p`, a webhook its path.)
class WholeTokens final : public SpanSink {
 public:
  WholeTokens(std::string_view text, SpanSink& out) : t_(text), out_(out) {}
  void Add(size_t begin, size_t end, std::string_view what) override {
    if (begin < end && end <= t_.size()) {
      const std::string_view span = t_.substr(begin, end - begin);
      const bool b64 = span.find_first_of("+/") != std::string_view::npos;
      auto inner = [b64](char c) {
        return IsTokenChar(c) || (b64 && (c == '+' || c == '/' || c == '='));
      };
      if (inner(t_[end - 1])) {
        const size_t limit = std::min(t_.size(), end + kReach);
        while (end < limit && inner(t_[end])) ++end;
        // base64's padding
        for (int pad = 0; pad < 2 && end < t_.size() && t_[end] == '='; ++pad) ++end;
      }
    }
    out_.Add(begin, end, what);
  }

 private:
  static constexpr size_t kReach = 256;
  std::string_view t_;
  SpanSink& out_;
};

}  // namespace

void Detector::Scan(const ScanInput& input, SpanSink& out) const {
  WholeTokens sink(input.text, out);
  try {
    Find(input, sink);
  } catch (const MatchError&) {
    throw;  // the filter names this detector as failed and withholds the text
  } catch (...) {
    if (!input.text.empty()) out.Add(0, input.text.size(), "text that could not be checked");
  }
}

}  // namespace rr_secrets
