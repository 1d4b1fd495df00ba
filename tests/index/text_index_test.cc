// The text index file: what is written is read back (content ids, kinds, paths, the blobs a query
// may match), and a file damaged in any way — cut at any length, any byte changed, a wrong
// version, or changed and its digest made to fit again (so that only the structural checks stand
// between it and the reader) — is refused on open or, if its structure still holds, read only
// inside itself: never a crash, never a read past the file.
#include "core/index/text_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "core/index/text_store.h"
#include "tests/testkit/git_fixture.h"

namespace rr {
namespace text_index_test {
namespace {

using rr::testing::TempDir;

git_oid OidOf(int n) {
  git_oid oid{};
  for (int i = 0; i < GIT_OID_RAWSZ; ++i)
    oid.id[i] = static_cast<unsigned char>((n * 37 + i * 11) & 0xFF);
  oid.id[0] = static_cast<unsigned char>(n);
  return oid;
}

std::string ReadAll(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void WriteAll(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// Three blobs: two texts, one binary; four paths (one content under two paths).
std::string WriteSample(const TempDir& tmp) {
  IndexFileWriter w;
  const size_t a = w.AddBlob(OidOf(3), BlobKind::kText, "int main() { return orgtoken; }\n");
  const size_t b = w.AddBlob(OidOf(1), BlobKind::kText, "Hello World\nsecond line\n");
  const size_t c = w.AddBlob(OidOf(2), BlobKind::kBinary, {});
  const size_t d = w.AddBlob(OidOf(4), BlobKind::kUnread, {});
  EXPECT_EQ(w.AddBlob(OidOf(3), BlobKind::kText, "ignored: known"), a);
  w.AddPath("src/main.c", a, false);
  w.AddPath("README", b, false);
  w.AddPath("copy/README", b, true);
  w.AddPath("logo.png", c, false);
  w.AddPart(OidOf(7), 0x1234, 0, 40);  // after the five paths
  w.AddPath("huge.txt", d, false);
  w.AddPart(OidOf(8), 0x5678, 5, 33);  // at the end
  const std::string file = tmp / "text.idx";
  EXPECT_TRUE(w.Write(file, OidOf(9), 77));
  return file;
}

// Everything a search reads of an index, over all of it.
void ReadEverything(const IndexFile& ix) {
  std::vector<bool> maybe;
  for (const char* p : {"orgtoken", "hello", "line", "zzzz", "int"}) {
    TrigramQuery q = PlanTrigrams(p, false, false);
    (void)ix.Candidates(q, &maybe);
  }
  std::vector<uint32_t> posting;
  for (size_t i = 0; i < ix.trigrams(); ++i) {
    (void)ix.TrigramAt(i);
    if (ix.PostingsAt(i, &posting)) {
      for (uint32_t b : posting) ASSERT_LT(b, ix.blobs());
    }
  }
  for (size_t r = 0; r < ix.blobs(); ++r) {
    ASSERT_LT(ix.Sorted(r), ix.blobs());
    (void)ix.Size(ix.Sorted(r));
  }
  for (size_t i = 0; i < ix.paths(); ++i) {
    const auto e = ix.Path(i);
    ASSERT_LT(e.blob, ix.blobs());
    (void)ix.Kind(e.blob);
    (void)ix.Find(ix.Oid(e.blob));
  }
  size_t part_paths = 0;
  for (size_t i = 0; i < ix.parts(); ++i) {
    const auto part = ix.Part(i);
    ASSERT_LE(part.position, ix.paths());
    if (i > 0) {
      ASSERT_GE(part.position, ix.Part(i - 1).position);
    }
    part_paths += part.paths;
  }
  ASSERT_EQ(part_paths, ix.part_paths());
}

TEST(TextIndex, WhatIsWrittenIsReadBack) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  auto ix = IndexFile::Open(file);
  ASSERT_TRUE(ix) << ix.error();
  const IndexFile& x = **ix;
  const git_oid nine = OidOf(9);
  EXPECT_TRUE(git_oid_equal(&x.commit(), &nine));
  EXPECT_EQ(x.policy(), 77u);
  EXPECT_EQ(x.blobs(), 4u);
  ASSERT_EQ(x.paths(), 5u);
  EXPECT_EQ(x.Path(0).path, "src/main.c");
  EXPECT_EQ(x.Path(2).path, "copy/README");
  EXPECT_TRUE(x.Path(2).executable);
  EXPECT_FALSE(x.Path(1).executable);
  EXPECT_EQ(x.Path(1).blob, x.Path(2).blob);
  for (int n = 1; n <= 4; ++n) {
    const size_t b = x.Find(OidOf(n));
    ASSERT_NE(b, SIZE_MAX) << n;
    const git_oid want = OidOf(n);
    EXPECT_TRUE(git_oid_equal(&x.Oid(b), &want));
  }
  EXPECT_EQ(x.Find(OidOf(5)), SIZE_MAX);
  // The parts, where they were added among the paths.
  ASSERT_EQ(x.parts(), 2u);
  const git_oid seven = OidOf(7), eight = OidOf(8);
  EXPECT_EQ(x.Part(0).position, 4u);
  EXPECT_EQ(x.Part(0).paths, 40u);
  EXPECT_EQ(x.Part(0).key, 0x1234u);
  const auto first = x.Part(0), second = x.Part(1);
  EXPECT_TRUE(git_oid_equal(&first.tree, &seven));
  EXPECT_EQ(x.Part(1).position, 5u);
  EXPECT_EQ(x.Part(1).key, 0x5678u);
  EXPECT_EQ(x.Part(0).first, 0u);
  EXPECT_EQ(x.Part(1).first, 5u);
  EXPECT_TRUE(git_oid_equal(&second.tree, &eight));
  EXPECT_EQ(x.part_paths(), 73u);
  EXPECT_EQ(x.Kind(x.Find(OidOf(2))), BlobKind::kBinary);
  EXPECT_EQ(x.binary_paths(), 1u);  // logo.png
  EXPECT_EQ(x.unread_paths(), 1u);  // huge.txt
  // Sizes are the text's bytes; none for the others.
  EXPECT_EQ(x.Size(x.Find(OidOf(3))), 32u);
  EXPECT_EQ(x.Size(x.Find(OidOf(2))), 0u);
  EXPECT_EQ(x.text_bytes(), 32u + 24u);
  std::vector<bool> maybe;
  ASSERT_TRUE(x.Candidates(PlanTrigrams("orgtoken", false, false), &maybe));
  // The text holding it, and the unread one (always read); not the other text nor the binary.
  EXPECT_EQ(maybe, (std::vector<bool>{true, false, false, true}));
  ASSERT_TRUE(x.Candidates(PlanTrigrams("WORLD", false, true), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{false, true, false, true}));
  ASSERT_TRUE(x.Candidates(PlanTrigrams("World|orgtoken", true, false), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{true, true, false, true}));
  // Across a line break is no trigram: "World\nsecond" is never required as one.
  ASSERT_TRUE(x.Candidates(PlanTrigrams("ld second", false, false), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{false, false, false, true}));
  ASSERT_TRUE(x.Candidates(PlanTrigrams("ab", false, false), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{true, true, true, true}));
}

// Many blobs with a hundred thousand distinct trigrams and more (the writer's table grows many
// times over): every trigram's posting list read back is the blobs that hold it, in order, as a
// plain map of the same texts says; and the trigrams come in order.
TEST(TextIndex, EveryPostingListOfManyDistinctTrigramsIsReadBackWhole) {
  TempDir tmp;
  std::mt19937 random(7);
  std::map<uint32_t, std::vector<uint32_t>> want;
  IndexFileWriter w;
  for (int n = 0; n < 120; ++n) {
    std::string text;
    for (int i = 0; i < 2500; ++i) {
      // Bytes from a wide range (folded case aside) so that most trigrams are new.
      text.push_back(static_cast<char>(0x21 + random() % 0x5E + (random() % 4 == 0 ? 0x80 : 0)));
    }
    text += "\ncommon line\n";
    git_oid oid{};
    oid.id[0] = static_cast<unsigned char>(n & 0xFF);
    oid.id[1] = static_cast<unsigned char>(n >> 8);
    oid.id[2] = 0x5A;
    const auto blob = static_cast<uint32_t>(w.AddBlob(oid, BlobKind::kText, text));
    ForEachTrigram(text, [&](uint32_t t) {
      auto& list = want[t];
      if (list.empty() || list.back() != blob) list.push_back(blob);
    });
    w.AddPath("f" + std::to_string(n) + ".txt", blob, false);
  }
  ASSERT_GT(want.size(), 150000u);
  const std::string file = tmp / "many.idx";
  ASSERT_TRUE(w.Write(file, OidOf(1), 0));
  auto ix = IndexFile::Open(file);
  ASSERT_TRUE(ix) << ix.error();
  ASSERT_EQ((*ix)->trigrams(), want.size());
  std::vector<uint32_t> posting;
  size_t i = 0;
  for (const auto& [t, blobs] : want) {
    ASSERT_EQ((*ix)->TrigramAt(i), t) << i;
    ASSERT_TRUE((*ix)->PostingsAt(i, &posting));
    ASSERT_EQ(posting, blobs) << "trigram " << t;
    ++i;
  }
  EXPECT_EQ(want.at(TrigramOf('c', 'o', 'm')).size(), 120u);  // the line every blob holds
}

// A shard merged from another (as the store compacts): blobs with their kinds and sizes, and
// each trigram's postings renumbered, answer as the original.
TEST(TextIndex, AFileCopiedByItsPostingsAnswersTheSame) {
  TempDir tmp;
  auto original = IndexFile::Open(WriteSample(tmp));
  ASSERT_TRUE(original) << original.error();
  const IndexFile& x = **original;
  IndexFileWriter w;
  std::vector<uint32_t> remap(x.blobs()), posting;
  for (size_t b = x.blobs(); b-- > 0;) {  // numbered the other way round
    remap[b] = static_cast<uint32_t>(w.AddSized(x.Oid(b), x.Kind(b), x.Size(b)));
  }
  // Postings must come in increasing blob order per trigram: collected, sorted, added.
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (size_t i = 0; i < x.trigrams(); ++i) {
    ASSERT_TRUE(x.PostingsAt(i, &posting));
    for (uint32_t b : posting) pairs.emplace_back(x.TrigramAt(i), remap[b]);
  }
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [t, b] : pairs) w.AddPosting(t, b);
  const std::string file = tmp / "copy.tri";
  ASSERT_TRUE(w.Write(file, OidOf(0), 0));
  auto copy = IndexFile::Open(file);
  ASSERT_TRUE(copy) << copy.error();
  EXPECT_EQ((*copy)->text_bytes(), x.text_bytes());
  for (const char* p : {"orgtoken", "hello", "line", "zzzz", "int", "World|orgtoken"}) {
    const TrigramQuery q = PlanTrigrams(p, true, true);
    std::vector<bool> a, b;
    ASSERT_TRUE(x.Candidates(q, &a));
    ASSERT_TRUE((*copy)->Candidates(q, &b));
    for (size_t blob = 0; blob < x.blobs(); ++blob) {
      EXPECT_EQ(a[blob], b[remap[blob]]) << p << " " << blob;
      EXPECT_EQ(x.Kind(blob), (*copy)->Kind(remap[blob]));
      EXPECT_EQ(x.Size(blob), (*copy)->Size(remap[blob]));
    }
    auto cached = (*copy)->CachedCandidates(q);
    ASSERT_TRUE(cached);
    EXPECT_EQ(cached->maybe, b);
    std::vector<uint32_t> flagged;
    for (size_t blob = 0; blob < b.size(); ++blob) {
      if (b[blob]) flagged.push_back(static_cast<uint32_t>(blob));
    }
    EXPECT_EQ(cached->blobs, flagged);
    EXPECT_EQ((*copy)->CachedCandidates(q), cached);  // kept, not computed again
  }
}

TEST(TextIndex, AFileCutAtAnyLengthIsRefused) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  const std::string whole = ReadAll(file);
  for (size_t n = 0; n < whole.size(); ++n) {
    WriteAll(file, whole.substr(0, n));
    auto ix = IndexFile::Open(file);
    EXPECT_FALSE(ix) << "cut at " << n;
  }
  WriteAll(file, whole + "x");
  EXPECT_FALSE(IndexFile::Open(file));
}

// Its sections are found by 32-bit offsets: a list past 4 GiB is refused for its size, before
// a byte of it is read (made sparse here: nothing is written past the sample).
TEST(TextIndex, AFilePastFourGiBIsRefusedForItsSize) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  std::filesystem::resize_file(file, (uint64_t{1} << 32) + 1);
  auto ix = IndexFile::Open(file);
  ASSERT_FALSE(ix);
  EXPECT_NE(ix.error().find("larger than 4 GiB"), std::string::npos) << ix.error();
  std::filesystem::resize_file(file, 0);
}

TEST(TextIndex, AnyByteChangedIsRefused) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  const std::string whole = ReadAll(file);
  for (size_t at = 0; at < whole.size(); ++at) {
    std::string bad = whole;
    bad[at] = static_cast<char>(bad[at] ^ 0x5A);
    WriteAll(file, bad);
    auto ix = IndexFile::Open(file);
    EXPECT_FALSE(ix) << "byte " << at;
  }
}

