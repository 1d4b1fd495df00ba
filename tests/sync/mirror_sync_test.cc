// The sync against a real git smart-HTTP server on loopback: which refs a mirror keeps, which
// contents it fetches (proved by what the server sent), and what agents see of it.
#include <gtest/gtest.h>

#include "core/sync/syncer.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace mirror_sync_test {
namespace {

// An origin repository "shop" with served files, an excluded folder and a credential file.
struct Origin {
  TempDir root;
  TestRepo repo{root / "shop"};
  std::string first, second;
  Origin() {
    repo.Write("src/app.py", "print('shop')\n");
    repo.Write("docs/readme.md", "# Shop\n");
    repo.Write("secret/plan.txt", "the excluded plan\n");
    repo.Write(".env", "API_KEY=excluded-by-the-credential-rule\n");
    first = repo.Commit("First");
    repo.Write("src/app.py", "print('shop v2')\n");
    second = repo.Commit("Second");
    repo.Git({"tag", "-a", "v1", "-m", "Version 1", first});
    repo.Git({"branch", "feature", first});
    repo.Git({"branch", "release/1", first});
  }
  std::string Blob(const std::string& rev_path) const { return repo.Rev(rev_path); }
};

TEST(MirrorSync, KeepsTheDefaultBranchAndEveryTagByDefault) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  EXPECT_EQ(report->default_branch, "main");
  EXPECT_EQ(report->refs, 2u);

  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_EQ(mirror.Rev("refs/heads/main"), origin.second);
  EXPECT_EQ(mirror.Rev("v1^{commit}"), origin.first);
  EXPECT_EQ(mirror.Git({"symbolic-ref", "HEAD"}), "refs/heads/main");
  EXPECT_NE(mirror.TryGit({"rev-parse", "--verify", "-q", "refs/heads/feature"}).status, 0);
  // No staging ref is left behind.
  EXPECT_EQ(mirror.Git({"for-each-ref", "refs/rr-sync/"}), "");
}

TEST(MirrorSync, RefsGlobsChooseTheBranchesAndTagsKept) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    refs: [\"release/*\"]\n",
      folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_EQ(mirror.Git({"for-each-ref", "--format=%(refname)"}),
            "refs/heads/main\nrefs/heads/release/1");
}

TEST(MirrorSync, ExcludedAndCredentialFilesAreNeverFetched) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    exclude: [\"secret/**\"]\n",
      folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  const std::set<std::string> sent = server.SentObjects();
  // The served files' contents were sent, at both kept tips...
  EXPECT_TRUE(sent.count(origin.Blob("main:src/app.py")));
  EXPECT_TRUE(sent.count(origin.Blob("v1:src/app.py")));
  EXPECT_TRUE(sent.count(origin.Blob("main:docs/readme.md")));
  // ...and never the excluded one or the credential file, at any commit.
  EXPECT_FALSE(sent.count(origin.Blob("main:secret/plan.txt")));
  EXPECT_FALSE(sent.count(origin.Blob("main:.env")));
  // Nor is it in the mirror (listed without asking the host for what is missing).
  MirrorRepo mirror(c.mirrors[0].dir);
  const std::string local = mirror.Git({"cat-file", "--batch-all-objects", "--batch-check"});
  EXPECT_FALSE(Has(local, origin.Blob("main:secret/plan.txt")));
  EXPECT_TRUE(Has(local, origin.Blob("main:src/app.py")));
}

TEST(MirrorSync, AgentsReadAMirrorOnceSyncedAndAreToldBefore) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    exclude: [\"secret/**\"]\n",
      folder.path());
  {
    ToolHarness before(ToolHarness::FromConfig{}, c);
    const auto listed = before.Call("list_repos");
    EXPECT_TRUE(Has(listed.text, "Mirrored from " + server.Url("shop") + ": not mirrored yet"))
        << listed.text;
    const auto read = before.Call("read_file", R"({"repo":"shop","path":"src/app.py"})");
    EXPECT_TRUE(read.is_error);
    EXPECT_TRUE(Has(read.text, "not mirrored yet")) << read.text;
  }
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  c.mirrors[0].state->Succeeded(1792837800);  // 2026-10-24 10:30 UTC, as the syncer records it
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const auto listed = h.Call("list_repos");
  EXPECT_TRUE(
      Has(listed.text, "Mirrored from " + server.Url("shop") + ", synced 2026-10-24 10:30 UTC."))
      << listed.text;
  EXPECT_TRUE(Has(listed.text, "Default branch: main @ " + origin.second.substr(0, 12)))
      << listed.text;
  const auto read = h.Call("read_file", R"({"repo":"shop","path":"src/app.py"})");
  EXPECT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "print('shop v2')")) << read.text;
  const auto older = h.Call("read_file", R"({"repo":"shop","path":"src/app.py","ref":"v1"})");
  EXPECT_TRUE(Has(older.text, "print('shop')")) << older.text;
  const auto excluded = h.Call("read_file", R"({"repo":"shop","path":"secret/plan.txt"})");
  EXPECT_TRUE(excluded.is_error);
  EXPECT_TRUE(Has(excluded.text, "outside what this server serves")) << excluded.text;
}

