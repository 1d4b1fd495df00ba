#include "core/sync/token.h"

#include <cstdlib>

namespace rr {
namespace {

void ReplaceAll(std::string& text, const std::string& what, const std::string& with) {
  if (what.empty()) return;
  size_t i = 0;
  while ((i = text.find(what, i)) != std::string::npos) {
    text.replace(i, what.size(), with);
    i += with.size();
  }
}

}  // namespace

std::string Base64(std::string_view in) {
  static const char* const kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  if (i + 1 == in.size()) {
    const uint32_t v = uint8_t(in[i]) << 16;
    out += {kAlphabet[(v >> 18) & 63], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += {kAlphabet[(v >> 18) & 63], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

std::string PercentEncode(std::string_view in) {
  std::string out;
  for (unsigned char c : in) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~';
    if (plain) {
      out.push_back(static_cast<char>(c));
    } else {
      static const char* const kHex = "0123456789ABCDEF";
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

Result<HostToken> HostToken::FromEnvironment(const std::string& env_name,
                                             std::string_view host_kind) {
  const char* v = std::getenv(env_name.c_str());
  if (!v || !*v) {
    return Error{"the token's environment variable " + env_name +
                 " is not set (token_env names it); set it where the server starts"};
  }
  return HostToken(v, UserFor(host_kind));
}

std::string HostToken::UserFor(std::string_view host_kind) {
  if (host_kind == "gitlab") return "oauth2";
  if (host_kind == "bitbucket") return "x-token-auth";
  return "x-access-token";
}

std::string HostToken::GitHeader() const {
  return "Authorization: Basic " + Base64((user_.empty() ? UserFor("") : user_) + ":" + value_);
}

std::vector<std::pair<std::string, std::string>> HostToken::GitConfig(
    const std::string& url) const {
  return {{"http." + url + ".extraHeader", GitHeader()},
          {"http." + url + ".followRedirects", "false"},
          {"credential." + url + ".helper", ""}};
}

std::string HostToken::Scrub(std::string text) const {
  if (value_.empty()) return text;
  // Longest forms first: the base64 of a header holds no raw token, but a raw token may hold
  // what another form would match.
  for (const char* user : {"x-access-token", "oauth2", "x-token-auth"}) {
    ReplaceAll(text, Base64(std::string(user) + ":" + value_), "[token]");
  }
  if (!user_.empty()) ReplaceAll(text, Base64(user_ + ":" + value_), "[token]");
  ReplaceAll(text, Base64(value_), "[token]");
  ReplaceAll(text, PercentEncode(value_), "[token]");
  ReplaceAll(text, value_, "[token]");
  return text;
}

}  // namespace rr