// Whether `file` is mapped into this process (/proc/self/maps names it).
bool Mapped(const std::string& file) {
  return ReadAll("/proc/self/maps").find(std::filesystem::canonical(file).string()) !=
         std::string::npos;
}

// A small file (a repository's list: a kilobyte or two) is read into memory of its own, not
// mapped: a mapping takes a whole page, 20,000 pages for 20,000 repositories. A large one (a
// shard) is mapped; both are checked the same way.
TEST(TextIndex, ASmallFileIsReadAndALargeOneMappedBothCheckedWhole) {
  TempDir tmp;
  const std::string small = WriteSample(tmp);
  ASSERT_LT(ReadAll(small).size(), IndexFile::kCopiedBelow);
  auto ix = IndexFile::Open(small);
  ASSERT_TRUE(ix) << ix.error();
  EXPECT_FALSE(Mapped(small));
  ReadEverything(**ix);
  EXPECT_EQ((*ix)->Path(1).path, "README");
  (*ix)->LetGo();  // nothing to let go of: still read
  EXPECT_EQ((*ix)->Path(4).path, "huge.txt");

  IndexFileWriter w;
  for (int n = 0; n < 64; ++n) {
    std::string text = "line " + std::to_string(n) + " of a larger file\n";
    for (int i = 0; i < 200; ++i) text += std::to_string(n * 1000 + i) + " word" + text[5] + "\n";
    w.AddPath("f" + std::to_string(n), w.AddBlob(OidOf(n + 10), BlobKind::kText, text), false);
  }
  const std::string large = tmp / "large.idx";
  ASSERT_TRUE(w.Write(large, OidOf(1), 0));
  const std::string whole = ReadAll(large);
  ASSERT_GE(whole.size(), IndexFile::kCopiedBelow);
  {
    auto big = IndexFile::Open(large);
    ASSERT_TRUE(big) << big.error();
    EXPECT_TRUE(Mapped(large));
    ReadEverything(**big);
    EXPECT_EQ((*big)->Path(63).path, "f63");
  }
  EXPECT_FALSE(Mapped(large));  // unmapped with the last reference
  // Damaged, the large one is refused as the small one is, cut or changed anywhere.
  for (size_t n : {size_t{0}, size_t{40}, whole.size() / 2, whole.size() - 1}) {
    WriteAll(large, whole.substr(0, n));
    EXPECT_FALSE(IndexFile::Open(large)) << "cut at " << n;
  }
  for (size_t at : {size_t{9}, whole.size() / 3, whole.size() / 2, whole.size() - 1}) {
    std::string bad = whole;
    bad[at] = static_cast<char>(bad[at] ^ 0x5A);
    WriteAll(large, bad);
    EXPECT_FALSE(IndexFile::Open(large)) << "byte " << at;
  }
}

