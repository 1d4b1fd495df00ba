// The text index never decides an answer: over a small organisation of real repositories (folders
// of this project's own source, a fork, a repository serving only part of itself, a binary file
// and a credential file holding the token), search and grep answer exactly what they answer
// reading every file — unique tokens, rare and common identifiers, regular expressions,
// ignore_case, path filters, a pattern with no trigram — and the index was used. A commit made
// after indexing (a new file, a changed one) is found by the next search, exactly; grep at an
// older ref, and an index file damaged on disk, answer the same too. The store is shared: contents
// two repositories hold (a fork) are indexed once, indexing again reads only what the store lacks,
// a damaged shard is not used (its contents are read, then indexed again), and contents no
// repository names any more are dropped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/app/wiring.h"
#include "core/index/repo_text_index.h"
#include "core/served/known_default.h"
#include "tests/search/indexed_kit.h"

namespace rr::testing::search::indexed_search {
namespace {

namespace fs = std::filesystem;

// A repository holding the files below `folder` of this project's source, committed.
void FromSource(TestRepo& repo, const std::string& folder) {
  WriteFromSource(repo, folder);
  repo.Commit("from " + folder);
}

class IndexedSearch : public IndexedOrganisation {
 protected:
  void SetUp() override {
    const std::vector<std::pair<std::string, std::string>> sources = {
        {"util", "core/util"},     {"git", "core/git"},
        {"served", "core/served"}, {"search", "core/search"},
        {"policy", "core/policy"}, {"secrets", "core/secrets"},
        {"docs", "docs"},          {"search-tests", "tests/search"}};
    for (const auto& [name, folder] : sources) {
      repos_.push_back(std::make_unique<TestRepo>(tmp_ / name));
      FromSource(*repos_.back(), folder);
      config_.repos.push_back(Served(name, repos_.back()->path()));
    }
    // A fork of util with one commit of its own, holding the organisation's unique token.
    repos_.push_back(std::make_unique<TestRepo>(tmp_ / "util-fork"));
    FromSource(*repos_.back(), "core/util");
    repos_.back()->Write("fork.txt", "the fork's own: orgtoken-09700\nKELVIN \xe2\x84\xaa\n");
    repos_.back()->Commit("fork");
    config_.repos.push_back(Served("util-fork", repos_.back()->path()));
    // The token also in a binary file, a credential file (never served) and an excluded folder.
    repos_.push_back(std::make_unique<TestRepo>(tmp_ / "app"));
    TestRepo& app = *repos_.back();
    app.Write("bin/blob.dat", std::string("orgtoken-09700\0\0binary", 23));
    app.Write(".env", "TOKEN=orgtoken-09700\n");
    app.Write("private/notes.txt", "orgtoken-09700 in a folder kept out\n");
    app.Write("src/main.go", "func mainHandler(w http.ResponseWriter) {}\nfunc other() {}\n");
    app.Write("src/Util.go", "// STOPTOKEN in capitals\nfunc utilHandler() {}\n");
    app.Commit("app");
    app.Write("src/main.go", "func mainHandler(w http.ResponseWriter) {}\nfunc second() {}\n");
    app.Commit("app two");
    RepoConfig partial = Served("app", app.path());
    partial.exclude = {"private/**"};
    config_.repos.push_back(partial);

    Serve();
    for (const auto& repo : catalog_->all()) {
      auto built = BuildTextIndex(*repo, StopToken());
      ASSERT_TRUE(built) << repo->name() << ": " << built.error();
      EXPECT_TRUE(built->built);
    }
  }

  // Commits `token` in app's `file` and searches every repository for it: the answer is the
  // scan's (Same), and app's lines in it are git grep's at main, at least one. Gives the answer.
  std::string CommitInAppAndSearch(const std::string& file, const std::string& token) {
    TestRepo& app = *repos_[9];
    app.Write(file, "// " + token + "\n");
    app.Commit("with " + token);
    const std::string found = Same("search", R"({"pattern":")" + token + R"("})");
    EXPECT_EQ(HitsIn(found, "app"), GitGrep(app, "main", {"-F"}, token, {}, "5"));
    EXPECT_FALSE(HitsIn(found, "app").empty()) << found;
    return found;
  }

