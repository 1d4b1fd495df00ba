// IndexFile: one file of the text index as kept on disk. The same format plays two parts
// (core/index/text_store.h): a shard of the server's store, holding for each unique content
// (blob) its kind, its size and the trigrams it holds (core/index/trigrams.h) as posting lists,
// and no paths; and a repository's list, holding one commit's served files (paths in walk order,
// each with its content id) and its blobs' kinds as read, and no trigrams. It only ever narrows
// which files a search reads; the search's own matcher decides (core/search).
//
// The file, written by IndexFileWriter to a temporary name and renamed into place (a reader sees
// the old file or the new one, never half of one), little-endian:
//   header   magic "RRTXTIDX", format version (4), the header's size (104), the file's size, a
//            64-bit FNV-1a digest of every other byte of the file (FileDigest), the commit, the
//            policy digest (include / exclude and the credential-file rule the paths were listed
//            under), the text's bytes, the counts of blobs, trigrams, paths and parts, and the
//            sizes of the postings and the path text: each section below begins where the one
//            before ends, and the last ends where the file does. (Format 3, still read, had a
//            header of 184 bytes that also gave each section's offset.)
//   blobs    content ids (20 bytes each), then one byte each: text (its trigrams are
//            indexed), binary (never matches), or unread (over the size limit, not in the local
//            copy: always read by a search); then the blob numbers in content-id order (4 bytes
//            each); then each blob's size in bytes (4 bytes each; 0 when not text);
//   trigrams (trigram, offset of its postings) sorted by trigram, then the end of the postings;
//   postings blob numbers in increasing order, each the difference from the one before as a
//            LEB128 varint;
//   paths    per served file: its blob number and flags (executable), and where its path's bytes
//            begin in the path text; then the path text;
//   parts    (a list only) the runs of files listed in a part of the store, shared by every
//            list that names it (core/index/text_store.h), in walk order: for each, how many of
//            the list's own paths come before it, how many paths it takes, the part's key (its
//            file's name) and id (the folder's tree, the commit the part records), and the first
//            of the part's paths it takes.
// Open maps the file read-only (or reads it, when small) and checks all of it before use: magic,
// version, size, digest, every offset and count within the file, offsets in order. A file that
// fails any check is refused with the reason (the search then reads the repository as without
// an index); nothing in a file, however made, can make a reader read outside it.
#pragma once

#include <git2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/index/query_memo.h"
#include "core/index/trigrams.h"
#include "core/util/result.h"

namespace rr {

enum class BlobKind : uint8_t { kText = 0, kBinary = 1, kUnread = 2 };

// Which blobs of one index file may hold a match of a query: a flag a blob, and the blobs
// flagged in increasing order (few, for a selective query).
struct CandidateSet {
  std::vector<bool> maybe;
  std::vector<uint32_t> blobs;
};

class IndexFile {
 public:
  static constexpr uint32_t kVersion = 4;
  // A file smaller than this is read into memory of its own rather than mapped (a mapping takes
  // whole pages: most lists are a kilobyte or two).
  static constexpr size_t kCopiedBelow = 16 * 1024;

  // Maps (or, when small, reads) and checks `file`; an error says why it cannot be used.
  static Result<std::shared_ptr<const IndexFile>> Open(const std::string& file);

 private:
  struct Made {
    explicit Made() = default;
  };

 public:
  explicit IndexFile(Made) {}  // Open's (one block with its shared count)
  ~IndexFile();
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;

  const git_oid& commit() const { return commit_; }
  uint64_t policy() const { return policy_; }
  size_t blobs() const { return blob_count_; }
  size_t paths() const { return path_count_; }
  size_t bytes() const { return size_; }
  // The text the indexed blobs hold (bytes), as counted when it was written.
  uint64_t text_bytes() const { return text_bytes_; }

  // The blob number of a content id, or SIZE_MAX when the index does not hold it.
  size_t Find(const git_oid& oid) const;
  BlobKind Kind(size_t blob) const;
  const git_oid& Oid(size_t blob) const;
  uint32_t Size(size_t blob) const;  // its bytes, when text
  // The blob number at `rank` in content-id order (rank < blobs()).
  size_t Sorted(size_t rank) const;

  // Which blobs may hold a match of `query`: one flag a blob. Unread blobs always may.
  // False when a posting list is found damaged (then use no index).
  bool Candidates(const TrigramQuery& query, std::vector<bool>* out) const;
  // The same with the blobs flagged listed, kept for the last few queries asked (every
  // repository of a search asks a shard the same query): null when a posting list is found
  // damaged.
  std::shared_ptr<const CandidateSet> CachedCandidates(const TrigramQuery& query) const;

  // The trigrams held, in increasing order, and each one's posting list (for merging shards).
  size_t trigrams() const { return trigram_count_; }
  uint32_t TrigramAt(size_t i) const;
  bool PostingsAt(size_t i, std::vector<uint32_t>* out) const;

  struct PathEntry {
    std::string_view path;
    size_t blob = 0;
    bool executable = false;
  };
  PathEntry Path(size_t i) const;
  // The parts a list names, in walk order (a part comes after the first `position` of the list's
  // own paths).
  struct PartEntry {
    size_t position = 0;
    size_t paths = 0;
    uint64_t key = 0;
    git_oid tree{};
    size_t first = 0;
  };
  size_t parts() const { return part_count_; }
  PartEntry Part(size_t i) const;
  // The paths the parts hold, as the list counts them.
  size_t part_paths() const { return part_paths_; }
  // The paths whose blob was read as binary, and as unread (counted when the file was checked).
  size_t binary_paths() const { return binary_paths_; }
  size_t unread_paths() const { return unread_paths_; }
  // Lets a mapped file's pages leave this process's resident memory (the page cache keeps them)
  // until they are read again; a file read into memory stays.
  void LetGo() const;

