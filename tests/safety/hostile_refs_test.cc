// Repositories written by an attacker: refs. Branches named like options, HEAD pointing at
// one, thousands of refs, symbolic-ref loops, dangling refs, refs to objects that are not
// commits or not there, an empty repository, a corrupt packed-refs file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/util/text.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_refs {
namespace {

namespace fs = std::filesystem;

std::string Cwd() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? buf : ".";
}

// A repository whose default branch and two more branches are named like options; main is an
// older commit. Returns the option branches' commit.
struct OptionRepo {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  std::string main_commit, option_commit, pwned_path;

  OptionRepo() {
    repo.Write("app.py", "print('on main')\n");
    main_commit = repo.Commit("Main");
    repo.Write("app.py", "print('on the option branch')\n");
    option_commit = repo.Commit("Option branch");
    pwned_path = tmp / "pwned";
    repo.Git({"update-ref", "refs/heads/--output=x", option_commit});
    repo.Git({"update-ref", "refs/heads/-p", option_commit});
    repo.Git({"update-ref", "refs/heads/--output=" + pwned_path, option_commit});
    repo.Git({"update-ref", "refs/heads/main", main_commit});
    repo.Git({"symbolic-ref", "HEAD", "refs/heads/--output=x"});
  }
};

TEST(HostileRefs, BranchNamedLikeAnOptionIsListedAndRefusedAsARefArgument) {
  OptionRepo r;
  const bool x_before = fs::exists(Cwd() + "/x");
  const auto before = Snapshot(r.tmp.path());
  ToolHarness h({Served("shop", r.repo.path())});

  auto refs = h.Call("list_refs", R"({"repo":"shop"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_TRUE(Has(refs.text, "* --output=x  ")) << refs.text;  // the default branch, marked
  EXPECT_TRUE(Has(refs.text, "  -p  ")) << refs.text;
  EXPECT_TRUE(Has(refs.text, "--output=" + r.pwned_path)) << refs.text;
  EXPECT_TRUE(Has(refs.text, "4 branches")) << refs.text;
  EXPECT_TRUE(Printable(refs.text));

  // A ref argument starting with - is refused, whatever it names, with a way forward.
  for (const std::string& ref :
       std::vector<std::string>{"--output=x", "-p", "--output=" + r.pwned_path}) {
    for (const std::string tool : {"read_file", "list_files"}) {
      auto a = h.Call(tool, R"({"repo":"shop","path":"app.py","ref":)" + JsonQuote(ref) + "}");
      EXPECT_TRUE(a.is_error) << tool << " " << ref << ": " << a.text;
      EXPECT_TRUE(Has(a.text, "may not start with -")) << a.text;
      EXPECT_TRUE(Has(a.text, "commit id")) << a.text;
      EXPECT_FALSE(Has(a.text, "on the option branch")) << a.text;
    }
  }

  // The branch is read by the commit id list_refs shows for it.
  auto by_id = h.Call("read_file", R"({"repo":"shop","path":"app.py","ref":")" +
                                       r.option_commit.substr(0, 12) + "\"}");
  ASSERT_FALSE(by_id.is_error) << by_id.text;
  EXPECT_TRUE(Has(by_id.text, "print('on the option branch')")) << by_id.text;
  EXPECT_TRUE(Has(refs.text, r.option_commit.substr(0, 12))) << refs.text;

  // Nothing was written: no file named x or pwned, the repository untouched.
  EXPECT_FALSE(fs::exists(r.pwned_path));
  EXPECT_FALSE(fs::exists(r.repo.path() + "/x"));
  EXPECT_FALSE(fs::exists(r.tmp / "x"));
  EXPECT_EQ(fs::exists(Cwd() + "/x"), x_before);
  EXPECT_EQ(Snapshot(r.tmp.path()), before);
}

