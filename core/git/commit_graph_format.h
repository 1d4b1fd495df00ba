// The commit-graph file format's constants, byte order and Bloom filter hash, shared by the
// reader (commit_graph.cc) and the writer (history_index.cc). Private to core/git.
// The format: gitformat-commit-graph(5) and gitformat-chunk(5).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rr::graph_format {

constexpr uint32_t kSignature = 0x43475048;  // "CGPH"
constexpr uint8_t kVersion = 1;
constexpr uint8_t kHashVersionSha1 = 1;
constexpr uint64_t kHashSize = 20;
constexpr uint64_t kHeaderSize = 8;
constexpr uint64_t kTocEntrySize = 12;
constexpr uint64_t kFanoutSize = 256 * 4;
constexpr uint64_t kCommitDataWidth = kHashSize + 16;
constexpr uint64_t kBloomHeaderSize = 12;

constexpr uint32_t kChunkOidFanout = 0x4f494446;           // "OIDF"
constexpr uint32_t kChunkOidLookup = 0x4f49444c;           // "OIDL"
constexpr uint32_t kChunkCommitData = 0x43444154;          // "CDAT"
constexpr uint32_t kChunkGenerationData = 0x47444132;      // "GDA2"
constexpr uint32_t kChunkGenerationOverflow = 0x47444f32;  // "GDO2"
constexpr uint32_t kChunkExtraEdges = 0x45444745;          // "EDGE"
constexpr uint32_t kChunkBloomIndexes = 0x42494458;        // "BIDX"
constexpr uint32_t kChunkBloomData = 0x42444154;           // "BDAT"
constexpr uint32_t kChunkBase = 0x42415345;                // "BASE"

constexpr uint32_t kParentNone = 0x70000000;
constexpr uint32_t kExtraEdgesNeeded = 0x80000000;
constexpr uint32_t kLastEdge = 0x80000000;
constexpr uint32_t kEdgeMask = 0x7fffffff;
constexpr uint32_t kGenerationOverflow = 0x80000000;
constexpr uint64_t kGenerationOffsetMax = (uint64_t{1} << 31) - 1;
constexpr uint32_t kTopoLevelMax = 0x3fffffff;
constexpr uint64_t kDateMask = (uint64_t{1} << 34) - 1;

constexpr uint32_t kBloomSeed0 = 0x293ae76f;
constexpr uint32_t kBloomSeed1 = 0x7e646e2c;
constexpr uint32_t kBloomMaxChangedPaths = 512;

inline uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
inline uint64_t Be64(const uint8_t* p) { return (uint64_t{Be32(p)} << 32) | Be32(p + 4); }
inline void PutBe32(std::string* out, uint32_t v) {
  const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 8), static_cast<char>(v)};
  out->append(b, 4);
}
inline void PutBe64(std::string* out, uint64_t v) {
  PutBe32(out, static_cast<uint32_t>(v >> 32));
  PutBe32(out, static_cast<uint32_t>(v));
}

inline uint32_t RotateLeft(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

// murmur3 (32 bits) as git's Bloom filters use it. Version 1 reads each byte as a signed char
// widened to 32 bits, as git did where char is signed, so bytes >= 0x80 hash differently from
// version 2, the textbook murmur3.
inline uint32_t Murmur3(uint32_t version, uint32_t seed, std::string_view data) {
  constexpr uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593, m = 5, n = 0xe6546b64;
  auto byte = [version](char c) -> uint32_t {
    return version == 1 ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c)))
                        : static_cast<uint32_t>(static_cast<unsigned char>(c));
  };
  const size_t len = data.size();
  const size_t blocks = len / 4;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k = byte(data[4 * i]) | (byte(data[4 * i + 1]) << 8) | (byte(data[4 * i + 2]) << 16) |
                 (byte(data[4 * i + 3]) << 24);
    k *= c1;
    k = RotateLeft(k, 15);
    k *= c2;
    seed ^= k;
    seed = RotateLeft(seed, 13) * m + n;
  }
  const char* tail = data.data() + blocks * 4;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3:
      k1 ^= byte(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      k1 ^= byte(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      k1 ^= byte(tail[0]);
      k1 *= c1;
      k1 = RotateLeft(k1, 15);
      k1 *= c2;
      seed ^= k1;
      break;
    default:
      break;
  }
  seed ^= static_cast<uint32_t>(len);
  seed ^= seed >> 16;
  seed *= 0x85ebca6b;
  seed ^= seed >> 13;
  seed *= 0xc2b2ae35;
  seed ^= seed >> 16;
  return seed;
}

}  // namespace rr::graph_format
