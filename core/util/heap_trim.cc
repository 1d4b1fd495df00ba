#include "core/util/heap_trim.h"

// GCC says so with __SANITIZE_ADDRESS__, clang (the fuzz build) with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define RR_HEAP_IS_THE_SANITIZERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RR_HEAP_IS_THE_SANITIZERS 1
#endif
#endif

#if defined(RR_HEAP_IS_THE_SANITIZERS)
// The sanitizer runtime has it; GCC's headers do not declare it (clang's allocator_interface.h).
extern "C" void __sanitizer_purge_allocator();
#else
#include <malloc.h>
#endif

namespace rr {

void GiveBackFreeHeap() {
#if defined(RR_HEAP_IS_THE_SANITIZERS)
  __sanitizer_purge_allocator();
#else
  malloc_trim(0);
#endif
}

void SetHeapPolicy() {
#if !defined(RR_HEAP_IS_THE_SANITIZERS)
  // Setting either turns glibc's moving of both off.
  mallopt(M_MMAP_THRESHOLD, kHeapMapBytes);
  mallopt(M_TRIM_THRESHOLD, kHeapTrimBytes);
#endif
}

}  // namespace rr
