#include "core/policy/path_policy.h"

#include <strings.h>

namespace rr {
namespace {

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         strncasecmp(s.data() + s.size() - suffix.size(), suffix.data(), suffix.size()) == 0;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool PathPolicy::IsCredentialName(std::string_view n) {
  // .env and .env.* -- but not the examples teams commit on purpose.
  if (EqualsNoCase(n, ".env")) return true;
  if (StartsWithNoCase(n, ".env.")) {
    return !(EqualsNoCase(n, ".env.example") || EqualsNoCase(n, ".env.sample") ||
             EqualsNoCase(n, ".env.template"));
  }
  if (EqualsNoCase(n, ".envrc") || EqualsNoCase(n, ".netrc") || EqualsNoCase(n, ".pgpass") ||
      EqualsNoCase(n, ".pypirc") || EqualsNoCase(n, ".git-credentials")) {
    return true;
  }
  for (std::string_view ext : {".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx",
                               ".ppk", ".tfstate", ".tfstate.backup"}) {
    if (EndsWithNoCase(n, ext)) return true;
  }
  for (std::string_view key : {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}) {
    if (StartsWithNoCase(n, key)) return !EndsWithNoCase(n, ".pub");
  }
  return false;
}

Result<PathPolicy> PathPolicy::Make(const std::vector<std::string>& include,
                                    const std::vector<std::string>& exclude,
                                    bool serve_credential_files) {
  PathPolicy p;
  p.serve_credential_files_ = serve_credential_files;
  for (const auto& s : include) {
    auto g = Glob::Compile(s);
    if (!g) return Error{"include: " + g.error()};
    p.include_.push_back(g.take());
  }
  for (const auto& s : exclude) {
    auto g = Glob::Compile(s);
    if (!g) return Error{"exclude: " + g.error()};
    p.exclude_.push_back(g.take());
  }
  return p;
}

PathPolicy PathPolicy::Default() { return PathPolicy(); }

bool PathPolicy::Excluded(const std::vector<std::string_view>& parts) const {
  if (!serve_credential_files_) {
    for (auto part : parts) {
      if (IsCredentialName(part)) return true;
    }
  }
  for (const auto& g : exclude_) {
    if (g.MatchesPathOrFolder(parts)) return true;
  }
  return false;
}

bool PathPolicy::Included(const std::vector<std::string_view>& parts) const {
  if (include_.empty()) return true;
  for (const auto& g : include_) {
    if (g.MatchesPathOrFolder(parts)) return true;
  }
  return false;
}

bool PathPolicy::ServesFile(const RepoPath& path) const {
  if (path.is_root()) return false;
  const auto parts = path.parts();
  return Included(parts) && !Excluded(parts);
}

bool PathPolicy::Outside(const RepoPath& path) const {
  if (path.is_root()) return false;
  const auto parts = path.parts();
  if (Excluded(parts)) return true;
  if (Included(parts)) return false;
  for (const auto& g : include_) {
    if (g.CouldMatchBelow(parts)) return false;
  }
  return true;
}

}  // namespace rr
