// Test kit for the sync: a real git smart-HTTP server on loopback (git http-backend behind
// tests/sync/git_http_server.py) that can require a token, redirect, repeat what it was sent
// in an error, and records every request and every object it sent; and mirrors configured
// through the real configuration parser.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/served/mirror_state.h"  // each mirror's state, which the tests read
#include "core/sync/git_process.h"
#include "core/sync/mirror_sync.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {

class GitHttpServer {
 public:
  struct Options {
    std::string root;  // GIT_PROJECT_ROOT: repositories are served as /<name>
    std::string token;
    // Requests under /moved/ answered 302 to redirect + the rest of the path ("self": this
    // server itself).
    std::string redirect;
    bool echo_auth = false;
  };

  explicit GitHttpServer(const Options& o) : record_(new TempDir()) {
    std::vector<std::string> argv = {
        "python3",  std::string(RR_SOURCE_DIR) + "/tests/sync/git_http_server.py",
        "--root",   o.root,
        "--record", record_->path()};
    if (!o.token.empty()) argv.insert(argv.end(), {"--token", o.token});
    if (!o.redirect.empty()) argv.insert(argv.end(), {"--redirect", o.redirect});
    if (o.echo_auth) argv.push_back("--echo-auth");
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      close(out[1]);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execvp("python3", args.data());
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
    close(out[0]);
    port_ = line;
    if (port_.empty()) ADD_FAILURE() << "the test git server did not start";
  }
  ~GitHttpServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

  std::string Url(const std::string& repo) const {
    return "http://127.0.0.1:" + port_ + "/" + repo;
  }
  std::string Base() const { return "http://127.0.0.1:" + port_; }

  // Each request as its JSON line.
  std::vector<std::string> Requests() const { return Lines("requests.jsonl"); }
  // What objects.txt holds: "# pack: <pack-objects' arguments>" before each pack's ids.
  std::string PackLog() const {
    std::string all;
    for (const auto& line : Lines("objects.txt")) all += line + "\n";
    return all;
  }
  // Every object id sent in a pack.
  std::set<std::string> SentObjects() const {
    std::set<std::string> ids;
    for (const auto& line : Lines("objects.txt")) {
      if (!line.empty() && line[0] != '#') ids.insert(line);
    }
    return ids;
  }

 private:
  std::vector<std::string> Lines(const std::string& file) const {
    std::ifstream in(record_->path() + "/" + file);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
  }

  std::unique_ptr<TempDir> record_;
  pid_t pid_ = -1;
  std::string port_;
};

// A configuration with `mirrors_yaml` (the `mirrors:` list's text) and its folder in `folder`,
// read by the real parser.
inline Config MirrorConfigFor(const std::string& mirrors_yaml, const std::string& folder) {
  auto c =
      ParseConfig("mirror_folder: " + folder + "\nmirrors:\n" + mirrors_yaml, "test.yaml", folder);
  if (!c) {
    ADD_FAILURE() << c.error();
    return Config{};
  }
  return c.take();
}

inline GitProcess SyncGit(const Config& c) {
  return GitProcess(GitProcess::FindGit(), c.mirror_folder);
}

inline Result<SyncReport> SyncNow(const Config& c, size_t index = 0) {
  return SyncMirror(SyncGit(c), c.mirrors.at(index),
                    std::chrono::steady_clock::now() + std::chrono::seconds(60), nullptr);
}

// Git's command line on a mirror, to look at what the sync made (never run by the server).
struct MirrorRepo {
  std::string dir;
  explicit MirrorRepo(std::string d) : dir(std::move(d)) {}
  CommandResult TryGit(std::vector<std::string> args) const {
    args.insert(args.begin(), {"git", "--git-dir=" + dir});
    return Run(args, "/", {{"GIT_CONFIG_NOSYSTEM", "1"}, {"HOME", "/nonexistent"}});
  }
  std::string Git(const std::vector<std::string>& args) const {
    CommandResult r = TryGit(args);
    EXPECT_EQ(r.status, 0) << r.err;
    while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    return r.out;
  }
  std::string Rev(const std::string& rev) const { return Git({"rev-parse", rev}); }
};

// Every file under `dir`, read whole, joined (to look for what must never be written).
inline std::string AllFileBytes(const std::string& dir) {
  std::string all;
  auto r = Run({"find", dir, "-type", "f"}, "/");
  std::istringstream lines(r.out);
  std::string path;
  while (std::getline(lines, path)) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    all += s.str();
    all.push_back('\n');
  }
  return all;
}

}  // namespace rr::testing
