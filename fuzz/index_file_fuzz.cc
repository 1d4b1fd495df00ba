// The text index's file reader (core/index/text_index.h): one file, as a shard of the store or a
// repository's list is kept, opened by IndexFile::Open, then every accessor on what it holds (up
// to 256 of each): each blob's id (and Find of it), kind, size and rank; each trigram and its
// posting list; the candidates of a few queries made of the file's own trigrams, and of one
// asking every file; each path and each part.
//
// Input: a byte of flags, then the file. Flag 1 writes the file's size and digest into its header
// as the writer does (checks a mutation almost never passes, and which hide everything behind
// them). Inputs under IndexFile::kCopiedBelow are read into memory, larger ones mapped: both
// ways are reached.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/index/text_index.h"
#include "fuzz_util.h"

namespace {

constexpr size_t kFileSizeAt = 16, kDigestAt = 24, kHeader = 104;

void Set64(std::string* out, size_t at, uint64_t v) { std::memcpy(&(*out)[at], &v, 8); }

void Walk(const rr::IndexFile& file) {
  const size_t blobs = std::min<size_t>(file.blobs(), 256);
  for (size_t b = 0; b < blobs; ++b) {
    const git_oid& oid = file.Oid(b);
    if (file.Find(oid) != b) __builtin_trap();  // ids are unique: Open checked their order
    (void)file.Kind(b);
    (void)file.Size(b);
    if (file.Sorted(b) >= file.blobs()) __builtin_trap();
  }
  std::vector<uint32_t> postings;
  rr::TrigramQuery query;
  query.all = false;
  const size_t trigrams = std::min<size_t>(file.trigrams(), 256);
  for (size_t i = 0; i < trigrams; ++i) {
    const uint32_t t = file.TrigramAt(i);
    if (!file.PostingsAt(i, &postings)) continue;
    for (uint32_t b : postings) {
      if (b >= file.blobs()) __builtin_trap();
    }
    if (query.branches.size() < 4) query.branches.push_back({t});
    if (i > 0 && query.branches.size() < 8) query.branches.push_back({file.TrigramAt(i - 1), t});
  }
  std::vector<bool> maybe;
  (void)file.Candidates(query, &maybe);
  (void)file.CachedCandidates(query);
  rr::TrigramQuery every;  // all: every blob
  (void)file.Candidates(every, &maybe);
  const size_t paths = std::min<size_t>(file.paths(), 256);
  for (size_t i = 0; i < paths; ++i) {
    const auto entry = file.Path(i);
    if (entry.blob >= file.blobs()) __builtin_trap();
    (void)entry.path.size();
  }
  const size_t parts = std::min<size_t>(file.parts(), 256);
  for (size_t i = 0; i < parts; ++i) (void)file.Part(i);
  file.LetGo();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rr_fuzz::Input in(data, size);
  const uint8_t flags = in.Byte();
  std::string bytes(in.Rest());
  if ((flags & 1) && bytes.size() >= kHeader) {
    Set64(&bytes, kFileSizeAt, bytes.size());
    Set64(&bytes, kDigestAt, rr::FileDigest(bytes));
  }
  const std::string path = rr_fuzz::ScratchDir() + "/text.list";
  rr_fuzz::WriteFile(path, bytes);
  if (auto file = rr::IndexFile::Open(path)) Walk(**file);
  rr_fuzz::RemoveFiles({path});
  return 0;
}
