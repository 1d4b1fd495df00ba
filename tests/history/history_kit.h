// What the history tests share: histories of any shape written in one `git fast-import` run
// (each commit with the whole tree it holds, its parents, author and date, so octopus merges,
// second roots, equal dates and empty commits are exact and quick to make), git log's answer to
// compare with, and the commit ids read back from log's and find_commits' answers.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {

struct Person {
  std::string name = "Grace Hopper";
  std::string email = "grace@example.com";
};

class HistoryWriter {
 public:
  struct File {
    std::string content;
    std::string mode = "100644";  // 100755 for an executable, 120000 for a link (its target)
  };
  using Tree = std::map<std::string, File>;  // path from the root -> file

  // A commit holding exactly `tree`; `parents` are marks this writer gave. Returns its mark.
  int Commit(const Tree& tree, const std::vector<int>& parents, int64_t time,
             const std::string& message, const Person& author = Person()) {
    const int mark = ++marks_;
    if (parents.empty()) out_ << "reset refs/kit/scratch\n";
    out_ << "commit refs/kit/scratch\nmark :" << mark << "\n";
    out_ << "author " << author.name << " <" << author.email << "> " << time << " +0000\n";
    out_ << "committer " << author.name << " <" << author.email << "> " << time << " +0000\n";
    out_ << "data " << message.size() << "\n" << message << "\n";
    for (size_t i = 0; i < parents.size(); ++i) {
      out_ << (i == 0 ? "from :" : "merge :") << parents[i] << "\n";
    }
    out_ << "deleteall\n";
    for (const auto& [path, file] : tree) {
      out_ << "M " << file.mode << " inline " << path << "\ndata " << file.content.size() << "\n"
           << file.content << "\n";
    }
    out_ << "\n";
    return mark;
  }
  // A branch or a lightweight tag (refs/heads/x, refs/tags/v1, refs/remotes/origin/x).
  void Ref(const std::string& ref, int mark) {
    out_ << "reset " << ref << "\nfrom :" << mark << "\n\n";
  }
  // An annotated tag.
  void AnnotatedTag(const std::string& name, int mark, int64_t time) {
    const std::string message = "Release " + name;
    out_ << "tag " << name << "\nfrom :" << mark << "\ntagger Grace Hopper <grace@example.com> "
         << time << " +0000\ndata " << message.size() << "\n"
         << message << "\n";
  }

  // Writes everything into `repo`; returns the commit ids by mark.
  std::map<int, std::string> Write(const TestRepo& repo, const TempDir& tmp) {
    const std::string marks_file = tmp / "marks";
    repo.Git({"fast-import", "--quiet", "--export-marks=" + marks_file}, out_.str());
    repo.Git({"update-ref", "-d", "refs/kit/scratch"});
    std::map<int, std::string> ids;
    std::ifstream in(marks_file);
    std::string mark, id;
    while (in >> mark >> id) ids[std::stoi(mark.substr(1))] = id;
    EXPECT_EQ(ids.size(), static_cast<size_t>(marks_));
    return ids;
  }

 private:
  std::ostringstream out_;
  int marks_ = 0;
};

// Seconds since 1970 of a day of 2026 at noon UTC, plus `seconds`.
inline int64_t Day(int day_of_2026, int64_t seconds = 0) {
  return 1767268800 + static_cast<int64_t>(day_of_2026 - 1) * 86400 + seconds;
}

// The short ids (12 digits) `git log <args>` lists: args are git log's, e.g. {"main", "--",
// "src"}.
inline std::vector<std::string> GitLog(const TestRepo& repo, std::vector<std::string> args) {
  std::vector<std::string> argv = {"log", "--format=%H"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string out = repo.Git(argv);
  std::vector<std::string> ids;
  for (const auto& line : Lines(out)) {
    if (!line.empty()) ids.push_back(Short(line));
  }
  return ids;
}

// The short ids of the commit lines in an answer, in order.
inline std::vector<std::string> IdsIn(const std::string& answer) {
  std::vector<std::string> ids;
  for (const auto& line : Lines(answer)) {
    if (line.size() > 13 && line[12] == ' ' && line.find_first_not_of("0123456789abcdef") == 12) {
      ids.push_back(line.substr(0, 12));
    }
  }
  return ids;
}

// Every "continue with skip: N" an answer holds.
inline std::vector<long long> SkipsIn(const std::string& answer) {
  std::vector<long long> out;
  const std::string key = "continue with skip: ";
  for (size_t pos = answer.find(key); pos != std::string::npos; pos = answer.find(key, pos + 1)) {
    std::string digits;
    for (size_t i = pos + key.size(); i < answer.size(); ++i) {
      if (answer[i] == ',') continue;
      if (answer[i] < '0' || answer[i] > '9') break;
      digits += answer[i];
    }
    out.push_back(std::stoll(digits));
  }
  return out;
}

// A JSON object from string and integer arguments.
class JsonArgs {
 public:
  JsonArgs& Set(const std::string& key, const std::string& value) {
    parts_.push_back(JsonQuote(key) + ":" + JsonQuote(value));
    return *this;
  }
  JsonArgs& Set(const std::string& key, long long value) {
    parts_.push_back(JsonQuote(key) + ":" + std::to_string(value));
    return *this;
  }
  std::string str() const {
    std::string s = "{";
    for (size_t i = 0; i < parts_.size(); ++i) s += (i ? "," : "") + parts_[i];
    return s + "}";
  }

 private:
  std::vector<std::string> parts_;
};

}  // namespace rr::testing
