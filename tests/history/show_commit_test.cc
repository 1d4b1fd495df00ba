// show_commit on repositories the tests build: the commit's header and message, its changed
// files compared with `git show --numstat`, its hunks compared with git's own patch, merges,
// root and empty commits, renames, binary files, submodules, narrowing, files_only, the cut and
// errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/history/history_support.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace show_commit_test {
namespace {

using history::CountsOf;
using history::DiffPart;
using history::HunksOf;
using history::KindsOf;
using history::ListOf;
using history::NameStatus;
using history::Numstat;

std::string Show(ToolHarness& h, const std::string& commit, const std::string& more = "") {
  auto a = h.Call("show_commit", R"({"repo":"shop","commit":")" + commit + "\"" + more + "}");
  EXPECT_FALSE(a.is_error) << a.text;
  return a.text;
}

// git's own view of a commit's changes against its first parent (or nothing, for a root).
std::string GitNumstat(const TestRepo& r, const std::string& commit) {
  return r.Git({"show", "--numstat", "--format=", "--no-renames", "--first-parent", "-m", commit});
}

std::string GitNameStatus(const TestRepo& r, const std::string& commit) {
  return r.Git(
      {"show", "--name-status", "--format=", "--no-renames", "--first-parent", "-m", commit});
}

// Many lines, so that changes far apart make hunks of their own.
std::string Numbered(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

TEST(ShowCommit, HeaderNamesTheCommitItsAuthorParentsAndWholeMessage) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("README.md", "shop\n");
  const std::string first = r.Commit("First");
  r.Write("src/cart.py", "def total(items):\n    return 0\n");
  const std::string second = r.Commit(
      "Add the cart\n\nThe cart sums its items.\n\tIndented with a tab.\nAnd a \x1b[31mred\x1b[0m "
      "word.\n");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, "main");
  const auto lines = Lines(a);
  ASSERT_GE(lines.size(), 12u) << a;
  EXPECT_EQ(lines[0], "shop · main @ " + Short(second) + " (2026-01-02) — 1 changed file");
  EXPECT_EQ(lines[1], "commit " + second);
  EXPECT_EQ(lines[2], "Author: Grace Hopper <grace@example.com> 2026-01-02 12:00:00 +0000");
  EXPECT_EQ(lines[3], "Parents: " + Short(first));  // no Committer line: the same person and time
  EXPECT_EQ(lines[4], "");
  EXPECT_EQ(lines[5], "    Add the cart");
  EXPECT_EQ(lines[6], "    ");
  EXPECT_EQ(lines[7], "    The cart sums its items.");
  EXPECT_EQ(lines[8], "    \tIndented with a tab.");
  EXPECT_EQ(lines[9], "    And a \\e[31mred\\e[0m word.");  // a terminal's colours, escaped
  EXPECT_EQ(lines[10], "");
  EXPECT_EQ(lines[11], "A  src/cart.py  +2 -0");
  // By id, short or full, and by any ref.
  for (const std::string& ref :
       {second, second.substr(0, 7), std::string("main~0"), std::string("HEAD")}) {
    EXPECT_TRUE(Has(Show(h, ref), "\ncommit " + second + "\n")) << ref;
  }
  EXPECT_TRUE(Has(Show(h, "main~1"), "Parents: none — the first commit"));
}

TEST(ShowCommit, CommitterIsShownOnlyWhereItDiffers) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  const std::string first = r.Commit("First");
  r.Write("a.txt", "b\n");
  r.Git({"add", "-A"});
  auto env = r.Env();
  env["GIT_COMMITTER_NAME"] = "Linus Torvalds";
  env["GIT_COMMITTER_EMAIL"] = "linus@example.org";
  env["GIT_COMMITTER_DATE"] = "2026-02-03T04:05:06+0130";
  auto c = rr::testing::Run({"git", "commit", "-q", "-m", "Applied"}, r.path(), env);
  ASSERT_EQ(c.status, 0) << c.err;
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, "main");
  EXPECT_TRUE(Has(a,
                  "\nAuthor: Grace Hopper <grace@example.com> 2026-01-02 12:00:00 +0000\n"
                  "Committer: Linus Torvalds <linus@example.org> 2026-02-03 04:05:06 +0130\n"
                  "Parents: " +
                      Short(first) + "\n"));
  EXPECT_TRUE(HasNot(Show(h, "main~1"), "Committer:"));
}

