// cache_folder: and history_index: -- where the server keeps its own files, and whether it keeps
// a history index of repositories without a commit-graph.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/app/wiring.h"
#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace cache_folder_test {
namespace {

namespace fs = std::filesystem;

// Sets (or clears) an environment variable for one test, and puts it back afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class CacheFolderConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    repo_->Write("a.txt", "a\n");
    repo_->Commit("first");
  }
  Result<Config> Parse(const std::string& extra) {
    return ParseConfig("repos:\n  - name: shop\n    path: shop\n" + extra, "repo-reader.yaml",
                       tmp_.path());
  }
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
};

TEST_F(CacheFolderConfig, DefaultIsXdgCacheHomeElseTheHomeFoldersCache) {
  {
    ScopedEnv xdg("XDG_CACHE_HOME", tmp_ / "xdg");
    ScopedEnv home("HOME", tmp_ / "home");
    auto c = Parse("");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->cache_folder, tmp_ / "xdg/repo-reader");
    EXPECT_TRUE(c->history_index);
    EXPECT_EQ(DescribeHistoryIndex(*c), "kept in " + (tmp_ / "xdg/repo-reader") + "/history");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/xdg");  // not absolute: ignored, as XDG says
    ScopedEnv home("HOME", tmp_ / "home");
    auto c = Parse("");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->cache_folder, tmp_ / "home/.cache/repo-reader");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
    ScopedEnv home("HOME", std::nullopt);
    auto c = Parse("");
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->cache_folder, "");
    EXPECT_NE(DescribeHistoryIndex(*c).find("off (no cache folder"), std::string::npos)
        << DescribeHistoryIndex(*c);
    auto catalog = BuildCatalog(*c);
    ASSERT_TRUE(catalog) << catalog.error();
    EXPECT_EQ((*catalog)->all().at(0)->settings().index_folder.str(), "");
  }
}

TEST_F(CacheFolderConfig, AGivenFolderIsUsedAndEachRepositoryGetsAFolderNamedByADigest) {
  TestRepo other(tmp_ / "other");
  other.Write("b.txt", "b\n");
  other.Commit("first");
  auto c = ParseConfig(
      "repos:\n  - name: shop\n    path: shop\n  - name: other\n    path: other\n"
      "cache_folder: " +
          (tmp_ / "cache/./rr/../rr") + "\n",
      "repo-reader.yaml", tmp_.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->cache_folder, tmp_ / "cache/rr");
  auto catalog = BuildCatalog(*c);
  ASSERT_TRUE(catalog) << catalog.error();
  const std::string a = (*catalog)->all().at(0)->settings().index_folder.str();
  const std::string b = (*catalog)->all().at(1)->settings().index_folder.str();
  EXPECT_EQ(a.rfind(tmp_ / "cache/rr/history/", 0), 0u) << a;
  EXPECT_EQ(a.size(), (tmp_ / "cache/rr/history/").size() + 40) << a;
  EXPECT_NE(a, b);
  EXPECT_EQ(a, HistoryIndexFolder(*c, repo_->path()));
  EXPECT_FALSE(fs::exists(tmp_ / "cache")) << "reading a configuration writes nothing";
}

TEST_F(CacheFolderConfig, HistoryIndexFalseKeepsNone) {
  auto c = Parse("cache_folder: " + (tmp_ / "cache") + "\nhistory_index: false\n");
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(c->history_index);
  EXPECT_EQ(DescribeHistoryIndex(*c), "off (history_index: false)");
  auto catalog = BuildCatalog(*c);
  ASSERT_TRUE(catalog) << catalog.error();
  EXPECT_EQ((*catalog)->all().at(0)->settings().index_folder.str(), "");
}

TEST_F(CacheFolderConfig, ABadFolderIsRefusedWithItsLineAndWhatToWrite) {
  fs::create_directories(tmp_ / "home");
  ScopedEnv home("HOME", tmp_ / "home");
  struct Case {
    std::string yaml, says;
  };
  const std::vector<Case> cases = {
      {"cache_folder: relative/cache\n",
       "repo-reader.yaml:4:15: cache_folder `relative/cache` "
       "must be an absolute path"},
      {"cache_folder: [a, b]\n", "repo-reader.yaml:4:15: cache_folder must be text"},
      {"cache_folder: " + (tmp_ / "shop/a.txt") + "\n", "is not a folder"},
      {"cache_folder: " + (tmp_ / "shop/.cache") + "\n",
       "lies inside repository `shop` (" + repo_->path() +
           "); the server never writes inside a repository"},
      {"cache_folder: " + repo_->path() + "\n", "lies inside repository `shop`"},
      {"history_index: maybe\n", "repo-reader.yaml:4:16: history_index must be true or false"},
  };
  for (const auto& k : cases) {
    auto c = Parse(k.yaml);
    ASSERT_FALSE(c) << k.yaml;
    EXPECT_NE(c.error().find(k.says), std::string::npos) << c.error();
  }
  // `~/` is the home folder.
  auto c = Parse("cache_folder: ~/cache\n");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->cache_folder, tmp_ / "home/cache");
}

TEST_F(CacheFolderConfig, ADefaultFolderInsideAServedRepositoryTurnsTheIndexOffAndSaysWhy) {
  // A home folder that is itself a repository (dotfiles), served.
  ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  ScopedEnv home("HOME", repo_->path());
  auto c = Parse("");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->cache_folder, "");
  EXPECT_NE(DescribeHistoryIndex(*c).find("lies inside repository `shop`"), std::string::npos)
      << DescribeHistoryIndex(*c);
  auto d = DefaultConfig(repo_->path());
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->cache_folder, "");
  EXPECT_NE(DescribeHistoryIndex(*d).find("set cache_folder"), std::string::npos);
}

TEST_F(CacheFolderConfig, CheckSaysWhereTheIndexIsKept) {
  const std::string file = tmp_ / "repo-reader.yaml";
  std::ofstream(file) << ("repos:\n  - name: shop\n    path: shop\ncache_folder: " +
                          (tmp_ / "cache") + "\n");
  const auto r = rr::testing::Run({RR_BINARY, "--config", file, "--check"}, tmp_.path());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("History index: kept in " + (tmp_ / "cache") + "/history."),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(tmp_ / "cache")) << "--check writes nothing";
}

}  // namespace
}  // namespace cache_folder_test
}  // namespace rr::testing
