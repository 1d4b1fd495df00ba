// list_repos over 2,003 repositories the test writes: pages that walk every repository once, in
// order, each continuing exactly where the cut note said; patterns (a glob over names, the last
// part of an owner/name name when it has no /) checked against the names themselves; the
// pattern the cut note suggests; a pattern that matches nothing; bad arguments; and entries as
// git shows them once read.
//
// The repositories are cheap to make: each is a bare repository holding only HEAD, refs and
// packed-refs, borrowing the objects of one template made with git (objects/info/alternates),
// as `git clone --shared` leaves it. 100 are made on disk and the 2,003 names are served from
// them in turn (two names may serve the same folder): removing thousands of folders afterwards
// would take longer than everything the test does.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace list_repos_paging_test {
namespace {

namespace fs = std::filesystem;

constexpr int kGenerated = 2000;
constexpr int kOnDisk = 100;
const char* const kKinds[] = {"api", "web", "lib", "cli"};

struct Made {
  std::string name, path;
  int commit;  // index into the template's commits
  bool two_tags;
  bool loose;  // main as a file of its own, not in packed-refs
};

class ListReposPaging : public ::testing::Test {
 protected:
  struct Shared {
    TempDir tmp;
    TestRepo origin{tmp / "template"};
    std::vector<std::string> commits;  // oldest first
    std::vector<std::string> subjects;
    std::vector<Made> repos;
  };

  static void Write(const std::string& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
  }

