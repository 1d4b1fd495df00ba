// PathPolicy: the one place that decides which paths of a repository are served. Every tool
// reaches files only through ServedRepo (served_repo.h), which asks this class; no tool sees a
// tree entry this class did not allow.
//
// A path is served when it, or one of its folders, matches an include pattern (or there are
// none), and neither it nor any of its folders matches an exclude pattern or, unless
// serve_credential_files is set, a credential file name (.env, *.pem, id_rsa, .kube/config, ...).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/policy/glob.h"
#include "core/policy/repo_path.h"
#include "core/util/result.h"

namespace rr {

class PathPolicy {
 public:
  // Compiles the patterns; an invalid one is an error naming it.
  static Result<PathPolicy> Make(const std::vector<std::string>& include,
                                 const std::vector<std::string>& exclude,
                                 bool serve_credential_files);
  // Serves everything but credential files.
  static PathPolicy Default();

  // The rules as one text (include and exclude patterns in order, the credential-file rule):
  // equal texts serve the same paths. What is kept beside a list of served paths (the text
  // index) to tell that the list still holds.
  std::string Describe() const;

  // True when include or exclude patterns are configured: only part of the repository is served.
  bool partial() const { return patterns_ != nullptr; }

  // True when a file at `path` is served.
  bool ServesFile(const RepoPath& path) const;

  // True when nothing at or below `path` can be served, judged by the path alone: the path or a
  // folder above it is excluded, or no include pattern can reach it. Answers about such a path
  // say it is outside what this server serves, whether or not it exists.
  bool Outside(const RepoPath& path) const;

  // The same two questions for `child`, an entry named `name` of a folder that a walk has
  // already found not Outside: cheaper, since only the new name (and, for the few credential
  // files named with their folder, such as .kube/config, its folder's name) can change the answer
  // when no pattern is configured.
  bool ServesChild(const RepoPath& child, std::string_view name) const {
    if (!partial()) return serve_credential_files_ || !IsCredentialChild(child, name);
    return ServesFile(child);
  }
  bool ChildOutside(const RepoPath& child, std::string_view name) const {
    if (!partial()) return !serve_credential_files_ && IsCredentialChild(child, name);
    return Outside(child);
  }

  // The credential file names, as documented (docs/safety.md). These run for every entry of
  // every listing: they allocate nothing. Case is ignored (ASCII).
  //
  // IsCredentialName: a name that is a credential file (or folder) wherever it is: .env,
  // id_rsa, *.pem, credentials.json, ...
  static bool IsCredentialName(std::string_view name);
  // IsCredentialEntry: the whole rule for an entry named `name` in a folder named `folder` (""
  // at the root): IsCredentialName, or a file credential only in its folder (.aws/credentials,
  // .docker/config.json, .kube/config).
  static bool IsCredentialEntry(std::string_view folder, std::string_view name);
  // The same for `child`, an entry named `name`: its folder's name is read from `child` only
  // when `name` is one that needs it.
  static bool IsCredentialChild(const RepoPath& child, std::string_view name);

 private:
  bool Excluded(const std::vector<std::string_view>& parts) const;
  bool Included(const std::vector<std::string_view>& parts) const;

  // The patterns, shared by the copies of a policy (every ServedRepo keeps one: 20,000 of them
  // kept two empty vectors each); null when none is configured.
  struct Patterns {
    std::vector<Glob> include, exclude;
  };
  std::shared_ptr<const Patterns> patterns_;
  bool serve_credential_files_ = false;
};

}  // namespace rr
