// blame on repositories written by an attacker. git blame would run a textconv program the
// attributes name, take names from a committed .mailmap and skip the commits a file the
// configuration names lists; blame here shows the file's own text and the real authors, runs
// nothing and reads no attributes. And blame keeps to what is served: an excluded path is refused
// as read_file refuses it, and a file renamed from a path not served is not followed there.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/safety/hostile_kit.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace hostile_blame_test {
namespace {

using safety::Entries;
using safety::Printable;
using safety::WriteExecutable;

// Commits what is staged as `author` on `date` (YYYY-MM-DD); returns the commit.
std::string CommitAs(TestRepo& repo, const std::string& message, const std::string& author,
                     const std::string& date) {
  auto env = repo.Env();
  env["GIT_AUTHOR_NAME"] = author;
  env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date + "T12:00:00Z";
  EXPECT_EQ(Run({"git", "add", "-A"}, repo.path(), env).status, 0);
  const CommandResult r = Run({"git", "commit", "-q", "-m", message}, repo.path(), env);
  EXPECT_EQ(r.status, 0) << r.err;
  return repo.Rev("HEAD");
}

// A repository whose attributes, configuration, .mailmap and ignore list would each change what
// git blame shows, or run a program that leaves a marker file.
struct BlameTrapRepo {
  TempDir tmp;
  std::string markers = tmp / "markers";
  TestRepo repo{tmp / "shop"};
  std::string program, first, second;

  BlameTrapRepo() {
    std::filesystem::create_directories(markers);
    program = tmp / "hostile.sh";
    WriteExecutable(program, "#!/bin/sh\n: > \"" + markers +
                                 "/$1\"\necho \"OUTPUT OF A HOSTILE PROGRAM\"\nexit 0\n");
    repo.Write(".gitattributes", "*.py diff=hostile\n");
    repo.Write(".mailmap",
               "Mallory Mapped <grace@example.com>\nMallory Mapped <ada@example.com>\n");
    repo.Write("app.py", "def total(items):\n    return sum(items)\n");
    first = CommitAs(repo, "Add the cart", "Ada Lovelace", "2026-02-01");
    repo.Write("app.py", "def total(items):\n    return sum(items or [])\n");
    second = CommitAs(repo, "Fix the total", "Grace Hopper", "2026-02-15");
    // Lists the fix, for git blame to skip.
    repo.Write(".git-blame-ignore-revs", second + "\n");
    CommitAs(repo, "Ignore the fix in blame", "Grace Hopper", "2026-02-16");
    repo.Write("mailmap.txt", "Mallory From Config <grace@example.com>\n");
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"diff.hostile.textconv", program + " textconv"},
             {"diff.hostile.command", program + " diffcommand"},
             {"diff.external", program + " external"},
             {"blame.ignoreRevsFile", ".git-blame-ignore-revs"},
             {"blame.markIgnoredLines", "true"},
             {"mailmap.file", "mailmap.txt"},
             {"core.hooksPath", tmp / "hooks"},
         }) {
      repo.Git({"config", key, value});
    }
  }
  std::vector<std::string> Markers() const { return Entries(markers); }
};