  std::string StoreFolder() { return TextStoreFolder(Repo("util").settings().index_folder.str()); }
  std::string ListsFolder() { return ListsFolderOf("util"); }
  std::vector<fs::path> Shards() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(StoreFolder())) {
      if (e.path().extension() == ".tri") out.push_back(e.path());
    }
    return out;
  }
};

const std::vector<std::string> kSearches = {
    R"({"pattern":"orgtoken-09700"})",
    R"({"pattern":"StopToken"})",
    R"({"pattern":"kMaxFileBytes"})",
    R"({"pattern":"std::string"})",
    R"({"pattern":"return"})",
    R"({"pattern":"zzqqxx-not-anywhere"})",
    R"({"pattern":"Result<[A-Za-z]+>","regex":true})",
    R"({"pattern":"^#include \"core/(util|git)/","regex":true})",
    R"({"pattern":"T[a-z]+Index","regex":true})",
    R"({"pattern":"\\bStopToken\\b","regex":true})",
    R"({"pattern":"func \\w+Handler\\(","regex":true})",
    R"({"pattern":"colou?r|behaviou?r","regex":true})",
    R"({"pattern":"[0-9]{4}-[0-9]{2}","regex":true})",
    R"({"pattern":"stoptoken","ignore_case":true})",
    R"({"pattern":"kelvin","ignore_case":true})",
    R"({"pattern":"HANDLER\\(","regex":true,"ignore_case":true})",
    R"({"pattern":"Walk","path":"served_repo.h"})",
    R"({"pattern":"git_oid","path":"src"})",
    R"({"pattern":"TextPattern","repos":["search","search-tests"]})",
    R"({"pattern":"include","repos":["util","util-fork"]})",
};

TEST_F(IndexedSearch, AnswersAreTheScansAndTheIndexIsUsed) {
  const TextIndexUse before = CurrentTextIndexUse();
  for (const auto& args : kSearches) Same("search", args);
  const std::string token = Same("search", kSearches[0]);
  EXPECT_NE(token.find("fork.txt"), std::string::npos) << token;
  // In app: neither the credential file, the excluded folder nor the binary file is shown.
  EXPECT_TRUE(HitsIn(token, "app").empty()) << token;
  const TextIndexUse after = CurrentTextIndexUse();
  EXPECT_GT(after.targets - before.targets, 100u);
  EXPECT_GT(after.files_passed_over - before.files_passed_over, 1000u);
  for (const std::string& args :
       {std::string(R"({"repo":"util","pattern":"Ere","context":2})"),
        std::string(R"({"repo":"app","pattern":"func","ref":"HEAD~1"})"),
        std::string(R"({"repo":"app","pattern":"Handler","files_only":true})"),
        std::string(R"({"repo":"git","pattern":"oid","path":"tree_diff.cc"})"),
        std::string(R"({"repo":"docs","pattern":"search","ignore_case":true,"context":1})")}) {
    Same("grep", args);
  }
}

// A repository none of whose files can match is told so by the shards' few candidates, without
// its list being read; one holding a candidate, or naming a content no shard holds, is not.
TEST_F(IndexedSearch, ARepositoryWithoutCandidatesIsToldSoWithoutReadingItsList) {
  const TrigramQuery token = PlanTrigrams("orgtoken-09700", false, false);
  const auto util = CurrentTextIndex(Repo("util"));
  const auto fork = CurrentTextIndex(Repo("util-fork"));
  const auto app = CurrentTextIndex(Repo("app"));
  ASSERT_TRUE(util && fork && app);
  EXPECT_FALSE(util->MayMatchAny(token));
  EXPECT_TRUE(fork->MayMatchAny(token));  // fork.txt
  // app's copy of the token is in a binary file: no line of it can match.
  EXPECT_FALSE(app->MayMatchAny(token));
  EXPECT_EQ(app->binary_paths(), 1u);
  EXPECT_TRUE(util->MayMatchAny(PlanTrigrams("StopToken", false, false)));
  EXPECT_TRUE(util->MayMatchAny(PlanTrigrams("stoptoken", false, true)));
  EXPECT_TRUE(util->MayMatchAny(PlanTrigrams("[0-9]{4}", true, false)));  // no trigram
  EXPECT_FALSE(util->MayMatchAny(PlanTrigrams("zzqqxx-not-anywhere", false, false)));
  // Its shards gone: every content is read, so some file may match.
  for (const auto& shard : Shards()) fs::remove(shard);
  const auto bare = CurrentTextIndex(Repo("util"));
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->missing(), bare->blobs());
  EXPECT_TRUE(bare->MayMatchAny(token));
  for (const auto& args : {kSearches[0], kSearches[5]}) Same("search", args);
}

// A content several repositories hold is matched once a search (util-fork holds every file of
// util), yet each repository's part of the answer is its own, as git grep finds in each: a file
// the fork changed at the same path, a file of util the fork copied under another path, a file
// only one of them holds.
TEST_F(IndexedSearch, ContentsSeveralRepositoriesHoldAreAnsweredAsEachOnesOwn) {
  TestRepo& util = *repos_[0];
  TestRepo& fork = *repos_[8];
  const std::string stop = ReadFileBytes(fs::path(fork.path()) / "stop.h");
  fork.Write("stop.h", stop + "// memotoken StopToken changed in the fork\n");
  fork.Write("copied/stop_copy.h", stop);
  fork.Commit("changed and copied");
  util.Write("only_here.h", "// memotoken StopToken in util alone\n");
  util.Commit("util alone");
  for (const char* pattern : {"StopToken", "memotoken", "Stopped()"}) {
    const std::string args =
        std::string(R"({"pattern":")") + pattern + R"(","repos":["util","util-fork"]})";
    const std::string answer = Same("search", args);
    EXPECT_EQ(answer.find("[partial"), std::string::npos) << answer;
    EXPECT_EQ(HitsIn(answer, "util"), GitGrep(util, "HEAD", {"-F"}, pattern, {}, "5")) << answer;
    EXPECT_EQ(HitsIn(answer, "util-fork"), GitGrep(fork, "HEAD", {"-F"}, pattern, {}, "5"))
        << answer;
  }
}

TEST_F(IndexedSearch, ACommitAfterIndexingIsFoundByTheNextSearch) {
  TestRepo& git = *repos_[1];
  git.Write("fresh.txt", "freshtoken-4242 arrived after the index\n");
  git.Write("tree_diff.h",
            ReadFileBytes(fs::path(git.path()) / "tree_diff.h") + "// orgtoken-09700\n");
  git.Commit("after indexing");
  const TextIndexUse before = CurrentTextIndexUse();
  const std::string fresh = Same("search", R"({"pattern":"freshtoken-4242"})");
  EXPECT_EQ(HitsIn(fresh, "git"), GitGrep(git, "main", {"-F"}, "freshtoken-4242", {}, "5"));
  EXPECT_FALSE(HitsIn(fresh, "git").empty()) << fresh;
  const std::string token = Same("search", R"({"pattern":"orgtoken-09700"})");
  EXPECT_EQ(HitsIn(token, "git"), GitGrep(git, "main", {"-F"}, "orgtoken-09700", {}, "5"));
  EXPECT_FALSE(HitsIn(token, "git").empty()) << token;
  EXPECT_NE(token.find("fork.txt"), std::string::npos) << token;
  // The repository that moved was still narrowed by its index, for what did not change.
  EXPECT_GT(CurrentTextIndexUse().files_passed_over - before.files_passed_over, 100u);
  Same("grep", R"({"repo":"git","pattern":"orgtoken"})");
  Same("grep", R"({"repo":"git","pattern":"orgtoken","ref":"HEAD~1"})");
  // Indexed again, the same.
  auto rebuilt = BuildTextIndex(Repo("git"), StopToken());
  ASSERT_TRUE(rebuilt) << rebuilt.error();  // or the server's own indexer already did
  Same("search", R"({"pattern":"freshtoken-4242"})");
}

// A path asked first over many repositories is found among the paths of each one's text index
// of its kept default branch, not by opening each repository; the answers are those of reading
// every tree: a folder some hold, a file, a folder of no served file (app's private/, kept out:
// told as a path where nothing is served, whichever way it was found), a folder holding only a
// binary file, a path nowhere. A repository whose branch moved since its index was built is
// opened instead.
TEST_F(IndexedSearch, APathAskedFirstIsFoundInTheIndexesWithoutOpeningTheRepositories) {
  // A folder holding a link only: a folder of the tree, with no served file in it.
  TestRepo& app = *repos_[9];
  fs::create_directories(fs::path(app.path()) / "links");
  fs::create_symlink("../src/main.go", fs::path(app.path()) / "links" / "main.go");
  app.Commit("a folder of a link");
  ASSERT_TRUE(BuildTextIndex(Repo("app"), StopToken()));
  Same("search", R"({"pattern":"orgtoken-09700"})");  // each default branch kept
  const size_t n = catalog_->all().size();
  for (const char* args :
       {R"({"pattern":"Handler","path":"src"})", R"({"pattern":"orgtoken","path":"private"})",
        R"({"pattern":"orgtoken","path":"bin"})", R"({"pattern":"std","path":"text.h"})",
        R"({"pattern":"std","path":"nowhere/at/all"})",
        R"({"pattern":"Walk","path":"tree_diff.h"})", R"({"pattern":"main","path":"links"})"}) {
    const uint64_t before = CurrentTextIndexUse().paths_listed;
    const std::string answer = Same("search", args);
    EXPECT_EQ(CurrentTextIndexUse().paths_listed - before, n) << args;
    if (std::string(args).find("private") != std::string::npos ||
        std::string(args).find("links") != std::string::npos) {
      EXPECT_NE(answer.find("or not served): util, "), std::string::npos) << answer;
      EXPECT_NE(answer.find(", app]"), std::string::npos) << answer;
    }
  }
  app.Write("src/later.go", "func laterHandler() {}\n");
  app.Commit("later");
  const uint64_t before = CurrentTextIndexUse().paths_listed;
  const std::string moved = Same("search", R"({"pattern":"Handler","path":"src"})");
  EXPECT_NE(moved.find("laterHandler"), std::string::npos) << moved;
  EXPECT_EQ(CurrentTextIndexUse().paths_listed - before, n - 1);  // app opened: another commit
  Same("search", R"({"pattern":"Handler","path":"src/later.go"})");
}

// A search over the same targets as an earlier one takes each target's index as that search
// found it (SearchOptions::indexes) while nothing is reported and the store is as it was. A
// shard added to the store (by another server sharing the cache folder, a merge) changes no
// list, so nothing is reported: the next search looks for every index again, over the store as
// it is now. A branch moved changes no index: the kept one, of the commit before, still narrows
// what did not change, and the new commit is searched exactly.
TEST_F(IndexedSearch, IndexesKeptFromASearchAreUsedOnlyWhileTheyHold) {
  const std::vector<SearchTarget> targets = SearchTargetsOf(*catalog_);
  auto pattern = TextPattern::Make("StopToken", false, false, "pattern");
  ASSERT_TRUE(pattern);
  SearchOptions options;
  auto matched = [](const SearchResult& r) {
    size_t lines = 0;
    for (const auto& t : r.targets) lines += t.matched_lines;
    return lines;
  };
  const SearchResult first = SearchText(targets, *pattern, nullptr, options, StopToken());
  ASSERT_TRUE(first.indexes);  // every list watched: kept for the next search
  EXPECT_GT(matched(first), 10u);
  options.indexes = first.indexes;
  const SearchResult again = SearchText(targets, *pattern, nullptr, options, StopToken());
  EXPECT_FALSE(again.indexes);  // the kept ones used: none looked for
  EXPECT_EQ(matched(again), matched(first));
  IndexFileWriter w;
  git_oid id{};
  id.id[0] = 0x5a;
  w.AddBlob(id, BlobKind::kText, "a content no list names\n");
  ASSERT_TRUE(WriteTextShard(StoreFolder(), w));
  const SearchResult changed = SearchText(targets, *pattern, nullptr, options, StopToken());
  ASSERT_TRUE(changed.indexes);  // looked for again, over the store as it is now
  ASSERT_EQ(changed.indexes->stores.size(), 1u);
  EXPECT_EQ(changed.indexes->stores[0]->names, CurrentTextStore(StoreFolder())->names);
  EXPECT_EQ(matched(changed), matched(first));
  options.indexes = changed.indexes;
  EXPECT_FALSE(SearchText(targets, *pattern, nullptr, options, StopToken()).indexes);
  TestRepo& app = *repos_[9];
  app.Write("src/moved.go", "// StopToken moved here\n");
  app.Commit("moved");
  const SearchResult moved =
      SearchText(SearchTargetsOf(*catalog_), *pattern, nullptr, options, StopToken());
  EXPECT_FALSE(moved.indexes);
  EXPECT_EQ(matched(moved), matched(first) + 1);
}

// The refs' files and folders of `repo` as if last changed an hour ago: a stamp taken of them now
// is not racy (refs_stamp.h), so a search keeps the default branch it resolved (ServedRepo::
// KnownDefault) -- which a move of the branch must undo, however soon after.
void Backdate(const TestRepo& repo) {
  const fs::path git = fs::path(repo.path()) / ".git";
  const auto then = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const char* f : {"HEAD", "packed-refs"}) {
    if (fs::exists(git / f)) fs::last_write_time(git / f, then);
  }
  for (const auto& e : fs::recursive_directory_iterator(git / "refs")) {
    fs::last_write_time(e.path(), then);
  }
  fs::last_write_time(git / "refs", then);
}

TEST_F(IndexedSearch, ABranchMovedBetweenTwoSearchesIsSearchedWhereItIsNow) {
  TestRepo& app = *repos_[9];
  const std::string q = R"({"pattern":"movedtoken-5150"})";
  auto expect_git = [&](const std::string& answer) {
    EXPECT_EQ(HitsIn(answer, "app"), GitGrep(app, "main", {"-F"}, "movedtoken-5150", {}, "5"))
        << answer;
  };
  Backdate(app);
  expect_git(Same("search", q));
  expect_git(Same("search", R"({"pattern":"movedtoken-5150","path":"src"})"));
  // Moved forward: a commit holding the token, the refs made to look old again at once.
  const std::string before = app.Rev("HEAD");
  app.Write("src/moved.go", "// movedtoken-5150\n");
  const std::string moved = app.Commit("moved");
  Backdate(app);
  const std::string found = Same("search", q);
  expect_git(found);
  EXPECT_FALSE(HitsIn(found, "app").empty()) << found;
  expect_git(Same("search", R"({"pattern":"movedtoken-5150","path":"src"})"));
  // Moved back to where it was, in the same second.
  app.Git({"update-ref", "refs/heads/main", before});
  Backdate(app);
  const std::string gone = Same("search", q);
  expect_git(gone);
  EXPECT_TRUE(HitsIn(gone, "app").empty()) << gone;
  expect_git(Same("search", R"({"pattern":"movedtoken-5150","path":"src"})"));
  // Packed: the loose ref gone, packed-refs holding it.
  app.Git({"pack-refs", "--all"});
  app.Git({"update-ref", "refs/heads/main", moved});
  app.Git({"pack-refs", "--all"});
  Backdate(app);
  const std::string packed = Same("search", q);
  expect_git(packed);
  EXPECT_FALSE(HitsIn(packed, "app").empty()) << packed;
}

// Where the kernel can watch the refs, a search after the first looks at no repository's refs:
// the reports say they have not moved. Over the same repositories and path, it does not even
// look at each one's kept default branch: the last search's targets are kept whole while no
// change is reported. A branch moved at once after (within the clock's tick, when a stamp could
// not be trusted) is found by the very next search all the same.
TEST_F(IndexedSearch, RefsAreWatchedNotLookedAtAndAMoveIsFoundAtOnce) {
  if (!RefsWatch::Shared().works()) GTEST_SKIP() << "no inotify here";
  const std::string q = R"({"pattern":"watchedtoken-7170"})";
  indexed_->Call("search", q);  // each repository's default branch resolved and kept
  KnownDefaultUse before = CurrentKnownDefaultUse();
  const auto again = indexed_->Call("search", q);
  KnownDefaultUse after = CurrentKnownDefaultUse();
  EXPECT_EQ(after.watched - before.watched, 0u) << again.text;  // the targets kept whole
  EXPECT_EQ(after.stamped - before.stamped, 0u);
  // Other repositories: each one's kept default branch, vouched for by the watch.
  before = CurrentKnownDefaultUse();
  indexed_->Call("search", R"({"pattern":"watchedtoken-7170","repos":"app, util"})");
  after = CurrentKnownDefaultUse();
  EXPECT_EQ(after.watched - before.watched, 2u);
  EXPECT_EQ(after.stamped - before.stamped, 0u);
  const std::string found = CommitInAppAndSearch("src/watched.go", "watchedtoken-7170");
  TestRepo& app = *repos_[9];
  // Moved back between two searches of this server (the targets the first keeps are not used).
  EXPECT_EQ(indexed_->Call("search", q).text, found);
  app.Git({"update-ref", "refs/heads/main", app.Rev("HEAD~1")});
  const std::string gone = indexed_->Call("search", q).text;
  EXPECT_TRUE(HitsIn(gone, "app").empty()) << gone;
  EXPECT_EQ(gone, scan_->Call("search", q).text);
}

// An agent's searches under a folder between searches of every repository: the targets of each
// path are kept side by side, so the whole's are not found again after one under src. A branch
// moved after is found by the next search of either path: no kept set outlives a change.
TEST_F(IndexedSearch, TargetsOfSeveralPathsAreKeptSideBySideUntilAChange) {
  if (!RefsWatch::Shared().works()) GTEST_SKIP() << "no inotify here";
  const std::string q = R"({"pattern":"sidetoken-5150"})";
  const std::string q_src = R"({"pattern":"sidetoken-5150","path":"src"})";
  indexed_->Call("search", q);
  indexed_->Call("search", q_src);
  KnownDefaultUse before = CurrentKnownDefaultUse();
  indexed_->Call("search", q);
  indexed_->Call("search", q_src);
  KnownDefaultUse after = CurrentKnownDefaultUse();
  EXPECT_EQ(after.watched - before.watched, 0u);  // both kept, neither made again
  EXPECT_EQ(after.stamped - before.stamped, 0u);
  CommitInAppAndSearch("src/side.go", "sidetoken-5150");
  const std::string found_src = Same("search", q_src);
  EXPECT_FALSE(HitsIn(found_src, "app").empty()) << found_src;
}

// The default branch's loose file names another branch (a symbolic ref): the search keeps no
// default branch for it, so a commit on that other branch is found by the next search, though
// neither HEAD nor the default branch's own file changed.
TEST_F(IndexedSearch, ADefaultBranchThatNamesAnotherBranchIsFollowedWhenThatOneMoves) {
  TestRepo& app = *repos_[9];
  const std::string q = R"({"pattern":"followedtoken-6160"})";
  app.Git({"branch", "trunk"});
  std::ofstream(app.path() + "/.git/refs/heads/main", std::ios::trunc) << "ref: refs/heads/trunk\n";
  Backdate(app);
  const std::string none = Same("search", q);
  EXPECT_TRUE(HitsIn(none, "app").empty()) << none;
  // A commit on trunk, as a push would land it: trunk's own file replaced, nothing else of the
  // refs touched (HEAD and main's file stay as they were, not even their change times: no
  // Backdate after it).
  app.Write("src/followed.go", "// followedtoken-6160\n");
  app.Git({"add", "src/followed.go"});
  const std::string tree = app.Git({"write-tree"});
  const std::string next = app.Git({"commit-tree", tree, "-p", "trunk", "-m", "on trunk"});
  app.Git({"update-ref", "refs/heads/trunk", next});
  EXPECT_EQ(app.Rev("HEAD"), next);
  const std::string found = Same("search", q);
  EXPECT_EQ(HitsIn(found, "app"), GitGrep(app, "main", {"-F"}, "followedtoken-6160", {}, "5"))
      << found;
  EXPECT_FALSE(HitsIn(found, "app").empty()) << found;
}

TEST_F(IndexedSearch, AnIndexDamagedOnDiskIsNotUsedAndTheAnswerIsTheSame) {
  const std::string file = TextIndexFile(Repo("util-fork"));
  ASSERT_TRUE(fs::exists(file));
  // Used by a search first, then cut in place: the list kept open is not read again (its pages
  // past the cut are gone), the file is checked anew and refused.
  Same("search", R"({"pattern":"orgtoken-09700"})");
  std::string bytes = ReadFileBytes(file);
  bytes.resize(bytes.size() / 2);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const std::string token = Same("search", R"({"pattern":"orgtoken-09700"})");
  EXPECT_NE(token.find("fork.txt"), std::string::npos) << token;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << "garbage";
  Same("search", R"({"pattern":"orgtoken-09700"})");
  fs::remove(file);
  Same("search", R"({"pattern":"orgtoken-09700"})");
}

TEST_F(IndexedSearch, ContentsSharedAcrossRepositoriesAreIndexedOnce) {
  const auto store = CurrentTextStore(StoreFolder());
  ASSERT_FALSE(store->shards.empty());
  uint64_t listed = 0;
  for (const auto& repo : catalog_->all()) {
    const auto index = CurrentTextIndex(*repo);
    ASSERT_TRUE(index) << repo->name();
    EXPECT_EQ(index->missing(), 0u) << repo->name();
    listed += index->text_bytes();
  }
  // util-fork holds every file of util: that text is kept once.
  const uint64_t util = CurrentTextIndex(Repo("util"))->text_bytes();
  EXPECT_GT(util, 10000u);
  EXPECT_LE(store->text_bytes + util, listed);
  // The fork's list made again reads nothing: the store holds every content of it.
  fs::remove(TextIndexFile(Repo("util-fork")));
  auto again = BuildTextIndex(Repo("util-fork"), StopToken());
  ASSERT_TRUE(again) << again.error();
  EXPECT_TRUE(again->built);
  EXPECT_EQ(again->blobs, 0u);
  EXPECT_EQ(again->text_bytes, 0u);
  EXPECT_GT(again->files, 10u);
  // A commit of its own: indexing reads that one new content only.
  TestRepo& fork = *repos_[8];
  fork.Write("more.txt", "incremental-token-77\n");
  fork.Commit("more");
  auto more = BuildTextIndex(Repo("util-fork"), StopToken());
  ASSERT_TRUE(more) << more.error();
  EXPECT_TRUE(more->built);
  EXPECT_EQ(more->blobs, 1u);
  EXPECT_EQ(more->text_bytes, 21u);
  const std::string found = Same("search", R"({"pattern":"incremental-token-77"})");
  EXPECT_NE(found.find("more.txt"), std::string::npos) << found;
  for (const auto& args : kSearches) Same("search", args);
}

TEST_F(IndexedSearch, ADamagedShardIsNotUsedItsContentsAreReadThenIndexedAgain) {
  // Every shard damaged in its middle (put there whole, as a copy would be: a shard is never
  // changed in place).
  const auto shards = Shards();
  ASSERT_FALSE(shards.empty());
  for (const auto& shard : shards) {
    std::string bytes = ReadFileBytes(shard);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x21);
    const fs::path temp = shard.string() + ".new";
    std::ofstream(temp, std::ios::binary | std::ios::trunc) << bytes;
    fs::rename(temp, shard);
  }
  EXPECT_TRUE(CurrentTextStore(StoreFolder())->shards.empty());
  const auto util = CurrentTextIndex(Repo("util"));
  ASSERT_TRUE(util);
  EXPECT_EQ(util->missing(), util->blobs());
  for (const auto& args : kSearches) Same("search", args);
  // Indexed again: the contents are read once more, into a new shard; the damaged ones go.
  for (const auto& repo : catalog_->all()) {
    auto built = BuildTextIndex(*repo, StopToken());
    ASSERT_TRUE(built) << built.error();
  }
  EXPECT_EQ(CurrentTextIndex(Repo("util"))->missing(), 0u);
  auto compacted = CompactTextStore(StoreFolder(), ListsFolder(), StopToken());
  ASSERT_TRUE(compacted) << compacted.error();  // (or the server's own indexer's pass did)
  for (const auto& shard : shards) EXPECT_FALSE(fs::exists(shard)) << shard;
  const TextIndexUse before = CurrentTextIndexUse();
  for (const auto& args : kSearches) Same("search", args);
  EXPECT_GT(CurrentTextIndexUse().files_passed_over - before.files_passed_over, 1000u);
}

