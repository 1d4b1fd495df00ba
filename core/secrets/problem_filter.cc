#include "core/secrets/problem_filter.h"

#include <string_view>

namespace rr {
namespace {

using repo_reader::ScanInput;
using repo_reader::SpanSink;

bool IsTokenByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '+' || c == '=';
}

// scheme://user:password@host: the password.
class UrlPassword : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "url-password"; }
  std::vector<std::string> keywords() const override { return {"://"}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    for (size_t i = 0; i < in.hit_count; ++i) {
      const size_t from = in.hits[i].offset + 3;
      // The authority ends at the first '/', '?', '#' or blank; its userinfo at its last '@'.
      size_t end = from;
      while (end < t.size() && t[end] != '/' && t[end] != '?' && t[end] != '#' && t[end] != ' ' &&
             t[end] != '\n' && t[end] != '\t' && t[end] != '`' && t[end] != '\'' && t[end] != '"') {
        ++end;
      }
      const size_t at = t.substr(from, end - from).rfind('@');
      if (at == std::string_view::npos) continue;
      const size_t colon = t.substr(from, at).find(':');
      if (colon == std::string_view::npos || colon + 1 >= at) continue;
      sink.Add(from + colon + 1, from + at, "password");
    }
  }
};

// A run of token bytes, 20 or more, holding letters and digits.
class TokenShape : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "token-shape"; }
  std::vector<std::string> keywords() const override { return {}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t i = 0;
    while (i < t.size()) {
      if (!IsTokenByte(t[i])) {
        ++i;
        continue;
      }
      size_t j = i;
      bool letter = false, digit = false;
      for (; j < t.size() && IsTokenByte(t[j]); ++j) {
        digit = digit || (t[j] >= '0' && t[j] <= '9');
        letter = letter || (t[j] >= 'a' && t[j] <= 'z') || (t[j] >= 'A' && t[j] <= 'Z');
      }
      if (j - i >= 20 && letter && digit) sink.Add(i, j, "token");
      i = j;
    }
  }
};

}  // namespace

std::vector<SecretFilter::Detector> LastResortDetectors() {
  return {{std::make_shared<UrlPassword>(), "repo-reader (last resort)"},
          {std::make_shared<TokenShape>(), "repo-reader (last resort)"}};
}

}  // namespace rr
