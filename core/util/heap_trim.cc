#include "core/util/heap_trim.h"

#if defined(__SANITIZE_ADDRESS__)
// The sanitizer runtime has it; GCC's headers do not declare it (clang's allocator_interface.h).
extern "C" void __sanitizer_purge_allocator();
#else
#include <malloc.h>
#endif

namespace rr {

void GiveBackFreeHeap() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_purge_allocator();
#else
  malloc_trim(0);
#endif
}

}  // namespace rr
