// PackReader on real repositories packed by git: every blob it reads equals `git cat-file blob`,
// through whole objects, OFS_DELTA chains and REF_DELTA chains; what it does not handle
// (loose objects, alternates, other types, sizes over the limit, missing objects) answers
// kNotHandled and is read through libgit2 as before.
#include "core/git/pack_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace pack_reader_test {
namespace {

git_oid Oid(const std::string& hex) {
  git_oid oid;
  EXPECT_EQ(git_oid_fromstrn(&oid, hex.data(), hex.size()), 0) << hex;
  return oid;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// Every object of the repository with its type: "id type".
std::vector<std::pair<std::string, std::string>> Objects(const TestRepo& repo) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& line : Lines(repo.Git(
           {"cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"}))) {
    out.emplace_back(line.substr(0, 40), line.substr(41));
  }
  return out;
}

std::string CatBlob(const TestRepo& repo, const std::string& id) {
  CommandResult r = Run({"git", "cat-file", "blob", id}, repo.path(), repo.Env());
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// `git verify-pack -v` of the repository's packs: id -> {offset, chain depth}.
std::map<std::string, std::pair<uint64_t, int>> PackLayout(const TestRepo& repo,
                                                           const std::string& objects) {
  std::map<std::string, std::pair<uint64_t, int>> out;
  for (const auto& e : std::filesystem::directory_iterator(objects + "/pack")) {
    if (e.path().extension() != ".idx") continue;
    for (const std::string& line : Lines(repo.Git({"verify-pack", "-v", e.path().string()}))) {
      std::istringstream in(line);
      std::string id, type;
      uint64_t size = 0, packed = 0, offset = 0;
      int depth = 0;
      if (!(in >> id >> type >> size >> packed >> offset) || id.size() != 40) continue;
      in >> depth;
      out[id] = {offset, depth};
    }
  }
  return out;
}

// The type bits of the entry at `offset` in the repository's only pack.
int EntryType(const std::string& objects, uint64_t offset) {
  for (const auto& e : std::filesystem::directory_iterator(objects + "/pack")) {
    if (e.path().extension() != ".pack") continue;
    std::ifstream in(e.path(), std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    return (in.get() >> 4) & 7;
  }
  return -1;
}

// A file written in many similar versions, so that git stores most as deltas of others.
void ManyVersions(TestRepo& repo, int versions) {
  std::string text;
  for (int i = 0; i < 400; ++i) text += "line " + std::to_string(i) + " of a long file\n";
  for (int v = 0; v < versions; ++v) {
    text.insert(text.size() / 3 * (v % 3), "inserted in version " + std::to_string(v) + "\n");
    repo.Write("notes/long.txt", text);
    repo.Write("notes/v.txt", "version " + std::to_string(v) + "\n" + text.substr(0, 2000));
    repo.Write("empty.txt", "");
    repo.Commit("version " + std::to_string(v));
  }
}

// Commits a.txt holding `text` as `message`, and packs every object (git repack -ad).
void CommitPacked(TestRepo& repo, const std::string& text, const std::string& message) {
  repo.Write("a.txt", text);
  repo.Commit(message);
  repo.Git({"repack", "-adq"});
}

// Reads every blob through the reader and compares it with git's bytes; returns how many.
size_t ExpectAllBlobsAsGit(const TestRepo& repo, PackReader& reader) {
  size_t blobs = 0;
  for (const auto& [id, type] : Objects(repo)) {
    std::string bytes;
    const auto answer = reader.ReadBlob(Oid(id), 10 << 20, &bytes);
    if (type != "blob") {
      EXPECT_EQ(answer, PackReader::Answer::kNotHandled) << id << " is a " << type;
      continue;
    }
    ++blobs;
    EXPECT_EQ(answer, PackReader::Answer::kRead) << id;
    EXPECT_EQ(bytes, CatBlob(repo, id)) << id;
  }
  return blobs;
}

class PackReaderRev : public ::testing::TestWithParam<bool> {};

// With and without the reverse index (pack-*.rev) that tells where each entry ends.
TEST_P(PackReaderRev, OfsDeltaChainsReadAsGitReadsThem) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  ManyVersions(repo, 40);
  const std::string rev = GetParam() ? "true" : "false";
  repo.Git({"-c", "pack.writeReverseIndex=" + rev, "repack", "-adf", "--depth=30", "--window=50"});
  const std::string objects = repo.path() + "/.git/objects";
  bool has_rev = false;
  for (const auto& e : std::filesystem::directory_iterator(objects + "/pack")) {
    has_rev = has_rev || e.path().extension() == ".rev";
  }
  ASSERT_EQ(has_rev, GetParam());
  // git did make deltas, some of them chains, all OFS_DELTA (repack's default).
  int deepest = 0, deltas = 0;
  for (const auto& [id, where] : PackLayout(repo, objects)) {
    if (where.second == 0) continue;
    ++deltas;
    deepest = std::max(deepest, where.second);
    EXPECT_EQ(EntryType(objects, where.first), 6) << id;
  }
  ASSERT_GT(deltas, 20);
  ASSERT_GE(deepest, 3);

  auto reader = PackReader::Open(objects);
  ASSERT_EQ(reader->packs(), 1u);
  EXPECT_GE(ExpectAllBlobsAsGit(repo, *reader), 80u);
  // Read again: now through the bases the first pass kept.
  EXPECT_GE(ExpectAllBlobsAsGit(repo, *reader), 80u);
  reader->Trim();
  EXPECT_GE(ExpectAllBlobsAsGit(repo, *reader), 80u);
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutRev, PackReaderRev, ::testing::Bool());

TEST(PackReader, RefDeltaChainsReadAsGitReadsThem) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  ManyVersions(repo, 30);
  // pack-objects without --delta-base-offset names each delta's base by its id (REF_DELTA).
  const std::string objects = repo.path() + "/.git/objects";
  const std::string list = repo.Git({"rev-list", "--objects", "--all"}) + "\n";
  repo.Git({"pack-objects", "-q", "--window=50", "--depth=20", objects + "/pack/pack"}, list);
  repo.Git({"prune-packed"});  // every object was loose until now: the pack holds them all
  std::vector<std::filesystem::path> packs;
  for (const auto& e : std::filesystem::directory_iterator(objects + "/pack")) {
    if (e.path().extension() == ".pack") packs.push_back(e.path());
  }
  ASSERT_EQ(packs.size(), 1u);
  int ref_deltas = 0;
  for (const auto& [id, where] : PackLayout(repo, objects)) {
    if (where.second > 0 && EntryType(objects, where.first) == 7) ++ref_deltas;
  }
  ASSERT_GT(ref_deltas, 10);

  auto reader = PackReader::Open(objects);
  ASSERT_EQ(reader->packs(), 1u);
  EXPECT_GE(ExpectAllBlobsAsGit(repo, *reader), 60u);
}

