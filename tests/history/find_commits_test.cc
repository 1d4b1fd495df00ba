// find_commits: commits found across repositories, every branch and tag, newest first; where
// each one is — on the default branch, or on which branches, and the oldest tag holding it —
// checked against `git branch --contains` / `git tag --contains` for every commit found; the
// repos argument; partly served repositories; messages holding a value the filter hides.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/history/history_kit.h"
#include "tests/secrets/generated_values.h"

namespace rr::testing {
namespace find_commits_test {
namespace {

// What find_commits said of each commit, by short id: the line after the commit's line.
std::map<std::string, std::string> WhereIn(const std::string& answer) {
  std::map<std::string, std::string> out;
  const auto lines = Lines(answer);
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const auto ids = IdsIn(lines[i]);
    if (ids.size() == 1) out[ids[0]] = lines[i + 1];
  }
  return out;
}

// The commit ids under one repository's heading, in order.
std::vector<std::string> IdsUnder(const std::string& answer, const std::string& repo) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto& line : Lines(answer)) {
    if (line.rfind("## ", 0) == 0) in = line.rfind("## " + repo + " ", 0) == 0;
    if (in) {
      const auto ids = IdsIn(line);
      out.insert(out.end(), ids.begin(), ids.end());
    }
  }
  return out;
}

