// The text index's bases (core/index/text_bases.h): copies of one template,
// each with a commit of its own on the template's, as an organisation's repositories made from
// one template are. The first copy indexed keeps its list as its folders' parts and writes no
// base; the second writes the base the copies share (what a commit shares with its first parent)
// and every copy after it lists only the files the base lacks -- its own, one the base's writer
// changed, none for a file it deleted -- in a list of a few hundred bytes; each copy's paths read
// through its list are git's, in git's order, with their ids; a base written over or removed
// leaves the lists naming it unused (the repositories read, the answers the same) until they are
// indexed again; and every search answers what reading every file answers. A copy that changed
// folders writes no part for them when its list names the base instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/app/wiring.h"
#include "core/index/repo_text_index.h"
#include "core/search/text_search.h"
#include "tests/search/indexed_kit.h"

namespace rr::testing::search::text_bases {
namespace {

namespace fs = std::filesystem;

class TextBases : public IndexedOrganisation {
 protected:
  void SetUp() override {
    // Each copy: the template's commit (the same tree in each), then its own commit.
    for (int i = 1; i <= 4; ++i) {
      const std::string name = "copy-" + std::to_string(i);
      repos_.push_back(std::make_unique<TestRepo>(tmp_ / name));
      WriteFromSource(*repos_.back(), "core");
      repos_.back()->Write("README.md", "the template's readme: basetoken-1\n");
      repos_.back()->Commit("from the template");
      config_.repos.push_back(Served(name, repos_.back()->path()));
    }
    // copy-1: a file of its own at the root; copy-3 too, and a shared file made executable.
    // copy-2 (the base's writer): its own file and a changed readme, so the base lacks the
    // readme. copy-4: a file below tools, and a file of util deleted and another changed.
    repos_[0]->Write("ORG_TOKEN.txt", "orgtoken-00001\n");
    repos_[1]->Write("ORG_TOKEN.txt", "orgtoken-00002\n");
    repos_[1]->Write("README.md", "copy-2's own readme: basetoken-2\n");
    repos_[2]->Write("ORG_TOKEN.txt", "orgtoken-00003\n");
    fs::permissions(fs::path(repos_[2]->path()) / "util/result.h", fs::perms::owner_exec,
                    fs::perm_options::add);
    repos_[3]->Write("tools/copy4_only.cc", "// orgtoken-00004 below tools\n");
    repos_[3]->Git({"rm", "-q", "util/text.h"});
    repos_[3]->Write("util/result.h",
                     ReadFileBytes(fs::path(RR_SOURCE_DIR) / "core/util/result.h") +
                         "// orgtoken-00004 in a changed file\n");
    for (auto& repo : repos_) repo->Commit("its own");
    Serve();
  }

