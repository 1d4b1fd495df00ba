// Repositories written by an attacker, read through show_commit and diff: what is not served is
// counted and never named, a served file replaced by a folder of files not served is listed
// without its diff, narrowing to a path not served answers alike whatever is there, and no
// program, attribute or mailmap the repository names changes what a diff or a commit shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/util/json_text.h"
#include "tests/history/history_support.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_history {
namespace {

namespace fs = std::filesystem;

ToolHarness::Answer Call(ToolHarness& h, const std::string& tool, const std::string& args) {
  return h.Call(tool, R"({"repo":"shop",)" + args + "}");
}

std::string Ok(ToolHarness& h, const std::string& tool, const std::string& args) {
  auto a = Call(h, tool, args);
  EXPECT_FALSE(a.is_error) << tool << " " << args << ": " << a.text;
  return a.text;
}

TEST(HostileHistory, ChangedFilesNotServedAreCountedNeverNamed) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("src/app.py", "app\n");
  r.Write("private/plan-acquire-initech.txt", "the plan\n");
  r.Write("private/deep/salaries.csv", "a,1\n");
  r.Write("config/.env", "DB_PASSWORD=first\n");
  r.Write("notes.secret", "first\n");
  r.Write("README.md", "shop\n");
  const std::string first = r.Commit("First");
  r.Write("src/app.py", "app, changed\n");
  r.Write("private/plan-acquire-initech.txt", "the plan, changed\n");
  r.Write("private/deep/salaries.csv", "a,2\n");
  r.Write("config/.env", "DB_PASSWORD=second\n");
  r.Write("notes.secret", "second\n");
  r.Write("README.md", "shop, changed\n");
  const std::string second = r.Commit("Second");
  RepoConfig rc = Served("shop", r.path());
  rc.exclude = {"private/**", "*.secret"};
  ToolHarness h({rc});
  const std::vector<std::string> answers = {
      Ok(h, "show_commit", R"("commit":"main")"),
      Ok(h, "show_commit", R"("commit":"main","files_only":true)"),
      Ok(h, "diff", "\"base\":\"" + first + "\",\"head\":\"" + second + "\""),
      Ok(h, "diff", "\"base\":\"" + second + "\",\"head\":\"" + first + "\"")};
  for (const auto& a : answers) {
    EXPECT_EQ(history::KindsOf(a),
              (std::map<std::string, char>{{"README.md", 'M'}, {"src/app.py", 'M'}}))
        << a;
    // The excluded folder was never opened: its two files are one folder's changes.
    EXPECT_TRUE(Has(a,
                    "\n[2 changed files and changes in 1 folder are not shown: this server "
                    "doesn't serve them]"))
        << a;
    for (const std::string never :
         {"private", "initech", "salaries", ".env", "DB_PASSWORD", "notes.secret", "second\n"}) {
      EXPECT_FALSE(Has(a, never)) << never << " in\n" << a;
    }
  }
  // Served only in part by include: what include leaves out is counted the same way.
  RepoConfig only_src = Served("shop", r.path());
  only_src.include = {"src/**"};
  ToolHarness hs({only_src});
  const std::string a = Ok(hs, "show_commit", R"("commit":"main")");
  EXPECT_EQ(history::KindsOf(a), (std::map<std::string, char>{{"src/app.py", 'M'}})) << a;
  EXPECT_TRUE(Has(a, "[2 changed files and changes in 2 folders are not shown")) << a;
  EXPECT_FALSE(Has(a, "README")) << a;
}