TEST(PackReader, WhatItDoesNotHoldAnswersNotHandled) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("a.txt", std::string(5000, 'a') + "\n");
  repo.Write("b.txt", "small\n");
  repo.Commit("first");
  repo.Git({"repack", "-adq"});
  const std::string loose = repo.Git({"hash-object", "-w", "--stdin"}, "only loose\n");
  const std::string objects = repo.path() + "/.git/objects";
  auto reader = PackReader::Open(objects);
  ASSERT_EQ(reader->packs(), 1u);
  std::string bytes;
  // Packed, within the limit: read.
  EXPECT_EQ(reader->ReadBlob(Oid(repo.Rev("HEAD:b.txt")), 100, &bytes), PackReader::Answer::kRead);
  EXPECT_EQ(bytes, "small\n");
  // Over the limit, loose, missing, not a blob: left to libgit2.
  EXPECT_EQ(reader->ReadBlob(Oid(repo.Rev("HEAD:a.txt")), 4000, &bytes),
            PackReader::Answer::kNotHandled);
  EXPECT_TRUE(bytes.empty());
  EXPECT_EQ(reader->ReadBlob(Oid(loose), 100, &bytes), PackReader::Answer::kNotHandled);
  EXPECT_EQ(reader->ReadBlob(Oid(std::string(40, '7')), 100, &bytes),
            PackReader::Answer::kNotHandled);
  EXPECT_EQ(reader->ReadBlob(Oid(repo.Rev("HEAD^{tree}")), 1 << 20, &bytes),
            PackReader::Answer::kNotHandled);
  EXPECT_EQ(reader->ReadBlob(Oid(repo.Rev("HEAD")), 1 << 20, &bytes),
            PackReader::Answer::kNotHandled);
  // A repository without packs opens too, and holds nothing.
  TestRepo bare(tmp / "empty.git", true);
  EXPECT_EQ(PackReader::Open(bare.path() + "/objects")->packs(), 0u);
  EXPECT_EQ(PackReader::Open(tmp / "nowhere")->packs(), 0u);
}