  std::string Store() { return TextStoreFolder(Repo("copy-1").settings().index_folder.str()); }
  TextIndexBuild Build(const std::string& name) {
    auto built = BuildTextIndex(Repo(name), StopToken());
    EXPECT_TRUE(built) << name << ": " << built.error();
    return built ? *built : TextIndexBuild{};
  }
  // The parts a repository's list names, by key.
  std::set<uint64_t> KeysOf(const std::string& name) {
    auto list = IndexFile::Open(TextIndexFile(Repo(name)));
    EXPECT_TRUE(list) << list.error();
    std::set<uint64_t> out;
    for (size_t i = 0; list && i < (*list)->parts(); ++i) out.insert((*list)->Part(i).key);
    return out;
  }
  // The repository's paths as its index reads them (through its list and the parts it names),
  // against git's own listing of its commit: the same paths in the same order, the same ids.
  void ListsItsCommitExactly(size_t copy) {
    const std::string name = "copy-" + std::to_string(copy + 1);
    const auto index = CurrentTextIndex(Repo(name));
    ASSERT_TRUE(index) << name;
    std::vector<std::string> want, got;
    for (const auto& line : SplitLines(repos_[copy]->Git({"ls-tree", "-r", "HEAD"}))) {
      // "<mode> blob <id>\t<path>"
      want.push_back(line.substr(line.find('\t') + 1) + " " + line.substr(12, 40) + " " +
                     line.substr(0, 6));
    }
    for (size_t i = 0; i < index->paths(); ++i) {
      const auto e = index->Path(i);
      char hex[GIT_OID_HEXSZ + 1];
      git_oid_tostr(hex, sizeof hex, &index->Oid(e.blob));
      got.push_back(std::string(e.path) + " " + hex + (e.executable ? " 100755" : " 100644"));
    }
    EXPECT_EQ(got, want) << name;
  }
  void SameOnEverySearch() {
    for (const char* args :
         {R"({"pattern":"basetoken"})", R"({"pattern":"orgtoken-0000[1-4]","regex":true})",
          R"({"pattern":"orgtoken-00003"})", R"({"pattern":"StopToken"})",
          R"({"pattern":"T[a-z]+Index","regex":true})",
          R"({"pattern":"stoptoken","ignore_case":true})", R"({"pattern":"Result","path":"util"})",
          R"({"pattern":"ToLower","path":"util/text.h"})"}) {
      Same("search", args);
    }
    Same("grep", R"({"repo":"copy-4","pattern":"orgtoken"})");
    Same("grep", R"({"repo":"copy-3","pattern":"Walk","path":"util"})");
  }
  void BaseDamagedThenIndexedAgain(bool remove);
};

TEST_F(TextBases, CopiesOfATemplateShareOneBaseAndListOnlyWhatItLacks) {
  const size_t parts_before = PartFiles(Store()).size();
  EXPECT_EQ(parts_before, 0u);
  // The first copy on the template's commit: its folders' parts, no base (alone, it would gain
  // nothing).
  Build("copy-1");
  const size_t folder_parts = PartFiles(Store()).size();
  EXPECT_GT(folder_parts, 0u);
  const auto first = CurrentTextIndex(Repo("copy-1"));
  ASSERT_TRUE(first);
  EXPECT_EQ(KeysOf("copy-1").size(), folder_parts);
  // Built again (its list gone), it is still the only one on the template's commit: no base.
  fs::remove(TextIndexFile(Repo("copy-1")));
  EXPECT_TRUE(Build("copy-1").built);
  EXPECT_EQ(PartFiles(Store()).size(), folder_parts);
  // The second writes the base: one part more.
  const TextIndexBuild second = Build("copy-2");
  EXPECT_EQ(PartFiles(Store()).size(), folder_parts + 1);
  EXPECT_GT(second.part_bytes, 0u);
  // The others name it. Each wrote parts for the folders it changed (copy-3 the small folders'
  // part, for util; copy-4 tools' and the small folders') before its list named the base: the
  // garbage pass drops them (another build may have found them in the store meanwhile, so the
  // build does not).
  const TextIndexBuild third = Build("copy-3");
  EXPECT_EQ(third.reused_parts, 1u);
  const TextIndexBuild fourth = Build("copy-4");
  EXPECT_GT(fourth.part_bytes, 0u);
  EXPECT_EQ(fourth.reused_parts, 1u);
  EXPECT_EQ(PartFiles(Store()).size(), folder_parts + 4);
  auto compacted = CompactTextStore(Store(), ListsFolderOf("copy-1"), StopToken());
  ASSERT_TRUE(compacted) << compacted.error();
  EXPECT_EQ(compacted->parts_dropped, 3u);
  EXPECT_EQ(PartFiles(Store()).size(), folder_parts + 1);
  const std::set<uint64_t> base = KeysOf("copy-2");
  ASSERT_EQ(base.size(), 1u);
  EXPECT_EQ(KeysOf("copy-3"), base);
  EXPECT_EQ(KeysOf("copy-4"), base);
  // What each lists itself: copy-2 its file and its readme (the base lacks the readme it
  // changed); copy-3 its file, the template's readme and the file it made executable; copy-4
  // its new file below tools, the
  // template's readme and the file of util it changed (the file it deleted is a path of the
  // base it does not take).
  EXPECT_EQ(CurrentTextIndex(Repo("copy-2"))->list().paths(), 2u);
  EXPECT_EQ(CurrentTextIndex(Repo("copy-3"))->list().paths(), 3u);
  EXPECT_EQ(CurrentTextIndex(Repo("copy-4"))->list().paths(), 3u);
  for (const char* name : {"copy-2", "copy-3", "copy-4"}) {
    const auto index = CurrentTextIndex(Repo(name));
    ASSERT_TRUE(index) << name;
    EXPECT_EQ(index->parts(), 1u) << name;
    // A few hundred bytes, against the first copy's list of its root files and folders' parts.
    EXPECT_LT(index->bytes(), 600u) << name;
    EXPECT_LT(index->bytes() * 2, first->bytes()) << name;
  }
  for (size_t copy = 0; copy < 4; ++copy) ListsItsCommitExactly(copy);
  SameOnEverySearch();
}

// The base written over with another part (a folder's: its id is not the one the lists name), or
// removed: the lists naming it are not used, and the answers are the same; indexed again, the base
// is written again (it is wanted) and the lists name it.
void TextBases::BaseDamagedThenIndexedAgain(bool remove) {
  for (const char* name : {"copy-1", "copy-2", "copy-3", "copy-4"}) Build(name);
  const uint64_t key = *KeysOf("copy-3").begin();
  const std::string base = TextPartFile(Store(), key);
  const std::string folder_part = TextPartFile(Store(), *KeysOf("copy-1").begin());
  ASSERT_NE(base, folder_part);
  if (remove) {
    fs::remove(base);
  } else {
    fs::copy_file(folder_part, base, fs::copy_options::overwrite_existing);
  }
  EXPECT_TRUE(CurrentTextIndex(Repo("copy-1")));
  for (const char* name : {"copy-2", "copy-3", "copy-4"}) {
    EXPECT_FALSE(CurrentTextIndex(Repo(name))) << name;
  }
  SameOnEverySearch();
  for (const char* name : {"copy-2", "copy-3", "copy-4"}) {
    EXPECT_TRUE(Build(name).built) << name;
    EXPECT_TRUE(CurrentTextIndex(Repo(name))) << name;
    EXPECT_EQ(KeysOf(name), std::set<uint64_t>{key}) << name;
  }
  for (size_t copy = 0; copy < 4; ++copy) ListsItsCommitExactly(copy);
  SameOnEverySearch();
}

// A base written again with other paths (another copy's, after the first was dropped) while the
// indexes naming the first are in use: the copy naming the new one is used, not refused for
// meeting the first one still held in memory.
TEST_F(TextBases, ABaseWrittenAgainWithOtherPathsIsTheOneItsNewListsMeet) {
  for (const char* name : {"copy-1", "copy-2", "copy-3", "copy-4"}) Build(name);
  for (const char* name : {"copy-2", "copy-3", "copy-4"}) {
    ASSERT_TRUE(CurrentTextIndex(Repo(name))) << name;  // each holds the base in memory
  }
  const uint64_t key = *KeysOf("copy-3").begin();
  const auto held = CurrentTextIndex(Repo("copy-3"));
  // The base gone, copy-4 built again writes it: without the files copy-4 changed.
  fs::remove(TextPartFile(Store(), key));
  fs::remove(TextIndexFile(Repo("copy-4")));
  EXPECT_TRUE(Build("copy-4").built);
  ASSERT_EQ(KeysOf("copy-4"), std::set<uint64_t>{key});
  ASSERT_TRUE(CurrentTextIndex(Repo("copy-4")));
  EXPECT_EQ(CurrentTextIndex(Repo("copy-4"))->list().paths(), 2u);  // its file, the readme
  ListsItsCommitExactly(3);
  ListsItsCommitExactly(2);
  SameOnEverySearch();
}

TEST_F(TextBases, ABaseWrittenOverLeavesItsListsUnusedUntilIndexedAgain) {
  BaseDamagedThenIndexedAgain(/*remove=*/false);
}

TEST_F(TextBases, ABaseRemovedLeavesItsListsUnusedUntilIndexedAgain) {
  BaseDamagedThenIndexedAgain(/*remove=*/true);
}

}  // namespace
}  // namespace rr::testing::search::text_bases