TEST(HostileBlame, NoProgramRunsAndNeitherMailmapNorIgnoreListChangesTheAnswer) {
  BlameTrapRepo r;
  ToolHarness h({Served("shop", r.repo.path())});
  auto a = h.Call("blame", R"({"repo":"shop","path":"app.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Printable(a.text));
  const auto lines = Lines(a.text);
  ASSERT_EQ(lines.size(), 5u) << a.text;
  // The file's own text, its real authors, and the fix blamed on the fix.
  EXPECT_EQ(lines[1], Short(r.first) + " 2026-02-01 Ada Lovelace — Add the cart");
  EXPECT_EQ(lines[2], "1  def total(items):");
  EXPECT_EQ(lines[3], Short(r.second) + " 2026-02-15 Grace Hopper — Fix the total");
  EXPECT_EQ(lines[4], "2      return sum(items or [])");
  EXPECT_TRUE(r.Markers().empty()) << "a program ran: " << r.Markers().front();

  // git blame itself, in the same repository, runs the textconv program, maps the authors and
  // skips the listed fix: the repository really is hostile, and blame here ignored all of it.
  const CommandResult git = r.repo.TryGit({"blame", "app.py"});
  EXPECT_TRUE(Has(git.out, "OUTPUT OF A HOSTILE PROGRAM")) << git.out << git.err;
  EXPECT_FALSE(r.Markers().empty()) << "git ran no textconv program: the repository is not hostile";
  const CommandResult mapped = r.repo.TryGit({"blame", "--no-textconv", "app.py"});
  EXPECT_TRUE(Has(mapped.out, "Mallory")) << mapped.out << mapped.err;
  EXPECT_FALSE(Has(mapped.out, Short(r.second).substr(0, 8))) << "git skipped the listed fix";
}

// libgit2 would look a diff driver up in the attributes for a file's name; the driver this
// repository's attributes name has a word pattern libgit2 cannot compile, so a diff that read
// the attributes would fail. Blame diffs every version without reading them.
TEST(HostileBlame, AttributesNamingABrokenDiffDriverChangeNothing) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write(".gitattributes", "* diff=broken\n");
  repo.Write("app.py", "one\ntwo\nthree\n");
  const std::string first = CommitAs(repo, "Add", "Ada Lovelace", "2026-02-01");
  repo.Write("app.py", "one\nTWO\nthree\n");
  const std::string second = CommitAs(repo, "Change", "Grace Hopper", "2026-02-02");
  repo.Git({"config", "diff.broken.wordregex", "("});
  repo.Git({"config", "diff.broken.xfuncname", "["});
  std::filesystem::create_directories(repo.path() + "/.git/info");
  repo.Write(".git/info/attributes", "* diff=broken\n");
  ToolHarness h({Served("shop", repo.path())});
  auto a = h.Call("blame", R"({"repo":"shop","path":"app.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_EQ(a.text, "shop · main @ " + Short(second) + " (2026-02-02) · app.py · lines 1–3 of 3\n" +
                        Short(first) + " 2026-02-01 Ada Lovelace — Add\n1  one\n" + Short(second) +
                        " 2026-02-02 Grace Hopper — Change\n2  TWO\n" + Short(first) +
                        " 2026-02-01 Ada Lovelace — Add\n3  three");
}

TEST(HostileBlame, ExcludedPathIsRefusedTheSameWhetherOrNotItExists) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("private/real.py", "secret = 1\n");
  repo.Write(".env", "TOKEN=1\n");
  repo.Write("app.py", "x\n");
  repo.Commit("Add");
  RepoConfig rc = Served("shop", repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc});
  auto real = h.Call("blame", R"({"repo":"shop","path":"private/real.py"})");
  auto none = h.Call("blame", R"({"repo":"shop","path":"private/none.py"})");
  ASSERT_TRUE(real.is_error);
  ASSERT_TRUE(none.is_error);
  EXPECT_EQ(real.text, "path `private/real.py` is outside what this server serves in `shop`");
  EXPECT_EQ(none.text, "path `private/none.py` is outside what this server serves in `shop`");
  auto env = h.Call("blame", R"({"repo":"shop","path":".env"})");
  auto env2 = h.Call("blame", R"({"repo":"shop","path":"config/.env"})");
  EXPECT_EQ(env.text, "path `.env` is outside what this server serves in `shop`");
  EXPECT_EQ(env2.text, "path `config/.env` is outside what this server serves in `shop`");
}

