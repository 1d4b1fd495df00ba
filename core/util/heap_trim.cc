#include "core/util/heap_trim.h"

#include "core/util/sanitizers.h"

#if defined(RR_ASAN)
// The sanitizer runtime has it; GCC's headers do not declare it (clang's allocator_interface.h).
extern "C" void __sanitizer_purge_allocator();
#else
#include <malloc.h>
#endif

namespace rr {

void GiveBackFreeHeap() {
#if defined(RR_ASAN)
  __sanitizer_purge_allocator();
#else
  malloc_trim(0);
#endif
}

void SetHeapPolicy() {
#if !defined(RR_ASAN)
  // Setting either turns glibc's moving of both off.
  mallopt(M_MMAP_THRESHOLD, kHeapMapBytes);
  mallopt(M_TRIM_THRESHOLD, kHeapTrimBytes);
#endif
}

}  // namespace rr
