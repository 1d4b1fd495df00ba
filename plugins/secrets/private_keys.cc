// private-keys and key-material: private keys in every shape they are written in.
//
// private-keys (keywords):
//  - A PEM block (-----BEGIN [RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP ]PRIVATE KEY[ BLOCK]-----):
//    the key material between the BEGIN and END lines is reported; the marker lines stay
//    visible, so the agent knows what was there. The block may be written over lines (also
//    with a diff's '+' or as concatenated strings), inside one JSON string with \n escapes
//    (a GCP service account's "private_key"), or on one line with its lines joined by blanks
//    (an environment variable's value) up to an END marker on that line. A BEGIN line not
//    followed by key material (a parser's constant) is left alone. Without an END (the text
//    stops inside the block) the key-material lines after BEGIN are reported; an END without a
//    BEGIN (the text starts inside the block) reports the key-material lines before it.
//  - PEM written in base64 on one line (a kubeconfig's client-key-data: LS0tLS1CRUdJTi…):
//    decoded far enough to read its BEGIN line; reported when it names a private key, kept
//    for a certificate or a public key.
//  - A DER private key in base64 with no PEM around it, by the first bytes of its structure
//    (PKCS#1 and SEC1 keys, PKCS#8 RSA/EC/Ed25519, encrypted PKCS#8, OpenSSH's
//    "openssh-key-v1"): the base64 run, and the base64 lines continuing it.
//  - A PuTTY key file's Private-Lines.
//
// The key-material detector, which shares the line reading below, is key_material.cc's.
#include <algorithm>
#include <cstring>
#include <memory>

#include "detectors.h"
#include "key_lines.h"
#include "regex.h"

