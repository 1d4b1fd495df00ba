// The prober of the repositories' paths a configuration names: each resolved as realpath
// resolves it and accepted exactly when libgit2 would open it without searching upwards, without
// opening it. A configuration may name 20,000, so each costs a few stat calls, and they are made
// on several threads at once while the file is still being read.
//
// The folder holding a repository is resolved once (realpath) for all the repositories in it, as
// the file is read (Prepare); the repository's own name is then resolved by lstat alone
// (realpath only when it is a link). A repository is recognised as libgit2 recognises one -- a
// .git folder or `gitdir:` file holding one, or the folder itself: HEAD a file, objects/ and
// refs/ folders (in the folder `commondir` names, if any). The prober only reads: it never
// creates, changes or opens for writing anything it is pointed at.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rr::cfg {

// `raw` with ~ (the home folder) and `base_dir` applied: absolute, not resolved.
std::string AbsolutePath(const std::string& raw, const std::string& base_dir);

class RepoPaths {
 public:
  struct Pending {
    std::string path;         // absolute, as written
    std::string real_folder;  // its folder resolved; "" when that could not be
    std::string base;         // its last part; "" when the whole path is resolved by realpath
    // Filled by the Checker:
    std::string resolved;  // the path resolved; as written when it cannot be
    bool is_repository = false;
  };

  // A path as written (relative to `base_dir`), ready to be checked; its folder is resolved
  // here, once for every path in it.
  Pending Prepare(const std::string& raw, const std::string& base_dir);

  // Resolves and checks the paths on threads of their own while the file's entries are still
  // being read: Add each as it is prepared (at most `expected`), then Finish, after which `all`
  // holds them in the order added. Until then `all` keeps its size: each element is written by
  // one thread at a time. Fewer than 1,024 expected are checked on the calling thread, in Finish.
  class Checker {
   public:
    Checker(std::vector<Pending>* all, size_t expected, size_t threads);
    ~Checker() { Finish(); }
    Checker(const Checker&) = delete;
    Checker& operator=(const Checker&) = delete;
    void Add(Pending p);
    // Checks what no thread has taken, on this one, and waits for the rest.
    void Finish();
    // The threads started (0 for a short list): for tests.
    size_t threads() const { return threads_.size(); }

   private:
    void Work();

    std::vector<Pending>* all_;
    size_t added_ = 0;  // by the thread that adds
    bool finished_ = false;
    std::mutex mu_;
    std::condition_variable cv_;
    size_t published_ = 0, next_ = 0;
    bool done_ = false;
    std::vector<std::thread> threads_;
  };

  // The checks a Checker makes of one prepared path.
  static std::string Resolve(const Pending& p);
  static bool IsRepository(const std::string& resolved);

 private:
  std::unordered_map<std::string, std::string> folders_;  // as written -> realpath, or ""
};

}  // namespace rr::cfg
