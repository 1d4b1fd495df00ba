// kubernetes-secrets: the values of a Kubernetes Secret's `data:` and `stringData:` maps.
//
// Every value there is a secret by where it sits, whatever its shape: `data:` holds each one in
// base64 (`password: aHVudGVyMg==`), `stringData:` as written. At each `kind: Secret` (YAML,
// quoted or not, or JSON's "kind": "Secret") the detector reads the YAML document around it
// (between `---` lines) for a `data:` or `stringData:` key and reports the value of each entry
// indented under it. A reference or a placeholder is kept, as everywhere, and so is a `data:`
// value whose base64 decodes to a placeholder word of fewer than 8 characters.
#include <memory>
#include <string>
#include <string_view>

#include "detectors.h"

namespace rr_secrets {

namespace {

size_t Indent(std::string_view t, size_t line, size_t end) {
  size_t i = line;
  while (i < end && (t[i] == ' ' || t[i] == '\t')) ++i;
  return i - line;
}

// A short base64 value of `data:` that decodes to a placeholder word of fewer than eight
// characters, the least a password is allowed: `YmFyCg==` is "bar\n", `bm9uZQ==` "none". A
// longer one stays hidden (`bXlwYXNzd29yZA==`, "mypassword", may be the password).
bool EncodesPlaceholder(std::string_view value) {
  if (value.size() > 24) return false;
  size_t n = 0;
  while (n < value.size() && IsBase64(value[n])) ++n;
  while (n < value.size() && value[n] == '=') ++n;
  if (n != value.size()) return false;
  const std::string decoded = DecodeBase64(value, 0, 18);
  for (char c : decoded) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
  }
  size_t letters = 0;
  for (char c : decoded) letters += !IsBlank(c) && c != '\n' && c != '\r';
  return letters < 8 && IsPlaceholder(decoded);
}

// A certificate, which is public: a TLS Secret's `tls.crt`, a `ca.crt` (any key ending `.crt`),
// or a value whose base64 decodes to a certificate's or a public key's PEM block.
bool IsCertificate(std::string_view key, std::string_view value, bool base64) {
  size_t k = key.find(':');
  if (k == std::string_view::npos) k = key.size();
  std::string_view name = key.substr(0, k);
  while (!name.empty() && (name.back() == '"' || name.back() == '\'' || IsBlank(name.back()))) {
    name.remove_suffix(1);
  }
  if (name.size() > 4 && EqualsNoCase(name.substr(name.size() - 4), ".crt")) return true;
  if (!base64) {
    return value.rfind("-----BEGIN CERTIFICATE", 0) == 0 ||
           value.rfind("-----BEGIN PUBLIC KEY", 0) == 0;
  }
  const std::string head = DecodeBase64(value, 0, 32);
  return head.rfind("-----BEGIN CERTIFICATE", 0) == 0 ||
         head.rfind("-----BEGIN PUBLIC KEY", 0) == 0;
}

class KubernetesSecrets final : public Detector {
 public:
  KubernetesSecrets()
      : Detector("kubernetes-secrets", {"kind: secret", "kind: 'secret'", "kind: \"secret\"",
                                        "\"kind\": \"secret\"", "\"kind\":\"secret\""}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t done = 0;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      if (at < done || at >= t.size()) continue;
      // Not "kind: SecretProviderClass": the word ends there.
      size_t k = at + keywords_[in.hits[h].keyword].size();
      if (k < t.size() && IsAlnum(t[k])) continue;
      // The document: from the `---` before (or the start) to the `---` after (or the end).
      size_t begin = t.rfind("\n---", at);
      begin = begin == std::string_view::npos ? 0 : begin + 1;
      if (at - begin > 65536) begin = at - 65536;
      size_t end = t.find("\n---", at);
      end = end == std::string_view::npos ? t.size() : end;
      end = std::min(end, at + 65536);
      Document(t, begin, end, sink);
      done = end;
    }
  }

 private:
  static void Document(std::string_view t, size_t begin, size_t end, SpanSink& sink) {
    for (size_t line = begin; line < end;) {
      const size_t le = std::min(end, ContentEnd(t, line));
      const size_t ind = Indent(t, line, le);
      const std::string_view head = t.substr(line + ind, le - line - ind);
      if (head == "data:" || head == "stringData:" || head == "\"data\": {" ||
          head == "\"stringData\": {") {
        const bool base64 = head[0] == 'd' || head[1] == 'd';  // data:, not stringData:
        line = Entries(t, LineEnd(t, le) + 1, end, ind, head[0] == '"', base64, sink);
        continue;
      }
      line = LineEnd(t, le) + 1;
    }
  }

  // The entries under a map opened at indentation `ind`; answers where they end.
  static size_t Entries(std::string_view t, size_t line, size_t end, size_t ind, bool json,
                        bool base64, SpanSink& sink) {
    while (line < end) {
      const size_t le = std::min(end, ContentEnd(t, line));
      const size_t i = Indent(t, line, le);
      if (line + i == le) {  // a blank line
        line = LineEnd(t, le) + 1;
        continue;
      }
      // A comment among the entries, or a template's action (Helm's `{{- range … }}`,
      // `{{- $cert := genSignedCert … }}`): no entry.
      if (!json &&
          (t[line + i] == '#' || t.substr(line + i, 2) == "{{" || t.substr(line + i, 2) == "{%")) {
        line = LineEnd(t, le) + 1;
        continue;
      }
      if (i <= ind && !json) return line;
      if (json && t[line + i] == '}') return LineEnd(t, le) + 1;
      // key: value (YAML) or "key": "value", (JSON)
      size_t p = line + i;
      const size_t key_begin = p;
      if (t[p] == '"' || t[p] == '\'') {
        const size_t close = t.find(t[p], p + 1);
        if (close == std::string_view::npos || close >= le) return line;
        p = close + 1;
      } else {
        while (p < le && t[p] != ':') ++p;
      }
      if (p >= le || t[p] != ':') return line;
      p = p + 1;
      while (p < le && IsBlank(t[p])) ++p;
      size_t ve = le;
      if (!json && t[p] != '"' && t[p] != '\'') {
        // A plain YAML value ends where a comment begins: a '#' after a blank.
        for (size_t c = p + 1; c < le; ++c) {
          if (t[c] == '#' && IsBlank(t[c - 1])) {
            ve = c;
            break;
          }
        }
      }
      while (ve > p && (IsBlank(t[ve - 1]) || t[ve - 1] == ',')) --ve;
      if (ve > p + 1 && (t[p] == '"' || t[p] == '\'') && t[ve - 1] == t[p]) {
        ++p;
        --ve;
      }
      const std::string_view value = t.substr(p, ve - p);
      const std::string_view key = t.substr(key_begin, p - key_begin);
      if (value.size() >= 4 && value != "|" && value != ">" && !IsReference(value) &&
          !IsPlaceholder(value) && !(base64 && EncodesPlaceholder(value)) &&
          !IsCertificate(key, value, base64)) {
        Report(sink, t, p, ve, "Kubernetes secret");
      }
      line = LineEnd(t, le) + 1;
    }
    return line;
  }
};

}  // namespace

std::unique_ptr<Detector> MakeKubernetesSecrets() { return std::make_unique<KubernetesSecrets>(); }

}  // namespace rr_secrets