  // A bare repository whose main is at `commit`, with the template's objects.
  static void MakeRepo(const Made& m) {
    const Shared& s = *s_;
    fs::create_directories(m.path + "/objects/info");
    fs::create_directories(m.path + "/refs/heads");
    fs::create_directories(m.path + "/refs/tags");
    Write(m.path + "/HEAD", "ref: refs/heads/main\n");
    Write(m.path + "/config", "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
    Write(m.path + "/objects/info/alternates", s.origin.path() + "/.git/objects\n");
    std::string packed = "# pack-refs with: peeled fully-peeled sorted \n";
    packed += s.commits[2] + " refs/heads/dev\n";
    if (m.loose) {
      Write(m.path + "/refs/heads/main", s.commits[m.commit] + "\n");
    } else {
      packed += s.commits[m.commit] + " refs/heads/main\n";
    }
    packed += s.commits[1] + " refs/tags/v1\n";
    if (m.two_tags) packed += s.commits[2] + " refs/tags/v2\n";
    Write(m.path + "/packed-refs", packed);
  }

  static void SetUpTestSuite() {
    s_ = new Shared;
    Shared& s = *s_;
    s.subjects = {"Start the service", "Add the handler", "Add guidance for agents",
                  "Tune the handler"};
    s.origin.Write("README.md", "# A service\n");
    s.commits.push_back(s.origin.Commit(s.subjects[0]));
    s.origin.Write("src/app.py", "def handler():\n    return 1\n");
    s.commits.push_back(s.origin.Commit(s.subjects[1]));
    s.origin.Write("AGENTS.md", "Run the tests before you commit.\n");
    s.commits.push_back(s.origin.Commit(s.subjects[2]));
    s.origin.Write("src/app.py", "def handler():\n    return 2\n");
    s.commits.push_back(s.origin.Commit(s.subjects[3]));
    std::vector<Made> disk;
    for (int d = 0; d < kOnDisk; ++d) {
      disk.push_back(
          {"", s.tmp / ("r" + std::to_string(d) + ".git"), (d * 7) % 4, d % 2 == 1, d % 10 == 0});
      MakeRepo(disk.back());
    }
    for (int i = 0; i < kGenerated; ++i) {
      char name[64];
      std::snprintf(name, sizeof name, "team-%02d-svc-%04d-%s", i % 20, i, kKinds[i % 4]);
      Made m = disk[static_cast<size_t>(i % kOnDisk)];
      m.name = name;
      s.repos.push_back(m);
    }
    // Names with an owner: a pattern without / matches their last part.
    for (const char* name : {"acme/shop-api", "acme/shop-web", "acme/tools/cli"}) {
      Made m = disk[s.repos.size() % kOnDisk];
      m.name = name;
      s.repos.push_back(m);
    }
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  static std::vector<RepoConfig> Configs() {
    std::vector<RepoConfig> out;
    for (const auto& m : s_->repos) out.push_back(Served(m.name, m.path));
    return out;
  }

  // The names of the entries shown, in order.
  static std::vector<std::string> Names(const std::string& text) {
    std::vector<std::string> out;
    for (const auto& line : Lines(text)) {
      if (line.rfind("## ", 0) == 0) out.push_back(line.substr(3));
    }
    return out;
  }
  // The skip the cut note gives, or -1 when the answer is not cut.
  static long long NextSkip(const std::string& text) {
    const std::string last = Lines(text).back();
    std::smatch m;
    if (!std::regex_search(last, m, std::regex(R"(skip: (\d+))"))) return -1;
    return std::stoll(m[1]);
  }
  // Every page of list_repos with `pattern_json` (e.g. `"pattern":"x",` or empty): the names,
  // checking each page's heading and that each continues where the last one's note said.
  std::vector<std::string> AllPages(const std::string& pattern_json, size_t expected_total,
                                    const std::string& heading_part) {
    std::vector<std::string> names;
    long long skip = 0;
    for (int page = 0; page < 100; ++page) {
      auto a = h_.Call("list_repos", "{" + pattern_json + "\"skip\":" + std::to_string(skip) + "}");
      EXPECT_FALSE(a.is_error) << a.text;
      const auto shown = Names(a.text);
      EXPECT_FALSE(shown.empty()) << a.text;
      const std::string heading = Lines(a.text)[0];
      EXPECT_TRUE(Has(heading, heading_part));
      const long long next = NextSkip(a.text);
      if (skip > 0 || next >= 0) {
        EXPECT_TRUE(Has(heading, " · repositories " + Commas(skip + 1) + "–" +
                                     Commas(skip + static_cast<long long>(shown.size())) + " of " +
                                     Commas(static_cast<long long>(expected_total))));
      }
      names.insert(names.end(), shown.begin(), shown.end());
      if (next < 0) break;
      EXPECT_EQ(next, skip + static_cast<long long>(shown.size())) << a.text;
      EXPECT_TRUE(Has(Lines(a.text).back(), "[repositories " + Commas(next + 1) + "–" +
                                                Commas(static_cast<long long>(expected_total))));
      skip = next;
    }
    return names;
  }

  static Shared* s_;
  ToolHarness h_{Configs()};
};
ListReposPaging::Shared* ListReposPaging::s_ = nullptr;

TEST_F(ListReposPaging, PagesWalkEveryRepositoryOnceInOrder) {
  std::vector<std::string> all;
  for (const auto& m : s_->repos) all.push_back(m.name);
  const auto names = AllPages("", all.size(), "repo-reader · 2,003 repositories served");
  EXPECT_EQ(names, all);
  // A page is a whole answer's worth: more than one page was needed, none more than the cap.
  auto first = h_.Call("list_repos");
  EXPECT_GT(NextSkip(first.text), 0);
  EXPECT_LE(CodePointsOf(first.text), 40000u);
}

TEST_F(ListReposPaging, APatternSelectsNamesAndPages) {
  std::vector<std::string> team07, api, acme_one, acme_all;
  for (const auto& m : s_->repos) {
    if (m.name.rfind("team-07-", 0) == 0) team07.push_back(m.name);
    const std::string last = m.name.substr(m.name.rfind('/') + 1);
    if (last.size() > 4 && last.compare(last.size() - 4, 4, "-api") == 0) api.push_back(m.name);
    if (m.name.rfind("acme/", 0) == 0) {
      acme_all.push_back(m.name);
      if (m.name.find('/', 5) == std::string::npos) acme_one.push_back(m.name);
    }
  }
  ASSERT_EQ(team07.size(), 100u);
  EXPECT_EQ(AllPages("\"pattern\":\"team-07-*\",", team07.size(), " · 100 match `team-07-*`"),
            team07);
  // *-api matches the last part of acme/shop-api too; there are more than a page of them.
  ASSERT_EQ(api.size(), 501u);
  EXPECT_EQ(AllPages("\"pattern\":\"*-api\",", api.size(), " · 501 match `*-api`"), api);
  EXPECT_EQ(AllPages("\"pattern\":\"acme/*\",", acme_one.size(), " · 2 match `acme/*`"), acme_one);
  EXPECT_EQ(AllPages("\"pattern\":\"acme/**\",", acme_all.size(), " · 3 match `acme/**`"),
            acme_all);
  auto one = h_.Call("list_repos", R"({"pattern":"team-03-svc-0003-cli"})");
  EXPECT_TRUE(Has(Lines(one.text)[0], " · 1 matches `team-03-svc-0003-cli`"));
  EXPECT_EQ(Names(one.text), std::vector<std::string>{"team-03-svc-0003-cli"});
}

TEST_F(ListReposPaging, TheCutNoteSuggestsAPatternThatNarrows) {
  auto a = h_.Call("list_repos");
  const std::string note = Lines(a.text).back();
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(note, m, std::regex(R"(pattern, e\.g\. `([^`]+)` \((\d+) repositories\))")))
      << note;
  const std::string suggested = m[1];
  const long long count = std::stoll(m[2]);
  EXPECT_GT(count, 1);
  EXPECT_LT(count, 2003);
  // It holds the first repository left out, and says truly how many it matches.
  const std::string next = s_->repos[static_cast<size_t>(NextSkip(a.text))].name;
  auto narrowed = h_.Call("list_repos", "{\"pattern\":\"" + suggested + "\"}");
  EXPECT_TRUE(
      Has(Lines(narrowed.text)[0], " · " + std::to_string(count) + " match `" + suggested + "`"));
  const auto narrowed_names = Names(narrowed.text);
  EXPECT_NE(std::find(narrowed_names.begin(), narrowed_names.end(), next), narrowed_names.end())
      << next;
}

TEST_F(ListReposPaging, APatternThatMatchesNothingSaysSoAndHowToListNames) {
  auto a = h_.Call("list_repos", R"({"pattern":"billing-*"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text,
            "repo-reader · 2,003 repositories served · 0 match `billing-*`\n"
            "No repository name matches `billing-*`. Note: a pattern is a glob over repository "
            "names: * any characters but /, ? one character, [a-z] one of a class; a pattern "
            "without / matches the last part of an owner/name name (team-*, *-api, acme/*). "
            "list_repos without pattern lists every name, a page at a time (skip pages on).");
  // Names are matched as written; the answer says when another case would have matched.
  auto upper = h_.Call("list_repos", R"({"pattern":"TEAM-07-*"})");
  EXPECT_TRUE(Has(upper.text,
                  "No repository name matches `TEAM-07-*`. Names are matched as written: "
                  "ignoring case, 100 would match (team-07-svc-0007-cli, …); write the pattern "
                  "in their case."));
}

TEST_F(ListReposPaging, BadArgumentsAreRefusedSayingWhatToWrite) {
  auto bracket = h_.Call("list_repos", R"({"pattern":"team-[0"})");
  EXPECT_TRUE(bracket.is_error);
  EXPECT_EQ(bracket.text,
            "argument `pattern`: pattern `team-[0` has a `[` with no closing `]`; a pattern is a "
            "glob over repository names: * any characters but /, ? one character, [a-z] one of a "
            "class; a pattern without / matches the last part of an owner/name name (team-*, "
            "*-api, acme/*)");
  auto empty = h_.Call("list_repos", R"({"pattern":""})");
  EXPECT_TRUE(empty.is_error);
  EXPECT_TRUE(Has(empty.text,
                  "argument `pattern` is empty; a pattern is a glob over repository "
                  "names"));
  auto past = h_.Call("list_repos", R"({"skip":2003})");
  EXPECT_TRUE(past.is_error);
  EXPECT_EQ(past.text,
            "argument `skip` is 2003, past the last of the 2,003 repositories; skip 0 shows the "
            "first, 2002 the last");
  auto past_pattern = h_.Call("list_repos", R"({"pattern":"acme/*","skip":2})");
  EXPECT_TRUE(past_pattern.is_error);
  EXPECT_EQ(past_pattern.text,
            "argument `skip` is 2, past the last of the 2 repositories matching `acme/*`; skip 0 "
            "shows the first, 1 the last");
  auto negative = h_.Call("list_repos", R"({"skip":-1})");
  EXPECT_TRUE(negative.is_error);
  EXPECT_EQ(negative.text, "argument `skip` is -1; it must be 0 or more");
}

TEST_F(ListReposPaging, EntriesShowWhatGitShowsOnceRead) {
  // The first page of a pattern: read in parallel; any entry not read in the call's time says
  // so and is read for the next call.
  const std::string args = R"({"pattern":"team-05-*"})";
  std::string text;
  for (int tries = 0; tries < 200; ++tries) {
    text = h_.Call("list_repos", args).text;
    if (text.find("not read yet") == std::string::npos) break;
    EXPECT_TRUE(Has(text,
                    "Default branch: not read yet — list_refs reads it; list_repos shows "
                    "it once read"));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(HasNot(text, "not read yet"));
  size_t checked = 0;
  for (const auto& m : s_->repos) {
    if (m.name.rfind("team-05-", 0) != 0) continue;
    // What git says of the repository, beside what the entry shows.
    CommandResult head = rr::testing::Run(
        {"git", "--git-dir", m.path, "log", "-1", "--format=%H %cs %s"}, s_->tmp.path());
    ASSERT_EQ(head.status, 0) << head.err;
    const std::string id = head.out.substr(0, 40);
    const std::string date = head.out.substr(41, 10);
    const std::string subject = head.out.substr(52, head.out.size() - 53);
    CommandResult tags = rr::testing::Run({"git", "--git-dir", m.path, "tag"}, s_->tmp.path());
    const size_t tag_count = Lines(tags.out).size();
    std::string entry = "## " + m.name + "\nDefault branch: main @ " + Short(id) + " (" + date +
                        ") — " + subject + "\n2 branches, " +
                        (tag_count == 1 ? "1 tag" : std::to_string(tag_count) + " tags") +
                        " — list_refs lists them";
    if (m.commit >= 2) entry += "\nCarries guidance for agents: AGENTS.md.";
    EXPECT_TRUE(Has(text + "\n", entry + "\n"));
    EXPECT_EQ(id, s_->commits[static_cast<size_t>(m.commit)]);
    ++checked;
  }
  EXPECT_EQ(checked, 100u);
}

}  // namespace
}  // namespace list_repos_paging_test
}  // namespace rr::testing