namespace rr_secrets {

namespace {

constexpr size_t kMaxBlock = 1 << 20;
constexpr std::string_view kWhat = kPrivateKeyWhat;

// The length of the escaped line breaks at t[p]: one or more backslashes, then 'n' or 'r' ("\n"
// in a JSON string; "\\n" in a JSON string inside another, as a service account's JSON kept in
// a variable or a notebook's cell holds it), repeated ("\r\n"); 0 when there is none.
size_t EscapedBreakAt(std::string_view t, size_t p) {
  size_t q = p;
  for (;;) {
    size_t k = q;
    while (k < t.size() && t[k] == '\\') ++k;
    if (k == q || k >= t.size() || (t[k] != 'n' && t[k] != 'r')) break;
    q = k + 1;
  }
  return q - p;
}

// A line of a key's body: base64 (long, or short with a digit or base64 symbol: the last
// line), a PEM or PGP header, or a PGP checksum.
bool IsMaterialCore(std::string_view core) {
  if (IsHeaderLine(core)) return true;
  if (!AllBase64(core)) return false;
  if (core.size() >= 40) return true;
  const Mix m = MixOf(core);
  return m.digit > 0 || m.symbol > 0;
}

// Only blanks before t[p] on its line.
bool FirstOnLine(std::string_view t, size_t p) {
  for (size_t i = LineStart(t, p); i < p; ++i) {
    if (!IsBlank(t[i])) return false;
  }
  return true;
}

// True when key material (base64 or a header) follows `pos` after separators.
bool MaterialFollows(std::string_view t, size_t pos) {
  size_t i = pos;
  const size_t limit = std::min(t.size(), pos + 200);
  while (i < limit) {
    const char c = t[i];
    if (IsBlank(c) || c == '\r' || c == '\n' || c == '"' || c == '\'' || c == ',' || c == '|' ||
        c == '>') {
      ++i;
    } else if (const size_t n = EscapedBreakAt(t, i)) {
      i += n;
    } else if ((c == '+' || c == '-') && (i == 0 || t[i - 1] == '\n')) {
      ++i;
    } else if (c == '+' && i > 0 && IsBlank(t[i - 1])) {
      ++i;
    } else if (const size_t mark = CommentMarkAt(t, i); mark && FirstOnLine(t, i)) {
      i += mark;
    } else {
      break;
    }
  }
  if (i >= t.size()) return false;
  if (t.substr(i, 5) == "-----") return false;
  size_t j = i;
  while (j < t.size() && (IsAlpha(t[j]) || t[j] == '-')) ++j;
  if (j - i >= 4 && j + 1 < t.size() && t[j] == ':' && t[j + 1] == ' ') return true;
  j = i;
  while (j < t.size() && IsB64(t[j])) ++j;
  if (j - i >= 16) return true;
  // A block written on one line, its lines joined by spaces (an environment variable's
  // "-----BEGIN … KEY----- MIIE… 3Fw Y+ -----END … KEY-----"), up to an END marker on the same
  // line: base64 runs, 40 characters or more in all, one of them 16 or more that mixes digits
  // and both cases -- not words about a key ("Paste your PKCS8 key here").
  const size_t line_end = ContentEnd(t, i);
  const size_t end_marker = t.substr(i, line_end - i).find("-----END ");
  if (end_marker == std::string_view::npos) return false;
  const std::string_view body = t.substr(i, end_marker);
  size_t material = 0;
  bool keylike_run = false;
  for (size_t r = 0; r < body.size();) {
    if (IsBlank(body[r])) {
      ++r;
      continue;
    }
    size_t q = r;
    while (q < body.size() && IsB64(body[q])) ++q;
    if (q < body.size() && !IsBlank(body[q])) return false;
    const Mix m = MixOf(body.substr(r, q - r));
    keylike_run = keylike_run || (q - r >= 16 && m.digit > 0 && m.lower > 0 && m.upper > 0);
    material += q - r;
    r = q;
  }
  return material >= 40 && keylike_run;
}

// Reports the key-material lines from the line holding `from` on (starting at `from` on that
// line); answers where the reported part ends.
size_t ReportMaterialLines(std::string_view t, size_t from, SpanSink& sink) {
  size_t begin = std::string_view::npos, end = from;
  size_t line = from;
  size_t pending_blank_end = std::string_view::npos;
  while (line < t.size()) {
    const size_t le = LineEnd(t, line);
    size_t off = 0;
    const std::string_view core = LineCore(t.substr(line, le - line), true, &off);
    if (core.empty()) {
      if (begin != std::string_view::npos && pending_blank_end == std::string_view::npos) {
        pending_blank_end = le;
      }
    } else if (IsMaterialCore(core)) {
      if (begin == std::string_view::npos) begin = line + off;
      end = line + off + core.size();
      pending_blank_end = std::string_view::npos;
    } else {
      break;
    }
    if (t.size() - from > kMaxBlock && line - from > kMaxBlock) break;
    line = le + 1;
  }
  if (begin != std::string_view::npos) Report(sink, t, begin, end, kWhat);
  return end;
}

// Reports the key-material lines that end just before the line starting at `line_start`.
void ReportMaterialBefore(std::string_view t, size_t line_start, SpanSink& sink) {
  size_t begin = std::string_view::npos, end = std::string_view::npos;
  bool base64 = false;  // header lines alone ("Certificate: tls.Certificate{") are no key
  size_t le = line_start;
  while (le > 0) {
    const size_t line_end = le - 1;  // the '\n' ending the line above
    const size_t ls = LineStart(t, line_end);
    size_t off = 0;
    const std::string_view core = LineCore(t.substr(ls, line_end - ls), true, &off);
    if (!core.empty()) {
      if (!IsMaterialCore(core)) break;
      base64 = base64 || !IsHeaderLine(core);
      if (end == std::string_view::npos) end = ls + off + core.size();
      begin = ls + off;
    }
    if (line_start - ls > kMaxBlock) break;
    le = ls;
  }
  if (begin != std::string_view::npos && base64) Report(sink, t, begin, end, kWhat);
}

// The end of the base64 continuing a run that ends at `end`: following lines (or "\n"-escaped
// parts of a string) that are base64 too.
size_t ContinueRun(std::string_view t, size_t end) {
  for (;;) {
    size_t p = end;
    if (const size_t n = EscapedBreakAt(t, p)) {
      p += n;
    } else {
      if (p < t.size() && t[p] == '\r') ++p;
      if (p >= t.size() || t[p] != '\n') return end;
      ++p;
      if (p < t.size() && (t[p] == '+' || t[p] == '-')) ++p;
      while (p < t.size() && IsBlank(t[p])) ++p;
      p += CommentMarkAt(t, p);
    }
    size_t q = p;
    while (q < t.size() && IsB64(t[q])) ++q;
    if (q - p < 4 || (q < t.size() && !(t[q] == '\n' || t[q] == '\r' || t[q] == '\\' ||
                                        t[q] == '"' || t[q] == '\''))) {
      return end;
    }
    const Mix m = MixOf(t.substr(p, q - p));
    if (q - p < 40 && m.digit == 0 && m.symbol == 0) return end;
    end = q;
  }
}

enum class KeywordKind { kPem, kPemBase64, kDer, kPutty };

struct DerPrefix {
  const char* keyword;
  const char* pattern;  // from the start of the base64 run
  int offset;           // where the keyword sits from the run's start
};

// clang-format off
const DerPrefix kDerPrefixes[] = {
  {"aibaa", R"(MII[A-Za-z0-9+/]{2}AIBAA[JK])", 5},                       // PKCS#1 RSA, DSA
  {"ibadanbgkqhkig9w0baqefaas", R"(MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAAS)", 6},  // PKCS#8 RSA
  {"ageambmgbyqgsm49", R"(MI[A-Za-z0-9+/]{2}AgEAMBMGByqGSM49)", 4},        // PKCS#8 EC
  {"caqawbqydk2", R"(M[A-Za-z0-9+/]{3}CAQAwBQYDK2[VW])", 4},              // PKCS#8 Ed/X25519, 448
  {"bgkqhkig9w0bbq0w", R"(MII[A-Za-z0-9+/]{5}BgkqhkiG9w0BBQ0w)", 8},       // encrypted PKCS#8
  {"caqeei", R"(MH[A-Za-z0-9+/]CAQEEI)", 3},                              // SEC1 P-256, secp256k1
  {"agebbda", R"(MIG[A-Za-z0-9+/]AgEBBDA)", 4},                           // SEC1 P-384
  {"agebbei", R"(MIH[A-Za-z0-9+/]AgEBBEI)", 4},                           // SEC1 P-521
  {"b3blbnnzac1rzxktdje", R"(b3BlbnNzaC1rZXktdjE)", 0},                   // openssh-key-v1
};
// clang-format on

class PrivateKeys final : public Detector {
 public:
  PrivateKeys() : Detector("private-keys", {}) {
    auto add = [&](const char* word, KeywordKind kind, int der) {
      keywords_.emplace_back(word);
      kinds_.push_back(kind);
      der_.push_back(der);
    };
    add("private key", KeywordKind::kPem, -1);
    add("ls0tls1crudj", KeywordKind::kPemBase64, -1);
    add("ls0tqkvh", KeywordKind::kPemBase64, -1);
    add("ls0tlujfr0lo", KeywordKind::kPemBase64, -1);
    add("private-lines:", KeywordKind::kPutty, -1);
    for (size_t i = 0; i < sizeof kDerPrefixes / sizeof kDerPrefixes[0]; ++i) {
      add(kDerPrefixes[i].keyword, KeywordKind::kDer, static_cast<int>(i));
      patterns_.push_back(std::make_unique<Pattern>(kDerPrefixes[i].pattern));
      if (!patterns_.back()->ok() && error_.empty()) error_ = patterns_.back()->error();
    }
  }

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t covered = 0;
    size_t no_end_after = std::string_view::npos;  // no "-----END " from there on
    for (size_t h = 0; h < in.hit_count; ++h) {
      const KeywordHit& hit = in.hits[h];
      if (hit.offset < covered || hit.keyword >= kinds_.size()) continue;
      size_t end = 0;
      switch (kinds_[hit.keyword]) {
        case KeywordKind::kPem:
          end = Pem(t, hit.offset, &no_end_after, sink);
          break;
        case KeywordKind::kPemBase64:
          end = PemBase64(t, hit.offset, sink);
          break;
        case KeywordKind::kDer:
          end = Der(t, hit.offset, kDerPrefixes[der_[hit.keyword]], *patterns_[der_[hit.keyword]],
                    sink);
          break;
        case KeywordKind::kPutty:
          end = Putty(t, hit.offset, sink);
          break;
      }
      covered = std::max(covered, end);
    }
  }