TEST(MirrorSync, ASecondSyncMovesRefsAndFetchesOnlyWhatIsNew) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    refs: [\"release/*\"]\n",
      folder.path());
  ASSERT_TRUE(SyncNow(c));
  const size_t sent_before = server.SentObjects().size();
  origin.repo.Write("src/new.py", "new\n");
  const std::string third = origin.repo.Commit("Third");
  origin.repo.Git({"branch", "-D", "release/1"});
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  EXPECT_EQ(report->contents, 1u);  // src/new.py; the rest was there
  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_EQ(mirror.Git({"for-each-ref", "--format=%(refname) %(objectname)"}),
            "refs/heads/main " + third);
  EXPECT_GT(server.SentObjects().size(), sent_before);
  // Only the new commit, its two new trees (the root, src) and the new file's contents came.
  EXPECT_EQ(server.SentObjects().size() - sent_before, 4u) << server.PackLog();
}

TEST(MirrorSync, ATagOfAFilesContentsIsNotKept) {
  Origin origin;
  origin.repo.Git({"tag", "blob-tag", origin.Blob("main:docs/readme.md")});
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  EXPECT_TRUE(Has(report->refs_left_out, "1 tag names a folder or a file's contents"))
      << report->refs_left_out;
  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_NE(mirror.TryGit({"rev-parse", "--verify", "-q", "refs/tags/blob-tag"}).status, 0);
}

// The served files' contents are asked for without saying which commits the mirror has, as
// git's own lazy fetch of a partial clone asks (fetch.negotiationAlgorithm=noop). Told the
// mirror has the history, a host sends the contents as deltas against older contents the mirror
// never fetched (they are reachable from those commits), which it cannot resolve: on a large
// repository the sync failed with "did not send all necessary objects" (found by
// bench/mirrors.py; a small repository does not make git choose such deltas, so the test checks
// what the fetch said).
TEST(MirrorSync, ContentsAreAskedForWithoutNamingCommitsTheMirrorHas) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  const std::string blob = origin.Blob(origin.second + ":src/app.py");
  size_t asked = 0;
  for (const auto& r : server.Requests()) {
    if (!Has(r, "\"wants\"")) continue;
    if (Has(r, blob)) {
      ++asked;
      EXPECT_TRUE(Has(r, "\"haves\": 0")) << r;
    } else {
      // The history's fetch does name what the mirror has (nothing, the first time).
      EXPECT_TRUE(Has(r, "\"haves\": ")) << r;
    }
  }
  EXPECT_GE(asked, 1u);
}

// libgit2 1.5 leaks about 20 KB for each configuration entry of a format-version-1 repository
// it opens (checking them against its extensions): a mirror, which a filtered fetch marks as
// version 1 though it names no extension, is kept at version 0 so that opening it leaks
// nothing; git still reads it as a partial clone (the next sync fetches as before). A mirror
// whose configuration names an extension is left at version 1.
TEST(MirrorSync, AMirrorIsKeptAtFormatVersionZeroUnlessItNamesAnExtension) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_EQ(mirror.Git({"config", "core.repositoryformatversion"}), "0");
  EXPECT_EQ(mirror.Git({"config", "remote.origin.promisor"}), "true");

  origin.repo.Write("src/app.py", "print('shop v3')\n");
  const std::string third = origin.repo.Commit("Third");
  mirror.Git({"config", "core.repositoryformatversion", "1"});
  mirror.Git({"config", "extensions.noop", "true"});
  auto again = SyncNow(c);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(mirror.Rev("refs/heads/main"), third);
  EXPECT_EQ(mirror.Git({"config", "core.repositoryformatversion"}), "1");
}

TEST(MirrorSync, AFailedSyncLeavesTheLastGoodStateServed) {
  Origin origin;
  TempDir folder;
  std::string url;
  Config c;
  {
    GitHttpServer server({origin.root.path()});
    c = MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
    ASSERT_TRUE(SyncNow(c));
  }
  origin.repo.Write("src/app.py", "print('shop v3')\n");
  origin.repo.Commit("Third");
  // The host is gone: the sync fails, the mirror keeps what it had.
  auto report = SyncNow(c);
  ASSERT_FALSE(report);
  MirrorRepo mirror(c.mirrors[0].dir);
  EXPECT_EQ(mirror.Rev("refs/heads/main"), origin.second);
  EXPECT_EQ(mirror.Git({"for-each-ref", "refs/rr-sync/"}), "");
}

TEST(MirrorSync, TheSyncerSyncsEveryMirrorWithBoundedConcurrency) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c =
      MirrorConfigFor("  - name: a\n    url: " + server.Url("shop") +
                          "\n  - name: b\n    url: " + server.Url("shop") +
                          "\n    exclude: [docs]\n  - name: c\n    url: " + server.Url("shop") +
                          "\n    refs: [feature]\n",
                      folder.path());
  MirrorSyncer::Options options;
  options.concurrency = 2;
  std::vector<std::string> log;
  std::mutex mu;
  options.log = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(line);
  };
  MirrorSyncer syncer(SyncGit(c), c.mirrors, options);
  syncer.Start();
  for (int i = 0; i < 600 && syncer.finished() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  syncer.Stop();
  ASSERT_EQ(syncer.finished(), 3u);
  EXPECT_LE(syncer.most_at_once(), 2u);
  for (const auto& m : c.mirrors) EXPECT_TRUE(m.state->Mirrored()) << m.name;
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_TRUE(Has(log[0], "synced from " + server.Url("shop"))) << log[0];
}

}  // namespace
}  // namespace mirror_sync_test
}  // namespace rr::testing
