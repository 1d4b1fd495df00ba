// Globs (core/policy/glob.h): a pattern and a path (at most 4,096 bytes), cut at the first
// newline. The pattern is compiled (case-sensitive, and ignoring case) and matched against the
// path's parts by every public entry: Matches, MatchesPathOrFolder, CouldMatchBelow, MatchesName,
// MatchPart.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/policy/glob.h"
#include "core/policy/repo_path.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto [pattern, path] =
      rr_fuzz::Cut(std::string_view(reinterpret_cast<const char*>(data), size), '\n');
  // No caller asks Glob about a longer path: a served path is at most RepoPath::kMaxBytes
  // (4,096), a mirror's ref name at most 1,000 bytes, a repository's name less. A local
  // repository's ref names are not bounded, but only list_refs matches them, with MatchPart and a
  // pattern of at most 1,024 bytes (below: its cost is the two lengths multiplied). Beyond the
  // bound an input's cost is only its length: the matcher is linear in the path.
  path = path.substr(0, rr::RepoPath::kMaxBytes);
  std::vector<std::string_view> parts;
  for (std::string_view rest = path; !rest.empty();) {
    const auto [part, after] = rr_fuzz::Cut(rest, '/');
    parts.push_back(part);
    if (after.empty() && rest.size() == part.size()) break;
    rest = after;
  }
  for (const bool ignore_case : {false, true}) {
    auto glob = rr::Glob::Compile(pattern, ignore_case);
    if (!glob) continue;
    (void)glob->Matches(parts);
    (void)glob->MatchesPathOrFolder(parts);
    (void)glob->CouldMatchBelow(parts);
    if (!parts.empty()) (void)glob->MatchesName(parts.back());
  }
  if (pattern.find('/') == std::string_view::npos && !parts.empty()) {
    (void)rr::MatchPart(pattern, parts.back(), false);
  }
  return 0;
}