 private:
  bool Postings(uint32_t trigram, std::vector<uint32_t>* out) const;

  // Kept small (one for each of 20,000 repositories' lists): the counts in 32 bits, as the
  // file gives them, beside the commit; the sections' sizes, checked at Open, not kept; where
  // each section starts, as a 32-bit offset (136 bytes by sizeof, one 160-byte block with the
  // shared count; with a pointer a section it was 192).
  // Mapped (the whole file), or read into memory of its own (copied_: its sections, without the
  // header).
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
  uint64_t policy_ = 0;
  uint64_t text_bytes_ = 0;
  size_t part_paths_ = 0;
  git_oid commit_{};
  uint32_t blob_count_ = 0, trigram_count_ = 0, path_count_ = 0;
  uint32_t binary_paths_ = 0, unread_paths_ = 0, part_count_ = 0;
  // Where each section starts in data_ (a list is at most 4 GiB: Open refuses more).
  uint32_t oids_at_ = 0;
  uint32_t perm_at_ = 0;  // blob numbers in content-id order
  uint32_t kinds_at_ = 0;
  uint32_t sizes_at_ = 0;
  uint32_t trigrams_at_ = 0;  // (u32 trigram, u32 offset) * count, then u32 end
  uint32_t postings_at_ = 0;
  uint32_t path_table_at_ = 0;  // (u32 blob | executable bit 31, u32 offset)
  uint32_t path_text_at_ = 0;
  uint32_t parts_at_ = 0;
  bool copied_ = false;
  const unsigned char* oids() const { return data_ + oids_at_; }
  const unsigned char* perm() const { return data_ + perm_at_; }
  const unsigned char* kinds() const { return data_ + kinds_at_; }
  const unsigned char* sizes() const { return data_ + sizes_at_; }
  const unsigned char* trigram_table() const { return data_ + trigrams_at_; }
  const unsigned char* postings() const { return data_ + postings_at_; }
  const unsigned char* path_table() const { return data_ + path_table_at_; }
  const unsigned char* path_text() const { return data_ + path_text_at_; }
  const unsigned char* part_records() const { return data_ + parts_at_; }
  // CachedCandidates' answers: a shard is asked by every search, most lists never.
  QueryMemo<CandidateSet> memo_;
};

// Builds an index file: blobs first (each once, in any order), then the paths in walk order.
class IndexFileWriter {
 public:
  IndexFileWriter();
  ~IndexFileWriter();
  // The blob number of `oid`, adding it (with its trigrams, when text) on first sight.
  size_t AddBlob(const git_oid& oid, BlobKind kind, std::string_view text);
  // Adds `oid` with its size and no trigrams (a list's blob; or a merged one, whose trigrams
  // then come with AddPosting, in increasing blob order for each trigram).
  size_t AddSized(const git_oid& oid, BlobKind kind, uint32_t size);
  void AddPosting(uint32_t trigram, uint32_t blob);
  size_t Known(const git_oid& oid) const;  // SIZE_MAX when not added
  size_t blobs() const { return oids_.size(); }
  void AddPath(std::string_view path, size_t blob, bool executable);
  // A run of a part's paths (`paths` of them from its `first`) after the paths added so far;
  // returns its number. NamePart sets its id and key when they are known only later.
  size_t AddPart(const git_oid& tree, uint64_t key, size_t first, size_t paths);
  void NamePart(size_t i, const git_oid& tree, uint64_t key);
  size_t paths() const { return path_blobs_.size(); }
  // What a part is written for (its folder's tree), kept with the writer.
  void SetTree(const git_oid& tree) { tree_ = tree; }
  const git_oid& tree() const { return tree_; }
  // Writes the file atomically (temporary file in the same folder, renamed into place).
  Status Write(const std::string& file, const git_oid& commit, uint64_t policy) const;
  uint64_t text_bytes() const { return text_bytes_; }

 private:
  struct Posting {
    std::string bytes;  // varint deltas
    uint32_t trigram = 0;
    uint32_t last = 0;
    bool any = false;
  };
  // The posting list of `trigram`, made empty on first sight.
  Posting& PostingOf(uint32_t trigram);
  std::vector<git_oid> oids_;
  std::vector<uint8_t> kinds_;
  std::vector<uint32_t> sizes_;
  std::unordered_map<std::string, size_t> known_;  // raw oid bytes -> number
  // One posting list per distinct trigram, in the order first seen. slots_ finds a trigram's:
  // open addressing with linear probing, a slot holding (its index + 1) << 32 | the trigram, 0
  // when empty, never more than half full. (A node-based map here took half of indexing's CPU.)
  std::vector<Posting> postings_;
  std::vector<uint64_t> slots_;
  std::vector<uint64_t> seen_;  // a bit per trigram, for the blob being added
  std::vector<uint32_t> touched_;
  std::vector<uint32_t> path_blobs_;
  std::vector<uint32_t> path_offsets_;
  std::string path_text_;
  struct Part {
    git_oid tree;
    uint64_t key;
    uint32_t position, paths, first;
  };
  std::vector<Part> parts_;
  git_oid tree_{};
  uint64_t text_bytes_ = 0;
};

// The digest the file format uses (FNV-1a, 64 bits), also for policies.
uint64_t Fnv64(std::string_view bytes, uint64_t seed = 1469598103934665603ull);
// An index file's digest: of every byte but the digest's own eight (header included).
uint64_t FileDigest(std::string_view file);

}  // namespace rr
