// Shared by the show_commit and diff tests: reading an answer's list of changed files and its
// diff sections, and git's own --numstat and patch output to compare them with.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"

// In a namespace of its own, as tests/safety/hostile_kit.h is: helpers of other folders share
// names.
namespace rr::testing::history {

// The lines of a text (a final newline adds no empty line).
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

// One line of an answer's list: `M  src/cart.py  +3 -1`.
struct Listed {
  char kind = '?';
  std::string counts;  // "3\t1" as git --numstat writes them, "-\t-" for binary, "" when none
  std::string note;    // what follows the counts, if anything
};

// The answer's list of changed files, by path.
inline std::map<std::string, Listed> ListOf(const std::string& answer) {
  static const std::regex line(R"(^([AMDT])  (.+?)  (?:\+(\d+) -(\d+)|(binary)|(\(.*\)))(.*)$)");
  std::map<std::string, Listed> out;
  for (const auto& l : SplitLines(answer)) {
    std::smatch m;
    if (!std::regex_match(l, m, line)) continue;
    Listed e;
    e.kind = m[1].str()[0];
    if (m[3].matched) e.counts = m[3].str() + "\t" + m[4].str();
    if (m[5].matched) e.counts = "-\t-";
    e.note = m[6].matched ? m[6].str() : m[7].str();
    out[m[2].str()] = e;
  }
  return out;
}

// `git ... --numstat` output as path -> "added\tremoved".
inline std::map<std::string, std::string> Numstat(const std::string& out) {
  std::map<std::string, std::string> m;
  for (const auto& l : SplitLines(out)) {
    if (l.empty()) continue;
    const size_t t1 = l.find('\t'), t2 = l.find('\t', t1 + 1);
    m[l.substr(t2 + 1)] = l.substr(0, t2);
  }
  return m;
}

// The counts of an answer's list, as Numstat reads git's.
inline std::map<std::string, std::string> CountsOf(const std::string& answer) {
  std::map<std::string, std::string> m;
  for (const auto& [path, e] : ListOf(answer)) m[path] = e.counts;
  return m;
}

// `git ... --name-status` output as path -> letter.
inline std::map<std::string, char> NameStatus(const std::string& out) {
  std::map<std::string, char> m;
  for (const auto& l : SplitLines(out)) {
    if (l.size() > 2) m[l.substr(l.find('\t') + 1)] = l[0];
  }
  return m;
}

inline std::map<std::string, char> KindsOf(const std::string& answer) {
  std::map<std::string, char> m;
  for (const auto& [path, e] : ListOf(answer)) m[path] = e.kind;
  return m;
}

// The hunks of every diff section for `path` (from each section's first "@@" line to its end),
// in a patch: an answer's, or git's.
inline std::vector<std::string> HunksOf(const std::string& patch, const std::string& path) {
  std::vector<std::string> out;
  bool in = false, hunks = false;
  for (const auto& l : SplitLines(patch)) {
    if (l.rfind("diff --git ", 0) == 0) {
      in = l == "diff --git a/" + path + " b/" + path;
      hunks = false;
      continue;
    }
    if (!in) continue;
    if (l.rfind("@@", 0) == 0) hunks = true;
    // An answer's closing remarks are in brackets, after a blank line or at its end.
    if (l.empty() || l[0] == '[') {
      in = false;
      continue;
    }
    if (hunks) out.push_back(l);
  }
  return out;
}

// The diff's part of an answer: from its first "diff --git" line on.
inline std::string DiffPart(const std::string& answer) {
  const size_t at = answer.find("\ndiff --git ");
  return at == std::string::npos ? std::string() : answer.substr(at + 1);
}

}  // namespace rr::testing::history