TEST(ShowCommit, AddedModifiedDeletedAndTypeChangedFilesAreCountedAsGitCountsThem) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("src/cart.py", Numbered(1, 40));
  r.Write("src/old.py", "old\nfile\n");
  r.Write("run.sh", "echo run\n");
  r.Write("link-me", "a file\nthat becomes a link\n");
  r.Write("docs/guide.md", "guide\n");
  r.Write("plan", "a file\nthat becomes a folder\n");
  r.Commit("First");
  std::filesystem::remove(std::filesystem::path(r.path()) / "plan");
  r.Write("plan/steps.md", "1. a folder now\n");
  r.Write("src/cart.py",
          Numbered(1, 3) + "changed\n" + Numbered(5, 30) + "added\n" + Numbered(31, 40));
  std::filesystem::remove(std::filesystem::path(r.path()) / "src/old.py");
  r.Write("src/new.py", "new\n");
  std::filesystem::permissions(std::filesystem::path(r.path()) / "run.sh",
                               std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  std::filesystem::remove(std::filesystem::path(r.path()) / "link-me");
  AddSymlink(r, "link-me", "docs/guide.md");
  const std::string c = r.Commit("Second");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  EXPECT_EQ(CountsOf(a), Numstat(GitNumstat(r, c))) << a;
  EXPECT_EQ(KindsOf(a), NameStatus(GitNameStatus(r, c))) << a;
  const auto list = ListOf(a);
  EXPECT_EQ(list.at("link-me").note, "  (file → link)");
  EXPECT_EQ(list.at("run.sh").note, "  (mode 100644 → 100755)");
  EXPECT_TRUE(Has(a, "\nA  src/new.py  +1 -0\nD  src/old.py  +0 -2\n")) << "in path order: " << a;
  // A file replaced by a folder: the file deleted, the folder's files added, as git lists them.
  EXPECT_TRUE(Has(a, "\nD  plan  +0 -2\nA  plan/steps.md  +1 -0\n")) << a;
  // Each file's hunks are git's, and its headers too (but for the ids' length).
  const std::string patch =
      r.Git({"show", "--format=", "--no-renames", "--no-ext-diff", "--no-textconv", "-U3", c});
  for (const std::string p :
       {"src/cart.py", "src/new.py", "src/old.py", "link-me", "plan", "plan/steps.md"}) {
    EXPECT_EQ(HunksOf(DiffPart(a), p), HunksOf(patch, p)) << p << "\n" << a;
  }
  // A type change is a deletion and an addition, as git writes it; a mode change has no hunk.
  EXPECT_TRUE(Has(a, "diff --git a/link-me b/link-me\ndeleted file mode 100644\n"));
  EXPECT_TRUE(Has(a, "diff --git a/link-me b/link-me\nnew file mode 120000\n"));
  EXPECT_TRUE(Has(a, "+docs/guide.md\n\\ No newline at end of file\n"));
  EXPECT_TRUE(Has(a, "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"));
}

