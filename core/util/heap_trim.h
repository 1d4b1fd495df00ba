// GiveBackFreeHeap: after a burst of reading (a page of list_repos' entries, an indexer's pass,
// a large configuration tree freed), the heap's free pages go back to the system rather than
// staying in the process until the next burst.
//
// One home for the call, because it differs by build: in a sanitizer build the sanitizer owns
// the heap, and glibc's malloc_trim walks arenas that no allocation ever set up. Two threads
// making the process's first such call race in glibc's lazy set-up, and the loser reads an
// arena with no bins (a fault at address 0x8). There the sanitizer's own allocator is asked
// instead.
//
// The server itself runs on jemalloc (linked in, CMakeLists.txt; its settings in main.cc): glibc
// gives each thread that allocates a heap of its own, and the indexers' threads leave the objects
// they keep for every repository among the pieces of what they read and freed, which no trim
// gives back (over 20,000 repositories, 14 MB free in ~30,000 pieces of ~450 bytes, at idle). Where
// jemalloc is the allocator (found at run time: linked, or preloaded) GiveBackFreeHeap purges its
// arenas and SetHeapPolicy leaves glibc's alone; elsewhere (the tests' program, a sanitizer build)
// they do as written below.
#pragma once

#include <functional>
#include <string>

namespace rr {

void GiveBackFreeHeap();

// What the process keeps between calls for the next one (the search's memos) registers how to
// drop what has gone unused; every background service's pass calls TrimCaches before
// GiveBackFreeHeap, so that memory kept for calls goes back once nobody calls. Any thread.
void AddCacheTrim(std::function<void()> trim);
void TrimCaches();

// The calling thread's cache of freed blocks back to the heap (jemalloc's: a thread keeps what
// it freed for its next allocations, and a thread gone quiet keeps it for good -- 1.6 MB across
// an idle server's threads over 20,000 repositories). Cheap (no pages are purged): for a thread
// about to wait for work -- an executor's worker with nothing queued, a background service
// between rounds. Nothing elsewhere (glibc's cache is a few blocks a size, the sanitizer's its
// own).
void ReleaseThreadCache();

// "jemalloc 5.3.0, 2 arenas", or "the C library's malloc": for the server's start-up line.
std::string DescribeAllocator();

// Called once, first thing in main: freed memory goes back to the system as it is freed, at
// bounds that stay put. A block of kHeapMapBytes or more is mapped on its own and unmapped when
// freed; a thread's heap is shrunk whenever kHeapTrimBytes or more lies free at its end.
// glibc's defaults start lower but raise both after the first large block is freed (an indexer's
// posting lists: up to 32 MB and 64 MB), and from then on each thread's heap keeps up to 64 MB of
// freed memory at its end, which GiveBackFreeHeap does not reach (malloc_trim shrinks the end of
// the main heap only). After indexing 200 repositories that was 58 MB of a 62 MB idle server's
// anonymous memory with 2.5 MB in use. Nothing to set in a sanitizer build (its own heap).
constexpr int kHeapMapBytes = 4 << 20;
constexpr int kHeapTrimBytes = 2 << 20;
void SetHeapPolicy();

}  // namespace rr
