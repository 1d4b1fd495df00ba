#include "core/git/pack_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string_view>

namespace rr {
namespace {

constexpr size_t kIdLen = 20;            // SHA-1
constexpr size_t kPackHeaderBytes = 12;  // "PACK", version, object count
constexpr size_t kMaxPacks = 1024;

uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

uint64_t Be64(const uint8_t* p) { return (uint64_t{Be32(p)} << 32) | Be32(p + 4); }

// Device, inode, size, modification time (ns); all zeros when the file cannot be looked at.
std::array<uint64_t, 4> StampOf(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size),
          static_cast<uint64_t>(st.st_mtim.tv_sec) * 1000000000u +
              static_cast<uint64_t>(st.st_mtim.tv_nsec)};
}

int64_t SteadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
constexpr int64_t kFilesCheckNs = 1000000000;  // each pack and index looked at once a second

std::array<uint64_t, 4> Stamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return {0, 0, 0, 0};
  return StampOf(st);
}

// A whole file mapped read-only.
struct Mapped {
  const uint8_t* data = nullptr;
  size_t size = 0;
  std::array<uint64_t, 4> stamp{};
  Mapped() = default;
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  ~Mapped() {
    if (data) munmap(const_cast<uint8_t*>(data), size);
  }
  bool Map(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    if (ok) {
      void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      ok = p != MAP_FAILED;
      if (ok) {
        data = static_cast<const uint8_t*>(p);
        size = static_cast<size_t>(st.st_size);
        stamp = StampOf(st);
      }
    }
    close(fd);
    return ok;
  }
};

// An object's entry header in a pack.
struct EntryHeader {
  int type = 0;                  // 1 commit, 2 tree, 3 blob, 4 tag, 6 OFS_DELTA, 7 REF_DELTA
  uint64_t size = 0;             // inflated size (a delta's: of its instructions)
  uint64_t data = 0;             // where what follows the header (and a delta's base) starts
  uint64_t base = 0;             // OFS_DELTA: the base's offset
  uint8_t base_id[kIdLen] = {};  // REF_DELTA: the base's id
};

constexpr int kBlob = 3, kOfsDelta = 6, kRefDelta = 7;

// A delta's varint size (git's delta format: 7 bits a byte, least significant first).
bool DeltaSize(std::string_view d, size_t* p, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    if (*p >= d.size() || shift > 56) return false;
    const uint8_t c = static_cast<uint8_t>(d[(*p)++]);
    v |= uint64_t{c & 0x7fu} << shift;
    if (!(c & 0x80)) break;
  }
  *out = v;
  return true;
}

// Applies git's delta `delta` to `base` into *out; every copy is checked against the base and
// the declared result size, every insert against the instructions left.
bool ApplyDelta(std::string_view base, std::string_view delta, size_t max_bytes, std::string* out) {
  size_t p = 0;
  uint64_t base_size = 0, result_size = 0;
  if (!DeltaSize(delta, &p, &base_size) || !DeltaSize(delta, &p, &result_size)) return false;
  if (base_size != base.size() || result_size > max_bytes) return false;
  out->resize(static_cast<size_t>(result_size));
  char* dst = out->data();
  uint64_t w = 0;
  while (p < delta.size()) {
    const uint8_t cmd = static_cast<uint8_t>(delta[p++]);
    if (cmd & 0x80) {
      uint64_t off = 0, n = 0;
      for (int i = 0; i < 4; ++i) {
        if (!(cmd & (1u << i))) continue;
        if (p >= delta.size()) return false;
        off |= uint64_t{static_cast<uint8_t>(delta[p++])} << (8 * i);
      }
      for (int i = 0; i < 3; ++i) {
        if (!(cmd & (0x10u << i))) continue;
        if (p >= delta.size()) return false;
        n |= uint64_t{static_cast<uint8_t>(delta[p++])} << (8 * i);
      }
      if (n == 0) n = 0x10000;
      if (off > base.size() || n > base.size() - off || n > result_size - w) return false;
      std::memcpy(dst + w, base.data() + off, static_cast<size_t>(n));
      w += n;
    } else if (cmd != 0) {
      if (cmd > delta.size() - p || cmd > result_size - w) return false;
      std::memcpy(dst + w, delta.data() + p, cmd);
      p += cmd;
      w += cmd;
    } else {
      return false;  // reserved
    }
  }
  return w == result_size;
}

}  // namespace

