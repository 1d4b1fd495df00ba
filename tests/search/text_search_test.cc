// The search engine itself (core/search/text_search.h): the same result whatever the number of
// threads, in path order; a stopped search says it is partial and what it covered; the veto
// applies with the secret filter given and not without one; the pattern is checked.
#include "core/search/text_search.h"

#include <gtest/gtest.h>

#include "tests/search/search_kit.h"
#include "tests/secrets/generated_values.h"

namespace rr::testing::search::text_search {
namespace {

std::string Flatten(const SearchResult& r) {
  std::string out;
  for (const auto& f : r.files) {
    out += std::to_string(f.target) + " " + f.node.path.str() + " " + std::to_string(f.matches) +
           (f.more ? "+" : "") + "\n";
    for (const auto& l : f.lines) {
      out += std::to_string(l.number) + (l.match ? ":" : "-") + l.text + "\n";
    }
  }
  return out;
}

class TextSearch : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int f = 0; f < 40; ++f) {
      std::string text;
      for (int l = 0; l < 30; ++l)
        text += (l % (f % 7 + 2) == 0 ? "needle " : "hay ") + std::to_string(l) + "\n";
      repo.Write("d" + std::to_string(f % 5) + "/f" + std::to_string(f) + ".txt", text);
    }
    repo.Commit("one");
    RepoSettings s;
    s.name = "r";
    s.path = repo.path();
    served = std::make_unique<ServedRepo>(s);
    auto reader = served->Open();
    ASSERT_TRUE(reader) << reader.error();
    auto at = reader->At(std::nullopt);
    ASSERT_TRUE(at);
    auto root = reader->Find(*at, RepoPath::Root(), StopToken());
    ASSERT_TRUE(root);
    targets = {SearchTarget{served.get(), *at, *root}, SearchTarget{served.get(), *at, *root}};
  }
  TempDir dir;
  TestRepo repo{dir / "r"};
  std::unique_ptr<ServedRepo> served;
  std::vector<SearchTarget> targets;
};

TEST_F(TextSearch, TheSameResultOnAnyNumberOfThreadsInPathOrder) {
  auto pattern = TextPattern::Make("needle", false, false, "pattern");
  ASSERT_TRUE(pattern) << pattern.error();
  SearchOptions o;
  o.context = 2;
  o.max_per_file = 7;
  o.threads = 1;
  const SearchResult one = SearchText(targets, *pattern, nullptr, o, StopToken());
  ASSERT_EQ(one.files.size(), 80u);
  for (size_t i = 1; i < 40; ++i) {
    EXPECT_LT(one.files[i - 1].node.path.str(), one.files[i].node.path.str());
  }
  EXPECT_EQ(one.files[40].target, 1u);
  for (size_t threads : {2, 3, 8}) {
    o.threads = threads;
    EXPECT_EQ(Flatten(SearchText(targets, *pattern, nullptr, o, StopToken())), Flatten(one));
  }
  EXPECT_EQ(one.targets[0].files, 40u);
  EXPECT_EQ(one.targets[0].searched, 40u);
  EXPECT_FALSE(one.stopped);
}

TEST_F(TextSearch, AStoppedSearchSaysItIsPartial) {
  auto pattern = TextPattern::Make("needle", true, true, "pattern");
  ASSERT_TRUE(pattern);
  auto cancelled = std::make_shared<std::atomic<bool>>(true);
  const SearchResult r = SearchText(targets, *pattern, nullptr, SearchOptions{},
                                    StopToken(cancelled, std::chrono::hours(1)));
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.why, "the call was cancelled");
  EXPECT_TRUE(r.targets[0].partial);
  EXPECT_LT(r.targets[0].searched, 40u);
}