TEST_F(IndexedSearch, ContentsNoRepositoryNamesAreDroppedFromTheStore) {
  auto first = CompactTextStore(StoreFolder(), ListsFolder(), StopToken());
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->shards_dropped + first->shards_rewritten, 0u);  // all named
  const uint64_t before = CurrentTextStore(StoreFolder())->text_bytes;
  const uint64_t docs = CurrentTextIndex(Repo("docs"))->text_bytes();
  // docs no longer indexed (as a repository no longer served, or a branch moved away from them).
  fs::remove(TextIndexFile(Repo("docs")));
  auto c = CompactTextStore(StoreFolder(), ListsFolder(), StopToken());
  ASSERT_TRUE(c) << c.error();
  EXPECT_GE(c->shards_dropped + c->shards_rewritten, 1u);
  const uint64_t after = CurrentTextStore(StoreFolder())->text_bytes;
  EXPECT_LE(after + docs / 2, before);
  for (const auto& repo : catalog_->all()) {
    if (repo->name() == "docs") continue;
    const auto index = CurrentTextIndex(*repo);
    ASSERT_TRUE(index) << repo->name();
    EXPECT_EQ(index->missing(), 0u) << repo->name();
  }
  for (const auto& args : kSearches) Same("search", args);
  Same("grep", R"({"repo":"docs","pattern":"search","ignore_case":true,"context":1})");
}