TEST(ShowCommit, HunksAreGitsOwn) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  // Changes far apart and close together, at the start and the end, lines without a final
  // line break, function names for the hunk headers, and a block where git's indent heuristic
  // decides where the hunk's edges go.
  std::string code;
  for (int f = 1; f <= 6; ++f) {
    code += "def function_" + std::to_string(f) + "(x):\n";
    for (int i = 1; i <= 8; ++i) code += "    step_" + std::to_string(i) + "(x)\n";
    code += "\n";
  }
  r.Write("src/app.py", code);
  r.Write("notes.txt", Numbered(1, 20));
  r.Write("tail.txt", "one\ntwo\nno final break");
  r.Write("gains-break.txt", "one\ntwo");
  r.Write("blocks.c", "int a() {\n    return 1;\n}\n\nint b() {\n    return 2;\n}\n");
  r.Commit("First");
  std::string changed = code;
  changed.replace(changed.find("    step_3(x)\n"), 14, "    step_3(x, y)\n");
  changed.replace(changed.find("def function_5(x):\n"), 0, "def inserted(x):\n    pass\n\n");
  changed.replace(changed.rfind("    step_8(x)\n"), 14, "");
  r.Write("src/app.py", changed);
  r.Write("notes.txt",
          "line 0\n" + Numbered(1, 4) + "line 4b\n" + Numbered(5, 6) + Numbered(8, 19));
  r.Write("tail.txt", "one\ntwo\nstill no final break");
  r.Write("gains-break.txt", "one\ntwo\n");
  r.Write("blocks.c",
          "int a() {\n    return 1;\n}\n\nint c() {\n    return 3;\n}\n\nint b() {\n    return "
          "2;\n}\n");
  const std::string c = r.Commit("Second");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  const std::string patch =
      r.Git({"show", "--format=", "--no-ext-diff", "--no-textconv", "-U3", c});
  for (const std::string p :
       {"src/app.py", "notes.txt", "tail.txt", "gains-break.txt", "blocks.c"}) {
    const auto ours = HunksOf(DiffPart(a), p);
    EXPECT_FALSE(ours.empty()) << p;
    EXPECT_EQ(ours, HunksOf(patch, p)) << p << "\n" << a << "\n---- git:\n" << patch;
  }
  EXPECT_TRUE(Has(a, " @@ def function_4(x):\n")) << a;  // a hunk header with its function
  EXPECT_EQ(CountsOf(a), Numstat(GitNumstat(r, c)));
}

TEST(ShowCommit, RootCommitAddsEverythingItHolds) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("README.md", "shop\n");
  r.Write("src/cart.py", "a\nb\nc\n");
  r.Write("empty.txt", "");
  const std::string c = r.Commit("First");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  EXPECT_TRUE(Has(a, "Parents: none — the first commit, shown as adding everything it holds\n"));
  EXPECT_EQ(CountsOf(a), Numstat(r.Git({"show", "--numstat", "--format=", c})));
  EXPECT_TRUE(Has(a, "\nA  README.md  +1 -0\nA  empty.txt  +0 -0\nA  src/cart.py  +3 -0\n")) << a;
  // An empty file added: its header and no hunk, as git writes it.
  EXPECT_TRUE(Has(a,
                  "diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex "
                  "000000000000..e69de29bb2d1\ndiff --git a/src/cart.py"))
      << a;
  EXPECT_EQ(HunksOf(DiffPart(a), "src/cart.py"),
            HunksOf(r.Git({"show", "--format=", c}), "src/cart.py"));
}

TEST(ShowCommit, EmptyCommitChangesNothing) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  r.Commit("First");
  const std::string c = r.Commit("Nothing changed");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  EXPECT_EQ(Lines(a)[0], "shop · " + c + " @ " + Short(c) + " (2026-01-02) — 0 changed files");
  EXPECT_TRUE(Has(a, "    Nothing changed\n\n(no files changed)")) << a;
  EXPECT_TRUE(HasNot(a, "diff --git"));
}

TEST(ShowCommit, MergeIsShownAgainstItsFirstParent) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", Numbered(1, 10));
  r.Write("b.txt", "b\n");
  r.Commit("First");
  r.Git({"checkout", "-q", "-b", "feature"});
  r.Write("feature.txt", "feature\n");
  r.Write("a.txt", Numbered(1, 9) + "line 10 on feature\n");
  const std::string feature = r.Commit("On feature");
  r.Git({"checkout", "-q", "main"});
  r.Write("b.txt", "b on main\n");
  const std::string main_tip = r.Commit("On main");
  r.Git({"merge", "-q", "--no-ff", "-m", "Merge feature", "feature"});
  const std::string merge = r.Rev("HEAD");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, "main");
  EXPECT_TRUE(Has(a, "\nParents: " + Short(main_tip) + ", " + Short(feature) +
                         " — a merge, shown against its first parent " + Short(main_tip) +
                         " (what it brought in)\n"))
      << a;
  // What the merge brought into main: the feature's changes, not main's own.
  EXPECT_EQ(CountsOf(a), Numstat(r.Git({"diff", "--numstat", merge + "^1", merge})));
  EXPECT_EQ(CountsOf(a).size(), 2u) << a;
  EXPECT_EQ(HunksOf(DiffPart(a), "a.txt"), HunksOf(r.Git({"diff", merge + "^1", merge}), "a.txt"));
}

