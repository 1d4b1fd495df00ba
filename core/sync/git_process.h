// GitProcess: the one place the server starts git, and only for the mirrors it keeps in its own
// folder: their sync, and the fetch of an older version's contents a tool is about to read
// (content_fetch.h). Reading never starts a process (core/git reads with libgit2).
//
// What every run gets, whatever the caller asks:
//  - a subcommand from a fixed set (kSyncSubcommands); any other is refused before git starts;
//  - an argument vector handed to git directly (posix_spawn, no shell), `--git-dir` naming a
//    mirror that lies under the server's mirror folder (anything else is refused), the mirror
//    folder as the working folder, every other file descriptor closed, signals at defaults;
//  - an environment built from nothing: no variable of the server's environment reaches git but
//    GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM / GIT_CONFIG_NOSYSTEM (the operator's choice of
//    configuration files; without GIT_CONFIG_SYSTEM or GIT_CONFIG_NOSYSTEM the system file is not
//    read), and, for an https run only, the proxy variables. HOME is a folder of the server's
//    own; GIT_TERMINAL_PROMPT=0; GIT_ALLOW_PROTOCOL names exactly the protocols the run may use
//    (none for a run that reaches no host): the environment variable, which a repository's
//    protocol.<name>.allow cannot override;
//  - configuration in the environment (GIT_CONFIG_COUNT / KEY / VALUE), never on the command
//    line: no hook (core.hooksPath=/dev/null), no password program (core.askPass empty), no
//    credential helper, no automatic gc or maintenance, no fsmonitor; plus the run's own
//    entries (the token's header lives there and only there);
//  - a deadline and a stop flag: past either, the whole process group is killed. Output is read
//    up to a bound; a run that writes more is killed and says so.
//
// Thread safety: Run may be called on many threads at once.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/result.h"

namespace rr {

// The subcommands the sync may run, and no other.
inline constexpr const char* kSyncSubcommands[] = {"init",         "config",     "ls-remote",
                                                   "fetch",        "update-ref", "symbolic-ref",
                                                   "for-each-ref", "ls-tree",    "rev-list"};

struct GitRun {
  std::string subcommand;
  std::vector<std::string> args;  // after the subcommand
  std::string git_dir;            // the mirror: absolute, below the runner's folder
  std::string input;              // written to git's standard input
  // Configuration for this run only (GIT_CONFIG_KEY_n / VALUE_n), after the fixed entries.
  std::vector<std::pair<std::string, std::string>> config;
  // GIT_ALLOW_PROTOCOL: "https" or "http" for a run that reaches the host; empty: none.
  std::string allow_protocol;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  size_t max_output = 32 * 1024 * 1024;  // standard output; standard error keeps its first 64 KB
};

struct GitOutput {
  int status = -1;  // exit status; -1 when killed or ended by a signal
  std::string out;
  std::string err;
  bool timed_out = false;
  bool stopped = false;
  bool too_much = false;  // standard output passed max_output
};

class GitProcess {
 public:
  // `git`: the git program (absolute); `folder`: the mirror folder (absolute, resolved).
  GitProcess(std::string git, std::string folder);

  // The git program on PATH as the server started ("" when none is found).
  static std::string FindGit();
  static bool Allowed(std::string_view subcommand);

  const std::string& folder() const { return folder_; }

  // Runs git. An error means git was not started (refused, or could not start); a started git
  // answers its output whatever its exit status. `stop`, when given, kills the run once set.
  Result<GitOutput> Run(const GitRun& run, const std::atomic<bool>* stop = nullptr) const;

  // The environment Run gives git ("NAME=value" entries), token included: never show it.
  std::vector<std::string> Environment(const GitRun& run) const;

 private:
  std::string git_;
  std::string folder_;
};

}  // namespace rr