// The fuzz target's seeds (fuzz/corpus/index_file/, a flag byte then the file) are written by
// fuzz/make_seeds.py from the format the header documents, not by IndexFileWriter: the reader
// takes them, and finds in them what that script put there.
TEST(TextIndex, FilesWrittenFromTheDocumentedFormatAreRead) {
  const std::string corpus = std::string(RR_SOURCE_DIR) + "/fuzz/corpus/index_file/";
  TempDir tmp;
  auto open = [&](const std::string& seed) {
    const std::string file = tmp / seed;
    WriteAll(file, ReadAll(corpus + seed).substr(1));
    auto ix = IndexFile::Open(file);
    EXPECT_TRUE(ix) << seed << ": " << ix.error();
    return ix ? *ix : nullptr;
  };
  auto shard = open("shard");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->blobs(), 6u);
  EXPECT_EQ(shard->Kind(2), BlobKind::kBinary);
  EXPECT_EQ(shard->Kind(3), BlobKind::kUnread);
  std::vector<bool> maybe;
  ASSERT_TRUE(shard->Candidates(PlanTrigrams("orgtoken_0042", false, false), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{true, false, false, true, false, false}));
  ASSERT_TRUE(shard->Candidates(PlanTrigrams("search me", false, true), &maybe));
  EXPECT_EQ(maybe, (std::vector<bool>{false, true, false, true, false, false}));
  auto list = open("list-with-parts");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->paths(), 4u);
  EXPECT_EQ(list->Path(1).path, "bin/run");
  EXPECT_TRUE(list->Path(1).executable);
  EXPECT_EQ(list->binary_paths(), 1u);
  ASSERT_EQ(list->parts(), 2u);
  EXPECT_EQ(list->Part(0).key, 0xFEEDFACECAFEBEEFull);
  EXPECT_EQ(list->part_paths(), 15u);
  auto mapped = open("mapped");
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->Path(399).path, "f/399.txt");
  ASSERT_TRUE(mapped->Candidates(PlanTrigrams("token_00123", false, false), &maybe));
  EXPECT_EQ(std::count(maybe.begin(), maybe.end(), true), 1);
  EXPECT_TRUE(maybe[123]);
  EXPECT_TRUE(open("empty"));
}

