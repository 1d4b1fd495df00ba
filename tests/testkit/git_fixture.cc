#include "tests/testkit/git_fixture.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rr::testing {

namespace fs = std::filesystem;

ExecImage::ExecImage(const std::vector<std::string>& argv,
                     const std::map<std::string, std::string>& env)
    : args_(argv), envs_{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"} {
  for (const auto& [k, v] : env) envs_.push_back(k + "=" + v);
  for (auto& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
  for (auto& e : envs_) envp_.push_back(e.data());
  envp_.push_back(nullptr);
}

CommandResult Run(const std::vector<std::string>& argv, const std::string& cwd,
                  const std::map<std::string, std::string>& env, const std::string& input) {
  const ExecImage image(argv, env);  // the child only dup2s, closes, changes folder and execs
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execvpe(image.argv()[0], image.argv(), image.envp());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  CommandResult r;
  size_t written = 0;
  if (input.empty()) {
    close(in[1]);
    in[1] = -1;
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    pollfd fds[3];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (err_open) fds[n++] = {err[0], POLLIN, 0};
    if (in[1] >= 0) fds[n++] = {in[1], POLLOUT, 0};
    if (poll(fds, n, -1) < 0) continue;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in[1]) {
        const ssize_t w = write(in[1], input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == input.size()) {
          close(in[1]);
          in[1] = -1;
        }
        continue;
      }
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        if (fds[i].fd == out[0])
          out_open = false;
        else
          err_open = false;
        continue;
      }
      (fds[i].fd == out[0] ? r.out : r.err).append(buf, static_cast<size_t>(got));
    }
  }
  if (in[1] >= 0) close(in[1]);
  close(out[0]);
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "rr-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp");
  path_ = fs::canonical(tmpl).string();
}

TempDir::~TempDir() {
  std::error_code ec;
  // Make everything writable first: tests may leave read-only folders behind.
  for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::none, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
  }
  fs::remove_all(path_, ec);
}

TestRepo::TestRepo(std::string dir, bool bare) : dir_(std::move(dir)) {
  fs::create_directories(dir_);
  home_ = dir_ + (bare ? ".home" : "/../" + fs::path(dir_).filename().string() + ".home");
  fs::create_directories(home_);
  home_ = fs::canonical(home_).string();
  std::vector<std::string> args = {"init", "-q", "-b", "main"};
  if (bare) args.push_back("--bare");
  args.push_back(".");
  Git(args);
}

std::map<std::string, std::string> TestRepo::Env() const {
  const std::string date = "2026-01-" + std::string(commits_ + 1 < 10 ? "0" : "") +
                           std::to_string(std::min(commits_ + 1, 28)) + "T12:00:00Z";
  return {{"HOME", home_},
          {"GIT_CONFIG_NOSYSTEM", "1"},
          {"GIT_AUTHOR_NAME", "Grace Hopper"},
          {"GIT_AUTHOR_EMAIL", "grace@example.com"},
          {"GIT_COMMITTER_NAME", "Grace Hopper"},
          {"GIT_COMMITTER_EMAIL", "grace@example.com"},
          {"GIT_AUTHOR_DATE", date},
          {"GIT_COMMITTER_DATE", date}};
}

CommandResult TestRepo::TryGit(const std::vector<std::string>& args,
                               const std::string& input) const {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, dir_, Env(), input);
}

std::string TestRepo::Git(const std::vector<std::string>& args, const std::string& input) const {
  CommandResult r = TryGit(args, input);
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  EXPECT_EQ(r.status, 0) << "git" << cmd << " failed: " << r.err;
  if (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
  return r.out;
}

void TestRepo::Write(const std::string& rel, const std::string& content) const {
  const fs::path p = fs::path(dir_) / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

std::string TestRepo::Commit(const std::string& message) {
  Git({"add", "-A"});
  Git({"commit", "-q", "--allow-empty", "-m", message});
  ++commits_;
  return Rev("HEAD");
}

std::string TestRepo::Blob(const std::string& content) const {
  return Git({"hash-object", "-w", "--stdin"}, content);
}

std::string TestRepo::RawTree(const std::vector<RawEntry>& entries) const {
  std::string raw;
  for (const auto& e : entries) {
    raw += e.mode + " " + e.name;
    raw.push_back('\0');
    for (size_t i = 0; i + 1 < e.id.size(); i += 2) {
      raw.push_back(static_cast<char>(std::stoi(e.id.substr(i, 2), nullptr, 16)));
    }
  }
  return Git({"hash-object", "-t", "tree", "-w", "--literally", "--stdin"}, raw);
}

std::string TestRepo::CommitTree(const std::string& tree, const std::string& message,
                                 const std::vector<std::string>& parents) {
  std::vector<std::string> args = {"commit-tree", tree, "-m", message};
  for (const auto& p : parents) {
    args.push_back("-p");
    args.push_back(p);
  }
  ++commits_;
  return Git(args);
}

}  // namespace rr::testing
