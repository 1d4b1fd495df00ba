// list_repos' entry cache on repositories the tests build: an entry is kept while the
// repository's refs do not change (shown even when the repository could no longer be read), and
// read again on the next call once a branch moves -- a commit on the default branch, a branch
// deleted from packed-refs, the default branch moved and packed by git pack-refs. Also: the
// cache is the repository's, so a second catalog holding the same repository (a caller who sees
// a subset of them) finds it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "core/served/catalog.h"
#include "core/tools/list_repos.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_repos_cache_test {
namespace {

namespace fs = std::filesystem;

// HEAD, packed-refs and everything under refs/ made to look long unchanged: the stamp taken now
// can be trusted (it is not racy), so only a real change makes the entry be read again.
void Backdate(const std::string& git_dir) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  for (const char* f : {"HEAD", "packed-refs"}) {
    if (fs::exists(git_dir + "/" + f)) fs::last_write_time(git_dir + "/" + f, old);
  }
  fs::last_write_time(git_dir + "/refs", old);
  for (const auto& e : fs::recursive_directory_iterator(git_dir + "/refs")) {
    fs::last_write_time(e.path(), old);
  }
}

class ListReposCache : public ::testing::Test {
 protected:
  ListReposCache() {
    repo_.Write("a.txt", "a\n");
    first_ = repo_.Commit("First");
    repo_.Git({"branch", "feature"});
    Backdate(git_dir_);
  }
  std::string Entry() {
    auto a = h_.Call("list_repos");
    EXPECT_FALSE(a.is_error) << a.text;
    return a.text;
  }
  std::string Shows(const std::string& id, const std::string& date, const std::string& subject,
                    const std::string& counts) {
    return "repo-reader · 1 repository served\n## shop\nDefault branch: main @ " + Short(id) +
           " (" + date + ") — " + subject + "\n" + counts + " — list_refs lists them";
  }

  TempDir tmp_;
  TestRepo repo_{tmp_ / "shop"};
  std::string git_dir_ = repo_.path() + "/.git";
  std::string first_;
  ToolHarness h_{{Served("shop", repo_.path())}};
};

TEST_F(ListReposCache, AnEntryIsKeptWhileTheRefsDoNotChange) {
  const std::string before = Entry();
  EXPECT_EQ(before, Shows(first_, "2026-01-01", "First", "2 branches, 0 tags"));
  // Its objects out of reach: read again, the repository could not even be opened. The entry
  // kept is shown, since no ref has moved.
  fs::rename(git_dir_ + "/objects", git_dir_ + "/objects.away");
  EXPECT_EQ(Entry(), before);
  fs::rename(git_dir_ + "/objects.away", git_dir_ + "/objects");
}

TEST_F(ListReposCache, ACommitOnTheDefaultBranchShowsOnTheNextCall) {
  EXPECT_EQ(Entry(), Shows(first_, "2026-01-01", "First", "2 branches, 0 tags"));
  repo_.Write("a.txt", "b\n");
  const std::string second = repo_.Commit("Second");
  EXPECT_EQ(Entry(), Shows(second, "2026-01-02", "Second", "2 branches, 0 tags"));
  // And kept again from then on.
  Backdate(git_dir_);
  const std::string now = Entry();
  fs::rename(git_dir_ + "/objects", git_dir_ + "/objects.away");
  EXPECT_EQ(Entry(), now);
  fs::rename(git_dir_ + "/objects.away", git_dir_ + "/objects");
}

TEST_F(ListReposCache, RefsPackedByGitPackRefsAreFollowed) {
  repo_.Write("a.txt", "b\n");
  const std::string second = repo_.Commit("Second");
  repo_.Git({"tag", "v1"});
  repo_.Git({"pack-refs", "--all"});
  ASSERT_FALSE(fs::exists(git_dir_ + "/refs/heads/main"));
  Backdate(git_dir_);
  EXPECT_EQ(Entry(), Shows(second, "2026-01-02", "Second", "2 branches, 1 tag"));
  // A branch that lives only in packed-refs is deleted.
  repo_.Git({"branch", "-D", "feature"});
  EXPECT_EQ(Entry(), Shows(second, "2026-01-02", "Second", "1 branch, 1 tag"));
  // The default branch moved back, then packed: its value is in packed-refs alone.
  Backdate(git_dir_);
  Entry();
  repo_.Git({"update-ref", "refs/heads/main", first_});
  repo_.Git({"pack-refs", "--all"});
  ASSERT_FALSE(fs::exists(git_dir_ + "/refs/heads/main"));
  EXPECT_EQ(Entry(), Shows(first_, "2026-01-01", "First", "1 branch, 1 tag"));
}

TEST_F(ListReposCache, ACatalogOfASubsetFindsTheSameEntries) {
  // Two catalogs holding the same ServedRepo, as a caller who may read only some of the
  // repositories gets: what one call read, the other finds kept.
  RepoSettings settings;
  settings.name = "shop";
  settings.path = repo_.path();
  auto shop = std::make_shared<const ServedRepo>(settings);
  settings.name = "other";
  auto other = std::make_shared<const ServedRepo>(settings);
  auto everyone =
      std::make_shared<const Catalog>(std::vector<std::shared_ptr<const ServedRepo>>{shop, other});
  auto subset =
      std::make_shared<const Catalog>(std::vector<std::shared_ptr<const ServedRepo>>{shop});
  ListReposTool tool;
  auto call = [&](const std::shared_ptr<const Catalog>& catalog) {
    CallContext ctx;
    ctx.catalog = catalog;
    auto args = Args::Check(tool.spec(), nullptr);
    EXPECT_TRUE(args.ok());
    auto d = tool.Call(ctx, *args);
    EXPECT_TRUE(d.ok());
    std::string text;
    for (const auto& l : d->lines) text += l + "\n";
    return text;
  };
  EXPECT_TRUE(Has(call(everyone), "## shop\nDefault branch: main @ " + Short(first_)));
  EXPECT_NE(shop->entry_cache().Fresh(), nullptr);
  fs::rename(git_dir_ + "/objects", git_dir_ + "/objects.away");
  EXPECT_EQ(call(subset), "## shop\nDefault branch: main @ " + Short(first_) +
                              " (2026-01-01) — First\n2 branches, 0 tags — list_refs lists them\n");
  fs::rename(git_dir_ + "/objects.away", git_dir_ + "/objects");
}

}  // namespace
}  // namespace list_repos_cache_test
}  // namespace rr::testing
