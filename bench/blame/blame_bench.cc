// blame-bench: the blame engine (core/git/blame.h) timed against `git blame --porcelain` on one
// file of a real repository, and checked against it line by line (commit, line number there,
// path there). Not a test; never run in CI. bench/blame/run.sh builds and runs it.
//
//   blame-bench --repo <git dir> --path <file> [--ref HEAD] [--runs 5]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/git/blame.h"
#include "core/git/git_repo.h"
#include "core/git/ref_text.h"

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Runs argv without a shell; returns its standard output.
std::string Capture(const std::vector<std::string>& argv) {
  int out[2];
  if (pipe(out) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char buf[65536];
  ssize_t got;
  while ((got = read(out[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(got));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return text;
}

struct GitLine {
  std::string commit, path;
  unsigned line = 0;
};

// git blame --porcelain, one entry per line of the file.
std::vector<GitLine> ParsePorcelain(const std::string& text) {
  std::vector<GitLine> out;
  std::map<std::string, std::string> filename;
  std::istringstream in(text);
  std::string line;
  GitLine current;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '\t') {
      out.push_back(current);
      continue;
    }
    if (line.size() > 41 && line[40] == ' ' && line.find_first_not_of("0123456789abcdef") >= 40) {
      std::istringstream h(line);
      unsigned orig = 0, fin = 0;
      h >> current.commit >> orig >> fin;
      current.line = orig;
      current.path = filename[current.commit];
    } else if (line.rfind("filename ", 0) == 0) {
      filename[current.commit] = line.substr(9);
      current.path = line.substr(9);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string repo_path, path, ref = "HEAD";
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--repo")
      repo_path = v;
    else if (k == "--path")
      path = v;
    else if (k == "--ref")
      ref = v;
    else if (k == "--runs")
      runs = std::stoi(v);
  }
  if (repo_path.empty() || path.empty()) {
    std::cerr << "usage: blame-bench --repo <git dir> --path <file> [--ref HEAD] [--runs 5]\n";
    return 2;
  }
  auto opened = rr::GitRepo::Open(repo_path);
  if (!opened) {
    std::cerr << opened.error() << "\n";
    return 1;
  }
  auto repo = opened.take();
  auto ref_text = rr::RefText::Parse(ref);
  if (!ref_text) return 1;
  auto start = repo->Resolve(*ref_text);
  if (!start) {
    std::cerr << "no commit " << ref << "\n";
    return 1;
  }
  const std::vector<std::string> git = {"git",
                                        "-C",
                                        repo_path,
                                        "-c",
                                        "core.hooksPath=",
                                        "blame",
                                        "--porcelain",
                                        "--no-textconv",
                                        "--no-ignore-revs-file",
                                        start->Hex(),
                                        "--",
                                        path};

  std::vector<double> ours, theirs;
  rr::Result<rr::BlameResult> result = rr::Error{"not run"};
  std::string porcelain;
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    porcelain = Capture(git);
    theirs.push_back(Ms(Clock::now() - t0));
    t0 = Clock::now();
    // A fresh handle each run, as a call borrows one (caches of earlier runs left behind).
    auto fresh = rr::GitRepo::Open(repo_path);
    result = rr::BlameFile(**fresh, *start, path, rr::BlameOptions{}, rr::StopToken());
    ours.push_back(Ms(Clock::now() - t0));
    if (!result) {
      std::cerr << result.error() << "\n";
      return 1;
    }
  }
  const auto expected = ParsePorcelain(porcelain);
  size_t differ = 0;
  if (expected.size() != result->lines.size()) {
    std::cout << "git blames " << expected.size() << " lines, ours " << result->lines.size()
              << "\n";
    differ = 1;
  }
  for (size_t i = 0; i < std::min(expected.size(), result->lines.size()); ++i) {
    const rr::BlameLine& l = result->lines[i];
    const std::string commit = result->commits[l.commit].id.Hex();
    const std::string& p = result->paths[l.path];
    if (commit != expected[i].commit || l.line != expected[i].line || p != expected[i].path) {
      if (++differ <= 10) {
        std::cout << "line " << i + 1 << ": git " << expected[i].commit.substr(0, 12) << " "
                  << expected[i].path << ":" << expected[i].line << ", ours "
                  << commit.substr(0, 12) << " " << p << ":" << l.line << "\n";
      }
    }
  }
  std::printf(
      "%s (%zu lines, %zu commits): ours %.1f ms, git blame %.1f ms (medians of %d); "
      "ratio %.2f; %zu lines differ\n",
      path.c_str(), result->lines.size(), result->commits.size(), Median(ours), Median(theirs),
      runs, Median(ours) / Median(theirs), differ);
  return differ ? 3 : 0;
}
