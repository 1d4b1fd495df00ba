// RepoPath: a path inside a repository's tree, validated once at the edge. Once a value has this
// type it is known to be plain and literal: parts separated by '/', none empty, ".", ".." or
// ".git", no NUL or control character. The root is the empty path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace rr {

class RepoPath {
 public:
  static constexpr size_t kMaxBytes = 4096;

  // Parses what an agent wrote. A leading or trailing '/' is ignored; "" and "/" are the root.
  static Result<RepoPath> Parse(std::string_view text);
  static RepoPath Root() { return RepoPath(); }

  bool is_root() const { return text_.empty(); }
  const std::string& str() const { return text_; }
  std::vector<std::string_view> parts() const;
  std::string_view name() const;  // last part ("" for the root)
  RepoPath Parent() const;

  // The child named `entry_name`, a name read from a tree that IsServableEntryName accepted.
  RepoPath Child(std::string_view entry_name) const;

  // For answers: the path with any control characters escaped; the root is shown as "/".
  std::string Display() const;

  bool operator==(const RepoPath& o) const { return text_ == o.text_; }
  bool operator<(const RepoPath& o) const { return text_ < o.text_; }

 private:
  std::string text_;
};

// Whether a name found in a tree may be served as a path part: not empty, ".", ".." or ".git"
// (in any case), holding no '/' or NUL. Entries with other names are never shown or read.
bool IsServableEntryName(std::string_view name);

}  // namespace rr