TEST(TextIndex, AnotherVersionIsRefusedWithItsNumber) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  std::string bad = ReadAll(file);
  bad[8] = 7;
  WriteAll(file, bad);
  auto ix = IndexFile::Open(file);
  ASSERT_FALSE(ix);
  EXPECT_NE(ix.error().find("format 7"), std::string::npos) << ix.error();
  WriteAll(file, "");
  EXPECT_FALSE(IndexFile::Open(file));
  EXPECT_FALSE(IndexFile::Open(tmp / "absent.idx"));
}

// `file` (format 4) as the previous release wrote it: format 3, whose header of 184 bytes also
// gave each section's offset. The sections are the same, in the same order.
std::string FormatThree(const std::string& v4) {
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, &v4[at], 4);
    return uint64_t{v};
  };
  auto u64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, &v4[at], 8);
    return v;
  };
  const uint64_t n = u32(72), t = u32(76), p = u32(80), post = u64(84), text = u64(92),
                 parts = u32(100);
  std::string out = v4.substr(0, 84) + std::string(100, '\0');
  auto set = [&](size_t at, uint64_t v, size_t bytes) { std::memcpy(&out[at], &v, bytes); };
  set(8, 3, 4);
  set(12, 184, 4);
  uint64_t at = 184;
  auto section = [&](size_t slot, uint64_t len) {
    set(slot, at, 8);
    at += len;
  };
  section(88, n * 20);      // ids
  section(96, n);           // kinds
  section(104, n * 4);      // ids' order
  section(160, n * 4);      // sizes
  section(112, t * 8 + 4);  // trigrams
  section(120, post);       // postings
  set(128, post, 8);
  section(136, p * 8 + 4);  // paths
  section(144, text);       // path text
  set(152, text, 8);
  set(168, parts, 4);
  section(176, parts * 40);
  out += v4.substr(104);
  set(16, out.size(), 8);
  const uint64_t digest = FileDigest(out);
  set(24, digest, 8);
  return out;
}

