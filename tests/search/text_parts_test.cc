// The text index's parts (core/index/text_store.h): the files below a repository's root folders
// are listed once in the store, however many repositories hold the same folders. Over this
// project's own `core` folder, a copy of it with a commit of its own (as an organisation's
// repositories made from one template are) and a fork that changed two folders: the copy's index
// reads nothing and writes no part, its paths are git's in git's order, the fork shares what it
// did not change; a part missing or not the one named makes the list unused (the repository is
// read, the answer the same) until the repository is indexed again; parts no list names any more
// are dropped from the store; and every search answers what reading every file answers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/app/wiring.h"
#include "core/index/repo_text_index.h"
#include "core/index/text_indexer.h"
#include "core/search/content_memo.h"
#include "core/search/text_search.h"
#include "tests/search/indexed_kit.h"

namespace rr::testing::search::text_parts {
namespace {

namespace fs = std::filesystem;

class TextParts : public IndexedOrganisation {
 protected:
  void SetUp() override {
    for (const char* name : {"core", "core-copy", "core-fork"}) {
      repos_.push_back(std::make_unique<TestRepo>(tmp_ / name));
      WriteFromSource(*repos_.back(), "core");
      repos_.back()->Write("README.md", "the template's readme: parttoken-7\n");
      repos_.back()->Commit("from core");
      config_.repos.push_back(Served(name, repos_.back()->path()));
    }
    // The copy: a file of its own at the root. The fork: a change in a big folder (tools) and in
    // a small one (util).
    repos_[1]->Write("ORG_TOKEN.txt", "orgtoken-00001\n");
    repos_[1]->Commit("its own");
    repos_[2]->Write("tools/fork_only.cc", "// forktoken-42 in the fork's tools\n");
    repos_[2]->Write("util/text.h", ReadFileBytes(fs::path(RR_SOURCE_DIR) / "core/util/text.h") +
                                        "// forktoken-42 in the fork's util\n");
    repos_[2]->Commit("the fork's change");
    Serve();
  }

