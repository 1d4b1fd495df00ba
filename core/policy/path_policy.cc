#include "core/policy/path_policy.h"

namespace rr {
namespace {

// ASCII case folding, inline: these run for every entry of every listing.
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `lower` is written in lower case.
bool EqualsNoCase(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (Lower(s[i]) != lower[i]) return false;
  }
  return true;
}

bool StartsWithNoCase(std::string_view s, std::string_view lower) {
  return s.size() >= lower.size() && EqualsNoCase(s.substr(0, lower.size()), lower);
}

bool EndsWithNoCase(std::string_view s, std::string_view lower) {
  return s.size() >= lower.size() && EqualsNoCase(s.substr(s.size() - lower.size()), lower);
}

// Whether `s` holds "service-account" or "service_account" in any case: found by the
// separator, which few names hold.
bool HoldsServiceAccount(std::string_view s) {
  constexpr std::string_view kService = "service", kAccount = "account";
  constexpr size_t kSep = kService.size();
  for (size_t at = s.find_first_of("-_", kSep); at != std::string_view::npos;
       at = s.find_first_of("-_", at + 1)) {
    if (at + 1 + kAccount.size() <= s.size() && EqualsNoCase(s.substr(at - kSep, kSep), kService) &&
        EqualsNoCase(s.substr(at + 1, kAccount.size()), kAccount)) {
      return true;
    }
  }
  return false;
}

// Files that are credentials only in a folder of a given name (any case, at any depth).
struct CredentialPair {
  std::string_view folder;
  std::string_view name;
};
constexpr CredentialPair kCredentialPairs[] = {
    {".aws", "credentials"},
    {".docker", "config.json"},
    {".kube", "config"},
};

bool IsCredentialPair(std::string_view folder, std::string_view name) {
  for (const auto& p : kCredentialPairs) {
    if (EqualsNoCase(name, p.name) && EqualsNoCase(folder, p.folder)) return true;
  }
  return false;
}

// The name of the folder holding `path` ("" for a path at the root).
std::string_view FolderName(const RepoPath& path) {
  std::string_view s = path.str();
  const size_t slash = s.rfind('/');
  if (slash == std::string_view::npos) return {};
  s = s.substr(0, slash);
  const size_t before = s.rfind('/');
  return before == std::string_view::npos ? s : s.substr(before + 1);
}

}  // namespace

bool PathPolicy::IsCredentialName(std::string_view n) {
  if (n.empty()) return false;
  if (n[0] == '.') {
    // .env.* -- but not the examples teams commit on purpose. (.env itself, like prod.env, is
    // caught by its extension below.)
    if (StartsWithNoCase(n, ".env.")) {
      return !(EqualsNoCase(n, ".env.example") || EqualsNoCase(n, ".env.sample") ||
               EqualsNoCase(n, ".env.template"));
    }
    for (std::string_view dotfile : {".envrc", ".netrc", ".pgpass", ".pypirc", ".git-credentials",
                                     ".npmrc", ".yarnrc.yml", ".htpasswd"}) {
      if (EqualsNoCase(n, dotfile)) return true;
    }
  }
  const size_t dot = n.rfind('.');
  if (dot != std::string_view::npos) {
    const std::string_view ext = n.substr(dot);
    for (std::string_view e : {".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx",
                               ".ppk", ".tfstate"}) {
      if (EqualsNoCase(ext, e)) return true;
    }
    if (EqualsNoCase(ext, ".backup") && EndsWithNoCase(n, ".tfstate.backup")) return true;
    if (EqualsNoCase(ext, ".json") &&
        (EqualsNoCase(n, "credentials.json") || HoldsServiceAccount(n))) {
      return true;
    }
  }
  if (n.size() >= 6 && Lower(n[0]) == 'i' && Lower(n[1]) == 'd' && n[2] == '_') {
    for (std::string_view key : {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}) {
      if (StartsWithNoCase(n, key)) return !EndsWithNoCase(n, ".pub");
    }
  }
  return false;
}

bool PathPolicy::IsCredentialEntry(std::string_view folder, std::string_view name) {
  return IsCredentialName(name) || IsCredentialPair(folder, name);
}

bool PathPolicy::IsCredentialChild(const RepoPath& child, std::string_view name) {
  if (IsCredentialName(name)) return true;
  // Only a few names depend on their folder; only then is the folder's name looked up.
  for (const auto& p : kCredentialPairs) {
    if (EqualsNoCase(name, p.name)) return EqualsNoCase(FolderName(child), p.folder);
  }
  return false;
}

Result<PathPolicy> PathPolicy::Make(const std::vector<std::string>& include,
                                    const std::vector<std::string>& exclude,
                                    bool serve_credential_files) {
  PathPolicy p;
  p.serve_credential_files_ = serve_credential_files;
  auto patterns = std::make_shared<Patterns>();
  for (const auto& s : include) {
    auto g = Glob::Compile(s);
    if (!g) return Error{"include: " + g.error()};
    patterns->include.push_back(g.take());
  }
  for (const auto& s : exclude) {
    auto g = Glob::Compile(s);
    if (!g) return Error{"exclude: " + g.error()};
    patterns->exclude.push_back(g.take());
  }
  if (!patterns->include.empty() || !patterns->exclude.empty()) p.patterns_ = std::move(patterns);
  return p;
}

PathPolicy PathPolicy::Default() { return PathPolicy(); }

std::string PathPolicy::Describe() const {
  std::string out = serve_credential_files_ ? "credentials served" : "credentials kept out";
  if (!patterns_) return out;
  for (const auto& g : patterns_->include) out += std::string("\ninclude\t") + g.pattern();
  for (const auto& g : patterns_->exclude) out += std::string("\nexclude\t") + g.pattern();
  return out;
}

bool PathPolicy::Excluded(const std::vector<std::string_view>& parts) const {
  if (!serve_credential_files_) {
    std::string_view folder;  // "" at the root
    for (auto part : parts) {
      if (IsCredentialEntry(folder, part)) return true;
      folder = part;
    }
  }
  if (!patterns_) return false;
  for (const auto& g : patterns_->exclude) {
    if (g.MatchesPathOrFolder(parts)) return true;
  }
  return false;
}

bool PathPolicy::Included(const std::vector<std::string_view>& parts) const {
  if (!patterns_ || patterns_->include.empty()) return true;
  for (const auto& g : patterns_->include) {
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
  for (const auto& g : patterns_->include) {  // (Included: patterns_ holds some)
    if (g.CouldMatchBelow(parts)) return false;
  }
  return true;
}

}  // namespace rr