TEST(TextIndex, AFileOfTheFormatBeforeIsReadAsItWasWritten) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  auto now = IndexFile::Open(file);
  ASSERT_TRUE(now) << now.error();
  const std::string old_file = tmp / "old.idx";
  WriteAll(old_file, FormatThree(ReadAll(file)));
  auto old = IndexFile::Open(old_file);
  ASSERT_TRUE(old) << old.error();
  const IndexFile &a = **now, &b = **old;
  EXPECT_EQ(b.bytes(), a.bytes() + 80);
  EXPECT_TRUE(git_oid_equal(&a.commit(), &b.commit()));
  EXPECT_EQ(a.policy(), b.policy());
  EXPECT_EQ(a.text_bytes(), b.text_bytes());
  ASSERT_EQ(a.blobs(), b.blobs());
  for (size_t i = 0; i < a.blobs(); ++i) {
    EXPECT_TRUE(git_oid_equal(&a.Oid(i), &b.Oid(i)));
    EXPECT_EQ(a.Kind(i), b.Kind(i));
    EXPECT_EQ(a.Size(i), b.Size(i));
    EXPECT_EQ(a.Sorted(i), b.Sorted(i));
  }
  ASSERT_EQ(a.paths(), b.paths());
  for (size_t i = 0; i < a.paths(); ++i) {
    EXPECT_EQ(a.Path(i).path, b.Path(i).path);
    EXPECT_EQ(a.Path(i).blob, b.Path(i).blob);
    EXPECT_EQ(a.Path(i).executable, b.Path(i).executable);
  }
  ASSERT_EQ(a.parts(), b.parts());
  for (size_t i = 0; i < a.parts(); ++i) {
    EXPECT_EQ(a.Part(i).key, b.Part(i).key);
    EXPECT_EQ(a.Part(i).first, b.Part(i).first);
    EXPECT_EQ(a.Part(i).paths, b.Part(i).paths);
    EXPECT_EQ(a.Part(i).position, b.Part(i).position);
  }
  for (const char* q : {"orgtoken", "hello", "zzzz"}) {
    std::vector<bool> x, y;
    ASSERT_TRUE(a.Candidates(PlanTrigrams(q, false, false), &x));
    ASSERT_TRUE(b.Candidates(PlanTrigrams(q, false, false), &y));
    EXPECT_EQ(x, y) << q;
  }
  // Format 4's layout under format 3's number (no offsets where they would be) is refused.
  std::string mixed = ReadAll(file);
  mixed[8] = 3;
  const uint64_t digest = FileDigest(mixed);
  std::memcpy(&mixed[24], &digest, 8);
  WriteAll(old_file, mixed);
  EXPECT_FALSE(IndexFile::Open(old_file));
}

