// CompactFolder keeps an index folder's path as an interned parent and its last part's 20 bytes:
// whatever path it is given, it reads back exactly that path -- a history index folder, one whose
// last part only looks like hex, a test's folder -- and the empty path as empty.
#include "core/util/compact_folder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rr {
namespace compact_folder_test {
namespace {

const std::string kDigest = "0123456789abcdef0a1b2c3d4e5f60718293a4b5";  // 40 hex digits

TEST(CompactFolder, AnIndexFolderReadsBackExactly) {
  const std::string path = "/home/ana/.cache/repo-reader/history/" + kDigest;
  const CompactFolder folder(path);
  EXPECT_FALSE(folder.empty());
  EXPECT_EQ(folder.str(), path);
  const std::string as_string = folder;  // read as a string field is
  EXPECT_EQ(as_string, path);
}

TEST(CompactFolder, EveryOtherPathReadsBackExactly) {
  const std::vector<std::string> paths = {
      "/tmp/index",
      "/tmp/" + kDigest.substr(0, 39),                  // one digit short
      "/tmp/" + kDigest + "0",                          // one too many
      "/tmp/0123456789ABCDEF0A1B2C3D4E5F60718293A4B5",  // upper case: kept as given
      "/tmp/0123456789abcdef0a1b2c3d4e5f60718293a4bg",  // not hex at the end
      "/tmp/g123456789abcdef0a1b2c3d4e5f60718293a4b5",  // nor at the start
      "/" + kDigest,                                    // at the root
      kDigest,                                          // no folder at all
      "relative/" + kDigest,
      "/tmp/" + kDigest + "/",  // a trailing slash
      "/",
  };
  for (const std::string& path : paths) {
    EXPECT_EQ(CompactFolder(path).str(), path) << path;
    EXPECT_FALSE(CompactFolder(path).empty()) << path;
  }
}

TEST(CompactFolder, TheEmptyPathIsEmpty) {
  EXPECT_TRUE(CompactFolder().empty());
  EXPECT_EQ(CompactFolder().str(), "");
  EXPECT_TRUE(CompactFolder("").empty());
  EXPECT_EQ(CompactFolder(std::string()).str(), "");
}

TEST(CompactFolder, FoldersOfOneParentEachKeepTheirOwnLastPart) {
  std::string other = kDigest;
  other[39] = '6';
  const CompactFolder a("/cache/history/" + kDigest), b("/cache/history/" + other);
  EXPECT_EQ(a.str(), "/cache/history/" + kDigest);
  EXPECT_EQ(b.str(), "/cache/history/" + other);
  CompactFolder c = a;  // copies read back the same
  EXPECT_EQ(c.str(), a.str());
  c = "/elsewhere";
  EXPECT_EQ(c.str(), "/elsewhere");
  EXPECT_EQ(a.str(), "/cache/history/" + kDigest);
}

TEST(CompactFolder, TakesNoMoreRoomThanAString) {
  // Its point: the same 32 bytes as a std::string, without the string's block for a long path.
  EXPECT_LE(sizeof(CompactFolder), sizeof(std::string));
}

}  // namespace
}  // namespace compact_folder_test
}  // namespace rr
