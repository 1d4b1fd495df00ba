// Repositories written by an attacker: pack files crafted byte by byte. The server's own pack
// reader (core/git/pack_reader.h) must answer each one "not handled" -- so libgit2 reads, or
// refuses, the object as before -- and never read out of bounds, allocate what a header claims
// unchecked, or follow a delta chain forever. Run in the sanitizer build too.
#include <Poco/SHA1Engine.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <libdeflate.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/git/pack_reader.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_pack {
namespace {

namespace fs = std::filesystem;
using Answer = PackReader::Answer;

constexpr size_t kMax = 10 << 20;  // RepoReader::kMaxFileBytes

std::string Be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

std::string Deflate(const std::string& data) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string out(libdeflate_zlib_compress_bound(c, data.size()), '\0');
  out.resize(libdeflate_zlib_compress(c, data.data(), data.size(), out.data(), out.size()));
  libdeflate_free_compressor(c);
  return out;
}

std::string Sha1(const std::string& bytes) {
  Poco::SHA1Engine sha1;
  sha1.update(bytes.data(), static_cast<unsigned>(bytes.size()));
  const auto& d = sha1.digest();
  return std::string(d.begin(), d.end());
}

// An object id of 20 bytes made from a letter (the reader never hashes what it reads).
std::string Id(char c) { return std::string(1, c) + std::string(19, '\x01'); }

git_oid Oid(const std::string& raw) {
  git_oid oid;
  std::memcpy(oid.id, raw.data(), 20);
  return oid;
}

std::string Varint(uint64_t v) {
  std::string out;
  do {
    const uint8_t b = v & 0x7f;
    v >>= 7;
    out += static_cast<char>(b | (v ? 0x80 : 0));
  } while (v);
  return out;
}

// git's delta instructions.
std::string Copy(uint32_t off, uint32_t n) {
  std::string args;
  uint8_t cmd = 0x80;
  for (int i = 0; i < 4; ++i) {
    if ((off >> (8 * i)) & 0xff) {
      cmd |= 1 << i;
      args += static_cast<char>((off >> (8 * i)) & 0xff);
    }
  }
  for (int i = 0; i < 3; ++i) {
    if ((n >> (8 * i)) & 0xff) {
      cmd |= 0x10 << i;
      args += static_cast<char>((n >> (8 * i)) & 0xff);
    }
  }
  return static_cast<char>(cmd) + args;
}
std::string Insert(const std::string& s) { return static_cast<char>(s.size()) + s; }
std::string Delta(uint64_t base_size, uint64_t result_size, const std::string& ops) {
  return Varint(base_size) + Varint(result_size) + ops;
}

// A pack written entry by entry, and its version-2 index written from (id, offset) pairs that
// may say anything.
class PackBuilder {
 public:
  // A type-and-size header as git writes it.
  static std::string EntryHeader(int type, uint64_t size) {
    std::string h(1, static_cast<char>((type << 4) | (size & 15)));
    size >>= 4;
    while (size) {
      h.back() = static_cast<char>(h.back() | 0x80);
      h += static_cast<char>(size & 0x7f);
      size >>= 7;
    }
    return h;
  }
  uint64_t Whole(int type, const std::string& data) {
    return Raw(EntryHeader(type, data.size()) + Deflate(data));
  }
  uint64_t OfsDelta(uint64_t base, const std::string& delta) {
    const uint64_t at = 12 + body_.size();
    uint64_t ofs = at - base;
    std::string enc(1, static_cast<char>(ofs & 127));
    while (ofs >>= 7) enc.insert(enc.begin(), static_cast<char>(0x80 | (--ofs & 127)));
    return Raw(EntryHeader(6, delta.size()) + enc + Deflate(delta));
  }
  uint64_t RefDelta(const std::string& base_id, const std::string& delta) {
    return Raw(EntryHeader(7, delta.size()) + base_id + Deflate(delta));
  }
  uint64_t Raw(const std::string& bytes) {
    const uint64_t at = 12 + body_.size();
    body_ += bytes;
    return at;
  }
  uint64_t next() const { return 12 + body_.size(); }