// Format 4's sections end where the file does: bytes after the last are refused.
TEST(TextIndex, BytesPastTheLastSectionAreRefused) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  std::string longer = ReadAll(file) + "tail";
  const uint64_t size = longer.size();
  std::memcpy(&longer[16], &size, 8);
  const uint64_t digest = FileDigest(longer);
  std::memcpy(&longer[24], &digest, 8);
  WriteAll(file, longer);
  auto ix = IndexFile::Open(file);
  ASSERT_FALSE(ix);
  EXPECT_NE(ix.error().find("do not end where the file does"), std::string::npos) << ix.error();
}

// The attack the digest cannot stop: bytes changed and the digest computed again, as a file
// made on purpose would be. Every byte after the magic set to several values in turn: the file
// is refused, or it opens and everything a search reads of it stays inside it.
void ChangedAndDigestMadeToFit(bool format_three) {
  TempDir tmp;
  const std::string file = WriteSample(tmp);
  const std::string whole = format_three ? FormatThree(ReadAll(file)) : ReadAll(file);
  constexpr size_t kDigestAt = 24;
  size_t opened = 0, refused = 0;
  for (size_t at = 8; at < whole.size(); ++at) {
    if (at >= kDigestAt && at < kDigestAt + 8) continue;
    for (unsigned char value : {0x00, 0x80, 0xFF}) {
      std::string bad = whole;
      bad[at] = static_cast<char>(value);
      const uint64_t digest = FileDigest(bad);
      std::memcpy(&bad[kDigestAt], &digest, 8);
      // Mapped at the end of a page boundary or not, a read past the file would be caught by
      // the sanitizer build; here it must at least not crash.
      WriteAll(file, bad);
      auto ix = IndexFile::Open(file);
      if (!ix) {
        ++refused;
        continue;
      }
      ++opened;
      ReadEverything(**ix);
    }
  }
  EXPECT_GT(refused, 100u);
  EXPECT_GT(opened, 0u);  // changes inside a path's text or a content id keep the structure
}

TEST(TextIndex, AChangedFileWhoseDigestWasMadeToFitIsReadOnlyInsideItself) {
  ChangedAndDigestMadeToFit(/*format_three=*/false);
}

TEST(TextIndex, AChangedFileOfTheFormatBeforeWhoseDigestWasMadeToFitIsReadOnlyInsideItself) {
  ChangedAndDigestMadeToFit(/*format_three=*/true);
}