TEST(HostileRefs, HeadNamingAnOptionLikeBranchStillGivesTheDefaultBranch) {
  OptionRepo r;
  const auto before = Snapshot(r.tmp.path());
  ToolHarness h({Served("shop", r.repo.path())});

  auto file = h.Call("read_file", R"({"repo":"shop","path":"app.py"})");
  ASSERT_FALSE(file.is_error) << file.text;
  EXPECT_EQ(file.text.rfind("shop · --output=x @ " + r.option_commit.substr(0, 12), 0), 0u)
      << file.text;
  EXPECT_TRUE(Has(file.text, "print('on the option branch')")) << file.text;

  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "Default branch: --output=x @ " + r.option_commit.substr(0, 12)))
      << repos.text;

  auto files = h.Call("list_files", R"({"repo":"shop"})");
  ASSERT_FALSE(files.is_error) << files.text;
  EXPECT_TRUE(Has(files.text, "\napp.py")) << files.text;

  // main, an ordinary branch, reads as itself.
  auto main = h.Call("read_file", R"({"repo":"shop","path":"app.py","ref":"main"})");
  ASSERT_FALSE(main.is_error) << main.text;
  EXPECT_TRUE(Has(main.text, "print('on main')")) << main.text;

  for (const auto& c : CallEveryTool(h, "shop", {"app.py"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  EXPECT_FALSE(fs::exists(r.pwned_path));
  EXPECT_FALSE(fs::exists(r.repo.path() + "/x"));
  EXPECT_EQ(Snapshot(r.tmp.path()), before);
}

TEST(HostileRefs, FiveThousandBranchesAndAThousandTagsAreCappedWithANoteToNarrow) {
  TempDir tmp;
  TestRepo repo(tmp / "many");
  repo.Write("a.txt", "a\n");
  const std::string c1 = repo.Commit("First");
  repo.Write("a.txt", "b\n");
  const std::string c2 = repo.Commit("Second");
  // The branches packed, as git pack-refs (and a clone) writes them; the tags loose, written by
  // git update-ref. (5,000 loose refs cost seconds on some file systems.)
  std::string packed = "# pack-refs with: peeled fully-peeled \n";
  for (int i = 0; i < 5000; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "refs/heads/feature/branch-%04d", i);
    packed += (i % 2 ? c1 : c2) + " " + name + "\n";
  }
  std::ofstream(repo.path() + "/.git/packed-refs", std::ios::binary) << packed;
  std::string batch;
  for (int i = 0; i < 1000; ++i) {
    batch += "create refs/tags/v1." + std::to_string(i) + " " + c1 + "\n";
  }
  repo.Git({"update-ref", "--stdin"}, batch);
  ASSERT_EQ(Lines(repo.Git({"for-each-ref"})).size(), 6001u);
  constexpr size_t kCap = 40000;
  ToolHarness h({Served("many", repo.path())}, kCap);

  auto refs = h.Call("list_refs", R"({"repo":"many"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_LE(CodePoints(refs.text), kCap);
  EXPECT_GT(CodePoints(refs.text), kCap / 2);  // cut where the answer is full, not early
  EXPECT_TRUE(Has(refs.text, "5,001 branches, 1,000 tags")) << refs.text.substr(0, 200);
  const std::string last = Lines(refs.text).back();
  EXPECT_TRUE(Has(last, "more refs not shown — narrow with pattern")) << last;

  auto tags = h.Call("list_refs", R"({"repo":"many","kind":"tags"})");
  ASSERT_FALSE(tags.is_error) << tags.text;
  EXPECT_LE(CodePoints(tags.text), kCap);
  EXPECT_TRUE(Has(tags.text, "1,000 tags")) << tags.text.substr(0, 200);

  // Narrowing as the note says gives a whole answer.
  auto narrow = h.Call("list_refs", R"({"repo":"many","pattern":"feature/branch-004*"})");
  ASSERT_FALSE(narrow.is_error) << narrow.text;
  EXPECT_TRUE(Has(narrow.text, "10 branches, 0 tags matching")) << narrow.text;
  EXPECT_FALSE(Has(narrow.text, "not shown")) << narrow.text;
  EXPECT_EQ(Lines(narrow.text).size(), 11u) << narrow.text;

  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "5,001 branches, 1,000 tags")) << repos.text;
}