 private:
  // A "PRIVATE KEY" occurrence on a BEGIN or END line.
  static size_t Pem(std::string_view t, size_t at, size_t* no_end_after, SpanSink& sink) {
    const size_t from = at >= 48 ? at - 48 : 0;
    const std::string_view before = t.substr(from, at - from);
    const size_t dashes = before.rfind("-----");
    if (dashes == std::string_view::npos) return 0;
    const std::string_view marker = before.substr(dashes + 5);
    bool begin;
    std::string_view kind;
    if (marker.substr(0, 6) == "BEGIN ") {
      begin = true;
      kind = marker.substr(6);
    } else if (marker.substr(0, 4) == "END ") {
      begin = false;
      kind = marker.substr(4);
    } else {
      return 0;
    }
    for (char c : kind) {
      if (!(ClassOf(c) & (kUpper | kDigit)) && c != ' ') return 0;
    }
    const size_t close = t.substr(at, 40).find("-----");
    if (close == std::string_view::npos) return 0;
    const size_t marker_end = at + close + 5;
    if (!begin) {
      // An END on its BEGIN's line closes a block written there ("…KEY-----\n-----END…" in
      // a string): the BEGIN read it; the lines above are another thing's.
      const size_t ls = LineStart(t, from + dashes);
      if (t.substr(ls, from + dashes - ls).find("-----BEGIN ") == std::string_view::npos) {
        ReportMaterialBefore(t, ls, sink);
      }
      return marker_end;
    }
    size_t body = marker_end;
    bool escaped_lines = false;
    if (const size_t n = EscapedBreakAt(t, body)) {
      body += n;
      escaped_lines = true;
    }
    if (!MaterialFollows(t, body)) return marker_end;
    const size_t limit = std::min(t.size(), body + kMaxBlock);
    const void* found = nullptr;
    if (body < *no_end_after) {
      found = memmem(t.data() + body, limit - body, "-----END ", 9);
      if (!found && limit == t.size()) *no_end_after = body;
    }
    if (found) {
      const size_t end_at = static_cast<size_t>(static_cast<const char*>(found) - t.data());
      size_t e = end_at;
      const size_t ls = LineStart(t, e);
      bool only_prefix = ls > body;
      for (size_t i = ls; i < e && only_prefix; ++i) {
        only_prefix = IsBlank(t[i]) || t[i] == '+' || t[i] == '-' || t[i] == '"' || t[i] == '\'' ||
                      t[i] == '#' || t[i] == ';' || t[i] == '*' || t[i] == '/';
      }
      if (only_prefix) {
        e = ls;
        if (e > body && t[e - 1] == '\n') --e;
        if (e > body && t[e - 1] == '\r') --e;
      } else {
        e -= EscapedBreakBefore(t, body, e);
      }
      size_t b = body;
      while (b < e && (t[b] == '\r' || t[b] == '\n' || IsBlank(t[b]))) ++b;
      if (FirstOnLine(t, b)) b += CommentMarkAt(t.substr(0, e), b);
      while (e > b && IsBlank(t[e - 1])) --e;  // a block on one line: the blank before END
      Report(sink, t, b, e, kWhat);
      return end_at + 9;
    }
    if (escaped_lines) {
      // One string, cut before its END: to the closing quote or the end of the line.
      size_t e = body;
      const size_t le = ContentEnd(t, body);
      while (e < le && t[e] != '"' && t[e] != '\'') ++e;
      Report(sink, t, body, e, kWhat);
      return e;
    }
    size_t start = body;
    while (start < t.size() && (t[start] == '\r' || t[start] == '\n')) ++start;
    return ReportMaterialLines(t, start, sink);
  }