std::set<std::string> Words(const std::string& text) {
  std::set<std::string> out;
  for (const auto& line : Lines(text)) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

// What the line after a found commit must say, from git: `git branch -a --contains`, `git tag
// --contains` and the tags' commit dates. The branches named (at most three) are checked to be
// among git's, the count of the others to match.
void ExpectWhereAsGitSays(const TestRepo& repo, const std::string& id, const std::string& where) {
  const std::string full = repo.Git({"rev-parse", id});
  const auto branches =
      Words(repo.Git({"branch", "-a", "--contains", full, "--format=%(refname:short)"}));
  const auto tags = Words(repo.Git({"tag", "--contains", full}));
  std::string first_tag;
  long long first_time = 0;
  for (const auto& t : tags) {
    const long long time = std::stoll(repo.Git({"log", "-1", "--format=%ct", t + "^{commit}"}));
    if (first_tag.empty() || time < first_time || (time == first_time && t < first_tag)) {
      first_tag = t, first_time = time;
    }
  }
  const std::string released =
      first_tag.empty() ? " · in no tag yet" : " · first released in " + first_tag;
  ASSERT_EQ(where.size() >= released.size() &&
                where.compare(where.size() - released.size(), released.size(), released) == 0,
            true)
      << id << ": `" << where << "` should end `" << released << "`";
  const std::string place = where.substr(0, where.size() - released.size());
  if (branches.count("main")) {
    EXPECT_EQ(place, "    on main") << id;
    return;
  }
  if (branches.empty()) {
    EXPECT_EQ(place, "    not on main: on no branch (only in tags)") << id;
    return;
  }
  const std::string lead = "    not on main: on ";
  ASSERT_EQ(place.rfind(lead, 0), 0u) << id << ": " << where;
  std::string names = place.substr(lead.size());
  size_t more = 0;
  const size_t and_at = names.find(" and ");
  if (and_at != std::string::npos) {
    const std::string tail = names.substr(and_at + 5);
    ASSERT_EQ(tail.substr(tail.size() - 5), " more") << where;
    more = std::stoul(tail.substr(0, tail.size() - 5));
    names = names.substr(0, and_at);
  }
  std::set<std::string> named;
  for (size_t pos = 0; pos <= names.size();) {
    size_t comma = names.find(", ", pos);
    if (comma == std::string::npos) comma = names.size();
    named.insert(names.substr(pos, comma - pos));
    pos = comma + 2;
  }
  for (const auto& n : named) EXPECT_TRUE(branches.count(n)) << id << ": " << n << " holds it?";
  EXPECT_EQ(named.size(), std::min<size_t>(3, branches.size())) << id << ": " << where;
  EXPECT_EQ(named.size() + more, branches.size()) << id << ": " << where;
}

// shop (days of 2026 in brackets):
//   m1[1] ← m2[2] ← m3[4] ← m4[8] ← m5[9] ← x1[11]                 main
//              ↖ r1[3]                                              release/1.1
//                      ↖ f1[5]                      feature/a..d (and origin/feature)
//                      ↖ t1[7]                      no branch: tag v-only
//                                          ↖ o1[10] origin/next (remote-tracking only)
// Tags: v1.0 at m2 (lightweight), v1.1.0 at r1 (annotated), v-only at t1, v1.2.0 at m4
// (annotated), v2.0 at m5. x1 changed only secret/notes.md. k1[6] on main's side branch
// keys/ holds a token in its message.
// billing: b1[1] ← b2[3], by Ada.
class FindCommits : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo shop{tmp / "shop"};
    TestRepo billing{tmp / "billing"};
    std::map<std::string, std::string> id;  // name -> short id
  };

  static void SetUpTestSuite() {
    s_ = new Shared;
    {
      HistoryWriter w;
      auto f = [](const std::string& c) { return HistoryWriter::File{c}; };
      HistoryWriter::Tree t = {{"src/cart.py", f("1")}, {"secret/notes.md", f("1")}};
      const Person ada{"Ada Lovelace", "ada@analytical.org"};
      const int m1 = w.Commit(t, {}, Day(1), "Add the cart\n");
      t["src/cart.py"] = f("2");
      const int m2 = w.Commit(t, {m1}, Day(2), "Fix the cart total\n");
      auto r = t;
      r["src/cart.py"] = f("r");
      const int r1 = w.Commit(r, {m2}, Day(3), "Fix the cart total on the release branch\n");
      t["src/catalog.py"] = f("1");
      const int m3 = w.Commit(t, {m2}, Day(4), "Add the catalog\n", ada);
      auto fe = t;
      fe["src/cart.py"] = f("f");
      const int f1 = w.Commit(fe, {m3}, Day(5), "Fix cart rounding\n");
      auto k = t;
      k["keys/deploy.md"] = f("see the message");
      const int k1 = w.Commit(
          k, {m3}, Day(6),
          "Fix the cart deploy with gh" + std::string("p_") + Chars(36, kBase62, 11) + "\n");
      auto tt = t;
      tt["src/cart.py"] = f("t");
      const int t1 = w.Commit(tt, {m3}, Day(7), "Fix the cart in a tag only\n");
      t["src/cart.py"] = f("4");
      const int m4 = w.Commit(t, {m3}, Day(8), "Fix the cart total again\n");
      t["README.md"] = f("shop");
      const int m5 = w.Commit(t, {m4}, Day(9), "Tidy\n", ada);
      auto o = t;
      o["src/cart.py"] = f("o");
      const int o1 = w.Commit(o, {m5}, Day(10), "Fix the cart for origin\n");
      t["secret/notes.md"] = f("2");
      const int x1 = w.Commit(t, {m5}, Day(11), "Fix the cart notes\n");
      w.Ref("refs/heads/main", x1);
      w.Ref("refs/heads/release/1.1", r1);
      for (const char* b : {"feature/a", "feature/b", "feature/c", "feature/d"}) {
        w.Ref(std::string("refs/heads/") + b, f1);
      }
      w.Ref("refs/remotes/origin/feature", f1);
      w.Ref("refs/remotes/origin/next", o1);
      w.Ref("refs/heads/keys", k1);
      w.Ref("refs/tags/v1.0", m2);
      w.AnnotatedTag("v1.1.0", r1, Day(3, 60));
      w.Ref("refs/tags/v-only", t1);
      w.AnnotatedTag("v1.2.0", m4, Day(8, 60));
      w.Ref("refs/tags/v2.0", m5);
      const auto ids = w.Write(s_->shop, s_->tmp);
      const std::vector<std::pair<std::string, int>> names = {
          {"m1", m1}, {"m2", m2}, {"r1", r1}, {"m3", m3}, {"f1", f1}, {"k1", k1},
          {"t1", t1}, {"m4", m4}, {"m5", m5}, {"o1", o1}, {"x1", x1}};
      for (const auto& [n, mark] : names) s_->id[n] = Short(ids.at(mark));
    }
    {
      TempDir marks;
      HistoryWriter w;
      const Person ada{"Ada Lovelace", "ada@analytical.org"};
      const int b1 = w.Commit({{"invoice.py", {"1"}}}, {}, Day(1), "Add invoices\n", ada);
      const int b2 =
          w.Commit({{"invoice.py", {"2"}}}, {b1}, Day(3), "Fix the invoice total\n", ada);
      w.Ref("refs/heads/main", b2);
      const auto ids = w.Write(s_->billing, marks);
      s_->id["b1"] = Short(ids.at(b1));
      s_->id["b2"] = Short(ids.at(b2));
    }
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::vector<std::string> Ids(const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back(s_->id.at(n));
    return out;
  }
  static RepoConfig Part() {
    RepoConfig rc = Served("part", s_->shop.path());
    rc.exclude = {"secret/**"};
    return rc;
  }

  static Shared* s_;
  ToolHarness h_{{Served("shop", s_->shop.path()), Served("billing", s_->billing.path())}};
};
FindCommits::Shared* FindCommits::s_ = nullptr;