  std::string Store() { return TextStoreFolder(Repo("core").settings().index_folder.str()); }
  std::string ListsFolder() { return ListsFolderOf("core"); }
  TextIndexBuild Build(const std::string& name) {
    auto built = BuildTextIndex(Repo(name), StopToken());
    EXPECT_TRUE(built) << name << ": " << built.error();
    return built ? *built : TextIndexBuild{};
  }
  // Every search the same as reading every file; the indexes used where `used`.
  void SameOnEverySearch(bool used = true) {
    const TextIndexUse before = CurrentTextIndexUse();
    for (const char* args : {R"({"pattern":"parttoken-7"})", R"({"pattern":"forktoken-42"})",
                             R"({"pattern":"orgtoken-00001"})", R"({"pattern":"StopToken"})",
                             R"({"pattern":"T[a-z]+Index","regex":true})",
                             R"({"pattern":"stoptoken","ignore_case":true})",
                             R"({"pattern":"Result","path":"tools"})"}) {
      Same("search", args);
    }
    Same("grep", R"({"repo":"core-fork","pattern":"forktoken"})");
    Same("grep", R"({"repo":"core-copy","pattern":"Walk","path":"served"})");
    const TextIndexUse after = CurrentTextIndexUse();
    if (used) {
      EXPECT_GT(after.files_passed_over - before.files_passed_over, 1000u);
    } else {
      EXPECT_EQ(after.targets, before.targets);
    }
  }
};

TEST_F(TextParts, ACopyNamesTheTemplatesPartsAndReadsNothing) {
  const TextIndexBuild core = Build("core");
  // tools (48 files) has a part of its own; the smaller folders share one.
  EXPECT_EQ(PartFiles(Store()).size(), 2u);
  EXPECT_GT(core.part_bytes, 0u);
  const TextIndexBuild copy = Build("core-copy");
  EXPECT_EQ(copy.blobs, 1u);  // ORG_TOKEN.txt alone is read
  EXPECT_EQ(copy.part_bytes, 0u);
  EXPECT_EQ(copy.reused_parts, 2u);
  EXPECT_EQ(PartFiles(Store()).size(), 2u);
  // The copy's own list holds its root files and names the parts: a fraction of the template's
  // paths.
  const auto index = CurrentTextIndex(Repo("core-copy"));
  ASSERT_TRUE(index);
  EXPECT_EQ(index->parts(), 2u);
  EXPECT_LT(index->list().paths(), 10u);
  EXPECT_LT(index->bytes() * 10, CurrentTextIndex(Repo("core"))->text_bytes() / 100);
  // Its paths, read through the list and its parts, are git's, in git's order, with their ids.
  const std::string tree = repos_[1]->Git({"ls-tree", "-r", "HEAD"});
  std::vector<std::string> want, got;
  for (const auto& line : SplitLines(tree)) {
    // "<mode> blob <id>\t<path>"
    want.push_back(line.substr(line.find('\t') + 1) + " " + line.substr(12, 40));
  }
  for (size_t i = 0; i < index->paths(); ++i) {
    const auto e = index->Path(i);
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &index->Oid(e.blob));
    got.push_back(std::string(e.path) + " " + hex);
    EXPECT_EQ(index->Find(index->Oid(e.blob)) == SIZE_MAX, false);
  }
  EXPECT_EQ(got, want);
  Build("core-fork");
  SameOnEverySearch();
}

TEST_F(TextParts, AForkSharesTheFoldersItDidNotChange) {
  Build("core");
  const TextIndexBuild fork = Build("core-fork");
  // Its tools and its small folders changed: two parts of its own, and no folder is shared
  // (each root folder is in one of the two).
  EXPECT_EQ(fork.reused_parts, 0u);
  EXPECT_EQ(PartFiles(Store()).size(), 4u);
  EXPECT_EQ(fork.blobs, 2u);  // the two contents it changed
  // The copy, the second repository on the template's commit, writes the base the two share
  // (text_bases_test.cc), a fifth part, and names it alone.
  EXPECT_EQ(Build("core-copy").reused_parts, 0u);
  EXPECT_EQ(PartFiles(Store()).size(), 5u);
  SameOnEverySearch();
  const std::string fork_hits = Same("search", R"({"pattern":"forktoken-42"})");
  EXPECT_EQ(HitsIn(fork_hits, "core-fork"),
            GitGrep(*repos_[2], "HEAD", {"-F"}, "forktoken-42", {}, "5"));
  EXPECT_EQ(HitsIn(fork_hits, "core-fork").size(), 2u) << fork_hits;
}

TEST_F(TextParts, AMissingOrWrongPartLeavesTheListUnusedUntilIndexedAgain) {
  Build("core");
  Build("core-copy");
  Build("core-fork");
  // The parts each list names, by file.
  auto parts_of = [&](const std::string& name) {
    auto list = IndexFile::Open(TextIndexFile(Repo(name)));
    EXPECT_TRUE(list) << list.error();
    std::set<std::string> out;
    for (size_t i = 0; list && i < (*list)->parts(); ++i) {
      out.insert(TextPartFile(Store(), (*list)->Part(i).key));
    }
    return std::vector<std::string>(out.begin(), out.end());
  };
  // The copy names the template's two parts; the fork, the second on the template's commit,
  // names the base it wrote (text_bases_test.cc).
  const auto template_parts = parts_of("core-copy");
  const auto fork_parts = parts_of("core-fork");
  ASSERT_EQ(template_parts.size(), 2u);
  ASSERT_EQ(fork_parts.size(), 1u);
  // One of the template's parts gone; the fork's written over with the template's other one.
  fs::remove(template_parts[0]);
  fs::copy_file(template_parts[1], fork_parts[0], fs::copy_options::overwrite_existing);
  EXPECT_FALSE(CurrentTextIndex(Repo("core")));
  EXPECT_FALSE(CurrentTextIndex(Repo("core-copy")));
  EXPECT_FALSE(CurrentTextIndex(Repo("core-fork")));
  SameOnEverySearch(/*used=*/false);
  // Indexed again: the parts are written again and the lists used.
  for (const char* name : {"core", "core-copy", "core-fork"}) {
    EXPECT_TRUE(Build(name).built) << name;
    EXPECT_TRUE(CurrentTextIndex(Repo(name))) << name;
  }
  EXPECT_TRUE(fs::exists(template_parts[0]));
  SameOnEverySearch();
}

TEST_F(TextParts, PartsNoListNamesAreDropped) {
  Build("core");
  Build("core-fork");
  Build("core-copy");
  // The template's two parts, the fork's two, and the base the copy wrote and names
  // (text_bases_test.cc).
  ASSERT_EQ(PartFiles(Store()).size(), 5u);
  // The fork goes back to the template's folders: its two parts are named by no list.
  repos_[2]->Git({"reset", "-q", "--hard", "HEAD~1"});
  const TextIndexBuild back = Build("core-fork");
  EXPECT_EQ(back.reused_parts, 2u);
  auto compacted = CompactTextStore(Store(), ListsFolder(), StopToken());
  ASSERT_TRUE(compacted) << compacted.error();
  EXPECT_EQ(compacted->parts_dropped, 2u);
  EXPECT_EQ(PartFiles(Store()).size(), 3u);
  // What `about` and /metrics count of the parts: those left, as on disk.
  uint64_t on_disk = 0;
  for (const auto& name : PartFiles(Store())) on_disk += fs::file_size(Store() + "/parts/" + name);
  EXPECT_EQ(TextPartBytes(Store()), on_disk);
  EXPECT_GE(CurrentTextIndexStats().index_bytes, on_disk);
  SameOnEverySearch();
  // Nothing more to drop.
  compacted = CompactTextStore(Store(), ListsFolder(), StopToken());
  ASSERT_TRUE(compacted);
  EXPECT_EQ(compacted->parts_dropped, 0u);
}

// Over many copies of one template, the candidates of a part (a shared folder) came to the same
// in each copy: once every one of them is answered by the memo, a copy past the files the answer
// keeps adds them up whole (PartTally in core/search/text_search.cc), without a look at its
// paths. The counts must be those of reading every file, however the threads ran.
class TextPartsAddedUp : public IndexedOrganisation {
 protected:
  static constexpr int kCopies = 16;
  void SetUp() override {
    for (int i = 0; i < kCopies; ++i) {
      const std::string name = "copy-" + std::to_string(i);
      repos_.push_back(std::make_unique<TestRepo>(tmp_ / name));
      WriteFromSource(*repos_.back(), "core");
      repos_.back()->Write("ORG_TOKEN.txt", "orgtoken-" + std::to_string(i) + "\n");
      repos_.back()->Commit("from core");
      config_.repos.push_back(Served(name, repos_.back()->path()));
    }
    Serve();
    for (const auto& repo : catalog_->all()) {
      auto built = BuildTextIndex(*repo, StopToken());
      ASSERT_TRUE(built) << built.error();
    }
  }
};

TEST_F(TextPartsAddedUp, CopiesPastTheFilesKeptCountWhatTheFirstCameTo) {
  auto scan_catalog = BuildCatalog(scan_config_);
  ASSERT_TRUE(scan_catalog) << scan_catalog.error();
  const auto indexed = SearchTargetsOf(*catalog_), read_all = SearchTargetsOf(**scan_catalog);
  SearchOptions options;
  options.max_per_file = 5;
  options.keep_bytes = 16 * 1024;  // the first few matching files kept: later copies are past them
  uint64_t added_up = 0;
  for (const char* pattern : {"return", "Result", "StopToken"}) {
    auto p = TextPattern::Make(pattern, false, false, "pattern");
    ASSERT_TRUE(p) << p.error();
    for (size_t threads : {1, 2, 4}) {
      options.threads = threads;
      const TextIndexUse before = CurrentTextIndexUse();
      const SearchResult with = SearchText(indexed, *p, nullptr, options, StopToken());
      added_up += CurrentTextIndexUse().files_added_up - before.files_added_up;
      const SearchResult without = SearchText(read_all, *p, nullptr, options, StopToken());
      ASSERT_EQ(with.targets.size(), without.targets.size());
      size_t matched = 0;
      for (size_t t = 0; t < with.targets.size(); ++t) {
        const TargetReport &a = with.targets[t], &b = without.targets[t];
        const std::string where = std::string(pattern) + " in copy " + std::to_string(t) +
                                  " with " + std::to_string(threads) + " threads";
        EXPECT_EQ(a.files, b.files) << where;
        EXPECT_EQ(a.searched, b.searched) << where;
        EXPECT_EQ(a.binary, b.binary) << where;
        EXPECT_EQ(a.matched_files, b.matched_files) << where;
        EXPECT_EQ(a.matched_lines, b.matched_lines) << where;
        EXPECT_EQ(a.more, b.more) << where;
        EXPECT_FALSE(a.partial) << where;
        matched += a.matched_files;
      }
      EXPECT_GT(matched, 16u * 10u) << pattern;
      EXPECT_EQ(with.unkept, without.unkept) << pattern;
      ASSERT_EQ(with.files.size(), without.files.size()) << pattern;
      EXPECT_LT(with.files.size(), 100u) << pattern;
      for (size_t f = 0; f < with.files.size(); ++f) {
        EXPECT_EQ(with.files[f].target, without.files[f].target);
        EXPECT_EQ(with.files[f].node.path.str(), without.files[f].node.path.str());
        EXPECT_EQ(with.files[f].lines.size(), without.files[f].lines.size());
      }
    }
  }
  // Most copies' files in shared folders were added up, not looked at one by one.
  EXPECT_GT(added_up, 1000u);
  // And through the tool, as an agent asks (the files it keeps then fill within a few copies):
  // the answer is the one reading every file gives, a fork's own file in a shared folder too
  // (that folder is another part for it, looked at).
  repos_[3]->Write("util/own.h", "// return of the fork\n");
  repos_[3]->Commit("own");
  ASSERT_TRUE(BuildTextIndex(Repo("copy-3"), StopToken()));
  for (const char* args : {R"({"pattern":"return"})", R"({"pattern":"return of the fork"})",
                           R"({"pattern":"std::[a-z_]+\\(","regex":true})",
                           R"({"pattern":"RESULT","ignore_case":true})"}) {
    Same("search", args);
  }
}

// With keep_shown, the files kept are the fewest, in order, whose lines show more than was
// asked for (what the search tool's answer can hold): the same first files as when every
// matching file is kept, the same counts, whatever the number of threads -- also when the cut
// falls inside a repository whose earlier files other threads are still recording.
TEST_F(TextPartsAddedUp, KeepsTheFewestFilesThatShowWhatWasAskedFor) {
  const auto targets = SearchTargetsOf(*catalog_);
  auto least = [](const FileHits& f) {
    size_t n = 1;
    for (const ShownLine& l : f.lines) n += l.text.size();
    return n;
  };
  SearchOptions all;
  all.max_per_file = 5;
  all.threads = 1;
  for (const char* pattern : {"return", "StopToken", "Result"}) {
    auto p = TextPattern::Make(pattern, false, false, "pattern");
    ASSERT_TRUE(p) << p.error();
    const SearchResult every = SearchText(targets, *p, nullptr, all, StopToken());
    ASSERT_GT(every.files.size(), 40u) << pattern;
    ASSERT_EQ(every.unkept, 0u) << pattern;
    for (size_t shown : {200, 3000}) {
      for (size_t threads : {1, 4, 4, 4}) {
        SearchOptions options = all;
        options.threads = threads;
        options.keep_shown = shown;
        options.least_shown = least;
        const SearchResult r = SearchText(targets, *p, nullptr, options, StopToken());
        const std::string where = std::string(pattern) + ", " + std::to_string(shown) +
                                  " characters, " + std::to_string(threads) + " threads";
        ASSERT_FALSE(r.files.empty()) << where;
        ASSERT_LT(r.files.size(), every.files.size()) << where;
        // A prefix of every matching file, in order...
        for (size_t f = 0; f < r.files.size(); ++f) {
          EXPECT_EQ(r.files[f].target, every.files[f].target) << where << ", file " << f;
          EXPECT_EQ(r.files[f].node.path.str(), every.files[f].node.path.str()) << where;
        }
        // ...the fewest that show more than asked for.
        size_t before_last = 0;
        for (size_t f = 0; f + 1 < r.files.size(); ++f) before_last += least(r.files[f]);
        EXPECT_LE(before_last, shown) << where;
        EXPECT_GT(before_last + least(r.files.back()), shown) << where;
        EXPECT_EQ(r.unkept, every.files.size() - r.files.size()) << where;
        for (size_t t = 0; t < targets.size(); ++t) {
          EXPECT_EQ(r.targets[t].matched_files, every.targets[t].matched_files) << where;
          EXPECT_EQ(r.targets[t].matched_lines, every.targets[t].matched_lines) << where;
          EXPECT_EQ(r.targets[t].searched, every.targets[t].searched) << where;
        }
      }
    }
  }
}

// A memo handed from one search to the next with the same pattern (SearchOptions::memo): the
// next reads no content the first read, and both answer as a search without a memo does; a
// content committed since is read, and found -- only it.
TEST_F(TextPartsAddedUp, AMemoHandedOnReadsOnlyWhatIsNew) {
  SearchOptions plain;
  plain.max_per_file = 5;
  plain.threads = 2;
  // The same files, lines and counts as `want`.
  auto expect_same = [](const SearchResult& got, const SearchResult& want,
                        const std::string& where) {
    ASSERT_EQ(got.files.size(), want.files.size()) << where;
    for (size_t f = 0; f < want.files.size(); ++f) {
      EXPECT_EQ(got.files[f].target, want.files[f].target) << where;
      EXPECT_EQ(got.files[f].node.path.str(), want.files[f].node.path.str()) << where;
      ASSERT_EQ(got.files[f].lines.size(), want.files[f].lines.size()) << where;
      for (size_t l = 0; l < want.files[f].lines.size(); ++l) {
        EXPECT_EQ(got.files[f].lines[l].text, want.files[f].lines[l].text) << where;
      }
    }
    ASSERT_EQ(got.targets.size(), want.targets.size()) << where;
    for (size_t t = 0; t < want.targets.size(); ++t) {
      EXPECT_EQ(got.targets[t].matched_files, want.targets[t].matched_files) << where;
      EXPECT_EQ(got.targets[t].matched_lines, want.targets[t].matched_lines) << where;
      EXPECT_EQ(got.targets[t].searched, want.targets[t].searched) << where;
    }
  };
  auto search = [&](const char* pattern, std::shared_ptr<ContentMemo> memo) {
    auto p = TextPattern::Make(pattern, false, false, "pattern");
    EXPECT_TRUE(p) << p.error();
    SearchOptions options = plain;
    options.memo = std::move(memo);
    return SearchText(SearchTargetsOf(*catalog_), *p, nullptr, options, StopToken());
  };
  std::shared_ptr<ContentMemo> kept;
  for (const char* pattern : {"StopToken", "return"}) {
    kept = std::make_shared<ContentMemo>();  // a memo per pattern, as the search tool keeps them
    const SearchResult without = search(pattern, nullptr);
    EXPECT_GT(without.read_bytes, 1000u) << pattern;
    const SearchResult first = search(pattern, kept);
    EXPECT_GT(first.read_bytes, 1000u) << pattern;
    expect_same(first, without, std::string(pattern) + ", first");
    const SearchResult second = search(pattern, kept);
    EXPECT_EQ(second.read_bytes, 0u) << pattern;
    expect_same(second, without, std::string(pattern) + ", second");
  }
  // A commit in one copy: its new content is read (its list is of an older commit now), and its
  // line counted; nothing else is read again.
  const std::string line = "  return 7170;  // committed since\n";
  repos_[5]->Write("NEW.txt", line);
  repos_[5]->Commit("new");
  const SearchResult without = search("return", nullptr);
  const SearchResult after = search("return", kept);
  EXPECT_EQ(after.read_bytes, line.size());
  expect_same(after, without, "after the commit");
  EXPECT_EQ(after.targets[5].matched_lines, without.targets[5].matched_lines);
}

}  // namespace
}  // namespace rr::testing::search::text_parts