TEST(PackReader, NoticesPacksComingAndGoing) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  CommitPacked(repo, "one\n", "first");
  const std::string objects = repo.path() + "/.git/objects";
  auto reader = PackReader::Open(objects);
  EXPECT_TRUE(reader->Current());
  CommitPacked(repo, "two\n", "second");  // a new pack replaces the first
  EXPECT_FALSE(reader->Current());
  std::string bytes;
  // The old reader does not hold the new contents; a new one does.
  EXPECT_EQ(reader->ReadBlob(Oid(repo.Rev("HEAD:a.txt")), 100, &bytes),
            PackReader::Answer::kNotHandled);
  auto again = PackReader::Open(objects);
  EXPECT_TRUE(again->Current());
  ASSERT_EQ(again->ReadBlob(Oid(repo.Rev("HEAD:a.txt")), 100, &bytes), PackReader::Answer::kRead);
  EXPECT_EQ(bytes, "two\n");
}

// Lending a handle out looks at the pack folder only (a pack added, removed or renamed into place
// changes it); git never rewrites a pack in place, so the packs themselves are looked at again at
// most once a second. FilesCurrent looks at them at once.
TEST(PackReader, LooksAtTheFolderEachTimeAndThePacksOnceASecond) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  CommitPacked(repo, "one\n", "first");
  const std::string objects = repo.path() + "/.git/objects";
  const auto opened = std::chrono::steady_clock::now();
  auto reader = PackReader::Open(objects);
  ASSERT_EQ(reader->packs(), 1u);
  std::string pack;
  for (const auto& e : std::filesystem::directory_iterator(objects + "/pack")) {
    if (e.path().extension() == ".pack") pack = e.path().string();
  }
  ASSERT_FALSE(pack.empty());
  // Written over in place, which git never does: noticed by the full look, not by the quick one.
  std::filesystem::permissions(pack, std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  { std::ofstream(pack, std::ios::app) << "x"; }
  const bool quick = reader->Current();
  // (On a machine so busy that a second went by since the open, Current looked at the packs too.)
  if (std::chrono::steady_clock::now() - opened < std::chrono::milliseconds(900)) {
    EXPECT_TRUE(quick);
  }
  EXPECT_FALSE(reader->FilesCurrent());
}