// Over an organisation of copies, a content another repository of the same search already read
// under the same path is answered from that (core/search/content_memo.h) with the list trusted
// for where it is: the copies holding a match are not opened. Before, each one was opened, its
// tree read to find the file again, though nothing of it was read (2,222 repositories a search
// for a rare identifier over 20,000: docs/performance.md).
TEST(IndexedSearchCopies, CopiesOfAContentAlreadyReadAreNotOpened) {
  TempDir tmp;
  Config config, scan;
  std::vector<std::unique_ptr<TestRepo>> repos;
  for (int i = 0; i < 40; ++i) {
    const std::string name = "copy-" + std::to_string(i);
    repos.push_back(std::make_unique<TestRepo>(tmp / name));
    repos.back()->Write("src/handler.go", "func copiedHandler() {}\n// sharedtoken-7731\n");
    repos.back()->Write("README.md", "copy " + std::to_string(i) + "\n");
    repos.back()->Commit("copy");
    config.repos.push_back(Served(name, repos.back()->path()));
  }
  config.source = "test";
  scan = config;
  config.cache_folder = tmp / "cache";
  fs::create_directories(config.cache_folder);
  auto catalog = BuildCatalog(config);
  ASSERT_TRUE(catalog) << catalog.error();
  for (const auto& repo : (*catalog)->all()) ASSERT_TRUE(BuildTextIndex(*repo, StopToken()));
  ToolHarness indexed(ToolHarness::FromConfig{}, config), read_all(ToolHarness::FromConfig{}, scan);
  const std::string q = R"({"pattern":"sharedtoken-7731"})";
  uint64_t unopened = 0;
  for (int round = 0; round < 3; ++round) {
    const TextIndexUse before = CurrentTextIndexUse();
    const auto with = indexed.Call("search", q);
    unopened += CurrentTextIndexUse().unopened - before.unopened;
    EXPECT_EQ(with.text, read_all.Call("search", q).text);
    EXPECT_NE(with.text.find("40 lines in 40 files of 40 repositories"), std::string::npos)
        << with.text;
  }
  // Each search reads the content once and opens only the repositories a walker reached before
  // another had handed the content on (at most one a walking thread); the rest are answered
  // unopened, however the threads run: from the memo, or handed on as a copy of a content on
  // its way (ContentMemo::Claim), waited for rather than read again.
  EXPECT_GE(unopened, 3u * (40u - 8u));
}

}  // namespace
}  // namespace rr::testing::search::indexed_search