  struct Written {
    std::string pack, idx;
  };
  // Writes pack-<checksum>.pack and .idx into `pack_dir`. With `large`, every offset goes
  // through the 64-bit table, and `large_extra` more entries are appended to that table.
  Written Write(const std::string& pack_dir, std::vector<std::pair<std::string, uint64_t>> index,
                bool large = false) const {
    fs::create_directories(pack_dir);
    std::sort(index.begin(), index.end());
    std::string pack = "PACK" + Be32(2) + Be32(static_cast<uint32_t>(index.size())) + body_;
    const std::string sum = Sha1(pack);
    pack += sum;
    std::string idx = "\xfftOc" + Be32(2);
    for (int b = 0; b < 256; ++b) {
      uint32_t n = 0;
      for (const auto& e : index) n += static_cast<uint8_t>(e.first[0]) <= b;
      idx += Be32(n);
    }
    for (const auto& e : index) idx += e.first;
    for (size_t i = 0; i < index.size(); ++i) idx += Be32(0);  // CRCs, unread
    std::string table;
    for (size_t i = 0; i < index.size(); ++i) {
      if (large) {
        idx += Be32(0x80000000u | static_cast<uint32_t>(i));
        table += Be32(static_cast<uint32_t>(index[i].second >> 32)) +
                 Be32(static_cast<uint32_t>(index[i].second));
      } else {
        idx += Be32(static_cast<uint32_t>(index[i].second));
      }
    }
    idx += table + sum;
    idx += Sha1(idx);
    Written w{pack_dir + "/pack-" + Hex(sum) + ".pack", pack_dir + "/pack-" + Hex(sum) + ".idx"};
    std::ofstream(w.pack, std::ios::binary) << pack;
    std::ofstream(w.idx, std::ios::binary) << idx;
    return w;
  }

 private:
  static std::string Hex(const std::string& raw) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : raw) {
      out += digits[c >> 4];
      out += digits[c & 15];
    }
    return out;
  }
  std::string body_;
};

std::string Read(PackReader& r, const std::string& id, Answer* answer) {
  std::string out;
  *answer = r.ReadBlob(Oid(id), kMax, &out);
  return out;
}

// The kit itself: well-formed entries of each kind are read, so each refusal below is the
// protection's doing and not the kit's.
TEST(HostilePack, TheUntouchedPackIsRead) {
  TempDir tmp;
  PackBuilder b;
  const std::string base = "hello, world of packs\n";
  const uint64_t whole = b.Whole(3, base);
  const uint64_t ofs = b.OfsDelta(whole, Delta(base.size(), 12, Copy(0, 7) + Insert("packs")));
  const uint64_t ref = b.RefDelta(Id('b'), Delta(12, 5, Copy(7, 5)));
  b.Write(tmp / "pack", {{Id('a'), whole}, {Id('b'), ofs}, {Id('c'), ref}}, /*large=*/true);
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  EXPECT_EQ(Read(*r, Id('a'), &a), base);
  EXPECT_EQ(a, Answer::kRead);
  EXPECT_EQ(Read(*r, Id('b'), &a), "hello, packs");
  EXPECT_EQ(a, Answer::kRead);
  EXPECT_EQ(Read(*r, Id('c'), &a), "packs");
  EXPECT_EQ(a, Answer::kRead);
}

// A reverse index (pack-*.rev) only shortens what is read of an entry: one that lies makes
// entries fail to inflate, never read past where they are.
TEST(HostilePack, ALyingReverseIndexOnlyMakesEntriesNotHandled) {
  TempDir tmp;
  PackBuilder b;
  std::string text;
  for (int i = 0; i < 300; ++i) text += "entry text " + std::to_string(i) + "\n";
  const uint64_t one = b.Whole(3, text);
  const uint64_t two = b.Whole(3, text + "more\n");
  const auto w = b.Write(tmp / "pack", {{Id('a'), one}, {Id('b'), two}});
  const std::string rev_path = w.idx.substr(0, w.idx.size() - 4) + ".rev";
  auto write_rev = [&](uint32_t first, uint32_t second) {
    std::ofstream(rev_path, std::ios::binary | std::ios::trunc)
        << "RIDX" << Be32(1) << Be32(1) << Be32(first) << Be32(second) << std::string(40, '\0');
  };
  Answer a;
  write_rev(0, 1);  // the truth: 'a' (index 0) first in the pack, then 'b'
  auto r = PackReader::Open(tmp.path());
  EXPECT_EQ(Read(*r, Id('a'), &a), text);
  EXPECT_EQ(a, Answer::kRead);
  EXPECT_EQ(Read(*r, Id('b'), &a), text + "more\n");
  EXPECT_EQ(a, Answer::kRead);
  // Out of order, or naming entries that do not exist: each entry is read whole or not
  // handled, never cut short or run on.
  for (auto [first, second] : {std::pair<uint32_t, uint32_t>{1, 0}, {0, 0}, {7, 9}}) {
    write_rev(first, second);
    r = PackReader::Open(tmp.path());
    for (char id : std::string("ab")) {
      const std::string got = Read(*r, Id(id), &a);
      if (a == Answer::kRead) {
        EXPECT_EQ(got, id == 'a' ? text : text + "more\n");
      }
    }
  }
  // An index entry pointing inside another's compressed data, which the reverse index then
  // names as where that entry ends: the entry cut there is not handled.
  PackBuilder c;
  const uint64_t whole = c.Whole(3, text);
  const uint64_t after = c.Whole(3, "after\n");
  const auto w2 =
      c.Write(tmp / "cut/pack", {{Id('a'), whole}, {Id('b'), whole + 5}, {Id('c'), after}});
  std::ofstream(w2.idx.substr(0, w2.idx.size() - 4) + ".rev", std::ios::binary)
      << "RIDX" << Be32(1) << Be32(1) << Be32(0) << Be32(1) << Be32(2) << std::string(40, '\0');
  r = PackReader::Open(tmp / "cut");
  ASSERT_EQ(r->packs(), 1u);
  EXPECT_TRUE(Read(*r, Id('a'), &a).empty());
  EXPECT_EQ(a, Answer::kNotHandled);
  EXPECT_EQ(Read(*r, Id('c'), &a), "after\n");
  EXPECT_EQ(a, Answer::kRead);
}