TEST(ShowCommit, OctopusMergeIsShownAgainstItsFirstParent) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("base.txt", "base\n");
  r.Commit("First");
  std::vector<std::string> tips;
  for (const std::string b : {"one", "two", "three"}) {
    r.Git({"checkout", "-q", "-b", b, "main"});
    r.Write(b + ".txt", b + "\n");
    tips.push_back(r.Commit("On " + b));
  }
  r.Git({"checkout", "-q", "main"});
  r.Write("main.txt", "main\n");
  const std::string main_tip = r.Commit("On main");
  r.Git({"merge", "-q", "--no-ff", "-m", "Octopus", "one", "two", "three"});
  const std::string merge = r.Rev("HEAD");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, merge);
  EXPECT_TRUE(Has(a, "Parents: " + Short(main_tip) + ", " + Short(tips[0]) + ", " + Short(tips[1]) +
                         ", " + Short(tips[2]) + " — a merge"))
      << a;
  EXPECT_EQ(CountsOf(a), Numstat(r.Git({"diff", "--numstat", merge + "^1", merge})));
  EXPECT_EQ(KindsOf(a),
            (std::map<std::string, char>{{"one.txt", 'A'}, {"three.txt", 'A'}, {"two.txt", 'A'}}));
}

TEST(ShowCommit, RenameIsADeletionAndAnAddition) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("src/cart.py", Numbered(1, 30));
  r.Commit("First");
  r.Git({"mv", "src/cart.py", "src/basket.py"});
  const std::string c = r.Commit("Rename the cart");
  // git itself finds the rename; asked not to, it lists what this server lists.
  EXPECT_TRUE(Has(r.Git({"show", "--name-status", "--format=", c}), "R100"));
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  EXPECT_EQ(KindsOf(a), NameStatus(GitNameStatus(r, c)));
  EXPECT_TRUE(Has(a, "\nA  src/basket.py  +30 -0\nD  src/cart.py  +0 -30\n")) << a;
}

TEST(ShowCommit, BinaryFilesAreCountedAsGitCountsThem) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("logo.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  r.Write("late-nul.txt", std::string(9000, 'a') + std::string(1, '\0') + "\n");
  r.Commit("First");
  r.Write("logo.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR2", 17));
  r.Write("late-nul.txt", std::string(9000, 'b') + std::string(1, '\0') + "\n");
  r.Write("new.bin", std::string("\0\1\2", 3));
  const std::string c = r.Commit("Second");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c);
  // A NUL past the first 8,000 bytes does not make a file binary (git's rule).
  EXPECT_EQ(CountsOf(a), Numstat(GitNumstat(r, c))) << a;
  EXPECT_EQ(ListOf(a).at("logo.png").counts, "-\t-");
  EXPECT_TRUE(Has(a, "\nM  logo.png  binary\n"));
  EXPECT_TRUE(Has(a, "\nBinary files a/logo.png and b/logo.png differ\n"));
  EXPECT_TRUE(Has(a, "\nBinary files /dev/null and b/new.bin differ"));
}

TEST(ShowCommit, SubmoduleChangeIsShownAsGitShowsIt) {
  TempDir tmp;
  TestRepo lib(tmp / "lib");
  lib.Write("lib.c", "int x;\n");
  const std::string v1 = lib.Commit("v1");
  lib.Write("lib.c", "int y;\n");
  const std::string v2 = lib.Commit("v2");
  TestRepo r(tmp / "shop");
  r.Write("README.md", "shop\n");
  AddGitlink(r, "vendor/lib", v1);
  const std::string c1 = r.Commit("Add the library");
  AddGitlink(r, "vendor/lib", v2);
  const std::string c2 = r.Commit("Bump the library");
  ToolHarness h({Served("shop", r.path())});
  const std::string added = Show(h, c1);
  EXPECT_TRUE(Has(added, "\nA  vendor/lib  +1 -0\n")) << added;
  EXPECT_TRUE(Has(added, "new file mode 160000\n")) << added;
  EXPECT_TRUE(Has(added, "\n+Subproject commit " + v1)) << added;
  const std::string bumped = Show(h, c2);
  EXPECT_EQ(CountsOf(bumped), Numstat(GitNumstat(r, c2))) << bumped;
  EXPECT_EQ(HunksOf(DiffPart(bumped), "vendor/lib"),
            HunksOf(r.Git({"show", "--format=", c2}), "vendor/lib"));
  EXPECT_TRUE(Has(bumped, "\n-Subproject commit " + v1 + "\n+Subproject commit " + v2));
}

