// Whether this file is compiled with AddressSanitizer: RR_ASAN is 1 then, else undefined. GCC
// says so with __SANITIZE_ADDRESS__, clang (the fuzz build) only with __has_feature; code that
// behaves otherwise under the sanitizer (its own heap, its own signal handlers, its leak
// checker) asks this, never one compiler's macro.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define RR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RR_ASAN 1
#endif
#endif