TEST(HostileHistory, AServedFileReplacedByAFolderOfFilesNotServedIsListedWithoutItsDiff) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("config", "mode: test\n");
  r.Write("app.py", "app\n");
  const std::string c1 = r.Commit("A config file");
  fs::remove(fs::path(r.path()) / "config");
  r.Write("config/prod.env", "DB_PASSWORD=very-secret-value\n");
  const std::string c2 = r.Commit("Config becomes a folder of credentials");
  fs::remove_all(fs::path(r.path()) / "config");
  r.Write("config", "mode: back\n");
  const std::string c3 = r.Commit("A config file again");
  // git's own diff of the path `config` brings the folder's file along: the leak this prevents.
  EXPECT_TRUE(Has(r.Git({"show", "--format=", c2, "--", "config"}), "very-secret-value"));
  ToolHarness h({Served("shop", r.path())});
  for (const std::string& a :
       {Ok(h, "show_commit", "\"commit\":\"" + c2 + "\""),
        Ok(h, "show_commit", "\"commit\":\"" + c2 + "\",\"path\":\"config\""),
        Ok(h, "diff", "\"base\":\"" + c1 + "\",\"head\":\"" + c2 + "\"")}) {
    EXPECT_TRUE(Has(a,
                    "\nD  config  (replaced by a folder of files this server doesn't serve: "
                    "not compared)\n[1 changed file is not shown: this server doesn't serve "
                    "it]"))
        << a;
    EXPECT_FALSE(Has(a, "diff --git")) << a;
    EXPECT_FALSE(Has(a, "mode: test")) << a;
    EXPECT_FALSE(Has(a, "prod.env")) << a;
    EXPECT_FALSE(Has(a, "very-secret-value")) << a;
  }
  // The reverse: the folder replaced by a served file.
  for (const std::string& a : {Ok(h, "show_commit", "\"commit\":\"" + c3 + "\""),
                               Ok(h, "diff", "\"base\":\"" + c2 + "\",\"head\":\"" + c3 + "\"")}) {
    EXPECT_TRUE(Has(a,
                    "\nA  config  (replaced a folder of files this server doesn't serve: not "
                    "compared)\n[1 changed file is not shown"))
        << a;
    EXPECT_FALSE(Has(a, "mode: back")) << a;
    EXPECT_FALSE(Has(a, "prod.env")) << a;
  }
  // A folder that holds something served is a deletion and additions with their diffs, as in git.
  fs::remove(fs::path(r.path()) / "config");
  r.Write("config/app.yml", "served: yes\n");
  r.Write("config/prod.env", "DB_PASSWORD=very-secret-value\n");
  const std::string c5 = r.Commit("Config becomes a folder holding something served");
  const std::string a = Ok(h, "show_commit", "\"commit\":\"" + c5 + "\"");
  EXPECT_EQ(history::KindsOf(a),
            (std::map<std::string, char>{{"config", 'D'}, {"config/app.yml", 'A'}}))
      << a;
  EXPECT_TRUE(Has(a, "\n-mode: back")) << a;
  EXPECT_TRUE(Has(a, "\n+served: yes")) << a;
  EXPECT_FALSE(Has(a, "very-secret-value")) << a;
  EXPECT_TRUE(Has(a, "[1 changed file is not shown")) << a;
}

TEST(HostileHistory, NarrowingToAPathNotServedAnswersAlikeWhetherOrNotItExistsOrChanged) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("src/app.py", "app\n");
  r.Write("private/changed.txt", "one\n");
  r.Write("private/unchanged.txt", "same\n");
  r.Write("deploy/.env", "A=1\n");
  const std::string first = r.Commit("First");
  r.Write("private/changed.txt", "two\n");
  r.Write("deploy/.env", "A=2\n");
  const std::string second = r.Commit("Second");
  RepoConfig rc = Served("shop", r.path());
  rc.exclude = {"private/**"};
  ToolHarness h({rc});
  // Changed, unchanged, absent; a folder; credential files that exist or not.
  const std::vector<std::string> paths = {
      "private",     "private/changed.txt", "private/unchanged.txt", "private/absent.txt",
      "deploy/.env", "other/.env"};
  std::vector<std::string> calls;
  for (const auto& p : paths) {
    const std::string at = ",\"path\":" + JsonQuote(p);
    calls = {"show_commit|\"commit\":\"" + second + "\"" + at,
             "show_commit|\"commit\":\"" + second + "\",\"files_only\":true" + at,
             "diff|\"base\":\"" + first + "\",\"head\":\"" + second + "\"" + at,
             "diff|\"base\":\"" + first + "\",\"since_fork\":true" + at};
    for (const auto& c : calls) {
      const size_t bar = c.find('|');
      auto a = Call(h, c.substr(0, bar), c.substr(bar + 1));
      EXPECT_TRUE(a.is_error) << c << ": " << a.text;
      // The same words for every path, the path's name aside.
      EXPECT_EQ(a.text, "path `" + p + "` is outside what this server serves in `shop`") << c;
    }
  }
  // Judged before the commit is looked up: an unknown commit answers the same.
  auto unknown = Call(h, "show_commit", R"("commit":"no-such-commit","path":"private/x")");
  EXPECT_EQ(unknown.text, "path `private/x` is outside what this server serves in `shop`");
}

// A repository whose configuration and attributes name programs and drivers git would use while
// diffing, each program leaving a marker file when it runs, and a .mailmap renaming its author.
struct DriversRepo {
  TempDir tmp;
  std::string markers = tmp / "markers";
  TestRepo repo{tmp / "shop"};
  std::string first, second;