TEST(HostilePack, ACutShortPackIsNotHandled) {
  TempDir tmp;
  PackBuilder b;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "line " + std::to_string(i * 7919 % 10007) + "\n";
  const uint64_t first = b.Whole(3, "first\n");
  // An entry whose compressed stream stops halfway, in a pack otherwise consistent.
  const std::string z = Deflate(text);
  const uint64_t cut = b.Raw(PackBuilder::EntryHeader(3, text.size()) + z.substr(0, z.size() / 2));
  const uint64_t last = b.Whole(3, text);
  const auto w = b.Write(tmp / "pack", {{Id('a'), first}, {Id('b'), cut}, {Id('c'), last}});
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  EXPECT_TRUE(Read(*r, Id('b'), &a).empty());
  EXPECT_EQ(a, Answer::kNotHandled);
  EXPECT_EQ(Read(*r, Id('c'), &a), text);
  ASSERT_EQ(a, Answer::kRead);
  // The pack cut short while open (as anyone who can write the repository could): what is gone
  // reads short and is not handled; the server does not fault on it.
  ASSERT_EQ(truncate(w.pack.c_str(), static_cast<off_t>(last + 10)), 0);
  EXPECT_TRUE(Read(*r, Id('c'), &a).empty());
  EXPECT_EQ(a, Answer::kNotHandled);
  EXPECT_EQ(Read(*r, Id('a'), &a), "first\n");
  EXPECT_FALSE(r->FilesCurrent());
  ASSERT_EQ(truncate(w.pack.c_str(), 0), 0);
  Read(*r, Id('a'), &a);
  EXPECT_EQ(a, Answer::kNotHandled);
  // Opened cut short, a pack no longer matches its index's checksum and is not used.
  EXPECT_EQ(PackReader::Open(tmp.path())->packs(), 0u);
}

TEST(HostilePack, ADeltaCopyingPastItsBaseIsNotHandled) {
  TempDir tmp;
  PackBuilder b;
  const std::string base = "0123456789";
  const uint64_t whole = b.Whole(3, base);
  // Copies running past the base's end, and inserts past the result's declared size or past
  // the instructions themselves.
  const uint64_t past = b.OfsDelta(whole, Delta(10, 10, Copy(5, 10)));
  const uint64_t far = b.OfsDelta(whole, Delta(10, 4, Copy(0xfffffff0u, 4)));
  const uint64_t longer = b.OfsDelta(whole, Delta(10, 3, Insert("four")));
  const uint64_t shorter = b.OfsDelta(whole, Delta(10, 9, Copy(0, 4)));
  const uint64_t lying = b.OfsDelta(whole, Delta(10, 6, std::string(1, '\x06') + "ab"));
  const uint64_t wrong_base = b.OfsDelta(whole, Delta(11, 4, Copy(0, 4)));
  const uint64_t reserved = b.OfsDelta(whole, Delta(10, 4, std::string(1, '\0') + Copy(0, 4)));
  b.Write(tmp / "pack", {{Id('a'), whole},
                         {Id('b'), past},
                         {Id('c'), far},
                         {Id('d'), longer},
                         {Id('e'), shorter},
                         {Id('f'), lying},
                         {Id('g'), wrong_base},
                         {Id('h'), reserved}});
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  EXPECT_EQ(Read(*r, Id('a'), &a), base);
  for (char id : std::string("bcdefgh")) {
    EXPECT_TRUE(Read(*r, Id(id), &a).empty()) << id;
    EXPECT_EQ(a, Answer::kNotHandled) << id;
  }
}