TEST(ShowCommit, PathNarrowsToAFileOrAFolder) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("src/cart.py", "a\n");
  r.Write("src/api/routes.py", "a\n");
  r.Write("src-other/x.py", "a\n");
  r.Write("docs/guide.md", "a\n");
  r.Commit("First");
  for (const std::string p :
       {"src/cart.py", "src/api/routes.py", "src-other/x.py", "docs/guide.md"}) {
    r.Write(p, "b\n");
  }
  const std::string c = r.Commit("Second");
  ToolHarness h({Served("shop", r.path())});
  auto kinds = [&](const std::string& path) {
    return KindsOf(Show(h, c, R"(,"path":")" + path + "\""));
  };
  using Kinds = std::map<std::string, char>;
  EXPECT_EQ(kinds("src"), (Kinds{{"src/api/routes.py", 'M'}, {"src/cart.py", 'M'}}));
  EXPECT_EQ(kinds("/src/api/"), (Kinds{{"src/api/routes.py", 'M'}}));
  EXPECT_EQ(kinds("src/cart.py"), (Kinds{{"src/cart.py", 'M'}}));
  const std::string a = Show(h, c, R"(,"path":"src/api")");
  EXPECT_EQ(Lines(a)[0],
            "shop · " + c + " @ " + Short(c) + " (2026-01-02) · src/api — 1 changed file");
  EXPECT_TRUE(HasNot(a, "cart.py"));
  // A served path that did not change, or is not there at all: nothing changed under it.
  EXPECT_TRUE(Has(Show(h, c, R"(,"path":"README.md")"), "\n(no files changed under `README.md`)"));
  EXPECT_TRUE(Has(Show(h, c, R"(,"path":"nowhere/at/all")"), "(no files changed under"));
}

TEST(ShowCommit, FilesOnlyListsTheFilesWithoutTheDiff) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  r.Commit("First");
  r.Write("a.txt", "b\n");
  r.Write("b.txt", "b\n");
  const std::string c = r.Commit("Second");
  ToolHarness h({Served("shop", r.path())});
  const std::string a = Show(h, c, R"(,"files_only":true)");
  EXPECT_TRUE(Has(a, "\nM  a.txt  +1 -1\nA  b.txt  +1 -0")) << a;
  EXPECT_TRUE(HasNot(a, "diff --git"));
  EXPECT_TRUE(HasNot(a, "@@"));
  EXPECT_TRUE(Has(Show(h, c, R"(,"files_only":false)"), "diff --git a/a.txt b/a.txt\n"));
}

TEST(ShowCommit, ALongDiffIsCutWithTheFileItStoppedInAndHowToNarrow) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a/first.txt", "x\n");
  r.Commit("First");
  for (int i = 0; i < 30; ++i) {
    r.Write("a/file-" + std::to_string(100 + i) + ".txt", Numbered(1, 200));
  }
  const std::string c = r.Commit("Many lines");
  ToolHarness h({Served("shop", r.path())}, 6000);
  const std::string a = Show(h, c);
  EXPECT_LE(CodePointsOf(a), 6000u);
  EXPECT_TRUE(Has(Lines(a)[0], "— 30 changed files")) << a;
  // Every file is listed with its count; the diff is cut, and the note says where and how on.
  EXPECT_EQ(CountsOf(a).size(), 30u) << a;
  EXPECT_EQ(CountsOf(a).at("a/file-129.txt"), "200\t0");
  const std::string last = Lines(a).back();
  EXPECT_TRUE(Has(last, "[the diff was cut in `a/file-1")) << last;
  EXPECT_TRUE(
      Has(last, "more files after it are not shown — narrow with path, e.g. path: \"a/file-"))
      << last;
  EXPECT_TRUE(Has(last, "files_only: true")) << last;

  // A list longer than the answer: cut too, with the folder to narrow to.
  ToolHarness tiny({Served("shop", r.path())}, 700);
  const std::string t = tiny.Call("show_commit", R"({"repo":"shop","commit":"main"})").text;
  EXPECT_LE(CodePointsOf(t), 700u);
  EXPECT_TRUE(Has(Lines(t).back(),
                  "more changed files, and the diff, not shown — narrow with "
                  "path, e.g. path: \"a\"]"))
      << t;
}

