#include "core/util/heap_trim.h"

#include <dlfcn.h>

#include <mutex>
#include <utility>
#include <vector>

#include "core/util/sanitizers.h"

#if defined(RR_ASAN)
// The sanitizer runtime has it; GCC's headers do not declare it (clang's allocator_interface.h).
extern "C" void __sanitizer_purge_allocator();
#else
#include <malloc.h>
#endif

namespace rr {

#if !defined(RR_ASAN)
namespace {

// jemalloc's control interface, when jemalloc is the process's allocator; else null.
using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
Mallctl Jemalloc() {
  static const Mallctl ctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
  return ctl;
}

}  // namespace
#endif

void GiveBackFreeHeap() {
#if defined(RR_ASAN)
  __sanitizer_purge_allocator();
#else
  if (const Mallctl ctl = Jemalloc()) {
    // This thread's cache of freed blocks first, back to their arenas: a thread that goes quiet
    // after a burst (an indexer's pass) keeps them otherwise, as it only gives them back as it
    // allocates again (1.6 MB across the idle server's threads over 20,000 repositories).
    ctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
    // Every arena's unused dirty pages, back to the system now (MALLCTL_ARENAS_ALL is 4096).
    ctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
  malloc_trim(0);
#endif
}

namespace {
std::mutex trims_mu;
std::vector<std::function<void()>>& Trims() {
  static auto* trims = new std::vector<std::function<void()>>();  // used until exit
  return *trims;
}
}  // namespace

void AddCacheTrim(std::function<void()> trim) {
  std::lock_guard<std::mutex> lock(trims_mu);
  Trims().push_back(std::move(trim));
}

void TrimCaches() {
  std::vector<std::function<void()>> trims;
  {
    std::lock_guard<std::mutex> lock(trims_mu);
    trims = Trims();
  }
  for (const auto& trim : trims) trim();
}

void SetHeapPolicy() {
#if !defined(RR_ASAN)
  if (Jemalloc()) return;  // its own policy: main.cc's malloc_conf
  // Setting either turns glibc's moving of both off.
  mallopt(M_MMAP_THRESHOLD, kHeapMapBytes);
  mallopt(M_TRIM_THRESHOLD, kHeapTrimBytes);
#endif
}

void ReleaseThreadCache() {
#if !defined(RR_ASAN)
  if (const Mallctl ctl = Jemalloc()) ctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
#endif
}

std::string DescribeAllocator() {
#if defined(RR_ASAN)
  return "the sanitizer's allocator";
#else
  const Mallctl ctl = Jemalloc();
  if (!ctl) return "the C library's malloc";
  std::string out = "jemalloc";
  const char* version = nullptr;
  size_t size = sizeof version;
  if (ctl("version", &version, &size, nullptr, 0) == 0 && version) {
    const std::string v = version;
    out += " " + v.substr(0, v.find('-'));  // "5.3.0-0-g54eaed1d…": the release
  }
  unsigned arenas = 0;
  size = sizeof arenas;
  if (ctl("opt.narenas", &arenas, &size, nullptr, 0) == 0) {
    out += ", " + std::to_string(arenas) + (arenas == 1 ? " arena" : " arenas");
  }
  return out;
#endif
}

}  // namespace rr