TEST(HostilePack, ADeltaChainPointingAtItselfStops) {
  TempDir tmp;
  PackBuilder b;
  const std::string d = Delta(3, 3, Copy(0, 3));
  // First in the pack: a base 127 bytes back lies before the pack's header.
  const uint64_t before = b.Raw(PackBuilder::EntryHeader(6, d.size()) + "\x7f" + Deflate(d));
  const uint64_t self = b.RefDelta(Id('a'), d);   // its own base
  const uint64_t one = b.RefDelta(Id('c'), d);    // b -> c -> b
  const uint64_t other = b.RefDelta(Id('b'), d);  //
  // An OFS_DELTA whose base is itself (distance 0) is refused; one after it cannot be written.
  const uint64_t zero =
      b.Raw(PackBuilder::EntryHeader(6, d.size()) + std::string(1, '\0') + Deflate(d));
  // A chain longer than git ever writes (git's default maximum is 50): 80 real deltas.
  const uint64_t base = b.Whole(3, "abc");
  uint64_t prev = base;
  for (int i = 0; i < 80; ++i) prev = b.OfsDelta(prev, d);
  // One just within the limit is read.
  uint64_t ok = base;
  for (int i = 0; i < PackReader::kMaxDepth; ++i) ok = b.OfsDelta(ok, d);
  b.Write(tmp / "pack", {{Id('a'), self},
                         {Id('b'), one},
                         {Id('c'), other},
                         {Id('d'), zero},
                         {Id('e'), before},
                         {Id('f'), prev},
                         {Id('g'), ok}});
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  for (char id : std::string("abcdef")) {
    EXPECT_TRUE(Read(*r, Id(id), &a).empty()) << id;
    EXPECT_EQ(a, Answer::kNotHandled) << id;
  }
  EXPECT_EQ(Read(*r, Id('g'), &a), "abc");
  EXPECT_EQ(a, Answer::kRead);
}

