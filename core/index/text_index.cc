#include "core/index/text_index.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>

namespace rr {
namespace {

constexpr char kMagic[8] = {'R', 'R', 'T', 'X', 'T', 'I', 'D', 'X'};
constexpr size_t kPartRecord = 40;  // u32 position, u32 paths, u64 key, 20-byte id, u32 first
constexpr uint32_t kExecutable = 0x80000000u;

uint32_t U32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t U64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void Put32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }
void Set64(std::string* out, size_t at, uint64_t v) { std::memcpy(&(*out)[at], &v, 8); }
void Set32(std::string* out, size_t at, uint32_t v) { std::memcpy(&(*out)[at], &v, 4); }

// Header fields, by offset. Format 4 (written) keeps the counts and sizes only: its sections
// follow the header in a fixed order, each where the one before ends. Format 3 (read, as the
// previous release wrote it) also kept each section's offset, in a header of 184 bytes.
enum : size_t {
  kVersionAt = 8,
  kHeaderSizeAt = 12,
  kFileSizeAt = 16,
  kDigestAt = 24,
  kCommitAt = 32,
  kPolicyAt = 56,
  kTextBytesAt = 64,
  kBlobCountAt = 72,
  kTrigramCountAt = 76,
  kPathCountAt = 80,
  // format 4
  kPostingsSizeAt = 84,
  kPathTextSizeAt = 92,
  kPartCountAt = 100,
  kHeader = 104,
  // format 3
  kV3OffOidsAt = 88,
  kV3OffKindsAt = 96,
  kV3OffPermAt = 104,
  kV3OffTrigramsAt = 112,
  kV3OffPostingsAt = 120,
  kV3PostingsSizeAt = 128,
  kV3OffPathsAt = 136,
  kV3OffPathTextAt = 144,
  kV3PathTextSizeAt = 152,
  kV3OffSizesAt = 160,
  kV3PartCountAt = 168,
  kV3OffPartsAt = 176,
  kV3Header = 184,
};

void PutVarint(std::string* out, uint32_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

uint64_t FileDigest(std::string_view file) {
  return Fnv64(file.substr(kDigestAt + 8), Fnv64(file.substr(0, kDigestAt)));
}

uint64_t Fnv64(std::string_view bytes, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// ---- reading -------------------------------------------------------------------------------

Result<std::shared_ptr<const IndexFile>> IndexFile::Open(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open the text index: " + std::string(std::strerror(errno))};
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    return Error{"cannot read the text index's size"};
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size < kHeader) {
    ::close(fd);
    return Error{"the text index is shorter than its header (" + std::to_string(size) + " bytes)"};
  }
  if (size > UINT32_MAX) {
    // Its sections are found by 32-bit offsets (the writer refuses to write one this large).
    ::close(fd);
    return Error{"the text index is larger than 4 GiB (" + std::to_string(size) + " bytes)"};
  }
  auto ix = std::make_shared<IndexFile>(IndexFile::Made());
  ix->size_ = size;
  if (size < IndexFile::kCopiedBelow) {
    // A repository's list is a kilobyte or two: mapped, it would take a page of memory (and of
    // the page cache) of its own, 20,000 pages for 20,000 repositories. Read, it takes its size.
    auto* copy = new unsigned char[size];
    ix->data_ = copy;
    ix->copied_ = true;
    size_t got = 0;
    while (got < size) {
      const ssize_t n = ::read(fd, copy + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    ::close(fd);
    if (got != size) return Error{"cannot read the text index: it changed while it was read"};
  } else {
    void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return Error{"cannot map the text index"};
    ix->data_ = static_cast<const unsigned char*>(map);
  }
  const unsigned char* d = ix->data_;
  auto bad = [](const std::string& why) -> Result<std::shared_ptr<const IndexFile>> {
    return Error{"the text index is damaged: " + why};
  };
  if (std::memcmp(d, kMagic, 8) != 0) return bad("not a text index (magic)");
  const uint32_t version = U32(d + kVersionAt);
  if (version != kVersion && version != 3) {
    return Error{"the text index is of format " + std::to_string(version) + ", not " +
                 std::to_string(kVersion)};
  }
  const size_t header = version == 3 ? kV3Header : kHeader;
  if (U32(d + kHeaderSizeAt) != header || size < header) return bad("header size");
  if (U64(d + kFileSizeAt) != size) return bad("its size is not the size it was written with");
  if (FileDigest(std::string_view(reinterpret_cast<const char*>(d), size)) != U64(d + kDigestAt)) {
    return bad("its digest does not match its contents");
  }
  std::memcpy(ix->commit_.id, d + kCommitAt, GIT_OID_RAWSZ);
  ix->policy_ = U64(d + kPolicyAt);
  ix->text_bytes_ = U64(d + kTextBytesAt);
  const uint64_t n = U32(d + kBlobCountAt), t = U32(d + kTrigramCountAt), p = U32(d + kPathCountAt);
  // A section [off, off + len) lies inside the body.
  auto inside = [&](uint64_t off, uint64_t len) {
    return off >= header && off <= size && len <= size - off;
  };
  uint64_t off_oids, off_kinds, off_perm, off_tri, off_post, post_size, off_paths, off_text,
      text_size, off_sizes, parts, off_parts;
  if (version == 3) {
    off_oids = U64(d + kV3OffOidsAt);
    off_kinds = U64(d + kV3OffKindsAt);
    off_perm = U64(d + kV3OffPermAt);
    off_tri = U64(d + kV3OffTrigramsAt);
    off_post = U64(d + kV3OffPostingsAt);
    post_size = U64(d + kV3PostingsSizeAt);
    off_paths = U64(d + kV3OffPathsAt);
    off_text = U64(d + kV3OffPathTextAt);
    text_size = U64(d + kV3PathTextSizeAt);
    off_sizes = U64(d + kV3OffSizesAt);
    parts = U32(d + kV3PartCountAt);
    off_parts = U64(d + kV3OffPartsAt);
  } else {
    // Each section where the one before ends; the last ends where the file does.
    post_size = U64(d + kPostingsSizeAt);
    text_size = U64(d + kPathTextSizeAt);
    parts = U32(d + kPartCountAt);
    uint64_t at = header;
    bool fits = true;
    auto next = [&](uint64_t len) {
      const uint64_t here = at;
      if (!fits || len > size - at) {
        fits = false;
        return uint64_t{size};
      }
      at += len;
      return here;
    };
    off_oids = next(n * GIT_OID_RAWSZ);
    off_kinds = next(n);
    off_perm = next(n * 4);
    off_sizes = next(n * 4);
    off_tri = next(t * 8 + 4);
    off_post = next(post_size);
    off_paths = next(p * 8 + 4);
    off_text = next(text_size);
    off_parts = next(parts * kPartRecord);
    if (!fits) return bad("a section lies outside the file");
    if (at != size) return bad("its sections do not end where the file does");
  }
  if (!inside(off_oids, n * GIT_OID_RAWSZ) || !inside(off_kinds, n) || !inside(off_perm, n * 4) ||
      !inside(off_sizes, n * 4) || !inside(off_tri, t * 8 + 4) || !inside(off_post, post_size) ||
      !inside(off_paths, p * 8 + 4) || !inside(off_text, text_size)) {
    return bad("a section lies outside the file");
  }
  ix->blob_count_ = static_cast<uint32_t>(n);  // each read as 32 bits
  ix->trigram_count_ = static_cast<uint32_t>(t);
  ix->path_count_ = static_cast<uint32_t>(p);
  ix->oids_at_ = static_cast<uint32_t>(off_oids);
  ix->kinds_at_ = static_cast<uint32_t>(off_kinds);
  ix->sizes_at_ = static_cast<uint32_t>(off_sizes);
  ix->trigrams_at_ = static_cast<uint32_t>(off_tri);
  ix->postings_at_ = static_cast<uint32_t>(off_post);
  ix->path_table_at_ = static_cast<uint32_t>(off_paths);
  ix->path_text_at_ = static_cast<uint32_t>(off_text);
  for (uint64_t i = 0; i < n; ++i) {
    if (ix->kinds()[i] > static_cast<uint8_t>(BlobKind::kUnread)) return bad("a blob's kind");
  }
  // The permutation sorts the content ids: each number once, in increasing id order.
  const unsigned char* perm = d + off_perm;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t b = U32(perm + i * 4);
    if (b >= n) return bad("a blob number past the blobs");
    if (i > 0) {
      const uint32_t a = U32(perm + (i - 1) * 4);
      if (std::memcmp(ix->oids() + a * GIT_OID_RAWSZ, ix->oids() + b * GIT_OID_RAWSZ,
                      GIT_OID_RAWSZ) >= 0) {
        return bad("content ids out of order");
      }
    }
  }
  ix->perm_at_ = static_cast<uint32_t>(off_perm);
  for (uint64_t i = 0; i < t; ++i) {
    const uint32_t tri = U32(ix->trigram_table() + i * 8),
                   off = U32(ix->trigram_table() + i * 8 + 4);
    const uint32_t next = U32(ix->trigram_table() + (i + 1) * 8 + (i + 1 == t ? 0 : 4));
    if (tri > 0xFFFFFF) return bad("a trigram out of range");
    if (i > 0 && tri <= U32(ix->trigram_table() + (i - 1) * 8)) return bad("trigrams out of order");
    if (off > next || next > post_size) return bad("a posting list outside the postings");
  }
  if (t > 0 ? U32(ix->trigram_table() + t * 8) != post_size : post_size != 0) {
    return bad("the postings' end");
  }
  for (uint64_t i = 0; i < p; ++i) {
    const uint32_t b = U32(ix->path_table() + i * 8) & ~kExecutable;
    const uint32_t off = U32(ix->path_table() + i * 8 + 4);
    const uint32_t next =
        i + 1 == p ? U32(ix->path_table() + p * 8) : U32(ix->path_table() + (i + 1) * 8 + 4);
    if (b >= n) return bad("a path's blob past the blobs");
    if (off >= next || next > text_size) return bad("a path outside the path text");
    if (ix->kinds()[b] == static_cast<uint8_t>(BlobKind::kBinary)) ix->binary_paths_++;
    if (ix->kinds()[b] == static_cast<uint8_t>(BlobKind::kUnread)) ix->unread_paths_++;
  }
  if (U32(ix->path_table() + p * 8) != (p ? text_size : 0)) return bad("the path text's end");
  // The parts: each at a place among the paths, in order.
  if (!inside(off_parts, parts * kPartRecord)) return bad("a section lies outside the file");
  ix->parts_at_ = static_cast<uint32_t>(off_parts);
  ix->part_count_ = static_cast<uint32_t>(parts);
  for (uint64_t i = 0; i < parts; ++i) {
    const uint32_t at = U32(ix->part_records() + i * kPartRecord);
    if (at > p || (i > 0 && at < U32(ix->part_records() + (i - 1) * kPartRecord))) {
      return bad("a part out of place");
    }
    ix->part_paths_ += U32(ix->part_records() + i * kPartRecord + 4);
  }
  if (ix->copied_) {
    // Only the sections are kept, not the header (its fields are read above): a repository's
    // list is ~240 bytes, and 104 of them were the header, for each of 20,000 repositories.
    const size_t body = size - header;
    auto* kept = new unsigned char[std::max<size_t>(body, 1)];
    std::memcpy(kept, d + header, body);
    for (uint32_t* section :
         {&ix->oids_at_, &ix->perm_at_, &ix->kinds_at_, &ix->sizes_at_, &ix->trigrams_at_,
          &ix->postings_at_, &ix->path_table_at_, &ix->path_text_at_, &ix->parts_at_}) {
      *section -= static_cast<uint32_t>(header);  // each lies at or after the header
    }
    delete[] d;
    ix->data_ = kept;
  }
  // The check read every page; a search reads few of them again.
  ix->LetGo();
  return std::shared_ptr<const IndexFile>(std::move(ix));
}

void IndexFile::LetGo() const {
  if (!copied_) madvise(const_cast<unsigned char*>(data_), size_, MADV_DONTNEED);
}

IndexFile::~IndexFile() {
  if (copied_) {
    delete[] data_;
  } else if (data_) {
    munmap(const_cast<unsigned char*>(data_), size_);
  }
}

size_t IndexFile::Find(const git_oid& oid) const {
  size_t lo = 0, hi = blob_count_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint32_t b = U32(perm() + mid * 4);
    const int c = std::memcmp(oids() + size_t{b} * GIT_OID_RAWSZ, oid.id, GIT_OID_RAWSZ);
    if (c == 0) return b;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return SIZE_MAX;
}

BlobKind IndexFile::Kind(size_t blob) const { return static_cast<BlobKind>(kinds()[blob]); }

uint32_t IndexFile::Size(size_t blob) const { return U32(sizes() + blob * 4); }

size_t IndexFile::Sorted(size_t rank) const { return U32(perm() + rank * 4); }

uint32_t IndexFile::TrigramAt(size_t i) const { return U32(trigram_table() + i * 8); }

const git_oid& IndexFile::Oid(size_t blob) const {
  return *reinterpret_cast<const git_oid*>(oids() + blob * GIT_OID_RAWSZ);
}

bool IndexFile::Postings(uint32_t trigram, std::vector<uint32_t>* out) const {
  out->clear();
  size_t lo = 0, hi = trigram_count_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint32_t t = U32(trigram_table() + mid * 8);
    if (t == trigram) {
      lo = mid;
      hi = mid + 1;
      break;
    }
    if (t < trigram) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo >= trigram_count_ || U32(trigram_table() + lo * 8) != trigram) return true;  // none
  return PostingsAt(lo, out);
}

bool IndexFile::PostingsAt(size_t lo, std::vector<uint32_t>* out) const {
  out->clear();
  size_t at = U32(trigram_table() + lo * 8 + 4);
  const size_t end = U32(trigram_table() + (lo + 1) * 8 + (lo + 1 == trigram_count_ ? 0 : 4));
  uint64_t value = 0;
  bool first = true;
  while (at < end) {
    uint64_t delta = 0;
    int shift = 0;
    while (true) {
      if (at >= end || shift > 28) return false;
      const unsigned char b = postings()[at++];
      delta |= uint64_t{b & 0x7Fu} << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    if (!first && delta == 0) return false;
    value = first ? delta : value + delta;
    first = false;
    if (value >= blob_count_) return false;
    out->push_back(static_cast<uint32_t>(value));
  }
  return true;
}

bool IndexFile::Candidates(const TrigramQuery& query, std::vector<bool>* out) const {
  out->assign(blob_count_, query.all);
  if (!query.all) {
    std::vector<std::vector<uint32_t>> lists;
    for (const auto& branch : query.branches) {
      lists.resize(branch.size());
      bool empty = false;
      for (size_t i = 0; i < branch.size(); ++i) {
        if (!Postings(branch[i], &lists[i])) return false;
        empty = empty || lists[i].empty();
      }
      if (empty) continue;
      std::sort(lists.begin(), lists.end(),
                [](const auto& a, const auto& b) { return a.size() < b.size(); });
      std::vector<uint32_t> hits = lists[0], next;
      for (size_t i = 1; i < lists.size() && !hits.empty(); ++i) {
        next.clear();
        std::set_intersection(hits.begin(), hits.end(), lists[i].begin(), lists[i].end(),
                              std::back_inserter(next));
        hits.swap(next);
      }
      for (uint32_t b : hits) (*out)[b] = true;
    }
  }
  for (size_t b = 0; b < blob_count_; ++b) {
    if (kinds()[b] == static_cast<uint8_t>(BlobKind::kUnread)) (*out)[b] = true;
  }
  return true;
}

std::shared_ptr<const CandidateSet> IndexFile::CachedCandidates(const TrigramQuery& query) const {
  std::string made;
  const std::string& key = query.key.empty() ? (made = TrigramQueryKey(query)) : query.key;
  if (auto kept = memo_.Find(key)) return kept;
  auto set = std::make_shared<CandidateSet>();
  if (!Candidates(query, &set->maybe)) return nullptr;
  for (size_t b = 0; b < blob_count_; ++b) {
    if (set->maybe[b]) set->blobs.push_back(static_cast<uint32_t>(b));
  }
  memo_.Keep(key, set);
  return set;
}

IndexFile::PartEntry IndexFile::Part(size_t i) const {
  const unsigned char* r = part_records() + i * kPartRecord;
  PartEntry e;
  e.position = U32(r);
  e.paths = U32(r + 4);
  e.key = U64(r + 8);
  std::memcpy(e.tree.id, r + 16, GIT_OID_RAWSZ);
  e.first = U32(r + 36);
  return e;
}

IndexFile::PathEntry IndexFile::Path(size_t i) const {
  const uint32_t word = U32(path_table() + i * 8);
  const uint32_t off = U32(path_table() + i * 8 + 4);
  const uint32_t next = i + 1 == path_count_ ? U32(path_table() + path_count_ * 8)
                                             : U32(path_table() + (i + 1) * 8 + 4);
  PathEntry e;
  e.path = std::string_view(reinterpret_cast<const char*>(path_text()) + off, next - off);
  e.blob = word & ~kExecutable;
  e.executable = (word & kExecutable) != 0;
  return e;
}

// ---- writing -------------------------------------------------------------------------------

IndexFileWriter::IndexFileWriter() = default;
IndexFileWriter::~IndexFileWriter() = default;

size_t IndexFileWriter::Known(const git_oid& oid) const {
  auto it = known_.find(std::string(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ));
  return it == known_.end() ? SIZE_MAX : it->second;
}

size_t IndexFileWriter::AddBlob(const git_oid& oid, BlobKind kind, std::string_view text) {
  const std::string key(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
  auto it = known_.find(key);
  if (it != known_.end()) return it->second;
  const auto number = static_cast<uint32_t>(
      AddSized(oid, kind, kind == BlobKind::kText ? static_cast<uint32_t>(text.size()) : 0));
  if (kind != BlobKind::kText) return number;
  if (seen_.empty()) seen_.assign((1u << 24) / 64, 0);  // a bit per trigram
  touched_.clear();
  ForEachTrigram(text, [&](uint32_t t) {
    uint64_t& word = seen_[t >> 6];
    const uint64_t bit = uint64_t{1} << (t & 63);
    if (word & bit) return;
    word |= bit;
    touched_.push_back(t);
  });
  for (uint32_t t : touched_) {
    seen_[t >> 6] = 0;
    AddPosting(t, number);
  }
  return number;
}

size_t IndexFileWriter::AddSized(const git_oid& oid, BlobKind kind, uint32_t size) {
  const std::string key(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
  auto it = known_.find(key);
  if (it != known_.end()) return it->second;
  const auto number = static_cast<uint32_t>(oids_.size());
  known_.emplace(key, number);
  oids_.push_back(oid);
  kinds_.push_back(static_cast<uint8_t>(kind));
  sizes_.push_back(kind == BlobKind::kText ? size : 0);
  if (kind == BlobKind::kText) text_bytes_ += size;
  return number;
}

namespace {
// Where a trigram's probe starts (before the mask): the high half of a multiplicative hash.
size_t SlotOf(uint32_t trigram) {
  return static_cast<size_t>((uint64_t{trigram} * 0x9E3779B97F4A7C15ull) >> 32);
}
}  // namespace

IndexFileWriter::Posting& IndexFileWriter::PostingOf(uint32_t trigram) {
  if ((postings_.size() + 1) * 2 > slots_.size()) {
    std::vector<uint64_t> grown(std::max<size_t>(slots_.size() * 2, size_t{1} << 14), 0);
    const size_t mask = grown.size() - 1;
    for (const uint64_t s : slots_) {
      if (s == 0) continue;
      size_t i = SlotOf(static_cast<uint32_t>(s)) & mask;
      while (grown[i] != 0) i = (i + 1) & mask;
      grown[i] = s;
    }
    slots_.swap(grown);
  }
  const size_t mask = slots_.size() - 1;
  for (size_t i = SlotOf(trigram) & mask;; i = (i + 1) & mask) {
    const uint64_t s = slots_[i];
    if (s == 0) {
      postings_.emplace_back();
      postings_.back().trigram = trigram;
      slots_[i] = (uint64_t{postings_.size()} << 32) | trigram;
      return postings_.back();
    }
    if (static_cast<uint32_t>(s) == trigram) return postings_[(s >> 32) - 1];
  }
}

void IndexFileWriter::AddPosting(uint32_t trigram, uint32_t blob) {
  Posting& p = PostingOf(trigram);
  if (p.any && blob <= p.last) return;  // each blob once, in increasing order
  PutVarint(&p.bytes, p.any ? blob - p.last : blob);
  p.last = blob;
  p.any = true;
}

size_t IndexFileWriter::AddPart(const git_oid& tree, uint64_t key, size_t first, size_t paths) {
  parts_.push_back(Part{tree, key, static_cast<uint32_t>(path_blobs_.size()),
                        static_cast<uint32_t>(paths), static_cast<uint32_t>(first)});
  return parts_.size() - 1;
}

void IndexFileWriter::NamePart(size_t i, const git_oid& tree, uint64_t key) {
  parts_[i].tree = tree;
  parts_[i].key = key;
}

void IndexFileWriter::AddPath(std::string_view path, size_t blob, bool executable) {
  path_blobs_.push_back(static_cast<uint32_t>(blob) | (executable ? kExecutable : 0));
  path_offsets_.push_back(static_cast<uint32_t>(path_text_.size()));
  path_text_.append(path);
}

Status IndexFileWriter::Write(const std::string& file, const git_oid& commit,
                              uint64_t policy) const {
  const size_t n = oids_.size();
  std::string out(kHeader, '\0');
  std::memcpy(&out[0], kMagic, 8);
  Set32(&out, kVersionAt, IndexFile::kVersion);
  Set32(&out, kHeaderSizeAt, kHeader);
  std::memcpy(&out[kCommitAt], commit.id, GIT_OID_RAWSZ);
  Set64(&out, kPolicyAt, policy);
  Set64(&out, kTextBytesAt, text_bytes_);
  Set32(&out, kBlobCountAt, static_cast<uint32_t>(n));
  Set32(&out, kTrigramCountAt, static_cast<uint32_t>(postings_.size()));
  Set32(&out, kPathCountAt, static_cast<uint32_t>(path_blobs_.size()));
  Set32(&out, kPartCountAt, static_cast<uint32_t>(parts_.size()));
  // The sections in the order Open expects them, each where the one before ends.
  for (const auto& o : oids_) out.append(reinterpret_cast<const char*>(o.id), GIT_OID_RAWSZ);
  out.append(reinterpret_cast<const char*>(kinds_.data()), kinds_.size());
  std::vector<uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  std::sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
    return std::memcmp(oids_[a].id, oids_[b].id, GIT_OID_RAWSZ) < 0;
  });
  for (uint32_t b : perm) Put32(&out, b);
  for (uint32_t size : sizes_) Put32(&out, size);
  std::vector<uint32_t> order(postings_.size());  // the posting lists by trigram
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return postings_[a].trigram < postings_[b].trigram; });
  uint32_t at = 0;
  for (uint32_t k : order) {
    Put32(&out, postings_[k].trigram);
    Put32(&out, at);
    at += static_cast<uint32_t>(postings_[k].bytes.size());
  }
  Put32(&out, at);
  Set64(&out, kPostingsSizeAt, at);
  for (uint32_t k : order) out.append(postings_[k].bytes);
  for (size_t i = 0; i < path_blobs_.size(); ++i) {
    Put32(&out, path_blobs_[i]);
    Put32(&out, path_offsets_[i]);
  }
  Put32(&out, static_cast<uint32_t>(path_text_.size()));
  Set64(&out, kPathTextSizeAt, path_text_.size());
  out.append(path_text_);
  for (const Part& part : parts_) {
    Put32(&out, part.position);
    Put32(&out, part.paths);
    out.append(reinterpret_cast<const char*>(&part.key), 8);
    out.append(reinterpret_cast<const char*>(part.tree.id), GIT_OID_RAWSZ);
    Put32(&out, part.first);
  }
  if (out.size() > UINT32_MAX) {
    // Open finds its sections by 32-bit offsets (and a posting list's offset is 32 bits).
    return Error{"the text index would be larger than 4 GiB (" + std::to_string(out.size()) +
                 " bytes); the repository is searched without it"};
  }
  Set64(&out, kFileSizeAt, out.size());
  Set64(&out, kDigestAt, FileDigest(out));

  const std::string slash = file.substr(0, file.rfind('/') + 1);
  const std::string temp = slash + ".text-index-" + std::to_string(getpid()) + "-" +
                           std::to_string(static_cast<long>(syscall(SYS_gettid))) + ".part";
  unlink(temp.c_str());  // one a stopped server left
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Error{"cannot write the text index: " + std::string(std::strerror(errno))};
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t w = ::write(fd, out.data() + done, out.size() - done);
    if (w <= 0) {
      if (w < 0 && errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      unlink(temp.c_str());
      return Error{"cannot write the text index: " + why};
    }
    done += static_cast<size_t>(w);
  }
  if (::close(fd) != 0 || rename(temp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(temp.c_str());
    return Error{"cannot write the text index: " + why};
  }
  return Status{};
}

}  // namespace rr
