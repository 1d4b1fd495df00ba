// Small helpers shared by the tool tests: exact-text checks on answers.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {

// The 12 hex digits answers show for a commit.
inline std::string Short(const std::string& id) { return id.substr(0, 12); }

// An answer split at '\n' (a final newline does not add an empty line).
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  if (!text.empty() && text.back() == '\n') out.pop_back();
  return out;
}

// Characters (code points) of UTF-8 text, as the answer cap counts them.
inline size_t CodePointsOf(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// 12345 -> "12,345", as answers write counts.
inline std::string Commas(long long n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// Stages a submodule entry (a gitlink) pinned at `commit`. The empty folder in the work tree
// keeps `git add -A` (TestRepo::Commit) from staging the entry's removal.
inline void AddGitlink(const TestRepo& repo, const std::string& path, const std::string& commit) {
  std::filesystem::create_directories(std::filesystem::path(repo.path()) / path);
  repo.Git({"update-index", "--add", "--cacheinfo", "160000," + commit + "," + path});
}

// A symbolic link in the work tree, committed as one by the next Commit().
inline void AddSymlink(const TestRepo& repo, const std::string& path, const std::string& target) {
  const auto p = std::filesystem::path(repo.path()) / path;
  std::filesystem::create_directories(p.parent_path());
  std::filesystem::create_symlink(target, p);
}

}  // namespace rr::testing
