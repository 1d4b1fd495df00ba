// Mutexes shared by many small objects: a pool of a fixed few, one picked by the object's
// address. With 20,000 repositories, a mutex of each one's own (40 bytes by sizeof, for each of
// a repository's handles, history graphs and text index) added up to megabytes of an idle
// server; a pool of 64 is 4 KB whatever the count.
//
// Each mutex of a pool is on a cache line of its own: two threads locking two objects that do
// not share a mutex do not write the same line (a search over 20,000 repositories takes each
// one's text index lock in turn, on every thread it runs on).
//
// The rules that keep a pool free of deadlocks, for every pool: two objects may share a
// mutex, so a thread holds at most one mutex of a pool at a time, and none is held while a
// mutex of another pool is taken that may itself be held while one of this pool is taken. What
// is done while one is held is short or rare (another object sharing it waits meanwhile).
//
// Thread safety: For may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace rr {

template <size_t N>
class StripedMutexes {
  static_assert(N > 0 && (N & (N - 1)) == 0, "a power of two");

 public:
  // The mutex of the object at `p`: always the same one for the same address.
  std::mutex& For(const void* p) noexcept {
    // The address's low bits are the allocator's alignment: mixed first (Fibonacci hashing).
    const auto at = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
    return locks_[Index(at)].mu;
  }
  // Which of the N an address picks (tests).
  static size_t Index(uint64_t at) noexcept {
    if constexpr (N == 1) {
      return 0;
    } else {
      return static_cast<size_t>(((at >> 4) * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
    }
  }

 private:
  static constexpr int Bits(size_t n) { return n <= 1 ? 0 : 1 + Bits(n / 2); }
  static constexpr int kBits = Bits(N);
  struct alignas(64) Padded {
    std::mutex mu;
  };
  Padded locks_[N];
};

}  // namespace rr