// A file renamed from a path this server does not serve: blame stops at the rename, says so,
// and names no path it does not serve. Served whole, the same history is followed through the
// rename: the policy is what stops it.
TEST(HostileBlame, ARenameFromAPathNotServedStopsThereAndNamesNoPath) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  std::string algo, exact;
  for (int i = 1; i <= 20; ++i) algo += "step " + std::to_string(i) + " of the algorithm\n";
  for (int i = 1; i <= 5; ++i) exact += "constant " + std::to_string(i) + "\n";
  repo.Write("private/algo.py", algo);
  repo.Write("private/exact.py", exact);
  repo.Write("README.md", "shop\n");
  const std::string first = CommitAs(repo, "Write it privately", "Ada Lovelace", "2026-02-01");
  std::filesystem::create_directories(repo.path() + "/src");
  repo.Git({"mv", "private/algo.py", "src/algo.py"});
  repo.Git({"mv", "private/exact.py", "src/exact.py"});
  repo.Write("src/algo.py", "# now public\n" + algo);
  const std::string moved = CommitAs(repo, "Publish it", "Grace Hopper", "2026-02-10");

  RepoConfig rc = Served("shop", repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc, Served("whole", repo.path())});
  for (const std::string path : {"src/algo.py", "src/exact.py"}) {
    auto a = h.Call("blame", R"({"repo":"shop","path":")" + path + "\"}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_TRUE(HasNot(a.text, "private")) << a.text;
    EXPECT_TRUE(HasNot(a.text, Short(first))) << a.text;
    EXPECT_TRUE(Has(a.text, Short(moved) + " 2026-02-10 Grace Hopper — Publish it [this commit or "
                                           "older]\n"))
        << a.text;
    EXPECT_TRUE(Has(a.text,
                    "[Blame stopped early at the commits marked [this commit or older]: "
                    "the lines under them were last changed in that commit or earlier. "
                    "Why: the file came there from a path this server does not serve, "
                    "which blame does not follow.]"))
        << a.text;

    auto whole = h.Call("blame", R"({"repo":"whole","path":")" + path + "\"}");
    ASSERT_FALSE(whole.is_error) << whole.text;
    EXPECT_TRUE(Has(whole.text, Short(first) + " 2026-02-01 Ada Lovelace — Write it privately "
                                               "[path then: private/"))
        << whole.text;
    EXPECT_TRUE(HasNot(whole.text, "this commit or older")) << whole.text;
  }
}

// A rename between served paths made beside the deletion of a file this server does not serve,
// of a size that could make it the source: which is the source cannot be told without reading
// the file not served, so blame stops there rather than read it.
TEST(HostileBlame, ARenameBesideADeletedFileNotServedStopsRatherThanReadIt) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  std::string cart, hidden;
  for (int i = 1; i <= 20; ++i) cart += "cart line " + std::to_string(i) + "\n";
  for (int i = 1; i <= 20; ++i) hidden += "hidden line " + std::to_string(i) + "\n";
  repo.Write("src/cart.py", cart);
  repo.Write("private/notes.txt", hidden);
  const std::string first = CommitAs(repo, "Add", "Ada Lovelace", "2026-02-01");
  repo.Git({"mv", "src/cart.py", "src/basket.py"});
  repo.Git({"rm", "-q", "private/notes.txt"});
  repo.Write("src/basket.py", cart + "one more\n");
  const std::string moved = CommitAs(repo, "Rename the cart", "Grace Hopper", "2026-02-10");
  RepoConfig rc = Served("shop", repo.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc, Served("whole", repo.path())});
  auto a = h.Call("blame", R"({"repo":"shop","path":"src/basket.py"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, Short(moved) + " 2026-02-10 Grace Hopper — Rename the cart [this "
                                         "commit or older]"))
      << a.text;
  EXPECT_TRUE(HasNot(a.text, "private")) << a.text;
  // Served whole, the rename is found and followed.
  auto whole = h.Call("blame", R"({"repo":"whole","path":"src/basket.py"})");
  EXPECT_TRUE(Has(whole.text, Short(first) + " 2026-02-01 Ada Lovelace — Add [path then: "
                                             "src/cart.py]"))
      << whole.text;
}

}  // namespace
}  // namespace hostile_blame_test
}  // namespace rr::testing