TEST(HostilePack, AnIndexPointingPastThePackIsNotHandled) {
  for (bool large : {false, true}) {
    TempDir tmp;
    PackBuilder b;
    const uint64_t whole = b.Whole(3, "fine\n");
    const uint64_t end = b.next();
    b.Write(tmp / "pack",
            {{Id('a'), whole},
             {Id('b'), end},                 // the trailing checksum
             {Id('c'), end + 1000},          // past the file
             {Id('d'), 3},                   // inside the pack's header
             {Id('e'), uint64_t{1} << 62}},  // far past anything (64-bit table only)
            large);
    auto r = PackReader::Open(tmp.path());
    ASSERT_EQ(r->packs(), 1u);
    Answer a;
    EXPECT_EQ(Read(*r, Id('a'), &a), "fine\n");
    for (char id : std::string("bcde")) {
      EXPECT_TRUE(Read(*r, Id(id), &a).empty()) << id << (large ? " (64-bit offsets)" : "");
      EXPECT_EQ(a, Answer::kNotHandled) << id;
    }
  }
  // An index naming 64-bit offsets its table does not have.
  TempDir tmp;
  PackBuilder b;
  const uint64_t whole = b.Whole(3, "fine\n");
  const auto w = b.Write(tmp / "pack", {{Id('a'), whole}});
  std::string idx;
  {
    std::ifstream in(w.idx, std::ios::binary);
    idx.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t offsets = 8 + 1024 + 20 + 4;
  idx.replace(offsets, 4, Be32(0x80000005u));
  std::ofstream(w.idx, std::ios::binary | std::ios::trunc) << idx;
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  Read(*r, Id('a'), &a);
  EXPECT_EQ(a, Answer::kNotHandled);
}

TEST(HostilePack, SizesOfTwoToTheSixtyAreRefusedBeforeAnyAllocation) {
  TempDir tmp;
  PackBuilder b;
  const std::string small = Deflate("tiny");
  const uint64_t huge = b.Raw(PackBuilder::EntryHeader(3, uint64_t{1} << 59) + small);
  const uint64_t huger = b.Raw(PackBuilder::EntryHeader(3, uint64_t{1} << 60) + small);
  const uint64_t over = b.Raw(PackBuilder::EntryHeader(3, kMax + 1) + small);
  const uint64_t base = b.Whole(3, "abc");
  const uint64_t delta_result = b.OfsDelta(base, Delta(3, uint64_t{1} << 60, Copy(0, 3)));
  const uint64_t delta_size =
      b.Raw(PackBuilder::EntryHeader(6, uint64_t{1} << 59) + "\x20" + Deflate("x"));
  // A header that never ends (every byte says another follows).
  const uint64_t endless = b.Raw(std::string(40, '\xff'));
  b.Write(tmp / "pack", {{Id('a'), huge},
                         {Id('b'), huger},
                         {Id('c'), over},
                         {Id('d'), delta_result},
                         {Id('e'), delta_size},
                         {Id('f'), endless}});
  auto r = PackReader::Open(tmp.path());
  ASSERT_EQ(r->packs(), 1u);
  Answer a;
  for (char id : std::string("abcdef")) {
    EXPECT_TRUE(Read(*r, Id(id), &a).empty()) << id;
    EXPECT_EQ(a, Answer::kNotHandled) << id;
  }
}

TEST(HostilePack, AnIndexThatDoesNotMatchItsPackIsNotUsed) {
  TempDir tmp;
  PackBuilder b;
  const uint64_t whole = b.Whole(3, "fine\n");
  const auto w = b.Write(tmp / "pack", {{Id('a'), whole}, {Id('b'), whole}});
  std::string idx;
  {
    std::ifstream in(w.idx, std::ios::binary);
    idx.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto write = [&](const std::string& bytes) {
    std::ofstream(w.idx, std::ios::binary | std::ios::trunc) << bytes;
  };
  ASSERT_EQ(PackReader::Open(tmp.path())->packs(), 1u);
  // Cut at every length.
  for (size_t n = 0; n < idx.size(); ++n) {
    write(idx.substr(0, n));
    auto r = PackReader::Open(tmp.path());
    if (r->packs() == 0) continue;
    Answer a;  // a shorter index may still parse (fewer 64-bit entries): reads stay in bounds
    Read(*r, Id('a'), &a);
  }
  // Another pack's checksum; a fanout that goes down; another version; counts disagreeing.
  std::string other = idx;
  other[other.size() - 40] ^= 1;
  write(other);
  EXPECT_EQ(PackReader::Open(tmp.path())->packs(), 0u);
  other = idx;
  other.replace(8 + 4 * 100, 4, Be32(7));
  write(other);
  EXPECT_EQ(PackReader::Open(tmp.path())->packs(), 0u);
  other = idx;
  other.replace(4, 4, Be32(3));
  write(other);
  EXPECT_EQ(PackReader::Open(tmp.path())->packs(), 0u);
  write(idx);
  std::string pack;
  {
    std::ifstream in(w.pack, std::ios::binary);
    pack.assign(std::istreambuf_iterator<char>(in), {});
  }
  pack.replace(8, 4, Be32(5));
  std::ofstream(w.pack, std::ios::binary | std::ios::trunc) << pack;
  EXPECT_EQ(PackReader::Open(tmp.path())->packs(), 0u);
}

// Through the server: a file whose only copy is a crafted delta that copies past its base is
// refused with an answer (libgit2 refuses it too), never read as whatever lies past the base.
TEST(HostilePack, TheServerAnswersABrokenPackedFileWithAnError) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", "good\n");
  repo.Write("b.txt", "0123456789");
  repo.Commit("first");
  const std::string b_hex = repo.Rev("HEAD:b.txt");
  fs::remove(repo.path() + "/.git/objects/" + b_hex.substr(0, 2) + "/" + b_hex.substr(2));
  std::string b_id;
  for (size_t i = 0; i < 40; i += 2)
    b_id += static_cast<char>(std::stoi(b_hex.substr(i, 2), 0, 16));
  PackBuilder b;
  const uint64_t base = b.Whole(3, "01234");
  const uint64_t bad = b.OfsDelta(base, Delta(5, 10, Copy(0, 5) + Copy(3, 5)));
  b.Write(repo.path() + "/.git/objects/pack", {{Id('a'), base}, {b_id, bad}});
  ToolHarness h({Served("shop", repo.path())});
  auto a = h.Call("read_file", R"({"repo":"shop","path":"b.txt"})");
  EXPECT_TRUE(a.is_error) << a.text;
  EXPECT_FALSE(Has(a.text, "01234")) << a.text;
  a = h.Call("read_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_TRUE(Has(a.text, "good")) << a.text;
  a = h.Call("grep", R"({"repo":"shop","pattern":"4"})");
  EXPECT_FALSE(Has(a.text, "01234")) << a.text;
}

}  // namespace
}  // namespace rr::testing::safety::hostile_pack
