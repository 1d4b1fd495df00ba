// GiveBackFreeHeap: after a burst of reading (a page of list_repos' entries, an indexer's pass,
// a large configuration tree freed), the heap's free pages go back to the system rather than
// staying in the process until the next burst.
//
// One home for the call, because it differs by build: in a sanitizer build the sanitizer owns
// the heap, and glibc's malloc_trim walks arenas that no allocation ever set up. Two threads
// making the process's first such call race in glibc's lazy set-up, and the loser reads an
// arena with no bins (a fault at address 0x8). There the sanitizer's own allocator is asked
// instead.
#pragma once

namespace rr {

void GiveBackFreeHeap();

}  // namespace rr