struct PackReader::Pack {
  std::string pack_path, idx_path;
  Mapped idx;
  // The reverse index git writes beside a pack (pack-*.rev: the index positions in pack order),
  // when there is a valid-looking one: it tells where each entry ends, so only its bytes are
  // read. It only ever shortens a read; a wrong one makes entries fail to inflate (not handled).
  Mapped rev;
  const uint8_t* rev_entries = nullptr;
  // The pack is read with pread, never mapped: a pack cut short under the server (by whoever
  // can write the repository) then reads short and is not handled, instead of faulting.
  int fd = -1;
  std::array<uint64_t, 4> pack_stamp{};
  uint32_t count = 0;
  const uint8_t* fanout = nullptr;
  const uint8_t* ids = nullptr;
  const uint8_t* offsets = nullptr;
  const uint8_t* large = nullptr;
  uint64_t large_count = 0;
  uint64_t end = 0;  // where the trailing checksum starts: objects lie before it

  Pack() = default;
  Pack(const Pack&) = delete;
  Pack& operator=(const Pack&) = delete;
  ~Pack() {
    if (fd >= 0) close(fd);
  }

  // Up to `n` bytes at `at` (never past `end`) into `buf`; how many were read.
  size_t Read(uint64_t at, size_t n, uint8_t* buf) const {
    if (at >= end) return 0;
    n = static_cast<size_t>(std::min<uint64_t>(n, end - at));
    size_t got = 0;
    while (got < n) {
      const ssize_t r = pread(fd, buf + got, n - got, static_cast<off_t>(at + got));
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    return got;
  }

  // Opens a pack and its index; false when either cannot be read or they do not match.
  bool Open() {
    if (!idx.Map(idx_path)) return false;
    // The index: magic, version 2, fanout, ids, CRCs, 4-byte offsets, 8-byte offsets, the pack's
    // checksum and its own.
    constexpr uint64_t kFixed = 8 + 256 * 4 + 2 * kIdLen;
    if (idx.size < kFixed) return false;
    static constexpr uint8_t kMagic[4] = {0xff, 't', 'O', 'c'};
    if (std::memcmp(idx.data, kMagic, 4) != 0 || Be32(idx.data + 4) != 2) return false;
    fanout = idx.data + 8;
    uint32_t prev = 0;
    for (int i = 0; i < 256; ++i) {
      const uint32_t v = Be32(fanout + 4 * i);
      if (v < prev) return false;
      prev = v;
    }
    count = prev;
    const uint64_t need = kFixed + uint64_t{count} * (kIdLen + 4 + 4);
    if (idx.size < need || (idx.size - need) % 8 != 0) return false;
    ids = fanout + 256 * 4;
    offsets = ids + uint64_t{count} * (kIdLen + 4);
    large = offsets + uint64_t{count} * 4;
    large_count = (idx.size - need) / 8;
    const std::string rev_path = idx_path.substr(0, idx_path.size() - 4) + ".rev";
    if (rev.Map(rev_path) && rev.size == 12 + uint64_t{count} * 4 + 2 * kIdLen &&
        std::memcmp(rev.data, "RIDX", 4) == 0 && Be32(rev.data + 4) == 1 &&
        Be32(rev.data + 8) == 1) {
      rev_entries = rev.data + 12;
    }
    // The pack: header, objects, the checksum its index records.
    fd = open(pack_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    pack_stamp = StampOf(st);
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size < kPackHeaderBytes + kIdLen) return false;
    end = size;
    uint8_t header[kPackHeaderBytes];
    uint8_t trailer[kIdLen];
    if (Read(0, sizeof header, header) != sizeof header) return false;
    if (Read(size - kIdLen, kIdLen, trailer) != kIdLen) return false;
    end = size - kIdLen;
    if (std::memcmp(header, "PACK", 4) != 0) return false;
    const uint32_t version = Be32(header + 4);
    if ((version != 2 && version != 3) || Be32(header + 8) != count) return false;
    return std::memcmp(trailer, idx.data + idx.size - 2 * kIdLen, kIdLen) == 0;
  }

  // The offset the index gives its entry `i` (< count); false when its 64-bit entry is missing.
  bool OffsetOf(uint64_t i, uint64_t* out) const {
    uint64_t off = Be32(offsets + i * 4);
    if (off & 0x80000000u) {
      const uint64_t j = off & 0x7fffffffu;
      if (j >= large_count) return false;
      off = Be64(large + j * 8);
    }
    *out = off;
    return true;
  }

  // Where the entry starting at `at` ends (the next entry's start, or the checksum's), from the
  // reverse index; `end` when there is none or it does not say.
  uint64_t EntryEnd(uint64_t at) const {
    if (!rev_entries) return end;
    uint64_t lo = 0, hi = count;
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      const uint32_t i = Be32(rev_entries + mid * 4);
      uint64_t off = 0;
      if (i >= count || !OffsetOf(i, &off)) return end;
      if (off == at) {
        if (mid + 1 == count) return end;
        const uint32_t next = Be32(rev_entries + (mid + 1) * 4);
        uint64_t next_off = 0;
        if (next >= count || !OffsetOf(next, &next_off) || next_off <= at) return end;
        return std::min(next_off, end);
      }
      if (off < at) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return end;
  }

  // Where object `id` starts in the pack, when the index lists it at a place that can hold one.
  bool Lookup(const uint8_t* id, uint64_t* out) const {
    const uint32_t lo0 = id[0] == 0 ? 0 : Be32(fanout + 4 * (id[0] - 1));
    uint32_t lo = lo0, hi = Be32(fanout + 4 * id[0]);
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const int c = std::memcmp(ids + uint64_t{mid} * kIdLen, id, kIdLen);
      if (c == 0) {
        uint64_t off = 0;
        if (!OffsetOf(mid, &off)) return false;
        if (off < kPackHeaderBytes || off >= end) return false;
        *out = off;
        return true;
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return false;
  }

  // The entry header at `at`, checked against the pack's bounds.
  bool Header(uint64_t at, EntryHeader* h) const {
    // The longest header: 10 bytes of type and size, then 20 of a base id (or up to 9 of a
    // base offset).
    uint8_t buf[32];
    const size_t n = Read(at, sizeof buf, buf);
    size_t p = 0;
    if (p >= n) return false;
    uint8_t c = buf[p++];
    h->type = (c >> 4) & 7;
    uint64_t size = c & 15u;
    for (int shift = 4; c & 0x80; shift += 7) {
      if (p >= n || shift > 53) return false;
      c = buf[p++];
      size |= uint64_t{c & 0x7fu} << shift;
    }
    h->size = size;
    if (h->type == kOfsDelta) {
      if (p >= n) return false;
      c = buf[p++];
      uint64_t off = c & 0x7fu;
      while (c & 0x80) {
        if (p >= n || off >= (uint64_t{1} << 56)) return false;
        c = buf[p++];
        off = ((off + 1) << 7) | (c & 0x7fu);
      }
      // A base lies before the delta (git's rule): no offset can make a chain loop.
      if (off == 0 || off > at - kPackHeaderBytes) return false;
      h->base = at - off;
    } else if (h->type == kRefDelta) {
      if (n - p < kIdLen) return false;
      std::memcpy(h->base_id, buf + p, kIdLen);
      p += kIdLen;
    }
    h->data = at + p;
    return h->data < end;
  }
};

PackReader::PackReader() = default;

PackReader::~PackReader() {
  if (inflater_) libdeflate_free_decompressor(inflater_);
}

namespace {

// libgit2's limits for the alternates it follows (odb.c): the files of at most this many levels
// below a repository's own object folder are read.
constexpr int kMaxAlternateDepth = 5;
constexpr size_t kMaxObjectDirs = 16;
constexpr size_t kMaxAlternatesBytes = 64 << 10;

// The object folders whose packs `objects_dir` reads: itself, then the folders its
// info/alternates names, each followed the same way (git's order), as libgit2 follows them --
// but only those libgit2 would find wherever the server runs: an absolute path, or (in the
// repository's own file only) one that starts with `.`, joined to the folder. libgit2 takes any
// other line as a path from the process's working folder: not followed here, so objects found
// only there are left to libgit2. Each alternates file read is watched; one that appears later
// is not (its objects are read through libgit2 until the reader is opened again).
void CollectObjectDirs(const std::string& objects_dir, int depth, std::vector<std::string>* dirs,
                       std::vector<std::array<uint64_t, 2>>* seen,
                       std::vector<std::string>* watched) {
  if (dirs->size() >= kMaxObjectDirs) return;
  // Each folder once, however spelled (a link, `objects/.`), as libgit2 compares them; one that
  // is not there is skipped.
  struct stat st;
  if (stat(objects_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
  const std::array<uint64_t, 2> id{static_cast<uint64_t>(st.st_dev),
                                   static_cast<uint64_t>(st.st_ino)};
  if (std::find(seen->begin(), seen->end(), id) != seen->end()) return;
  seen->push_back(id);
  dirs->push_back(objects_dir);
  if (depth > kMaxAlternateDepth) return;
  const std::string file = objects_dir + "/info/alternates";
  // (Not blocking on a FIFO; only a regular file is read.)
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return;
  }
  watched->push_back(file);
  std::string text(kMaxAlternatesBytes + 1, '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t r = read(fd, text.data() + got, text.size() - got);
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  close(fd);
  text.resize(got);
  // libgit2 reads the file as a C string (nothing past a NUL); a file longer than this reader
  // reads is not followed past its last whole line.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) text.resize(nul);
  if (text.size() > kMaxAlternatesBytes) {
    const size_t last = text.find_last_of("\r\n", kMaxAlternatesBytes - 1);
    text.resize(last == std::string::npos ? 0 : last);
  }
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find_first_of("\r\n", at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '/') {
      CollectObjectDirs(line, depth + 1, dirs, seen, watched);
    } else if (line[0] == '.' && depth == 0) {
      CollectObjectDirs(objects_dir + "/" + line, depth + 1, dirs, seen, watched);
    }
  }
}

}  // namespace

std::unique_ptr<PackReader> PackReader::Open(const std::string& objects_dir) {
  std::unique_ptr<PackReader> r(new PackReader());
  r->objects_dir_ = objects_dir;
  std::vector<std::string> dirs, watched;
  std::vector<std::array<uint64_t, 2>> seen;
  CollectObjectDirs(objects_dir, 0, &dirs, &seen, &watched);
  if (dirs.empty()) dirs.push_back(objects_dir);  // not there: nothing opened, as before
  for (const std::string& d : dirs) watched.push_back(d + "/pack");
  for (std::string& w : watched) {
    const auto stamp = Stamp(w);
    r->watched_.push_back(Watched{std::move(w), stamp});
  }
  r->files_checked_ns_ = SteadyNs();
  r->OpenPacksIn(dirs.front());
  r->alternates_.assign(dirs.begin() + 1, dirs.end());
  return r;
}

void PackReader::OpenPacksIn(const std::string& objects_dir) {
  const std::string pack_dir = objects_dir + "/pack";
  std::vector<std::string> names;
  if (DIR* dir = opendir(pack_dir.c_str())) {
    while (const dirent* e = readdir(dir)) {
      const std::string_view name = e->d_name;
      if (name.size() > 10 && name.substr(0, 5) == "pack-" &&
          name.substr(name.size() - 5) == ".pack") {
        names.emplace_back(name.substr(0, name.size() - 5));
      }
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& base : names) {
    if (packs_.size() >= kMaxPacks) break;
    auto pack = std::make_unique<Pack>();
    pack->pack_path = pack_dir + "/" + base + ".pack";
    pack->idx_path = pack_dir + "/" + base + ".idx";
    if (pack->Open()) packs_.push_back(std::move(pack));
  }
  if (!packs_.empty() && !inflater_) inflater_ = libdeflate_alloc_decompressor();
}

bool PackReader::FindOrOpenAlternates(const git_oid& oid, Location* at) {
  if (Find(oid.id, at)) return true;
  if (alternates_.empty()) return false;
  // Not in the repository's own packs: a loose object of its own (a commit of its own, in a
  // repository that borrows the rest) is libgit2's to read, without opening the alternates' packs.
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  struct stat st;
  const std::string loose = objects_dir_ + "/" + std::string(hex, 2) + "/" + (hex + 2);
  if (stat(loose.c_str(), &st) == 0) return false;
  for (const std::string& d : alternates_) OpenPacksIn(d);
  alternates_.clear();
  return Find(oid.id, at);
}

bool PackReader::FoldersCurrent() const {
  for (const Watched& w : watched_) {
    if (Stamp(w.path) != w.stamp) return false;
  }
  return true;
}

bool PackReader::Current() const {
  if (!FoldersCurrent()) return false;
  if (SteadyNs() - files_checked_ns_ < kFilesCheckNs) return true;
  return FilesCurrent();
}

bool PackReader::FilesCurrent() const {
  if (!FoldersCurrent()) return false;
  for (const auto& p : packs_) {
    if (Stamp(p->pack_path) != p->pack_stamp || Stamp(p->idx_path) != p->idx.stamp) return false;
  }
  files_checked_ns_ = SteadyNs();
  return true;
}

void PackReader::Trim() {
  ClearCache();
  input_ = std::string();
}

void PackReader::ClearCache() {
  for (CacheSlot& s : cache_) s = CacheSlot{};
  cache_bytes_ = 0;
}

bool PackReader::Find(const uint8_t* id, Location* out) const {
  for (size_t k = 0; k < packs_.size(); ++k) {
    const size_t i = (last_pack_ + k) % packs_.size();
    uint64_t off = 0;
    if (packs_[i]->Lookup(id, &off)) {
      last_pack_ = i;
      *out = Location{packs_[i].get(), off};
      return true;
    }
  }
  return false;
}

bool PackReader::Inflate(const Pack& pack, uint64_t entry, uint64_t data_offset, uint64_t size,
                         std::string* out) {
  if (!inflater_) return false;
  // How much zlib can need for `size` bytes (its deflateBound, with room to spare), or less
  // where the reverse index says the entry ends sooner, never past the pack's end. A stream
  // longer than that is not handled.
  uint64_t bound = size + size / 1024 + 64;
  const uint64_t entry_end = pack.EntryEnd(entry);
  if (entry_end > data_offset) bound = std::min(bound, entry_end - data_offset);
  if (input_.size() < bound) input_.resize(static_cast<size_t>(bound));
  const size_t got =
      pack.Read(data_offset, static_cast<size_t>(bound), reinterpret_cast<uint8_t*>(input_.data()));
  if (got == 0) return false;
  out->resize(static_cast<size_t>(size));
  char none;
  size_t in_used = 0, out_used = 0;
  const libdeflate_result rc =
      libdeflate_zlib_decompress_ex(inflater_, input_.data(), got, size ? out->data() : &none,
                                    static_cast<size_t>(size), &in_used, &out_used);
  return rc == LIBDEFLATE_SUCCESS && out_used == size;
}

namespace {
size_t SlotOf(const void* pack, uint64_t offset) {
  uint64_t h = offset * 0x9e3779b97f4a7c15ull ^ reinterpret_cast<uintptr_t>(pack);
  return static_cast<size_t>((h >> 32) ^ h);
}
}  // namespace

std::shared_ptr<const std::string> PackReader::CachedBase(const Location& at) const {
  const CacheSlot& s = cache_[SlotOf(at.pack, at.offset) % kCacheSlots];
  if (s.bytes && s.pack == at.pack && s.offset == at.offset) return s.bytes;
  return nullptr;
}

void PackReader::CacheBase(const Location& at, std::shared_ptr<const std::string> bytes) {
  if (bytes->size() > kCacheEntryBytes) return;
  CacheSlot& s = cache_[SlotOf(at.pack, at.offset) % kCacheSlots];
  if (s.bytes) cache_bytes_ -= s.bytes->size();
  if (cache_bytes_ + bytes->size() > kCacheBytes) ClearCache();
  cache_bytes_ += bytes->size();
  s = CacheSlot{at.pack, at.offset, std::move(bytes)};
}

PackReader::Answer PackReader::ReadBlob(const git_oid& oid, size_t max_bytes, std::string* out) {
  out->clear();
  Location at;
  if (!FindOrOpenAlternates(oid, &at)) return Answer::kNotHandled;
  // Walk down the chain to a whole object (or a base built before), remembering each delta.
  struct Delta {
    Location where;
    uint64_t data = 0, size = 0;
  };
  std::vector<Delta> chain;
  std::shared_ptr<const std::string> base;
  const uint64_t max_delta = uint64_t{max_bytes} * 2 + 64;  // instructions for max_bytes
  while (true) {
    base = CachedBase(at);
    if (base && chain.empty()) {  // built before as another blob's base
      *out = *base;
      return Answer::kRead;
    }
    if (base) break;
    EntryHeader h;
    if (!at.pack->Header(at.offset, &h)) return Answer::kNotHandled;
    if (h.type == kBlob) {
      if (h.size > max_bytes) return Answer::kNotHandled;
      if (chain.empty()) {  // a whole blob: inflated where the caller wants it
        if (!Inflate(*at.pack, at.offset, h.data, h.size, out)) {
          out->clear();
          return Answer::kNotHandled;
        }
        return Answer::kRead;
      }
      auto bytes = std::make_shared<std::string>();
      if (!Inflate(*at.pack, at.offset, h.data, h.size, bytes.get())) return Answer::kNotHandled;
      base = std::move(bytes);
      CacheBase(at, base);
      break;
    }
    if (h.type != kOfsDelta && h.type != kRefDelta) return Answer::kNotHandled;
    if (h.size > max_delta || chain.size() >= static_cast<size_t>(kMaxDepth)) {
      return Answer::kNotHandled;
    }
    chain.push_back(Delta{at, h.data, h.size});
    if (h.type == kOfsDelta) {
      at.offset = h.base;
    } else if (!Find(h.base_id, &at)) {
      return Answer::kNotHandled;
    }
  }
  // Apply the deltas from the base up; each result but the last is a base worth keeping.
  std::string delta;
  for (size_t i = chain.size(); i-- > 0;) {
    const Delta& d = chain[i];
    if (!Inflate(*d.where.pack, d.where.offset, d.data, d.size, &delta)) {
      out->clear();
      return Answer::kNotHandled;
    }
    if (i == 0) {
      if (!ApplyDelta(*base, delta, max_bytes, out)) {
        out->clear();
        return Answer::kNotHandled;
      }
      break;
    }
    auto next = std::make_shared<std::string>();
    if (!ApplyDelta(*base, delta, max_bytes, next.get())) return Answer::kNotHandled;
    base = std::move(next);
    CacheBase(d.where, base);
  }
  return Answer::kRead;
}

}  // namespace rr
