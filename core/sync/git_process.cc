#include "core/sync/git_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxErr = 64 * 1024;

// The entries every run gets, before its own.
const std::pair<const char*, const char*> kFixedConfig[] = {
    {"core.hooksPath", "/dev/null"},
    {"core.askPass", ""},
    {"credential.helper", ""},
    {"core.fsmonitor", "false"},
    {"gc.auto", "0"},
    {"maintenance.auto", "false"},
    {"fetch.writeCommitGraph", "false"},
    {"fetch.recurseSubmodules", "false"},
    {"submodule.recurse", "false"},
    {"protocol.allow", "never"},
};

const char* const kKeptGitVariables[] = {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
                                         "GIT_CONFIG_NOSYSTEM"};
const char* const kProxyVariables[] = {"https_proxy", "HTTPS_PROXY", "all_proxy",
                                       "ALL_PROXY",   "no_proxy",    "NO_PROXY"};

bool Under(const std::string& path, const std::string& folder) {
  if (path.size() <= folder.size() + 1 || path.compare(0, folder.size(), folder) != 0 ||
      path[folder.size()] != '/') {
    return false;
  }
  // No `.` or `..` part, no empty part: the text alone must say where it is.
  size_t i = folder.size() + 1;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    const std::string_view part(path.data() + i, j - i);
    if (part.empty() || part == "." || part == "..") return false;
    i = j + 1;
  }
  return true;
}

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) close(f);
    }
  }
  void Close(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
};

}  // namespace

GitProcess::GitProcess(std::string git, std::string folder)
    : git_(std::move(git)), folder_(std::move(folder)) {
  while (folder_.size() > 1 && folder_.back() == '/') folder_.pop_back();
}

std::string GitProcess::FindGit() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t i = 0;
  while (i <= dirs.size()) {
    size_t j = dirs.find(':', i);
    if (j == std::string::npos) j = dirs.size();
    const std::string dir = dirs.substr(i, j - i);
    if (!dir.empty() && dir[0] == '/') {
      const std::string candidate = dir + "/git";
      struct stat st;
      if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
          access(candidate.c_str(), X_OK) == 0) {
        return candidate;
      }
    }
    i = j + 1;
  }
  return "";
}

bool GitProcess::Allowed(std::string_view subcommand) {
  for (const char* s : kSyncSubcommands) {
    if (subcommand == s) return true;
  }
  return false;
}

std::vector<std::string> GitProcess::Environment(const GitRun& run) const {
  std::vector<std::string> env;
  env.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
  env.push_back("HOME=" + folder_ + "/.home");
  env.push_back("XDG_CONFIG_HOME=" + folder_ + "/.home/.config");
  env.push_back("LC_ALL=C");
  env.push_back("GIT_TERMINAL_PROMPT=0");
  env.push_back("GIT_ALLOW_PROTOCOL=" +
                (run.allow_protocol.empty() ? std::string("none") : run.allow_protocol));
  bool system_named = false;
  for (const char* name : kKeptGitVariables) {
    if (const char* v = std::getenv(name)) {
      env.push_back(std::string(name) + "=" + v);
      if (std::strcmp(name, "GIT_CONFIG_GLOBAL") != 0) system_named = true;
    }
  }
  if (!system_named) env.push_back("GIT_CONFIG_NOSYSTEM=1");
  if (run.allow_protocol == "https") {
    for (const char* name : kProxyVariables) {
      if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
    }
  }
  size_t n = 0;
  auto add = [&](const std::string& key, const std::string& value) {
    env.push_back("GIT_CONFIG_KEY_" + std::to_string(n) + "=" + key);
    env.push_back("GIT_CONFIG_VALUE_" + std::to_string(n) + "=" + value);
    ++n;
  };
  for (const auto& [key, value] : kFixedConfig) add(key, value);
  for (const auto& [key, value] : run.config) add(key, value);
  env.push_back("GIT_CONFIG_COUNT=" + std::to_string(n));
  return env;
}