// A repository's index keeps each content's place in the store in 32 bits: a store of more
// shards than that has room for (a merge left undone) still answers, the contents of the shards
// past it read as contents no shard holds -- never looked up in the wrong shard.
TEST(TextIndex, ContentsInShardsPastWhatAPlaceHoldsAreRead) {
  TempDir tmp;
  const std::string folder = tmp / "text";
  constexpr int kShards = 70;
  for (int i = 0; i < kShards; ++i) {
    IndexFileWriter w;
    w.AddBlob(OidOf(100 + i), BlobKind::kText, "the one content of shard " + std::to_string(i));
    ASSERT_TRUE(WriteTextShard(folder, w));
  }
  auto store = CurrentTextStore(folder);
  ASSERT_EQ(store->shards.size(), static_cast<size_t>(kShards));
  IndexFileWriter list;
  for (int i = 0; i < kShards; ++i) {
    list.AddPath("f" + std::to_string(i), list.AddSized(OidOf(100 + i), BlobKind::kText, 30),
                 false);
  }
  const std::string file = tmp / "text.list";
  ASSERT_TRUE(list.Write(file, OidOf(9), 0));
  auto opened = IndexFile::Open(file);
  ASSERT_TRUE(opened) << opened.error();
  TextList index(*opened, store);
  // Places for shards 0 to 62: the other 7 do not fit.
  EXPECT_EQ(index.missing(), 7u);
  // Which content sits past the room depends on the shards' (random) names; each is read.
  std::vector<bool> maybe;
  ASSERT_TRUE(index.Candidates(PlanTrigrams("shard 5", false, false), &maybe));
  size_t unread = 0;
  for (size_t b = 0; b < index.blobs(); ++b) {
    const bool read = index.Kind(b) == BlobKind::kUnread;
    unread += read;
    const int i = static_cast<int>(b);  // the list's blobs were added as i = 0, 1, ...
    const bool holds = i == 5 || (i >= 50 && i <= 59);  // "shard 5", "shard 50", ...
    EXPECT_EQ(maybe[b], read || holds) << i;
  }
  EXPECT_EQ(unread, 7u);
  EXPECT_TRUE(index.MayMatchAny(PlanTrigrams("shard 5", false, false)));
}

// MayMatchAny looks the shards' candidates up among a list's blobs when they are fewer, and the
// list's blobs up among the candidates when those are more (a root folder's few files against
// a common word's thousands of candidates): both ways the same answer, false only when none of
// the list's contents is a candidate.
TEST(TextIndex, MayMatchAnyIsExactWhicheverSideIsSmaller) {
  TempDir tmp;
  const std::string folder = tmp / "text";
  IndexFileWriter shard;
  for (int i = 0; i < 200; ++i) {
    shard.AddBlob(OidOf(1000 + i), BlobKind::kText,
                  "common word " + std::to_string(i) + (i == 150 ? " rareword-150" : "") + "\n");
  }
  ASSERT_TRUE(WriteTextShard(folder, shard));
  auto store = CurrentTextStore(folder);
  auto list_of = [&](std::vector<int> contents, const std::string& name) {
    IndexFileWriter list;
    for (int i : contents) {
      list.AddPath("f" + std::to_string(i), list.AddSized(OidOf(1000 + i), BlobKind::kText, 20),
                   false);
    }
    const std::string file = tmp / name;
    EXPECT_TRUE(list.Write(file, OidOf(9), 0));
    auto opened = IndexFile::Open(file);
    EXPECT_TRUE(opened) << opened.error();
    return std::make_unique<TextList>(*opened, store);
  };
  const auto few = list_of({3, 7}, "few.list");
  const auto holder = list_of({3, 150}, "holder.list");
  const auto many =
      list_of({0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18,
               19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36},
              "many.list");
  const TrigramQuery common = PlanTrigrams("common word 1", false, false);   // 111 candidates
  const TrigramQuery rare = PlanTrigrams("rareword-150", false, false);      // one
  const TrigramQuery absent = PlanTrigrams("common word 77", false, false);  // one, elsewhere
  EXPECT_FALSE(few->MayMatchAny(common));    // 3 and 7 are not "common word 1…"
  EXPECT_TRUE(holder->MayMatchAny(common));  // 150 is
  EXPECT_TRUE(many->MayMatchAny(common));
  EXPECT_FALSE(few->MayMatchAny(rare));
  EXPECT_TRUE(holder->MayMatchAny(rare));
  EXPECT_FALSE(many->MayMatchAny(rare));
  EXPECT_FALSE(many->MayMatchAny(absent));
  // Each as Candidates tells.
  for (const TextList* l : {few.get(), holder.get(), many.get()}) {
    for (const TrigramQuery* q : {&common, &rare, &absent}) {
      std::vector<bool> maybe;
      ASSERT_TRUE(l->Candidates(*q, &maybe));
      EXPECT_EQ(l->MayMatchAny(*q), std::find(maybe.begin(), maybe.end(), true) != maybe.end());
    }
  }
}