TEST(HostileRefs, SymbolicRefLoopAnswersClearlyWithoutHanging) {
  TempDir tmp;
  TestRepo repo(tmp / "loop");
  repo.Write("a.txt", "on main\n");
  repo.Commit("First");
  repo.Git({"symbolic-ref", "refs/heads/a", "refs/heads/b"});
  repo.Git({"symbolic-ref", "refs/heads/b", "refs/heads/a"});
  repo.Git({"symbolic-ref", "HEAD", "refs/heads/a"});
  ToolHarness h({Served("loop", repo.path())});

  for (const auto& c : CallEveryTool(h, "loop", {"a.txt"})) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "Default branch: unreadable")) << repos.text;

  auto read = h.Call("read_file", R"({"repo":"loop","path":"a.txt"})");
  EXPECT_TRUE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "no readable default branch")) << read.text;
  EXPECT_TRUE(Has(read.text, "give a ref")) << read.text;

  // The loop's branches are not readable; the real branch is.
  auto a = h.Call("read_file", R"({"repo":"loop","path":"a.txt","ref":"a"})");
  EXPECT_TRUE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "is not a branch, tag or commit")) << a.text;
  auto main = h.Call("read_file", R"({"repo":"loop","path":"a.txt","ref":"main"})");
  ASSERT_FALSE(main.is_error) << main.text;
  EXPECT_TRUE(Has(main.text, "on main")) << main.text;

  auto refs = h.Call("list_refs", R"({"repo":"loop"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_TRUE(Has(refs.text, "1 branch, 0 tags")) << refs.text;
  EXPECT_TRUE(Has(refs.text, "  main  ")) << refs.text;
}

TEST(HostileRefs, DanglingHeadAnswersThatTheDefaultBranchHasNoCommit) {
  TempDir tmp;
  TestRepo repo(tmp / "dangling");
  repo.Write("a.txt", "on main\n");
  repo.Commit("First");
  repo.Git({"symbolic-ref", "HEAD", "refs/heads/nope"});
  ToolHarness h({Served("dangling", repo.path())});

  for (const auto& c : CallEveryTool(h, "dangling", {"a.txt"}, "main")) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "Default branch: nope — no commit yet")) << repos.text;
  EXPECT_TRUE(Has(repos.text, "1 branch, 0 tags")) << repos.text;

  auto read = h.Call("read_file", R"({"repo":"dangling","path":"a.txt"})");
  EXPECT_TRUE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "no commit yet on its default branch `nope`")) << read.text;
  auto main = h.Call("read_file", R"({"repo":"dangling","path":"a.txt","ref":"main"})");
  ASSERT_FALSE(main.is_error) << main.text;
  EXPECT_TRUE(Has(main.text, "on main")) << main.text;
}

TEST(HostileRefs, RefsToMissingOrNonCommitObjectsArePassedOver) {
  TempDir tmp;
  TestRepo repo(tmp / "ghosts");
  repo.Write("a.txt", "on main\n");
  const std::string main = repo.Commit("First");
  const std::string blob = repo.Blob("just a blob\n");
  const std::string tree = repo.Git({"rev-parse", "HEAD^{tree}"});
  // Written by hand: git refuses refs to objects that are not there or not commits.
  std::ofstream(repo.path() + "/.git/refs/heads/ghost")
      << "0123456789abcdef0123456789abcdef01234567\n";
  std::ofstream(repo.path() + "/.git/refs/heads/blobby") << blob << "\n";
  std::ofstream(repo.path() + "/.git/refs/heads/treey") << tree << "\n";
  repo.Git({"update-ref", "refs/tags/blobtag", blob});
  repo.Git({"symbolic-ref", "HEAD", "refs/heads/ghost"});
  ToolHarness h({Served("ghosts", repo.path())});

  for (const auto& c : CallEveryTool(h, "ghosts", {"a.txt"}, "main")) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto refs = h.Call("list_refs", R"({"repo":"ghosts"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_TRUE(Has(refs.text, "1 branch, 0 tags")) << refs.text;
  for (const char* hidden : {"ghost", "blobby", "treey", "blobtag"}) {
    EXPECT_FALSE(Has(refs.text, std::string("  ") + hidden)) << refs.text;
  }
  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "Default branch: unreadable")) << repos.text;

  auto read = h.Call("read_file", R"({"repo":"ghosts","path":"a.txt"})");
  EXPECT_TRUE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "no readable default branch")) << read.text;
  for (const char* ref : {"ghost", "blobby", "treey", "blobtag"}) {
    auto a = h.Call("read_file",
                    R"({"repo":"ghosts","path":"a.txt","ref":")" + std::string(ref) + "\"}");
    EXPECT_TRUE(a.is_error) << ref << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "is not a branch, tag or commit")) << a.text;
  }
  auto ok = h.Call("read_file", R"({"repo":"ghosts","path":"a.txt","ref":")" + main + "\"}");
  ASSERT_FALSE(ok.is_error) << ok.text;
}