// With a time per target, a target that takes longer is cut (and says it ran out of its own
// time) while the next one is still searched whole: one huge repository cannot starve the rest.
TEST_F(TextSearch, EachTargetHasItsOwnTime) {
  TestRepo big(dir / "big");
  for (int f = 0; f < 3000; ++f) big.Write("f" + std::to_string(f) + ".txt", "needle\n");
  big.Commit("many");
  RepoSettings s;
  s.name = "big";
  s.path = big.path();
  ServedRepo big_served(s);
  auto big_reader = big_served.Open();
  ASSERT_TRUE(big_reader) << big_reader.error();
  auto big_at = big_reader->At(std::nullopt);
  ASSERT_TRUE(big_at);
  auto big_root = big_reader->Find(*big_at, RepoPath::Root(), StopToken());
  ASSERT_TRUE(big_root);
  auto reader = served->Open();
  auto at = reader->At(std::nullopt);
  auto one_file = reader->Find(*at, RepoPath::Parse("d0/f0.txt").value(), StopToken());
  ASSERT_TRUE(one_file);
  const std::vector<SearchTarget> two = {SearchTarget{&big_served, *big_at, *big_root},
                                         SearchTarget{served.get(), *at, *one_file}};
  auto pattern = TextPattern::Make("needle", false, false, "pattern");
  ASSERT_TRUE(pattern);
  SearchOptions o;
  o.threads = 1;
  o.per_target = std::chrono::milliseconds(1);  // 3,000 blob reads take far longer
  const SearchResult r = SearchText(two, *pattern, nullptr, o, StopToken());
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.why, "");  // the call's own time did not run out
  EXPECT_TRUE(r.targets[0].partial);
  EXPECT_TRUE(r.targets[0].out_of_time);
  // Its walk stops with its time too: the files it found, not all of them.
  EXPECT_LE(r.targets[0].files, 3000u);
  EXPECT_LT(r.targets[0].searched, r.targets[0].files);
  EXPECT_FALSE(r.targets[1].partial);
  EXPECT_FALSE(r.targets[1].out_of_time);
  EXPECT_EQ(r.targets[1].searched, 1u);
  ASSERT_FALSE(r.files.empty());
  EXPECT_EQ(r.files.back().target, 1u);

  o.per_target = std::chrono::milliseconds(0);  // without it, everything is searched
  const SearchResult whole = SearchText(two, *pattern, nullptr, o, StopToken());
  EXPECT_FALSE(whole.stopped);
  EXPECT_EQ(whole.targets[0].searched, 3000u);
  EXPECT_EQ(whole.targets[0].files, 3000u);
  EXPECT_TRUE(whole.targets[0].listed);
}

TEST_F(TextSearch, TheVetoNeedsTheFilter) {
  const std::string token = "ghp_" + Chars(36, kBase62, 11);
  repo.Write("d0/key.txt", "k = " + token + "\n");
  repo.Commit("key");
  auto reader = served->Open();
  auto at = reader->At(std::nullopt);
  auto file = reader->Find(*at, RepoPath::Parse("d0/key.txt").value(), StopToken());
  ASSERT_TRUE(file);
  const std::vector<SearchTarget> one = {SearchTarget{served.get(), *at, *file}};
  auto pattern = TextPattern::Make(token.substr(6, 8), false, false, "pattern");
  ASSERT_TRUE(pattern);
  EXPECT_EQ(SearchText(one, *pattern, nullptr, SearchOptions{}, StopToken()).files.size(), 1u);
  EXPECT_EQ(SearchText(one, *pattern, BuiltinPlugins().secrets.get(), SearchOptions{}, StopToken())
                .files.size(),
            0u);
}

TEST(TextPatternTest, OneLineNotEmptyAndEreChecked) {
  EXPECT_FALSE(TextPattern::Make("", false, false, "pattern"));
  EXPECT_FALSE(TextPattern::Make("a\nb", false, false, "pattern"));
  EXPECT_FALSE(TextPattern::Make("a\rb", true, false, "pattern"));
  EXPECT_FALSE(TextPattern::Make("(?i)a", true, false, "pattern"));
  EXPECT_TRUE(TextPattern::Make("(?i)a", false, false, "pattern"));
  auto caseless = TextPattern::Make("a.B", false, true, "pattern");
  ASSERT_TRUE(caseless);
  size_t b = 0, e = 0;
  EXPECT_TRUE(caseless->FindInLine("xxA.bx", 0, &b, &e));
  EXPECT_EQ(b, 2u);
  EXPECT_EQ(e, 5u);
  EXPECT_FALSE(caseless->FindInLine("xxAxbx", 0, &b, &e));  // literal: '.' is a dot
}

}  // namespace
}  // namespace rr::testing::search::text_search
