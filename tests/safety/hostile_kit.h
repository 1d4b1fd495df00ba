// Shared by the "repositories written by an attacker" suite (tests/safety/*_test.cc): calling
// every tool on a repository, checking an answer holds nothing a terminal would act on, and
// proving nothing was written to disk.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

// In a namespace of its own: other test folders have helpers of the same names, and inline
// functions that share a name and parameters but not a body would break the one definition rule.
namespace rr::testing::safety {

// The answer is safe to show: valid UTF-8, and no control character but the newlines that
// separate its lines (and tabs, which file text keeps).
inline ::testing::AssertionResult Printable(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      return ::testing::AssertionFailure() << "control byte 0x" << std::hex << int{c}
                                           << " at offset " << std::dec << i << " in:\n"
                                           << text;
    }
    size_t len = 1;
    if (c >= 0x80) {
      // Minimal UTF-8 check: lead byte and continuation bytes.
      len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
      if (len == 0 || i + len > text.size()) {
        return ::testing::AssertionFailure() << "invalid UTF-8 at offset " << i << " in:\n" << text;
      }
      for (size_t k = 1; k < len; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
          return ::testing::AssertionFailure() << "invalid UTF-8 at offset " << i << " in:\n"
                                               << text;
        }
      }
    }
    i += len;
  }
  return ::testing::AssertionSuccess();
}

// The lines of an answer.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

// One tool call and its answer.
struct Called {
  std::string tool;
  std::string args;
  ToolHarness::Answer answer;
};

// Calls every tool the server has on `repo`: about, list_repos, list_refs (all, branches, tags),
// list_files of the root (plain and recursive), and read_file of each of `files` — at the
// default branch, and at `ref` too when one is given; with `ref`, also show_commit of it and diff
// from it to the default branch (plain and since_fork), each narrowed to each of `files`.
inline std::vector<Called> CallEveryTool(ToolHarness& h, const std::string& repo,
                                         const std::vector<std::string>& files,
                                         const std::string& ref = "") {
  const std::string r = "\"repo\":" + JsonQuote(repo);
  std::vector<std::pair<std::string, std::string>> calls = {
      {"about", "{}"},
      {"list_repos", "{}"},
      {"list_refs", "{" + r + "}"},
      {"list_refs", "{" + r + ",\"kind\":\"branches\"}"},
      {"list_refs", "{" + r + ",\"kind\":\"tags\"}"},
      {"list_files", "{" + r + "}"},
      {"list_files", "{" + r + ",\"recursive\":true}"},
      {"log", "{" + r + "}"},
      {"log", "{" + r + ",\"message\":\".\",\"author\":\".\"}"},
      {"find_commits", "{\"message\":\".\",\"repos\":" + JsonQuote(repo) + "}"},
      {"find_files", "{\"pattern\":\"**\",\"repos\":" + JsonQuote(repo) + "}"},
      {"find_files", "{" + r + ",\"pattern\":\"*\"}"},
      {"grep", "{" + r + ",\"pattern\":\".\",\"regex\":true,\"files_only\":true}"},
  };
  for (const auto& f : files) {
    calls.push_back({"read_file", "{" + r + ",\"path\":" + JsonQuote(f) + "}"});
    calls.push_back({"log", "{" + r + ",\"path\":" + JsonQuote(f) + "}"});
    calls.push_back({"grep", "{" + r + ",\"path\":" + JsonQuote(f) +
                                 ",\"pattern\":\"e\",\"ignore_case\":true,\"context\":2}"});
    calls.push_back({"search", "{\"repos\":" + JsonQuote(repo) + ",\"path\":" + JsonQuote(f) +
                                   ",\"pattern\":\".\",\"regex\":true}"});
  }
  if (!ref.empty()) {
    const std::string at = ",\"ref\":" + JsonQuote(ref);
    calls.push_back({"list_files", "{" + r + at + "}"});
    calls.push_back({"list_files", "{" + r + at + ",\"recursive\":true}"});
    calls.push_back({"find_files", "{" + r + at + ",\"pattern\":\"**\"}"});
    for (const auto& f : files) {
      const std::string path = ",\"path\":" + JsonQuote(f);
      calls.push_back({"read_file", "{" + r + at + path + "}"});
      calls.push_back({"grep", "{" + r + at + path + ",\"pattern\":\"e\"}"});
      calls.push_back({"show_commit", "{" + r + ",\"commit\":" + JsonQuote(ref) + path + "}"});
      calls.push_back({"diff", "{" + r + ",\"base\":" + JsonQuote(ref) + path + "}"});
      calls.push_back(
          {"diff", "{" + r + ",\"base\":" + JsonQuote(ref) + ",\"since_fork\":true" + path + "}"});
    }
  }
  std::vector<Called> out;
  for (auto& [tool, args] : calls) out.push_back({tool, args, h.Call(tool, args)});
  return out;
}

// Every file and folder below `root` (recursively, links not followed) with its size and
// modification time: two snapshots differ when anything below was created, removed or written.
inline std::map<std::string, std::string> Snapshot(const std::string& root) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0) continue;
    out[it->path().string()] = std::to_string(st.st_mode) + " " + std::to_string(st.st_size) + " " +
                               std::to_string(st.st_mtim.tv_sec) + "." +
                               std::to_string(st.st_mtim.tv_nsec);
  }
  return out;
}

// Files in a folder (not recursive), for "no marker was created".
inline std::vector<std::string> Entries(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    out.push_back(e.path().filename().string());
  }
  return out;
}

// Writes an executable file.
inline void WriteExecutable(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << content;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

}  // namespace rr::testing::safety
