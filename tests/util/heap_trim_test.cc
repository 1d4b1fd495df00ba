// GiveBackFreeHeap (core/util/heap_trim.h) is called from several threads with no order between
// them: list_repos' entry readers when their queue empties, each indexer after a pass, the
// thread that frees a large configuration. The first two such calls of a process may come at
// once; in the sanitizer build, glibc's malloc_trim there faults on an arena it has not finished
// setting up. Each child process here makes its first call from two threads at the same moment.
#include "core/util/heap_trim.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

namespace rr {
namespace {

TEST(HeapTrim, TwoThreadsMakingTheProcesssFirstCallAtOnceBothReturn) {
  constexpr int kChildren = 24;
  int failed = 0;
  for (int c = 0; c < kChildren; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::atomic<int> ready{0};
      std::vector<std::thread> threads;
      for (int t = 0; t < 2; ++t) {
        threads.emplace_back([&ready] {
          ++ready;
          while (ready.load() < 2) {
          }
          GiveBackFreeHeap();
        });
      }
      for (auto& t : threads) t.join();
      _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  EXPECT_EQ(failed, 0) << failed << " of " << kChildren << " children did not return";
}

}  // namespace
}  // namespace rr