  // "LS0tLS1CRUdJTi…": PEM written in base64.
  static size_t PemBase64(std::string_view t, size_t at, SpanSink& sink) {
    const std::string decoded = DecodeBase64(t, at, 96);
    const size_t begin = decoded.find("BEGIN ");
    if (begin == std::string::npos) return 0;
    const size_t close = decoded.find("-----", begin);
    const std::string_view line =
        std::string_view(decoded).substr(begin, close == std::string::npos ? 64 : close - begin);
    if (line.find("PRIVATE KEY") == std::string_view::npos) return 0;
    size_t b = at;
    while (b > 0 && at - b < 4 && IsBase64(t[b - 1])) --b;
    size_t e = at;
    while (e < t.size() && IsB64(t[e])) ++e;
    e = ContinueRun(t, e);
    Report(sink, t, b, e, kWhat);
    return e;
  }

  // A DER private key's first bytes, in base64.
  static size_t Der(std::string_view t, size_t at, const DerPrefix& prefix, const Pattern& pattern,
                    SpanSink& sink) {
    if (at < static_cast<size_t>(prefix.offset)) return 0;
    const size_t start = at - prefix.offset;
    if (start > 0 && IsBase64(t[start - 1]) && !EscapedBreakBefore(t, 0, start)) return 0;
    Pattern::Match m;
    if (!pattern.MatchAt(t, start, std::min(t.size(), start + 64), &m)) return 0;
    size_t e = start;
    while (e < t.size() && IsB64(t[e])) ++e;
    const size_t first = e - start;
    e = ContinueRun(t, e);
    if (e - start < 60 && first < 60) return 0;
    Report(sink, t, start, e, kWhat);
    return e;
  }

  // PuTTY's "Private-Lines: N" and the N lines after it.
  static size_t Putty(std::string_view t, size_t at, SpanSink& sink) {
    size_t p = at + 14;
    while (p < t.size() && IsBlank(t[p])) ++p;
    int lines = 0;
    while (p < t.size() && IsDigit(t[p]) && lines < 10000) lines = lines * 10 + (t[p++] - '0');
    if (lines <= 0) return 0;
    size_t begin = LineEnd(t, p);
    if (begin >= t.size()) return p;
    ++begin;
    size_t end = begin;
    for (int i = 0; i < lines && end < t.size(); ++i) {
      const size_t le = ContentEnd(t, end);
      const std::string_view core = LineCore(t.substr(end, le - end), false, nullptr);
      if (!AllBase64(core)) break;
      end = LineEnd(t, end) + 1;
    }
    size_t e = std::min(end, t.size());
    while (e > begin && (t[e - 1] == '\n' || t[e - 1] == '\r')) --e;
    Report(sink, t, begin, e, kWhat);
    return e;
  }

  std::vector<KeywordKind> kinds_;
  std::vector<int> der_;
  std::vector<std::unique_ptr<Pattern>> patterns_;
};

}  // namespace

std::unique_ptr<Detector> MakePrivateKeys() { return std::make_unique<PrivateKeys>(); }

}  // namespace rr_secrets