TEST(HostileRefs, EmptyRepositoryAnswersThatThereIsNoCommitYet) {
  TempDir tmp;
  TestRepo repo(tmp / "empty");
  ToolHarness h({Served("empty", repo.path())});

  for (const auto& c : CallEveryTool(h, "empty", {"README.md"})) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto about = h.Call("about");
  ASSERT_FALSE(about.is_error) << about.text;
  auto repos = h.Call("list_repos");
  ASSERT_FALSE(repos.is_error) << repos.text;
  EXPECT_TRUE(Has(repos.text, "Default branch: main — no commit yet")) << repos.text;
  auto refs = h.Call("list_refs", R"({"repo":"empty"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_TRUE(Has(refs.text, "No branches or tags.")) << refs.text;
  for (const std::string tool : {"list_files", "read_file"}) {
    auto a = h.Call(tool, R"({"repo":"empty","path":"README.md"})");
    EXPECT_TRUE(a.is_error) << a.text;
    EXPECT_TRUE(Has(a.text, "has no commit yet on its default branch `main`")) << a.text;
  }
}

TEST(HostileRefs, RefNamesThatAreNotUtf8AreShownEscaped) {
  TempDir tmp;
  TestRepo repo(tmp / "names");
  repo.Write("a.txt", "a\n");
  repo.Commit("First");
  repo.Git({"update-ref", "refs/heads/caf\xE9", "HEAD"});
  repo.Git({"update-ref", "refs/tags/v\xFF\xFE", "HEAD"});
  repo.Git({"symbolic-ref", "HEAD", "refs/heads/caf\xE9"});
  ToolHarness h({Served("names", repo.path())});

  for (const auto& c : CallEveryTool(h, "names", {"a.txt"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto refs = h.Call("list_refs", R"({"repo":"names"})");
  EXPECT_TRUE(Has(refs.text, "* caf\\xE9  ")) << refs.text;
  EXPECT_TRUE(Has(refs.text, "v\\xFF\\xFE (tag)")) << refs.text;
  auto read = h.Call("read_file", R"({"repo":"names","path":"a.txt"})");
  EXPECT_EQ(read.text.rfind("names · caf\\xE9 @ ", 0), 0u) << read.text;
}

TEST(HostileRefs, CorruptPackedRefsAnswersClearlyWithoutCrashing) {
  TempDir tmp;
  TestRepo repo(tmp / "packed");
  repo.Write("a.txt", "a\n");
  repo.Commit("First");
  repo.Git({"update-ref", "refs/heads/side", "HEAD"});
  repo.Git({"pack-refs", "--all"});
  {
    std::ofstream f(repo.path() + "/.git/packed-refs", std::ios::app | std::ios::binary);
    f << "this is not a ref line\n^^^^\n" << std::string(300, 'z') << "\n";
  }
  ToolHarness h({Served("packed", repo.path())});
  for (const auto& c : CallEveryTool(h, "packed", {"a.txt"}, "side")) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto about = h.Call("about");
  EXPECT_FALSE(about.is_error) << about.text;
  auto repos = h.Call("list_repos");
  EXPECT_FALSE(repos.is_error) << repos.text;
}

}  // namespace
}  // namespace rr::testing::safety::hostile_refs
