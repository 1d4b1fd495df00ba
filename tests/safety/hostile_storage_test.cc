// Repositories written by an attacker: where the objects are. A partial clone missing some
// contents (never fetched), a .git file pointing at a git folder elsewhere, objects/info/alternates
// pointing outside the repository (and in a loop).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_storage {
namespace {

namespace fs = std::filesystem;

size_t Count(const std::string& folder, const std::string& suffix) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      ++n;
    }
  }
  return n;
}

// Git in an existing repository. (TestRepo would run git init there first, which rewrites
// core.repositoryformatversion.)
CommandResult GitIn(const std::string& repo, const std::vector<std::string>& args,
                    const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  return rr::testing::Run(argv, repo, env);
}

// Whether the object is in the local copy, asked so that git cannot fetch it (no transport).
bool HasObject(const std::string& repo, const std::string& id,
               const std::map<std::string, std::string>& env) {
  return GitIn(repo,
               {"-c", "protocol.allow=never", "-c", "protocol.file.allow=never", "cat-file", "-e",
                id},
               env)
             .status == 0;
}

struct PartialClone {
  TempDir tmp;
  TestRepo src{tmp / "origin"};
  std::string present, missing, clone_path = tmp / "clone";
  PartialClone() {
    src.Write("present.txt", "fetched on purpose\n");
    src.Write("missing.txt", "only in the origin\n");
    src.Write("docs/guide.md", "also only in the origin\n");
    src.Commit("Files");
    src.Git({"config", "uploadpack.allowFilter", "true"});
    present = src.Rev("HEAD:present.txt");
    missing = src.Rev("HEAD:missing.txt");
    auto r = rr::testing::Run({"git", "clone", "-q", "--filter=blob:none", "--no-checkout",
                               "file://" + src.path(), clone_path},
                              tmp.path(), src.Env());
    EXPECT_EQ(r.status, 0) << r.err;
  }
};