// The packs of the object folders objects/info/alternates names are read too, followed as
// libgit2 follows them: absolute paths at any level (at most five), paths starting with `.` in
// the repository's own file only (joined to its object folder); any other line libgit2 takes
// from the process's working folder, so it is not followed. A loop ends; each folder is opened
// once; a change to an alternates file read is noticed.
TEST(PackReader, ReadsTheAlternatesPacksAsLibgit2FollowsThem) {
  TempDir tmp;
  TestRepo origin(tmp / "origin");
  CommitPacked(origin, "borrowed\n", "first");
  const git_oid borrowed = Oid(origin.Rev("HEAD:a.txt"));
  const auto env = origin.Env();
  rr::testing::Run({"git", "clone", "-q", "--shared", "--bare", origin.path(), tmp / "one.git"},
                   tmp.path(), env);
  rr::testing::Run({"git", "clone", "-q", "--shared", "--bare", tmp / "one.git", tmp / "two.git"},
                   tmp.path(), env);
  std::string bytes;
  // One level, then two (two.git borrows from one.git, which borrows from origin).
  for (const char* name : {"one.git", "two.git"}) {
    auto reader = PackReader::Open(tmp / (std::string(name) + "/objects"));
    EXPECT_EQ(reader->packs(), 0u) << name;  // an alternate's packs: opened when first needed
    ASSERT_EQ(reader->ReadBlob(borrowed, 100, &bytes), PackReader::Answer::kRead) << name;
    EXPECT_EQ(reader->packs(), 1u) << name;
    EXPECT_EQ(bytes, "borrowed\n");
    EXPECT_TRUE(reader->Current());
  }

  // A loose object of the repository's own is libgit2's: the alternates' packs stay closed.
  const CommandResult hashed =
      rr::testing::Run({"git", "--git-dir", tmp / "one.git", "hash-object", "-w", "--stdin"},
                       tmp.path(), env, "a commit of its own\n");
  ASSERT_EQ(hashed.status, 0) << hashed.err;
  const git_oid own = Oid(hashed.out.substr(0, 40));
  auto lazy = PackReader::Open(tmp / "one.git/objects");
  EXPECT_EQ(lazy->ReadBlob(own, 100, &bytes), PackReader::Answer::kNotHandled);
  EXPECT_EQ(lazy->packs(), 0u);
  EXPECT_EQ(lazy->ReadBlob(borrowed, 100, &bytes), PackReader::Answer::kRead);
  EXPECT_EQ(lazy->packs(), 1u);

  const std::string alternates = tmp / "one.git/objects/info/alternates";
  auto write = [&](const std::string& text) { std::ofstream(alternates, std::ios::trunc) << text; };
  // A path starting with `.`, from the repository's own file: joined to its object folder.
  write("# borrowed\n\n../../origin/.git/objects\r\n");
  auto relative = PackReader::Open(tmp / "one.git/objects");
  ASSERT_EQ(relative->ReadBlob(borrowed, 100, &bytes), PackReader::Answer::kRead);
  EXPECT_EQ(bytes, "borrowed\n");
  // ...but not from an alternate's file (two.git reads one.git's): left to libgit2.
  EXPECT_EQ(PackReader::Open(tmp / "two.git/objects")->ReadBlob(borrowed, 100, &bytes),
            PackReader::Answer::kNotHandled);
  // A relative path without the dot, which libgit2 resolves from the working folder: not followed.
  write("origin/.git/objects\n");
  EXPECT_FALSE(relative->Current());  // the file read changed
  EXPECT_EQ(PackReader::Open(tmp / "one.git/objects")->ReadBlob(borrowed, 100, &bytes),
            PackReader::Answer::kNotHandled);
  // libgit2 reads the file as a C string: nothing past a NUL is followed.
  {
    std::ofstream out(alternates, std::ios::trunc | std::ios::binary);
    out << "# borrowed" << '\0' << "\n" << origin.path() << "/.git/objects\n";
  }
  EXPECT_EQ(PackReader::Open(tmp / "one.git/objects")->ReadBlob(borrowed, 100, &bytes),
            PackReader::Answer::kNotHandled);
  // Folders that name each other, and origin twice (once through a link): each opened once, and
  // the open ends.
  std::filesystem::create_directory_symlink(origin.path() + "/.git", tmp / "origin-link");
  write(tmp / "two.git/objects" + "\n" + origin.path() + "/.git/objects\n" +
        tmp / "origin-link/objects" + "\n");
  auto looped = PackReader::Open(tmp / "two.git/objects");
  EXPECT_EQ(looped->ReadBlob(borrowed, 100, &bytes), PackReader::Answer::kRead);
  EXPECT_EQ(looped->packs(), 1u);
}

// Through the tools: a server whose handles outlive a repack reads the new contents, and
// objects the packs do not hold (loose ones, an alternate's) are read through libgit2.
TEST(PackReader, ServerReadsAcrossRepacksLooseObjectsAndAlternates) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  CommitPacked(repo, "packed one\n", "first");
  ToolHarness h({Served("shop", repo.path())});
  auto a = h.Call("read_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_NE(a.text.find("packed one"), std::string::npos) << a.text;

  repo.Write("a.txt", "loose two\n");
  repo.Commit("second");  // loose objects beside the pack
  a = h.Call("read_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_NE(a.text.find("loose two"), std::string::npos) << a.text;

  CommitPacked(repo, "repacked three\n", "third");
  a = h.Call("read_file", R"({"repo":"shop","path":"a.txt"})");
  EXPECT_NE(a.text.find("repacked three"), std::string::npos) << a.text;
  a = h.Call("grep", R"({"repo":"shop","pattern":"packed one","ref":"HEAD~2"})");
  EXPECT_NE(a.text.find("1: packed one"), std::string::npos) << a.text;

  // A clone sharing the first repository's objects through alternates.
  rr::testing::Run({"git", "clone", "-q", "--shared", "--bare", repo.path(), tmp / "shared.git"},
                   tmp.path(), repo.Env());
  ASSERT_TRUE(std::filesystem::exists(tmp / "shared.git/objects/info/alternates"));
  ToolHarness shared({Served("shared", tmp / "shared.git")});
  a = shared.Call("read_file", R"({"repo":"shared","path":"a.txt"})");
  EXPECT_NE(a.text.find("repacked three"), std::string::npos) << a.text;
}

}  // namespace
}  // namespace pack_reader_test
}  // namespace rr::testing
