// PackReader: a read-only reader of blob contents straight from a repository's pack files --
// its own, and those of the object folders its objects/info/alternates names, followed as
// libgit2 follows them -- inflated with libdeflate (a whole-buffer inflate, 2-3x zlib's streaming
// one: a pack gives each object's inflated size up front). It exists for speed only; libgit2
// stays the reference:
//   - it answers blobs found in a pack it opened -- whole, or as a chain of OFS_DELTA /
//     REF_DELTA entries ending at a blob -- and nothing else. Anything it does not handle (an
//     object not in its packs: loose, in an alternate it does not follow, missing from a partial
//     clone; another type; a size over the caller's limit; a chain deeper than kMaxDepth; a pack
//     or index it cannot parse or that does not match its index) answers kNotHandled, and the
//     caller reads the object through libgit2 as before;
//   - a hostile pack cannot make it read out of bounds or loop: every offset, size and delta
//     instruction is checked against the mapped files, the declared sizes and the base it
//     applies to, and a delta chain stops after kMaxDepth steps (a chain that points at itself
//     included). Sizes are checked before anything is allocated;
//   - packs are read with pread (their indexes are mapped, as libgit2 maps them): a pack cut
//     short while open reads short and is not handled;
//   - the pack folders and the alternates files read are looked at again whenever the handle
//     holding the reader is lent out again (Current(): a stat of each, which a pack added,
//     removed or renamed into place changes; git never rewrites a pack or index in place, so
//     each pack and index is looked at again only once a second -- a stat each per call was 6 %
//     of a read_file's time); a change drops the reader and a new one is opened on first use. An
//     index is used only with the pack whose trailing checksum it records, so a pack replaced
//     under the same name is never read through an old index. Objects are addressed by their
//     digest, so a pack replaced after it was mapped still answers with the same bytes (the open
//     file is the old one).
// Only version-2 indexes of SHA-1 repositories are read; a multi-pack-index is not needed (each
// pack's own index is read) and is ignored.
//
// Not thread-safe: one thread at a time, like the GitRepo that holds it.
#pragma once

#include <git2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct libdeflate_decompressor;

namespace rr {

class PackReader {
 public:
  // Longest delta chain followed (git writes at most 50 by default).
  static constexpr int kMaxDepth = 64;

  // Opens every `pack-*.pack` in `objects_dir`/pack with a readable version-2 `.idx` beside it,
  // then those of the alternates' object folders (at most 16 folders, 1,024 packs).
  // Never fails: a pack it cannot use is left out (its objects answer kNotHandled).
  static std::unique_ptr<PackReader> Open(const std::string& objects_dir);
  ~PackReader();
  PackReader(const PackReader&) = delete;
  PackReader& operator=(const PackReader&) = delete;

  enum class Answer { kRead, kNotHandled };
  // Blob `oid`'s contents into *out when it is in one of the packs and it and every object its
  // delta chain reads are at most `max_bytes`; kNotHandled otherwise (*out is then cleared).
  Answer ReadBlob(const git_oid& oid, size_t max_bytes, std::string* out);

  // How many packs were opened (an alternate's once an object was looked for there).
  size_t packs() const { return packs_.size(); }
  // Whether the pack folder and every pack opened look as they did when opened (device, inode,
  // size, modification time).
  bool Current() const;
  // The same, looking at every pack and index now, whenever it was last done.
  bool FilesCurrent() const;
  // Drops the cached delta bases and the read buffer (the handle goes idle).
  void Trim();

  struct Pack;

 private:
  PackReader();
  struct Location {
    const Pack* pack = nullptr;
    uint64_t offset = 0;
  };
  bool Find(const uint8_t* id, Location* out) const;
  // Find, and on a miss the alternates' packs opened (once) unless the object is loose here.
  bool FindOrOpenAlternates(const git_oid& oid, Location* out);
  void OpenPacksIn(const std::string& objects_dir);
  bool Inflate(const Pack& pack, uint64_t entry, uint64_t data_offset, uint64_t size,
               std::string* out);
  std::shared_ptr<const std::string> CachedBase(const Location& at) const;
  void CacheBase(const Location& at, std::shared_ptr<const std::string> bytes);
  void ClearCache();

  // The pack folders (the repository's own and its alternates') and the alternates files read,
  // as they were when opened.
  struct Watched {
    std::string path;
    std::array<uint64_t, 4> stamp{};
  };
  std::vector<Watched> watched_;
  std::string objects_dir_;
  // The alternates' object folders whose packs are not opened yet: opened on the first object
  // the repository's own packs do not hold and that is not loose in its own folder.
  std::vector<std::string> alternates_;
  bool FoldersCurrent() const;
  // When every pack and index was last found as opened (steady clock, ns).
  mutable int64_t files_checked_ns_ = 0;
  std::vector<std::unique_ptr<Pack>> packs_;
  mutable size_t last_pack_ = 0;  // the pack the last object was found in, tried first
  libdeflate_decompressor* inflater_ = nullptr;

  // Delta bases recently built, by where they are: direct-mapped, bounded in bytes.
  struct CacheSlot {
    const Pack* pack = nullptr;
    uint64_t offset = 0;
    std::shared_ptr<const std::string> bytes;
  };
  static constexpr size_t kCacheSlots = 64;
  static constexpr size_t kCacheEntryBytes = 1 << 20;
  static constexpr size_t kCacheBytes = 16 << 20;
  std::array<CacheSlot, kCacheSlots> cache_;
  std::string input_;  // compressed bytes as read from a pack, reused
  size_t cache_bytes_ = 0;
};

}  // namespace rr
