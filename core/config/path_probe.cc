#include "core/config/path_probe.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <fstream>

namespace rr::cfg {
namespace {

std::string Real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? buf : path;
}
bool Is(const std::string& path, bool folder) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && (folder ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}
std::string FirstLine(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}
// What a `.git` file names ("gitdir: PATH", relative to the folder holding it), or "".
std::string GitFileTarget(const std::string& file, const std::string& folder) {
  std::string line = FirstLine(file);
  if (line.rfind("gitdir:", 0) != 0) return "";
  line.erase(0, line.find_first_not_of(' ', 7));
  if (line.empty()) return "";
  return line[0] == '/' ? line : folder + "/" + line;
}
// HEAD a file; objects/ and refs/ folders, its own or (a linked worktree's) in the folder its
// `commondir` file names.
bool IsGitDir(const std::string& dir) {
  if (!Is(dir + "/HEAD", false)) return false;
  if (Is(dir + "/objects", true) && Is(dir + "/refs", true)) return true;
  if (!Is(dir + "/commondir", false)) return false;
  const std::string link = FirstLine(dir + "/commondir");
  const std::string common = !link.empty() && link[0] == '/' ? link : dir + "/" + link;
  return Is(common + "/objects", true) && Is(common + "/refs", true);
}

}  // namespace

// `raw` with ~ and `base_dir` applied: absolute, not resolved.
std::string AbsolutePath(const std::string& raw, const std::string& base_dir) {
  std::string path = raw;
  if (path == "~" || path.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    if (home) path = std::string(home) + path.substr(1);
  }
  if (!path.empty() && path[0] != '/') path = base_dir + "/" + path;
  return path;
}

RepoPaths::Pending RepoPaths::Prepare(const std::string& raw, const std::string& base_dir) {
  Pending p;
  p.path = AbsolutePath(raw, base_dir);
  const size_t slash = p.path.rfind('/');
  const std::string base = p.path.substr(slash + 1);
  if (slash == std::string::npos || slash == 0 || base.empty() || base == "." || base == "..") {
    return p;
  }
  const std::string folder = p.path.substr(0, slash);
  auto it = folders_.find(folder);
  if (it == folders_.end()) {
    char buf[PATH_MAX];
    it = folders_.emplace(folder, realpath(folder.c_str(), buf) ? buf : "").first;
  }
  p.real_folder = it->second;
  p.base = base;
  return p;
}

RepoPaths::Checker::Checker(std::vector<Pending>* all, size_t expected, size_t threads)
    : all_(all) {
  all_->assign(expected, Pending());
  if (expected < 1024) return;  // too few to be worth a thread
  for (size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { Work(); });
}

void RepoPaths::Checker::Add(Pending p) {
  (*all_)[added_++] = std::move(p);
  std::lock_guard<std::mutex> lock(mu_);
  published_ = added_;
  if (published_ % 256 == 0) cv_.notify_all();
}

void RepoPaths::Checker::Finish() {
  if (finished_) return;
  finished_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    published_ = added_;
  }
  cv_.notify_all();
  Work();
  for (auto& t : threads_) t.join();
  threads_.clear();
  all_->resize(added_);
}

void RepoPaths::Checker::Work() {
  while (true) {
    size_t i;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return next_ < published_ || done_; });
      if (next_ >= published_) return;  // done, and nothing left
      i = next_++;
    }
    Pending& p = (*all_)[i];
    p.resolved = Resolve(p);
    p.is_repository = IsRepository(p.resolved);
  }
}

std::string RepoPaths::Resolve(const Pending& p) {
  if (p.base.empty()) return Real(p.path);
  if (p.real_folder.empty()) return p.path;  // as realpath: a path that cannot be resolved stays
  std::string resolved = p.real_folder == "/" ? "/" + p.base : p.real_folder + "/" + p.base;
  struct stat st;
  if (lstat(resolved.c_str(), &st) != 0) return p.path;
  if (S_ISLNK(st.st_mode)) return Real(p.path);
  return resolved;
}

bool RepoPaths::IsRepository(const std::string& path) {
  // The folder itself first: a bare repository (the usual kind on a server) takes three stat
  // calls. Which of the two libgit2 would find does not matter here, only whether one is.
  if (IsGitDir(path)) return true;
  const std::string dot_git = path + "/.git";
  struct stat st;
  if (stat(dot_git.c_str(), &st) != 0) return false;
  if (S_ISDIR(st.st_mode)) return IsGitDir(dot_git);
  if (!S_ISREG(st.st_mode)) return false;
  const std::string linked = GitFileTarget(dot_git, path);
  return !linked.empty() && IsGitDir(linked);
}

}  // namespace rr::cfg
