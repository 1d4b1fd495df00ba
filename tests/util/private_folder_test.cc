// The folder an index is written in (MakePrivateFolder, core/util/private_folder.h): every
// missing folder above it is made, a link in its place is refused and nothing is written where
// it points, and a folder others could read is made the owner's alone. The text index's store
// is checked through WriteTextShard, the way the indexer writes it.
#include "core/util/private_folder.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "core/index/text_index.h"
#include "core/index/text_store.h"
#include "tests/testkit/git_fixture.h"

namespace rr {
namespace private_folder_test {
namespace {

using rr::testing::TempDir;

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

TEST(PrivateFolder, EveryMissingFolderIsMadeForTheOwnerOnly) {
  TempDir tmp;
  const std::string folder = tmp / "cache/text/shards";
  ASSERT_TRUE(MakePrivateFolder(folder, "the text index folder"));
  EXPECT_EQ(ModeOf(tmp / "cache"), 0700u);
  EXPECT_EQ(ModeOf(tmp / "cache/text"), 0700u);
  EXPECT_EQ(ModeOf(folder), 0700u);
  // Again, on what is there: nothing to do.
  EXPECT_TRUE(MakePrivateFolder(folder, "the text index folder"));
}

TEST(PrivateFolder, AFolderOthersCanReadIsMadeTheOwnersAlone) {
  TempDir tmp;
  const std::string folder = tmp / "index";
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  ASSERT_EQ(chmod(folder.c_str(), 0755), 0);
  ASSERT_TRUE(MakePrivateFolder(folder, "the history index folder"));
  EXPECT_EQ(ModeOf(folder), 0700u);
}

// The text index's store, in a folder an operator made readable by all: written, and the folder
// is the server's alone from then on (as the history index's always was).
TEST(PrivateFolder, TheTextIndexsFolderIsMadePrivateWhenItIsWritten) {
  TempDir tmp;
  const std::string folder = tmp / "text";
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  ASSERT_EQ(chmod(folder.c_str(), 0755), 0);
  IndexFileWriter w;
  w.AddPath("a.txt", w.AddBlob(git_oid{{1}}, BlobKind::kText, "some text\n"), false);
  auto shard = WriteTextShard(folder, w);
  ASSERT_TRUE(shard) << shard.error();
  EXPECT_EQ(ModeOf(folder), 0700u);
}

TEST(PrivateFolder, ALinkInItsPlaceIsRefusedAndNothingIsWrittenWhereItPoints) {
  TempDir tmp;
  const std::string elsewhere = tmp / "elsewhere";
  ASSERT_EQ(mkdir(elsewhere.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((tmp / "cache").c_str(), 0700), 0);
  const std::string folder = tmp / "cache/text";
  ASSERT_EQ(symlink(elsewhere.c_str(), folder.c_str()), 0);

  Status made = MakePrivateFolder(folder, "the text index folder");
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error(),
            "the text index folder " + folder + " is not a folder (a link is refused)");
  EXPECT_EQ(ModeOf(elsewhere), 0755u);  // not made private either: it is not ours

  // The text index's store, written as the indexer writes it: refused the same way.
  IndexFileWriter w;
  w.AddPath("a.txt", w.AddBlob(git_oid{{1}}, BlobKind::kText, "some text\n"), false);
  auto shard = WriteTextShard(folder, w);
  ASSERT_FALSE(shard);
  EXPECT_NE(shard.error().find("a link is refused"), std::string::npos) << shard.error();
  EXPECT_TRUE(std::filesystem::is_empty(elsewhere));
}

TEST(PrivateFolder, ARelativePathIsRefusedWithWhatWasGiven) {
  Status made = MakePrivateFolder("cache/text", "the text index folder");
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error(), "the text index folder must be an absolute path, not `cache/text`");
}

}  // namespace
}  // namespace private_folder_test
}  // namespace rr
