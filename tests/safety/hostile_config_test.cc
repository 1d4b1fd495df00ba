// Repositories written by an attacker: configuration and attributes naming programs. Git would
// run each of them while reading (status, diff, cat-file --textconv / --filters, commit); this
// server runs none, and shows a file's committed bytes, never a filter's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_config {
namespace {

namespace fs = std::filesystem;

const char* const kHooks[] = {
    "pre-commit",   "commit-msg",        "post-commit",           "post-checkout",
    "post-merge",   "post-index-change", "reference-transaction", "pre-auto-gc",
    "post-rewrite", "pre-push",          "fsmonitor-watchman",    "push-to-checkout"};

// A repository whose configuration, attributes, hooks and included configuration name a program
// that leaves a marker file (markers/<what>) each time it runs.
struct ProgramsRepo {
  TempDir tmp;
  std::string markers = tmp / "markers";
  TestRepo repo{tmp / "shop"};
  std::string program;

  ProgramsRepo() {
    fs::create_directories(markers);
    program = repo.path() + "/tools/hostile.sh";
    // The program prints something a reader would notice, so its output can't pass for the file.
    WriteExecutable(program, "#!/bin/sh\n: > \"" + markers +
                                 "/$1\"\necho \"OUTPUT OF A HOSTILE PROGRAM\"\nexit 0\n");
    for (const char* hook : kHooks) {
      WriteExecutable(repo.path() + "/hooks/" + hook,
                      "#!/bin/sh\n: > \"" + markers + "/hook-" + hook + "\"\nexit 0\n");
    }
    // git runs gpg.program without a shell: a program of its own, taking no argument.
    WriteExecutable(repo.path() + "/tools/sign",
                    "#!/bin/sh\n: > \"" + markers + "/gpg\"\nexit 1\n");
    const std::string p = program;
    repo.Write("included.cfg", "[core]\n\tsshCommand = " + p + " sshCommand\n\taskPass = " + p +
                                   " askPass\n\tpager = " + p + " pager\n\teditor = " + p +
                                   " editor\n[gpg]\n\tprogram = " + repo.path() +
                                   "/tools/sign\n[commit]\n\tgpgSign = true\n[credential]\n"
                                   "\thelper = !" +
                                   p + " credential\n[log]\n\tshowSignature = true\n");
    repo.Write(".gitattributes",
               "*.txt diff=hostile filter=hostile ident text eol=crlf\n"
               "*.dat filter=hostileproc diff=hostile\n");
    repo.Write("notes.txt", "first version\n");
    repo.Write("data.dat", "raw data\n");
    repo.Write("plain.md", "one\n");
    repo.Commit("First");
    repo.Write("notes.txt", "raw committed text $Id$\n");
    repo.Write("plain.md", "two\n");
    repo.Commit("Second");
    // Set after committing: git itself would run them while committing.
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"core.fsmonitor", p + " fsmonitor"},
             {"core.hooksPath", "hooks"},
             {"core.alternateRefsCommand", p + " alternateRefs"},
             {"diff.external", p + " external"},
             {"diff.hostile.textconv", p + " textconv"},
             {"diff.hostile.command", p + " diffcommand"},
             {"filter.hostile.clean", p + " clean"},
             {"filter.hostile.smudge", p + " smudge"},
             {"filter.hostile.required", "true"},
             {"filter.hostileproc.process", p + " process"},
             {"filter.hostileproc.required", "true"},
             {"remote.origin.url", "ext::" + p + " ext"},
             {"protocol.allow", "always"},
             {"protocol.ext.allow", "always"},
             {"include.path", "../included.cfg"},
         }) {
      repo.Git({"config", key, value});
    }
  }

  std::vector<std::string> Markers() const { return Entries(markers); }
};

