// Shared by the grep and search tests: an answer's files and lines, and git grep's own output
// read the same way, to compare them.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing::search {

// A file's bytes.
inline std::string ReadFileBytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes the files below `folder` of this project's source into `repo`'s work tree (not
// committed): an organisation of real code for the index's tests.
inline void WriteFromSource(TestRepo& repo, const std::string& folder) {
  const std::filesystem::path root = std::filesystem::path(RR_SOURCE_DIR) / folder;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    repo.Write(std::filesystem::relative(e.path(), root).string(), ReadFileBytes(e.path()));
  }
}

// Per file, in order: its lines as "12:text" (a match) or "11-text" (context).
using Hits = std::vector<std::pair<std::string, std::vector<std::string>>>;

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

// The files and lines of a grep or search answer's body (one repository's part for search:
// the lines under `## <repo> ` when `repo` is given). `files_only`: every body line is a path.
inline Hits HitsIn(const std::string& answer, const std::string& repo = "",
                   bool files_only = false) {
  Hits out;
  const auto lines = SplitLines(answer);
  const std::regex numbered(R"(^ +(\d+)([:-]) (.*)$)");
  bool in = repo.empty();
  std::smatch m;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("## ", 0) == 0) {
      in = !repo.empty() && l.rfind("## " + repo + " ", 0) == 0;
      continue;
    }
    if (!in || l.empty() || l[0] == '[' || l == "No line matches.") continue;
    if (std::regex_match(l, m, numbered)) {
      if (!out.empty()) out.back().second.push_back(m[1].str() + m[2].str() + m[3].str());
    } else if (l == "  --") {
      continue;
    } else if (l[0] != ' ') {
      out.push_back({l, {}});
    }
  }
  (void)files_only;
  return out;
}

// What `git grep` finds at `rev` with `options` (-I -n --heading, and -m 100 unless given) for
// `pattern` (after -e), under `pathspec`, read as HitsIn reads an answer.
inline Hits GitGrep(const TestRepo& repo, const std::string& rev,
                    const std::vector<std::string>& options, const std::string& pattern,
                    const std::vector<std::string>& pathspec = {}, const std::string& max = "100") {
  std::vector<std::string> args = {
      "-c", "grep.fallbackToNoIndex=false", "grep", "-I", "-n", "--heading", "--no-color", "-m",
      max};
  for (const auto& o : options) args.push_back(o);
  args.push_back("-e");
  args.push_back(pattern);
  args.push_back(rev);
  args.push_back("--");
  for (const auto& p : pathspec) args.push_back(p);
  const CommandResult r = repo.TryGit(args);
  EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
  Hits out;
  const std::regex numbered(R"(^(\d+)([:-])(.*)$)");
  std::smatch m;
  for (const auto& l : SplitLines(r.out)) {
    if (l == "--") continue;
    if (l.rfind(rev + ":", 0) == 0) {
      out.push_back({l.substr(rev.size() + 1), {}});
    } else if (std::regex_match(l, m, numbered) && !out.empty()) {
      out.back().second.push_back(m[1].str() + m[2].str() + m[3].str());
    } else {
      ADD_FAILURE() << "unexpected git grep line: " << l;
    }
  }
  return out;
}

// The same as file names only (-l).
inline std::vector<std::string> Names(const Hits& hits) {
  std::vector<std::string> out;
  for (const auto& h : hits) out.push_back(h.first);
  return out;
}

inline std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\t') {
      out += "\\t";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace rr::testing::search