Result<GitOutput> GitProcess::Run(const GitRun& run, const std::atomic<bool>* stop) const {
  if (!Allowed(run.subcommand)) {
    return Error{"git " + DisplayName(run.subcommand) +
                 " is refused: the sync runs only init, config, ls-remote, fetch, update-ref, "
                 "symbolic-ref, for-each-ref, ls-tree and rev-list"};
  }
  if (folder_.empty() || folder_[0] != '/' || !Under(run.git_dir, folder_)) {
    return Error{"git is refused for " + DisplayName(run.git_dir) +
                 ": the sync runs git only in mirrors under its own folder " +
                 DisplayName(folder_)};
  }
  if (git_.empty()) return Error{"git is not installed (no git on PATH); the sync needs it"};

  std::vector<std::string> argv = {git_, "--git-dir=" + run.git_dir, run.subcommand};
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  const std::vector<std::string> env = Environment(run);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  Pipe in, out, err;
  if (pipe2(in.fd, O_CLOEXEC) != 0 || pipe2(out.fd, O_CLOEXEC) != 0 ||
      pipe2(err.fd, O_CLOEXEC) != 0) {
    return Error{std::string("git could not be started: ") + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawn_file_actions_addchdir_np(&actions, folder_.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, git_.c_str(), &actions, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error{"git could not be started: " + std::string(std::strerror(rc))};
  in.Close(0);
  out.Close(1);
  err.Close(1);
  fcntl(in.fd[1], F_SETFL, O_NONBLOCK);

  GitOutput result;
  size_t written = 0;
  if (run.input.empty()) in.Close(1);
  bool killed = false;
  auto kill_all = [&] {
    if (!killed) kill(-pid, SIGKILL);
    killed = true;
  };
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    if (!killed) {
      if (std::chrono::steady_clock::now() >= run.deadline) {
        result.timed_out = true;
        kill_all();
      } else if (stop && stop->load()) {
        result.stopped = true;
        kill_all();
      }
    }
    pollfd fds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out.fd[0] >= 0) fds[out_i = n++] = {out.fd[0], POLLIN, 0};
    if (err.fd[0] >= 0) fds[err_i = n++] = {err.fd[0], POLLIN, 0};
    if (in.fd[1] >= 0) fds[in_i = n++] = {in.fd[1], POLLOUT, 0};
    if (poll(fds, n, 100) < 0) {
      if (errno == EINTR) continue;
      kill_all();
      break;
    }
    char buf[65536];
    if (out_i >= 0 && fds[out_i].revents) {
      const ssize_t got = read(out.fd[0], buf, sizeof buf);
      if (got <= 0) {
        out.Close(0);
      } else if (result.out.size() + got > run.max_output) {
        result.too_much = true;
        kill_all();
        out.Close(0);
      } else {
        result.out.append(buf, got);
      }
    }
    if (err_i >= 0 && fds[err_i].revents) {
      const ssize_t got = read(err.fd[0], buf, sizeof buf);
      if (got <= 0) {
        err.Close(0);
      } else if (result.err.size() < kMaxErr) {
        result.err.append(buf, std::min<size_t>(got, kMaxErr - result.err.size()));
      }
    }
    if (in_i >= 0 && fds[in_i].revents) {
      if (fds[in_i].revents & (POLLERR | POLLHUP)) {
        in.Close(1);
      } else {
        const ssize_t put = write(in.fd[1], run.input.data() + written, run.input.size() - written);
        if (put > 0) written += put;
        if (put < 0 && errno != EAGAIN && errno != EINTR) in.Close(1);
        if (written == run.input.size()) in.Close(1);
      }
    }
  }
  in.Close(1);
  // Wait for git without reaping it, so that its process group's id stays its own while
  // anything it left behind in the group (a remote helper) is ended; then reap it.
  siginfo_t info;
  while (waitid(P_PID, pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  kill(-pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(wstatus) && !killed ? WEXITSTATUS(wstatus) : -1;
  return result;
}

}  // namespace rr