TEST(HostileConfig, NoProgramARepositoryNamesIsRun) {
  ProgramsRepo r;
  ASSERT_TRUE(r.Markers().empty());
  const std::string head = r.repo.Rev("HEAD");
  ToolHarness h({Served("shop", r.repo.path())});

  const auto answers =
      CallEveryTool(h, "shop", {"notes.txt", "data.dat", "plain.md", "included.cfg"}, head);
  for (const auto& c : answers) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "OUTPUT OF A HOSTILE PROGRAM")) << c.answer.text;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  auto files = h.Call("list_files", R"({"repo":"shop","path":"hooks"})");
  EXPECT_FALSE(files.is_error) << files.text;
  auto hook = h.Call("read_file", R"({"repo":"shop","path":"hooks/post-checkout"})");
  EXPECT_FALSE(hook.is_error) << hook.text;

  EXPECT_TRUE(r.Markers().empty()) << "a program ran: " << r.Markers().front();

  // The same repository does run them under git: the protection is what kept them from running.
  r.repo.TryGit({"status"});
  r.repo.TryGit({"diff", "HEAD~1", "HEAD"});
  r.repo.TryGit({"cat-file", "--textconv", "HEAD:notes.txt"});
  r.repo.TryGit({"cat-file", "--filters", "HEAD:notes.txt"});
  r.repo.TryGit({"cat-file", "--filters", "HEAD:data.dat"});
  // (The process filter, which speaks no protocol, would stop the commit before its hooks.)
  fs::remove(r.repo.path() + "/data.dat");
  r.repo.TryGit({"commit", "--allow-empty", "-m", "Third"});
  auto ran = r.Markers();
  for (const char* expected : {"fsmonitor", "external", "diffcommand", "textconv", "smudge",
                               "process", "hook-pre-commit", "gpg"}) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), expected), ran.end())
        << expected << " did not run under git either: the test repository is not hostile";
  }
}

TEST(HostileConfig, ReadFileShowsTheCommittedBytesNotAFiltersOutput) {
  ProgramsRepo r;
  ToolHarness h({Served("shop", r.repo.path())});

  auto notes = h.Call("read_file", R"({"repo":"shop","path":"notes.txt"})");
  ASSERT_FALSE(notes.is_error) << notes.text;
  const auto lines = Lines(notes.text);
  ASSERT_EQ(lines.size(), 2u) << notes.text;
  // Neither the smudge / textconv program's output, nor the ident attribute's $Id: …$, nor
  // eol=crlf's \r: the blob as committed.
  EXPECT_EQ(lines[1], "1  raw committed text $Id$") << notes.text;

  auto data = h.Call("read_file", R"({"repo":"shop","path":"data.dat"})");
  ASSERT_FALSE(data.is_error) << data.text;
  EXPECT_EQ(Lines(data.text).back(), "1  raw data") << data.text;

  // An older version, by ref, is read raw as well.
  auto first = h.Call("read_file", R"({"repo":"shop","path":"notes.txt","ref":"main~1"})");
  ASSERT_FALSE(first.is_error) << first.text;
  EXPECT_EQ(Lines(first.text).back(), "1  first version") << first.text;
  EXPECT_TRUE(r.Markers().empty());
}

TEST(HostileConfig, BareRepositoryWithProgramsInItsConfigurationRunsNothing) {
  ProgramsRepo r;
  // A bare copy, configured the same way: git would take attributes from its default branch.
  const std::string bare = r.tmp / "shop.git";
  ASSERT_EQ(rr::testing::Run({"git", "clone", "-q", "--bare", r.repo.path(), bare}, r.tmp.path(),
                             r.repo.Env())
                .status,
            0);
  TestRepo b(bare, /*bare=*/true);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"core.fsmonitor", r.program + " fsmonitor"},
           {"core.hooksPath", r.repo.path() + "/hooks"},
           {"diff.external", r.program + " external"},
           {"diff.hostile.textconv", r.program + " textconv"},
           {"filter.hostile.smudge", r.program + " smudge"},
           {"filter.hostileproc.process", r.program + " process"},
           {"include.path", r.repo.path() + "/included.cfg"},
       }) {
    b.Git({"config", key, value});
  }
  for (const auto& m : r.Markers()) fs::remove(r.markers + "/" + m);
  ToolHarness h({Served("bare", bare)});
  for (const auto& c : CallEveryTool(h, "bare", {"notes.txt", "data.dat"}, "main~1")) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "OUTPUT OF A HOSTILE PROGRAM")) << c.answer.text;
  }
  auto notes = h.Call("read_file", R"({"repo":"bare","path":"notes.txt"})");
  EXPECT_EQ(Lines(notes.text).back(), "1  raw committed text $Id$") << notes.text;
  EXPECT_TRUE(r.Markers().empty()) << "a program ran: " << r.Markers().front();
}

}  // namespace
}  // namespace rr::testing::safety::hostile_config
