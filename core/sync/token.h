// HostToken: a mirror's token, read from the environment variable the configuration names
// (token_env) when a sync needs it, and never written anywhere. It leaves this class in two
// ways only: as the Authorization header of git's environment (GitConfig) and, for a host's API,
// as the header the host plugin names. Scrub takes it out of any text, in every form it travels
// in: as it is, URL-encoded, and base64 of `<user>:<token>` (how git sends it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/result.h"

namespace rr {

class HostToken {
 public:
  // The token in the variable `env_name`, for a host of `host_kind`; an error when it is not set
  // or empty (the message names the variable, never a value).
  static Result<HostToken> FromEnvironment(const std::string& env_name, std::string_view host_kind);
  // For tests.
  static HostToken Of(std::string value, std::string user) {
    return HostToken(std::move(value), std::move(user));
  }

  // The user name git's Basic authorization carries with a token, by host kind: GitHub
  // `x-access-token`, GitLab `oauth2`, Bitbucket `x-token-auth`; others `x-access-token`.
  static std::string UserFor(std::string_view host_kind);

  // `Authorization: Basic base64(<user>:<token>)`.
  std::string GitHeader() const;
  // The configuration entries that hand it to git for `url` and for nothing else: the header
  // scoped to the repository's full URL, redirects off for it, no credential helper for it.
  std::vector<std::pair<std::string, std::string>> GitConfig(const std::string& url) const;

  // `text` with every form of the token replaced by `[token]`.
  std::string Scrub(std::string text) const;

  const std::string& value() const { return value_; }

 private:
  HostToken(std::string value, std::string user)
      : value_(std::move(value)), user_(std::move(user)) {}
  std::string value_;
  std::string user_;
};

std::string Base64(std::string_view bytes);
std::string PercentEncode(std::string_view bytes);

}  // namespace rr
