// Test kit: real git repositories built with git's own command line, in temporary folders that
// are removed afterwards. Git runs with an isolated HOME and no system configuration, and fixed
// author, committer and dates, so repositories are the same on every run.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rr::testing {

struct CommandResult {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out;
  std::string err;
};

// A program's arguments and its environment (`env` added to a minimal one), made ready for exec
// before fork: the child of a process with other threads (a test's server) may only call what
// is async-signal-safe, and allocating there can wait forever on an allocator lock another
// thread held at the fork.
class ExecImage {
 public:
  ExecImage(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env);
  ExecImage(const ExecImage&) = delete;
  ExecImage& operator=(const ExecImage&) = delete;
  char* const* argv() const { return argv_.data(); }
  char* const* envp() const { return envp_.data(); }

 private:
  std::vector<std::string> args_, envs_;
  std::vector<char*> argv_, envp_;  // into args_ and envs_, each ending with a null
};

// Runs argv (no shell) in `cwd` with `env` added to a minimal environment; `input` is its stdin.
CommandResult Run(const std::vector<std::string>& argv, const std::string& cwd,
                  const std::map<std::string, std::string>& env = {},
                  const std::string& input = "");

// A temporary folder, removed with everything in it when this goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

// A git repository for a test. Non-bare unless asked; default branch `main`.
class TestRepo {
 public:
  explicit TestRepo(std::string dir, bool bare = false);

  const std::string& path() const { return dir_; }
  // Runs git in the repository; a failure fails the test. Returns stdout without its final
  // newline.
  std::string Git(const std::vector<std::string>& args, const std::string& input = "") const;
  CommandResult TryGit(const std::vector<std::string>& args, const std::string& input = "") const;

  // Writes a file in the work tree (folders made as needed).
  void Write(const std::string& rel, const std::string& content) const;
  // Stages everything and commits; returns the new commit's id. Commits are dated one day
  // apart from 2026-01-01, in the order made.
  std::string Commit(const std::string& message);
  // The id of a ref.
  std::string Rev(const std::string& ref) const { return Git({"rev-parse", ref}); }

  // Writes a tree object from raw entries, as git would never write them: any mode and name.
  // Each entry: {mode ("100644", "40000", "120000", "160000"), name, object id (hex)}.
  struct RawEntry {
    std::string mode, name, id;
  };
  std::string RawTree(const std::vector<RawEntry>& entries) const;
  std::string Blob(const std::string& content) const;
  // A commit of `tree` with the given parents; returns its id.
  std::string CommitTree(const std::string& tree, const std::string& message,
                         const std::vector<std::string>& parents = {});

  // The environment every git command of the kit runs with.
  std::map<std::string, std::string> Env() const;

 private:
  std::string dir_;
  std::string home_;
  int commits_ = 0;
};

}  // namespace rr::testing