  DriversRepo() {
    fs::create_directories(markers);
    const std::string p = tmp / "tools/hostile.sh";  // outside the repository: never committed
    WriteExecutable(
        p, "#!/bin/sh\n: > \"" + markers + "/$1\"\necho \"OUTPUT OF A HOSTILE PROGRAM\"\nexit 0\n");
    repo.Write(".gitattributes",
               "*.txt diff=hostile\n*.md -diff\n*.c diff=cfunc\n*.dat diff=external\n");
    repo.Write(".mailmap", "Mallory <mallory@evil.example> Grace Hopper <grace@example.com>\n");
    repo.Write("notes.txt", "first version\n");
    repo.Write("readme.md", "first readme\n");
    repo.Write("data.dat", "first data\n");
    std::string code = "HOSTILE function(void)\n{\n";
    for (int i = 0; i < 10; ++i) code += "  step(" + std::to_string(i) + ");\n";
    code += "}\n\nstatic int helper(void)\n{\n";
    for (int i = 0; i < 10; ++i) code += "  work(" + std::to_string(i) + ");\n";
    code += "}\n";
    repo.Write("code.c", code);
    first = repo.Commit("First");
    repo.Write("notes.txt", "second version\n");
    repo.Write("readme.md", "second readme\n");
    repo.Write("data.dat", "second data\n");
    code.replace(code.find("  work(8);"), 10, "  work(80);");
    repo.Write("code.c", code);
    second = repo.Commit("Second");
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"diff.external", p + " external"},
             {"diff.hostile.textconv", p + " textconv"},
             {"diff.hostile.command", p + " command"},
             {"diff.external.command", p + " driver"},
             {"diff.cfunc.xfuncname", "^HOSTILE.*$"},
             {"log.mailmap", "true"},
         }) {
      repo.Git({"config", key, value});
    }
  }
};

TEST(HostileHistory, NoProgramOrAttributeTheRepositoryNamesChangesADiff) {
  DriversRepo d;
  const auto before = Snapshot(d.repo.path());
  ToolHarness h({Served("shop", d.repo.path())});
  std::vector<std::string> answers;
  for (const std::string& args : std::vector<std::string>{
           "\"commit\":\"main\"", "\"commit\":\"main\",\"files_only\":true",
           "\"commit\":\"main\",\"path\":\"notes.txt\"", "\"commit\":\"" + d.first + "\""}) {
    answers.push_back(Ok(h, "show_commit", args));
  }
  for (const std::string args : {"\"base\":\"main~1\"", "\"base\":\"main~1\",\"since_fork\":true",
                                 "\"base\":\"main~1\",\"files_only\":true"}) {
    answers.push_back(Ok(h, "diff", args));
  }
  for (const auto& a : answers) {
    EXPECT_TRUE(Printable(a));
    EXPECT_FALSE(Has(a, "OUTPUT OF A HOSTILE PROGRAM")) << a;
    EXPECT_FALSE(Has(a, "Binary files")) << a;  // not `-diff`: readme.md is text
  }
  EXPECT_TRUE(Entries(d.markers).empty()) << "a program ran: " << Entries(d.markers).front();
  EXPECT_EQ(Snapshot(d.repo.path()), before) << "something was written in the repository";
  // The files' own text, and the hunk header by git's default rule (not the driver's pattern).
  const std::string& full = answers[0];
  EXPECT_TRUE(Has(full, "\n-first version\n+second version")) << full;
  EXPECT_TRUE(Has(full, "\n-first readme\n+second readme")) << full;
  EXPECT_TRUE(Has(full, "\n-first data\n+second data")) << full;
  EXPECT_TRUE(Has(full, " @@ static int helper(void)\n")) << full;
  EXPECT_TRUE(Has(full, "M  readme.md  +1 -1")) << full;

  // git itself runs the programs and applies the drivers on the same repository: the
  // repository really is hostile, and the protection is what kept them out of the answers.
  const std::string ext = d.repo.Git({"diff", "main~1", "main"});
  EXPECT_TRUE(Has(ext, "OUTPUT OF A HOSTILE PROGRAM"));
  const std::string own = d.repo.Git({"diff", "--no-ext-diff", "main~1", "main"});
  EXPECT_TRUE(Has(own, "Binary files a/readme.md and b/readme.md differ")) << own;
  EXPECT_TRUE(Has(own, " @@ HOSTILE function(void)")) << own;
  EXPECT_FALSE(Entries(d.markers).empty());
}

TEST(HostileHistory, AMailmapDoesNotRenameTheAuthor) {
  DriversRepo d;
  // git applies the committed .mailmap when it shows the commit.
  EXPECT_EQ(d.repo.Git({"show", "-s", "--format=%aN <%aE>", "main"}),
            "Mallory <mallory@evil.example>");
  ToolHarness h({Served("shop", d.repo.path())});
  const std::string a = Ok(h, "show_commit", R"("commit":"main")");
  EXPECT_TRUE(Has(a, "\nAuthor: Grace Hopper <grace@example.com> 2026-01-02 12:00:00 +0000\n"))
      << a;
  EXPECT_FALSE(Has(a, "Mallory")) << a;
}

}  // namespace
}  // namespace rr::testing::safety::hostile_history