TEST_F(FindCommits, FindsAcrossRepositoriesEveryBranchAndTagNewestFirst) {
  auto a = h_.Call("find_commits", R"({"message":"fix.*total"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(IdsUnder(a.text, "shop"), Ids({"m4", "r1", "m2"}));
  EXPECT_EQ(IdsUnder(a.text, "billing"), Ids({"b2"}));
  EXPECT_EQ(Lines(a.text)[0],
            "Commits · message ~ `fix.*total` across 2 repositories (every branch and tag): 4 "
            "commits in 2 repositories, newest first");
  EXPECT_TRUE(Has(a.text, "\n## shop · 3 commits\n"));
  EXPECT_TRUE(Has(a.text, "\n## billing · 1 commit\n" + s_->id["b2"] +
                              " 2026-01-03 Ada Lovelace — Fix the invoice total\n"
                              "    on main · in no tag yet"));
  // Every branch and tag, as git log --all: the commit only in a tag, only on a remote-tracking
  // branch, on a side branch. The one holding a token is not found.
  auto cart = h_.Call("find_commits", R"({"message":"cart","repos":"shop","max_count":100})");
  ASSERT_FALSE(cart.is_error) << cart.text;
  const auto found = IdsUnder(cart.text, "shop");
  EXPECT_EQ(found, Ids({"x1", "o1", "m4", "t1", "f1", "r1", "m2", "m1"}));
  auto all = GitLog(s_->shop, {"--all", "-i", "-E", "--grep=cart"});
  all.erase(std::remove(all.begin(), all.end(), s_->id["k1"]), all.end());
  EXPECT_EQ(found, all);
}

TEST_F(FindCommits, WhereEachCommitIsIsWhatGitBranchAndTagContainsSay) {
  auto a = h_.Call("find_commits", R"({"message":".","repos":"shop","max_count":100})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto where = WhereIn(a.text);
  ASSERT_EQ(where.size(), 10u) << a.text;  // every commit but k1
  for (const auto& [id, line] : where) ExpectWhereAsGitSays(s_->shop, id, line);
  // Spelled out: the oldest tag by its commit's date (v-only, made before v1.2.0, holds m3).
  EXPECT_EQ(where.at(s_->id["m1"]), "    on main · first released in v1.0");
  EXPECT_EQ(where.at(s_->id["m3"]), "    on main · first released in v-only");
  EXPECT_EQ(where.at(s_->id["m4"]), "    on main · first released in v1.2.0");
  EXPECT_EQ(where.at(s_->id["x1"]), "    on main · in no tag yet");
  EXPECT_EQ(where.at(s_->id["r1"]), "    not on main: on release/1.1 · first released in v1.1.0");
  EXPECT_EQ(where.at(s_->id["t1"]),
            "    not on main: on no branch (only in tags) · first released in v-only");
  EXPECT_EQ(where.at(s_->id["o1"]), "    not on main: on origin/next · in no tag yet");
  // f1 is on five branches: three are named, then how many more.
  const std::string f1 = where.at(s_->id["f1"]);
  EXPECT_EQ(f1.rfind("    not on main: on ", 0), 0u) << f1;
  EXPECT_TRUE(Has(f1, " and 2 more · in no tag yet")) << f1;
}

TEST_F(FindCommits, ReposNamesTheRepositoriesSearched) {
  auto billing = h_.Call("find_commits", R"({"message":"fix","repos":"billing"})");
  ASSERT_FALSE(billing.is_error) << billing.text;
  EXPECT_EQ(IdsIn(billing.text), Ids({"b2"}));
  EXPECT_TRUE(Has(billing.text, " across 1 repository "));
  auto both =
      h_.Call("find_commits", R"({"message":"invoice|catalog","repos":" billing, shop,shop"})");
  ASSERT_FALSE(both.is_error) << both.text;
  EXPECT_EQ(IdsUnder(both.text, "shop"), Ids({"m3"}));
  EXPECT_EQ(IdsUnder(both.text, "billing"), Ids({"b2", "b1"}));
  EXPECT_TRUE(Has(both.text, " across 2 repositories "));

  auto unknown = h_.Call("find_commits", R"({"message":"fix","repos":"shop, nope"})");
  EXPECT_TRUE(unknown.is_error) << unknown.text;
  EXPECT_EQ(unknown.text.rfind("no repository named `nope` is served", 0), 0u) << unknown.text;
  auto none = h_.Call("find_commits", R"({"message":"fix","repos":" , "})");
  EXPECT_TRUE(none.is_error) << none.text;
  EXPECT_EQ(none.text, "argument `repos` names no repository; leave it out for all");

  // A list of names reads as the string of them does.
  auto listed =
      h_.Call("find_commits", R"({"message":"invoice|catalog","repos":["billing","shop","shop"]})");
  ASSERT_FALSE(listed.is_error) << listed.text;
  EXPECT_EQ(listed.text, both.text);
  auto empty = h_.Call("find_commits", R"({"message":"fix","repos":[]})");
  EXPECT_TRUE(empty.is_error) << empty.text;
  EXPECT_EQ(empty.text, "argument `repos` names no repository; leave it out for all");
}

TEST_F(FindCommits, MessageOrAuthorIsNeeded) {
  for (const std::string args : {"{}", R"({"since":"2026-01-01"})", R"({"repos":"shop"})"}) {
    auto a = h_.Call("find_commits", args);
    EXPECT_TRUE(a.is_error) << a.text;
    EXPECT_EQ(a.text,
              "give `message` (an extended regular expression) or `author` to find commits by; "
              "since / until bound the search");
  }
}

TEST_F(FindCommits, AuthorSinceUntilAndMaxCount) {
  auto ada = h_.Call("find_commits", R"({"author":"^ada "})");
  ASSERT_FALSE(ada.is_error) << ada.text;
  EXPECT_EQ(IdsUnder(ada.text, "shop"), Ids({"m5", "m3"}));
  EXPECT_EQ(IdsUnder(ada.text, "billing"), Ids({"b2", "b1"}));

  auto window = h_.Call("find_commits",
                        R"({"message":"cart","since":"2026-01-03","until":"2026-01-07 11:59"})");
  ASSERT_FALSE(window.is_error) << window.text;
  EXPECT_EQ(IdsUnder(window.text, "shop"), Ids({"f1", "r1"}));

  auto two = h_.Call("find_commits", R"({"message":"cart","max_count":2})");
  ASSERT_FALSE(two.is_error) << two.text;
  EXPECT_EQ(IdsUnder(two.text, "shop"), Ids({"x1", "o1"}));
  EXPECT_TRUE(Has(two.text,
                  "\n## shop · 2 commits (more: narrow with since / until, or raise "
                  "max_count)\n"));
  auto over = h_.Call("find_commits", R"({"message":"cart","max_count":101})");
  EXPECT_TRUE(over.is_error);
  EXPECT_EQ(over.text, "argument `max_count` is 101; it must be from 1 to 100");
  auto bad = h_.Call("find_commits", R"({"message":"cart\\1"})");
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.text,
            "argument `message`: back-references (\\1) are not supported; match the "
            "text itself");
}

// A repository served in part follows log's rule: x1 changed only secret/notes.md.
TEST_F(FindCommits, APartlyServedRepositoryFollowsLogsRule) {
  ToolHarness h({Part(), Served("whole", s_->shop.path())});
  auto a = h.Call("find_commits", R"({"message":"cart notes|cart total again"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(IdsUnder(a.text, "part"), Ids({"m4"}));
  EXPECT_EQ(IdsUnder(a.text, "whole"), Ids({"x1", "m4"}));
  EXPECT_TRUE(Has(a.text, "\n## part · 1 commit · served in part\n"));
}

// k1's message holds a token: found by no message, no author, no date; git finds it.
TEST_F(FindCommits, ACommitWhoseMessageHoldsAHiddenValueIsNotFound) {
  const std::string token = "gh" + std::string("p_") + Chars(36, kBase62, 11);
  ASSERT_EQ(GitLog(s_->shop, {"--all", "-i", "-E", "--grep=deploy"}), Ids({"k1"}));
  const std::vector<std::string> calls = {
      R"({"message":"deploy"})", R"({"message":"gh[p]_"})", R"({"author":"grace"})",
      R"({"author":".","since":"2026-01-06","until":"2026-01-06"})",
      "{\"message\":" + JsonQuote(token) + "}"};
  for (const auto& args : calls) {
    auto a = h_.Call("find_commits", args);
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(HasNot(a.text, s_->id["k1"])) << args << "\n" << a.text;
    EXPECT_TRUE(HasNot(a.text, token)) << a.text;
  }
  // log lists it without a filter, its value hidden.
  auto log = h_.Call("log", R"({"repo":"shop","ref":"keys","max_count":1})");
  ASSERT_FALSE(log.is_error) << log.text;
  EXPECT_EQ(IdsIn(log.text), Ids({"k1"}));
  EXPECT_TRUE(Has(log.text, "Fix the cart deploy with [hidden: GitHub token]"));
}

// Containment walks down to the commit's date less a day: a descendant whose clock was off by
// less than that (made "before" the commit it holds) still places it.
TEST(FindCommitsSkew, AClockOffByLessThanADayStillPlacesTheCommit) {
  TempDir tmp;
  TestRepo repo(tmp / "skew");
  HistoryWriter w;
  const int a = w.Commit({{"a", {"1"}}}, {}, Day(1), "Start\n");
  const int t = w.Commit({{"a", {"2"}}}, {a}, Day(10), "Fix the target\n");
  const int late = w.Commit({{"a", {"3"}}}, {t}, Day(10, -20 * 3600), "Off by twenty hours\n");
  const int tip = w.Commit({{"a", {"4"}}}, {late}, Day(11), "After it\n");
  w.Ref("refs/heads/main", a);
  w.Ref("refs/heads/late", tip);
  w.Ref("refs/tags/v-late", late);
  const auto ids = w.Write(repo, tmp);
  ToolHarness h({Served("skew", repo.path())});
  auto found = h.Call("find_commits", R"({"message":"target"})");
  ASSERT_FALSE(found.is_error) << found.text;
  const auto where = WhereIn(found.text);
  ASSERT_EQ(where.size(), 1u) << found.text;
  EXPECT_EQ(where.begin()->first, Short(ids.at(t)));
  EXPECT_EQ(where.begin()->second, "    not on main: on late · first released in v-late");
  ExpectWhereAsGitSays(repo, where.begin()->first, where.begin()->second);
}

// The branches holding a commit are named newest first (by their tip's date), as list_refs
// lists them — not in the refs' name order. A subject ending "\r\n" is shown without its \r.
TEST(FindCommitsOrder, BranchesAreNamedNewestFirstAndASubjectLosesItsCarriageReturn) {
  TempDir tmp;
  TestRepo repo(tmp / "order");
  HistoryWriter w;
  const int a = w.Commit({{"a", {"1"}}}, {}, Day(1), "Start\n");
  const int fix = w.Commit({{"a", {"2"}}}, {a}, Day(2), "Fix the rounding\r\n\r\nWhy.\r\n");
  const int later = w.Commit({{"a", {"3"}}}, {fix}, Day(5), "Later\n");
  const int middle = w.Commit({{"a", {"4"}}}, {fix}, Day(3), "Middle\n");
  w.Ref("refs/heads/main", a);
  w.Ref("refs/heads/a-oldest", fix);
  w.Ref("refs/heads/m-middle", middle);
  w.Ref("refs/heads/z-newest", later);
  const auto ids = w.Write(repo, tmp);
  ToolHarness h({Served("order", repo.path())});
  auto found = h.Call("find_commits", R"({"message":"rounding"})");
  ASSERT_FALSE(found.is_error) << found.text;
  const auto where = WhereIn(found.text);
  ASSERT_EQ(where.size(), 1u) << found.text;
  EXPECT_EQ(where.begin()->second,
            "    not on main: on z-newest, m-middle, a-oldest · in no tag yet");
  EXPECT_TRUE(Has(found.text, "— Fix the rounding\n")) << found.text;
  EXPECT_FALSE(Has(found.text, "\\r")) << found.text;
}

// A generated repository: many branches and tags, merges among them; every commit found is
// placed as git places it.
TEST(FindCommitsRandom, EveryFoundCommitIsPlacedAsGitPlacesIt) {
  TempDir tmp;
  TestRepo repo(tmp / "gen");
  std::mt19937 rng(7);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  HistoryWriter w;
  std::vector<int> marks;
  std::vector<int> tips;
  int64_t now = Day(1);
  for (int i = 0; i < 150; ++i) {
    now += 600 + static_cast<int64_t>(pick(20000));
    const std::string message =
        (pick(3) == 0 ? "Fix item " : "Change item ") + std::to_string(i) + "\n";
    std::vector<int> parents;
    if (!marks.empty()) {
      const size_t roll = pick(10);
      if (roll < 2 || tips.empty()) {
        parents.push_back(marks[pick(marks.size())]);  // a fork from anywhere
      } else {
        const size_t t = pick(tips.size());
        parents.push_back(tips[t]);
        if (roll == 9 && tips.size() > 1) {
          const int other = tips[pick(tips.size())];
          if (other != parents[0]) parents.push_back(other);
        }
        tips.erase(tips.begin() + static_cast<long>(t));
      }
    }
    const int mark =
        w.Commit({{"f" + std::to_string(i % 7), {std::to_string(i)}}}, parents, now, message);
    marks.push_back(mark);
    tips.push_back(mark);
  }
  w.Ref("refs/heads/main", tips[0]);
  for (size_t i = 1; i < tips.size(); ++i) {
    w.Ref((i % 3 == 0 ? "refs/remotes/origin/b" : "refs/heads/b") + std::to_string(i), tips[i]);
  }
  for (int t = 0; t < 12; ++t) {
    const int at = marks[pick(marks.size())];
    if (t % 2) {
      w.AnnotatedTag("v" + std::to_string(t), at, now);
    } else {
      w.Ref("refs/tags/v" + std::to_string(t), at);
    }
  }
  w.Write(repo, tmp);

  ToolHarness h({Served("gen", repo.path())}, 200000);
  auto a = h.Call("find_commits", R"({"message":"^fix","max_count":100})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto found = IdsIn(a.text);
  EXPECT_EQ(found, GitLog(repo, {"--all", "-i", "-E", "--grep=^fix", "--max-count=100"}));
  ASSERT_GT(found.size(), 20u);
  const auto where = WhereIn(a.text);
  std::set<std::string> kinds;
  for (const auto& [id, line] : where) {
    ExpectWhereAsGitSays(repo, id, line);
    kinds.insert(line.substr(0, 12));
  }
  EXPECT_EQ(kinds.size(), 2u) << "both on main and not on main";
}

}  // namespace
}  // namespace find_commits_test
}  // namespace rr::testing
