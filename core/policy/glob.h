// Glob patterns for include / exclude (docs/configuration.md, "Patterns").
//
//   *      any characters within one path part (never '/')
//   ?      one character within a part
//   [a-z]  one character of a class; [!a-z] or [^a-z] negates
//   **     as a whole part: any number of parts, none included
//   \x     the character x itself
//
// A pattern with no '/' matches a part's name at any depth (`*.md`, `.env`). A pattern with a
// '/' is anchored at the root (`src/**`, `config/prod.*`); a leading '/' anchors a single-part
// pattern. Matching is case-sensitive unless the glob was made case-insensitive.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace rr {

// Every question is answered in one pass over the path's parts (a set of pattern positions, see
// Run): its cost is at most the path's depth times the pattern's parts (times a part's match),
// whatever the path and however many **s the pattern holds.
class Glob {
 public:
  // A pattern's bounds, so that a question's cost (the path's parts times the pattern's parts,
  // and a part's match at most the two parts' lengths multiplied) stays a small constant times
  // the path, whoever wrote the pattern: an agent's find_files pattern may be megabytes long.
  // A leading `/` is not counted in kMaxBytes.
  static constexpr size_t kMaxBytes = 1024;
  static constexpr size_t kMaxParts = 64;

  static Result<Glob> Compile(std::string_view pattern, bool ignore_case = false);
  // A pattern matched against whole names rather than paths — a mirror's branches and tags
  // (`main`, `release/*`), the repositories an HTTP token may read (`shop`, `web/*`): one with
  // no '/' names a whole name too (`main` is not `feature/main`), as if it began with '/'.
  static Result<Glob> CompileWhole(std::string_view pattern);

  const std::string& pattern() const { return pattern_; }
  bool anchored() const { return anchored_; }

  // Whether the pattern matches the path given as its parts exactly (not an ancestor).
  // An unanchored pattern matches when the last part matches.
  bool Matches(const std::vector<std::string_view>& parts) const;

  // Whether the pattern matches the path or one of the folders above it (Matches on some
  // prefix of `parts`).
  bool MatchesPathOrFolder(const std::vector<std::string_view>& parts) const;

  // Whether some path strictly below `folder` could match (false means none can).
  bool CouldMatchBelow(const std::vector<std::string_view>& folder) const;

  // Whether one name matches a single-part pattern (used for names alone).
  bool MatchesName(std::string_view name) const;

 private:
  // kWhole: the pattern matches all of `parts`; kPathOrFolder: some prefix of them (at least
  // one part); kBelow: some path strictly below them could match.
  enum class Want { kWhole, kPathOrFolder, kBelow };
  bool Run(const std::vector<std::string_view>& parts, Want want) const;

  std::string pattern_;
  std::vector<std::string> parts_;
  std::vector<bool> star_;  // parts_[i] is **
  bool anchored_ = false;
  bool ignore_case_ = false;
};

// fnmatch-style match of one part against one pattern part (no '/').
bool MatchPart(std::string_view pattern, std::string_view name, bool ignore_case);

}  // namespace rr