TEST(ShowCommit, OneFilesDiffLongerThanTheAnswerPointsToTheFileItself) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("big.txt", Numbered(1, 10));
  const std::string first = r.Commit("First");
  r.Write("big.txt", Numbered(1, 2000));
  const std::string c = r.Commit("Longer");
  ToolHarness h({Served("shop", r.path())}, 6000);
  const std::string a = Show(h, c, R"(,"path":"big.txt")");
  EXPECT_LE(CodePointsOf(a), 6000u);
  EXPECT_EQ(Lines(a).back(),
            "[the diff of `big.txt` was cut: it is longer than the answer — read the file itself "
            "with read_file, at ref: \"" +
                Short(first) + "\" and ref: \"" + Short(c) + "\" (start_line pages on)]");
}

TEST(ShowCommit, AMessageLongerThanTheAnswerIsCutWithAWayToTheChanges) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  const std::string first = r.Commit("First");
  r.Write("a.txt", "b\n");
  std::string message = "Subject\n\n";
  for (int i = 0; i < 3000; ++i) message += "line " + std::to_string(i) + " of a long message\n";
  const std::string c = r.Commit(message);
  ToolHarness h({Served("shop", r.path())}, 6000);
  const std::string a = Show(h, c);
  EXPECT_LE(CodePointsOf(a), 6000u);
  EXPECT_TRUE(Has(a, "\n    line 0 of a long message\n"));
  EXPECT_EQ(Lines(a).back(),
            "[the commit's message is longer than the answer (its limit is 6,000 characters): the "
            "rest of it, the changed files and the diff are not shown — the diff tool gives them "
            "alone: base: \"" +
                Short(first) + "\", head: \"" + Short(c) + "\"]");
}

TEST(ShowCommit, ErrorsSayWhatWasWrongAndHowToAsk) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("a.txt", "a\n");
  r.Commit("First");
  ToolHarness h({Served("shop", r.path())});
  auto unknown = h.Call("show_commit", R"({"repo":"shop","commit":"no-such-branch"})");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_TRUE(Has(unknown.text, "ref `no-such-branch` is not a branch, tag or commit of `shop`"));
  auto missing = h.Call("show_commit", R"({"repo":"shop"})");
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(Has(missing.text, "argument `commit` is required")) << missing.text;
  auto option = h.Call("show_commit", R"({"repo":"shop","commit":"--output=/tmp/x"})");
  EXPECT_TRUE(option.is_error);
  EXPECT_TRUE(Has(option.text, "may not start with")) << option.text;
  auto dots = h.Call("show_commit", R"({"repo":"shop","commit":"main","path":"../etc"})");
  EXPECT_TRUE(dots.is_error);
  auto typed = h.Call("show_commit", R"({"repo":"shop","commit":"main","files_only":"yes"})");
  EXPECT_TRUE(typed.is_error);
  EXPECT_TRUE(Has(typed.text, "argument `files_only` must be true or false")) << typed.text;
  auto extra = h.Call("show_commit", R"({"repo":"shop","commit":"main","ref":"main"})");
  EXPECT_TRUE(extra.is_error);
  EXPECT_TRUE(Has(extra.text, "unknown argument `ref`")) << extra.text;
}

}  // namespace
}  // namespace show_commit_test
}  // namespace rr::testing