void ExpectMissingContentIsNeverFetched(PartialClone& p) {
  const auto env = p.src.Env();
  const std::string& clone = p.clone_path;
  // git fetches this one on purpose
  ASSERT_EQ(GitIn(clone, {"cat-file", "-p", p.present}, env).status, 0);
  ASSERT_TRUE(HasObject(clone, p.present, env));
  ASSERT_FALSE(HasObject(clone, p.missing, env));
  const size_t packs = Count(clone + "/.git/objects", ".pack");
  const auto objects = Snapshot(clone + "/.git/objects");
  ToolHarness h({Served("clone", clone)});

  auto read = h.Call("read_file", R"({"repo":"clone","path":"missing.txt"})");
  EXPECT_TRUE(read.is_error) << read.text;
  EXPECT_EQ(read.text,
            "the contents of `missing.txt` are not in the local copy of `clone` (a partial "
            "clone); this server never fetches them");
  auto guide = h.Call("read_file", R"({"repo":"clone","path":"docs/guide.md"})");
  EXPECT_TRUE(guide.is_error) << guide.text;
  EXPECT_TRUE(Has(guide.text, "not in the local copy")) << guide.text;
  auto ok = h.Call("read_file", R"({"repo":"clone","path":"present.txt"})");
  ASSERT_FALSE(ok.is_error) << ok.text;
  EXPECT_TRUE(Has(ok.text, "fetched on purpose")) << ok.text;
  // The trees are all there: listing needs no contents.
  auto all = h.Call("list_files", R"({"repo":"clone","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  EXPECT_TRUE(Has(all.text, "3 files, at any depth")) << all.text;
  for (const auto& c : CallEveryTool(h, "clone", {"missing.txt", "docs/guide.md"}, "main")) {
    EXPECT_FALSE(c.answer.text.empty()) << c.tool << " " << c.args;
  }

  // Nothing was fetched: the content is still missing, no pack was added, no object written.
  EXPECT_FALSE(HasObject(clone, p.missing, env));
  EXPECT_EQ(Count(clone + "/.git/objects", ".pack"), packs);
  EXPECT_EQ(Snapshot(clone + "/.git/objects"), objects);

  // Git itself would have fetched it: the origin was there to be asked.
  EXPECT_EQ(GitIn(clone, {"cat-file", "-e", p.missing}, env).status, 0);
  EXPECT_TRUE(HasObject(clone, p.missing, env));
  EXPECT_GT(Count(clone + "/.git/objects", ".pack"), packs);
}

TEST(HostileStorage, PartialCloneContentIsNeverFetched) {
  PartialClone p;
  ExpectMissingContentIsNeverFetched(p);
}

TEST(HostileStorage, PartialCloneNamedInExtensionsPartialCloneOpensAndIsNeverFetched) {
  // The promisor remote named in extensions.partialClone, which git still reads (and libgit2
  // refuses to open unless told the extension is understood).
  PartialClone p;
  const auto env = p.src.Env();
  ASSERT_EQ(GitIn(p.clone_path, {"config", "core.repositoryformatversion", "1"}, env).status, 0);
  ASSERT_EQ(GitIn(p.clone_path, {"config", "extensions.partialClone", "origin"}, env).status, 0);
  ExpectMissingContentIsNeverFetched(p);
}

TEST(HostileStorage, GitFileIsFollowedToTheRepositoryItNames) {
  TempDir tmp;
  TestRepo real(tmp / "elsewhere/real");
  real.Write("real.txt", "from the repository the .git file names\n");
  real.Commit("Real");
  fs::create_directories(tmp / "pointer");
  std::ofstream(tmp / "pointer/.git") << "gitdir: ../elsewhere/real/.git\n";
  std::ofstream(tmp / "pointer/untracked.txt") << "in the folder, never committed\n";
  fs::create_directories(tmp / "dangling");
  std::ofstream(tmp / "dangling/.git") << "gitdir: ../nowhere/.git\n";
  fs::create_directories(tmp / "garbage");
  std::ofstream(tmp / "garbage/.git") << std::string(5000, 'x') << "\n";
  const auto before = Snapshot(tmp.path());
  ToolHarness h({Served("pointer", tmp / "pointer"), Served("dangling", tmp / "dangling"),
                 Served("garbage", tmp / "garbage")});

  auto list = h.Call("list_files", R"({"repo":"pointer"})");
  ASSERT_FALSE(list.is_error) << list.text;
  EXPECT_TRUE(Has(list.text, "\nreal.txt")) << list.text;
  EXPECT_FALSE(Has(list.text, "untracked")) << list.text;
  auto read = h.Call("read_file", R"({"repo":"pointer","path":"real.txt"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "from the repository the .git file names")) << read.text;

  for (const std::string name : {"dangling", "garbage"}) {
    for (const auto& c : CallEveryTool(h, name, {"real.txt"})) {
      if (c.tool == "about" || c.tool == "list_repos") {
        EXPECT_FALSE(c.answer.is_error) << c.answer.text;
        continue;
      }
      EXPECT_TRUE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
      EXPECT_TRUE(Has(c.answer.text, "repository `" + name + "` cannot be opened"))
          << c.answer.text;
      EXPECT_TRUE(Printable(c.answer.text));
    }
  }
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(Has(repos.text, "## dangling\nCannot be read now: ")) << repos.text;
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

TEST(HostileStorage, AlternatesAreReadAsObjectStorageOnly) {
  TempDir tmp;
  TestRepo other(tmp / "other");
  other.Write("shared.txt", "stored in the other repository\n");
  const std::string shared = other.Commit("Shared");
  other.Git({"checkout", "-q", "-b", "other-only"});
  other.Write("other-only.txt", "a branch of the other repository\n");
  const std::string other_only = other.Commit("Other only");
  // A bare repository with no objects of its own: its alternates name the other's.
  TestRepo bare(tmp / "borrower.git", /*bare=*/true);
  std::ofstream(bare.path() + "/objects/info/alternates") << other.path() << "/.git/objects\n";
  bare.Git({"update-ref", "refs/heads/main", shared});
  ASSERT_EQ(Count(bare.path() + "/objects", ".pack"), 0u);
  // And a loop back, and names of folders that are not object stores.
  std::ofstream(other.path() + "/.git/objects/info/alternates")
      << bare.path() << "/objects\n/etc\n/nonexistent/objects\n";
  const auto before = Snapshot(tmp.path());
  ToolHarness h({Served("borrower", bare.path()), Served("other", other.path())});

  // Its refs are its own; the objects they reach are read from the alternate.
  auto refs = h.Call("list_refs", R"({"repo":"borrower"})");
  ASSERT_FALSE(refs.is_error) << refs.text;
  EXPECT_TRUE(Has(refs.text, "1 branch, 0 tags")) << refs.text;
  EXPECT_FALSE(Has(refs.text, "other-only")) << refs.text;
  auto read = h.Call("read_file", R"({"repo":"borrower","path":"shared.txt"})");
  ASSERT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "stored in the other repository")) << read.text;
  // A branch name of the other repository means nothing here.
  auto by_name =
      h.Call("read_file", R"({"repo":"borrower","path":"shared.txt","ref":"other-only"})");
  EXPECT_TRUE(by_name.is_error) << by_name.text;
  EXPECT_TRUE(Has(by_name.text, "is not a branch, tag or commit of `borrower`")) << by_name.text;
  // As git reads them, the alternate's objects are this repository's objects: a commit id of
  // the other repository reads here (documented in docs/safety.md).
  auto by_id = h.Call("read_file",
                      R"({"repo":"borrower","path":"other-only.txt","ref":")" + other_only + "\"}");
  ASSERT_FALSE(by_id.is_error) << by_id.text;

  for (const std::string name : {"borrower", "other"}) {
    for (const auto& c : CallEveryTool(h, name, {"shared.txt"})) {
      EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    }
  }
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

}  // namespace
}  // namespace rr::testing::safety::hostile_storage
