// What every detector of this plugin shares: byte classes, lines, the format a file's name
// implies, how a value is judged a reference or a placeholder, and the Detector base class.
//
// Everything here is a pure function of its arguments (or, for Detector, of state fixed at
// construction), so any of it may run on many threads at once.
#pragma once

#include <repo_reader/sdk.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rr_secrets {

using repo_reader::KeywordHit;
using repo_reader::ScanInput;
using repo_reader::SecretDetector;
using repo_reader::SpanSink;
using repo_reader::TextKind;

// --- Bytes.
enum ByteClass : uint8_t {
  kLower = 1 << 0,
  kUpper = 1 << 1,
  kDigit = 1 << 2,
  kUnderscore = 1 << 3,
  kDash = 1 << 4,
  kB64Symbol = 1 << 5,  // + /
  kHexLetter = 1 << 6,  // a-f A-F
  kBlank = 1 << 7,      // space, tab
};
constexpr std::array<uint8_t, 256> MakeByteClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kLower;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kUpper;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kDigit;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHexLetter;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHexLetter;
  t['_'] |= kUnderscore;
  t['-'] |= kDash;
  t['+'] |= kB64Symbol;
  t['/'] |= kB64Symbol;
  t[' '] |= kBlank;
  t['\t'] |= kBlank;
  return t;
}
inline constexpr std::array<uint8_t, 256> kByteClass = MakeByteClasses();

inline uint8_t ClassOf(char c) { return kByteClass[static_cast<unsigned char>(c)]; }
inline bool IsAlpha(char c) { return ClassOf(c) & (kLower | kUpper); }
inline bool IsDigit(char c) { return ClassOf(c) & kDigit; }
inline bool IsAlnum(char c) { return ClassOf(c) & (kLower | kUpper | kDigit); }
inline bool IsWord(char c) { return ClassOf(c) & (kLower | kUpper | kDigit | kUnderscore); }
inline bool IsHex(char c) { return (ClassOf(c) & (kDigit | kHexLetter)) != 0; }
inline bool IsBase64(char c) { return ClassOf(c) & (kLower | kUpper | kDigit | kB64Symbol); }
inline bool IsTokenChar(char c) {  // base64url and the separators tokens use
  return ClassOf(c) & (kLower | kUpper | kDigit | kUnderscore | kDash);
}
inline bool IsBlank(char c) { return ClassOf(c) & kBlank; }
inline char Lower(char c) { return (ClassOf(c) & kUpper) ? static_cast<char>(c + 32) : c; }

// Case-insensitive (ASCII) comparisons; `lower` is already lower case.
bool StartsWithNoCase(std::string_view text, std::string_view lower);
bool EqualsNoCase(std::string_view text, std::string_view lower);
bool ContainsNoCase(std::string_view text, std::string_view lower);
std::string LowerCopy(std::string_view s);
// Without blanks, '\r' and '\n' at either end.
std::string_view Trim(std::string_view s);
bool OneOf(std::string_view s, std::initializer_list<std::string_view> words);
bool ContainsAny(std::string_view s, std::initializer_list<std::string_view> parts);

// --- Lines. A line ends at '\n' (excluded); a '\r' before it is not part of the line's content.
// A line is looked for at most kLineReach bytes either way: in a longer one (minified code, a
// blob) each stretch of that length counts as a line. This bounds what one keyword occurrence
// costs, so a text of one long line full of keywords is not read over and over.
inline constexpr size_t kLineReach = 4096;
size_t LineStart(std::string_view text, size_t pos);
size_t LineEnd(std::string_view text, size_t pos);     // the '\n' or text.size()
size_t ContentEnd(std::string_view text, size_t pos);  // LineEnd less a '\r' before it

// --- Characters a value is made of.
struct Mix {
  int lower = 0, upper = 0, digit = 0, symbol = 0, space = 0;
  int distinct = 0;
};
Mix MixOf(std::string_view value);

// --- Formats. What a file's name says about how its settings are written.
enum class Format {
  kUnknown,     // no path, or a name that says nothing (prose, commit messages)
  kYaml,        // unquoted values are literal
  kJson,        // values are quoted; unquoted ones are numbers, booleans, null
  kEnv,         // .env, shell, Dockerfile, Makefile: unquoted values are literal
  kIni,         // INI, TOML, properties, conf: unquoted values are literal
  kXml,         // elements and attributes
  kCode,        // a programming language: unquoted values are expressions
  kHcl,         // Terraform, HCL: unquoted values are references
  kTranslation  // i18n catalogues: values are words shown to people
};
Format FormatOfPath(std::string_view path);

// The path a position of a text belongs to: the input's path, or in a diff the file named by
// the nearest header before the position ("+++ b/config.yml", "diff --git a/x b/x").
class PathAt {
 public:
  explicit PathAt(const ScanInput& input) : input_(input) {}
  std::string_view At(size_t pos);
  // FormatOfPath, or for a file whose name says nothing, what its "#!" line says.
  Format FormatAt(size_t pos);

 private:
  Format FormatOf(std::string_view path) const;

  const ScanInput& input_;
  // The format of the path FormatAt was last asked about (the same bytes of the input).
  bool known_ = false;
  std::string_view known_path_;
  Format known_format_ = Format::kUnknown;
  bool indexed_ = false;
  std::vector<std::pair<size_t, std::string_view>> headers_;  // offset, path
};

// --- Values given to settings.
// A bracket that closes what was never opened, or another kind than the last one open
// ("m{{h}o)p${e]…"): a template's brackets pair up, a password's punctuation need not. A bracket
// left open counts for nothing: a value may be cut at a blank inside its template ("{{ var").
bool HasStrayCloser(std::string_view value);
// A value that names where the secret is rather than being it: an environment lookup, a
// template, an interpolation, a secret manager's reference.
bool IsReference(std::string_view value);
// A value that stands for a secret without being one: changeme, <your-token>, xxxx, ***,
// example, dummy, none, true… (placeholders.cc, with IsPlaceholderToken)
bool IsPlaceholder(std::string_view value);
// A token's body made to look like one in documentation (EXAMPLE, xxxxxxxx, 00000000).
bool IsPlaceholderToken(std::string_view token);
// Words people read: two or more words of letters (i18n text, a sentence).
bool IsProseText(std::string_view value);
// Up to `max` bytes of the base64 (or base64url) run at t[at...], decoded.
std::string DecodeBase64(std::string_view t, size_t at, size_t max);

// --- Spans.
// Reports [begin, end) when it is not empty and inside the text.
inline void Report(SpanSink& sink, std::string_view text, size_t begin, size_t end,
                   std::string_view what) {
  if (begin < end && end <= text.size()) sink.Add(begin, end, what);
}

// --- The detectors' base: keywords fixed at construction. A failure inside (memory) hides the
// whole text rather than let it through unchecked; a pattern whose match could not be decided
// (MatchError, regex.h) is let through to the filter, which names the detector as failed and
// withholds the text.
class Detector : public SecretDetector {
 public:
  Detector(const char* id, std::vector<std::string> keywords)
      : keywords_(std::move(keywords)), id_(id) {}
  const char* id() const noexcept override { return id_; }
  std::vector<std::string> keywords() const override { return keywords_; }
  void Scan(const ScanInput& input, SpanSink& sink) const final;

  // Empty when construction went well; otherwise why not (a pattern that does not compile).
  const std::string& error() const { return error_; }

 protected:
  virtual void Find(const ScanInput& input, SpanSink& sink) const = 0;
  std::string error_;
  std::vector<std::string> keywords_;

 private:
  const char* id_;
};

}  // namespace rr_secrets
