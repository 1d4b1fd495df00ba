// NameKey: a 64-bit digest of a repository's name, the key of the records a background service
// keeps for every served repository (what the text indexer last saw of its refs, the error last
// logged of it). 8 bytes in a map's node where the name itself took 32, and a block of its own
// past 15 characters: with 20,000 repositories the names alone held about 1 MB.
//
// Two names of one catalog share a key with a chance of about n^2 / 2^65 (1 in 10^11 with 20,000
// repositories). The records keyed so are only speed-ups and notes: sharing one would at worst
// leave an index built later than it could be (a search still reads what its index does not
// hold) or a failure unlogged, never change an answer.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace rr {

inline uint64_t NameKey(std::string_view name) { return std::hash<std::string_view>()(name); }

}  // namespace rr