// A repository's index moved onto a new snapshot of the store -- a shard added (a commit indexed
// anywhere), a shard gone and its contents in another (merged), contents no shard held then held
// now -- answers exactly as one made from its list anew.
TEST(TextIndex, AnIndexMovedOntoANewStoreIsTheOneMadeAnew) {
  TempDir tmp;
  const std::string folder = tmp / "text";
  auto content = [](int i) { return "content " + std::to_string(i) + " common words"; };
  std::set<std::string> before_files;
  auto files = [&] {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
      if (e.path().extension() == ".tri") out.insert(e.path().string());
    }
    return out;
  };
  // Each shard written is named to sort before every one before it, so that every shard the
  // store held moves to another place in the new snapshot.
  int names = 0xfff;
  auto shard_of = [&](int from, int to) {
    IndexFileWriter w;
    for (int i = from; i < to; ++i) w.AddBlob(OidOf(i), BlobKind::kText, content(i));
    const auto was = std::filesystem::exists(folder) ? files() : std::set<std::string>{};
    auto written = WriteTextShard(folder, w);
    ASSERT_TRUE(written) << written.error();
    for (const auto& f : files()) {
      if (was.count(f)) continue;
      char name[64];
      std::snprintf(name, sizeof name, "/shard-%016x.tri", names--);
      std::filesystem::rename(f, folder + name);
    }
  };
  for (int i = 0; i < 5; ++i) shard_of(i * 10, i * 10 + 10);  // contents 0..49
  // The list: contents 0..44 (held), 60..62 (held by no shard yet), 70 (unread).
  IndexFileWriter list;
  for (int i = 0; i < 45; ++i)
    list.AddPath("f" + std::to_string(i), list.AddSized(OidOf(i), BlobKind::kText, 30), false);
  for (int i = 60; i < 63; ++i)
    list.AddPath("g" + std::to_string(i), list.AddSized(OidOf(i), BlobKind::kText, 30), false);
  list.AddPath("huge", list.AddSized(OidOf(70), BlobKind::kUnread, 0), false);
  const std::string file = tmp / "text.list";
  ASSERT_TRUE(list.Write(file, OidOf(99), 0));
  auto opened = IndexFile::Open(file);
  ASSERT_TRUE(opened) << opened.error();
  auto same = [&](const TextList& moved, const TextList& fresh) {
    EXPECT_EQ(moved.missing(), fresh.missing());
    for (size_t b = 0; b < fresh.blobs(); ++b) EXPECT_EQ(moved.Kind(b), fresh.Kind(b)) << b;
    for (const char* p : {"common", "content 3", "content 61", "content 4", "zzqq"}) {
      const TrigramQuery q = PlanTrigrams(p, false, false);
      std::vector<bool> a, b;
      ASSERT_TRUE(moved.Candidates(q, &a));
      ASSERT_TRUE(fresh.Candidates(q, &b));
      EXPECT_EQ(a, b) << p;
      EXPECT_EQ(moved.MayMatchAny(q), fresh.MayMatchAny(q)) << p;
    }
  };
  const TextList first(*opened, CurrentTextStore(folder));
  EXPECT_EQ(first.missing(), 3u);
  // A shard added with two of the contents no shard held.
  before_files = files();
  shard_of(60, 62);
  auto second_store = CurrentTextStore(folder);
  const TextList second(first, second_store);
  same(second, TextList(*opened, second_store));
  EXPECT_EQ(second.missing(), 1u);
  // A shard gone (contents 10..19), its contents written again in a new one; another added.
  std::string gone;
  for (const auto& f : before_files) {
    auto ix = IndexFile::Open(f);
    if (ix && (*ix)->Find(OidOf(10)) != SIZE_MAX) gone = f;
  }
  ASSERT_FALSE(gone.empty());
  std::filesystem::remove(gone);
  shard_of(10, 20);
  shard_of(62, 63);
  auto third_store = CurrentTextStore(folder);
  const TextList third(second, third_store);
  same(third, TextList(*opened, third_store));
  EXPECT_EQ(third.missing(), 0u);
  // Nothing to look up: a shard added that the list does not name.
  shard_of(80, 90);
  auto fourth_store = CurrentTextStore(folder);
  const TextList fourth(third, fourth_store);
  same(fourth, TextList(*opened, fourth_store));
}

}  // namespace
}  // namespace text_index_test
}  // namespace rr
