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
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/util/sanitizers.h"

namespace rr {
namespace heap_trim_test {
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

// The process's anonymous resident memory (RssAnon), in KB.
long AnonKb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = 0;
  while (status >> key) {
    if (key == "RssAnon:") {
      status >> value;
      return value;
    }
    status.ignore(1 << 16, '\n');
  }
  return -1;
}

// An indexer frees a large block (its posting lists), then a thread of it reads and frees 40 MB
// in small blocks. With glibc's moving bounds the first free raised the trim bound to twice the
// block, and the thread's heap kept the 40 MB at its end, resident, until the process ended.
TEST(HeapTrim, AThreadsFreedMemoryGoesBackAfterALargeBlockWasFreed) {
#if defined(RR_ASAN)
  GTEST_SKIP() << "the sanitizer's heap has its own bounds";
#endif
  SetHeapPolicy();
  {
    auto large = std::make_unique<char[]>(24u << 20);
    std::memset(large.get(), 1, 24u << 20);
  }
  const long before = AnonKb();
  ASSERT_GT(before, 0);
  long held = 0;
  std::thread reader([&held] {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 40; ++i) {
      blocks.push_back(std::make_unique<char[]>(1u << 20));
      std::memset(blocks.back().get(), 1, 1u << 20);
    }
    held = AnonKb();
    while (!blocks.empty()) blocks.pop_back();  // the last first: they join the heap's end
  });
  reader.join();
  const long after = AnonKb();
  ASSERT_GT(held - before, 30 * 1024) << "the blocks were not resident while held";
  EXPECT_LT(after - before, 8 * 1024)
      << "of 40 MB freed, " << (after - before) / 1024 << " MB still resident";
}

}  // namespace
}  // namespace heap_trim_test
}  // namespace rr
