// An older version's contents fetched on demand in a mirror, against a real git smart-HTTP
// server on loopback: read_file, diff, show_commit, blame and grep at a commit whose contents
// the sync did not bring; what the server sent proves which contents left the host (never an
// excluded or credential file's, whatever asks), and how many fetches there were.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <thread>

#include "core/app/wiring.h"
#include "core/served/served_repo.h"
#include "core/sync/content_fetch.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing::on_demand_fetch {
namespace {

// An origin "shop" with three commits on main. The mirror keeps main only (refs: a glob no
// other ref matches), so the sync brings the served files' contents at the third commit alone.
struct Origin {
  TempDir root;
  TestRepo repo{root / "shop"};
  std::string first, second, third;
  Origin() {
    repo.Write("src/app.py", "# the shop\nprint('shop v1')\n");
    repo.Write("src/lib.py", "def shop(): return 1\n");
    repo.Write("docs/readme.md", "# Shop\n");
    repo.Write("README.md", "# The shop\n\n## First edition\n");
    repo.Write("secret/plan.txt", "the excluded plan, first draft\n");
    repo.Write(".env", "API_KEY=first-key-kept-out-by-the-credential-rule\n");
    first = repo.Commit("First");
    repo.Write("src/app.py", "# the shop\nprint('shop v2')\n");
    repo.Write("src/lib.py", "def shop(): return 2\n");
    repo.Write("secret/plan.txt", "the excluded plan, second draft\n");
    repo.Write(".env", "API_KEY=second-key-kept-out-by-the-credential-rule\n");
    second = repo.Commit("Second");
    repo.Write("src/app.py", "# the shop\nprint('shop v3')\n");
    repo.Write("src/lib.py", "def shop(): return 3\n");
    repo.Write("README.md", "# The shop\n\n## Third edition\n");
    third = repo.Commit("Third");
  }
  std::string Blob(const std::string& rev_path) const { return repo.Rev(rev_path); }
};

const char* const kToken = "ghp_Zx9TokenForTheFetchTests0123456789ab";

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

std::string MirrorYaml(const std::string& url, const std::string& extra = "") {
  return "  - name: shop\n    url: " + url + "\n    refs: [\"no-such-branch\"]\n" +
         "    exclude: [\"secret/**\"]\n" + extra;
}

// A synced mirror of `origin` served by `server`, as the syncer leaves it.
Config Synced(const GitHttpServer& server, const TempDir& folder, const std::string& extra = "") {
  Config c = MirrorConfigFor(MirrorYaml(server.Url("shop"), extra), folder.path());
  auto report = SyncNow(c);
  EXPECT_TRUE(report) << report.error();
  c.mirrors[0].state->Succeeded(1792837800);
  return c;
}

// How many git commands reached the server (each starts by asking for the refs).
size_t GitCommands(const GitHttpServer& server) {
  size_t n = 0;
  for (const auto& r : server.Requests()) n += Has(r, "/info/refs");
  return n;
}

// The served repository of mirror `m` with `fetcher`, as BuildCatalog makes it.
std::unique_ptr<ServedRepo> ServedMirror(const MirrorConfig& m,
                                         std::shared_ptr<ContentFetcher> fetcher) {
  RepoSettings s;
  s.name = m.name;
  s.path = m.dir;
  s.policy = PathPolicy::Make(m.include, m.exclude, m.serve_credential_files).take();
  s.mirror = m.state;
  s.fetcher = std::move(fetcher);
  return std::make_unique<ServedRepo>(std::move(s));
}

TEST(OnDemandFetch, ReadFileAtAnOlderCommitFetchesItsContentsOnce) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  const std::string old_blob = origin.Blob(origin.first + ":src/app.py");
  ASSERT_FALSE(server.SentObjects().count(old_blob));  // the sync brought the tip's only
  MirrorRepo mirror(c.mirrors[0].dir);
  const std::string refs_before = mirror.Git({"for-each-ref"});

  ToolHarness h(ToolHarness::FromConfig{}, c);
  const size_t commands = GitCommands(server);
  const auto read =
      h.Call("read_file", R"({"repo":"shop","path":"src/app.py","ref":")" + origin.first + "\"}");
  EXPECT_FALSE(read.is_error) << read.text;
  EXPECT_TRUE(Has(read.text, "print('shop v1')")) << read.text;
  EXPECT_TRUE(server.SentObjects().count(old_blob));
  EXPECT_EQ(GitCommands(server), commands + 1);  // one fetch
  // ...which named no commit the mirror has (else a host may answer with deltas against
  // contents the mirror never fetched; see MirrorSync.ContentsAreAskedForWithoutNaming...).
  size_t asked = 0;
  for (const auto& r : server.Requests()) {
    if (!Has(r, "\"wants\"") || !Has(r, old_blob)) continue;
    ++asked;
    EXPECT_TRUE(Has(r, "\"haves\": 0")) << r;
  }
  EXPECT_EQ(asked, 1u);
  // A fetch adds objects only: no ref moved.
  EXPECT_EQ(mirror.Git({"for-each-ref"}), refs_before);

  // Read again: the contents are there, nothing is asked of the host.
  const auto again =
      h.Call("read_file", R"({"repo":"shop","path":"src/app.py","ref":")" + origin.first + "\"}");
  EXPECT_TRUE(Has(again.text, "print('shop v1')")) << again.text;
  EXPECT_EQ(GitCommands(server), commands + 1);

  // Several files in one call: what they lack comes in one fetch.
  const auto both = h.Call("read_file", R"({"repo":"shop","paths":["src/app.py","src/lib.py"],)" +
                                            std::string(R"("ref":")") + origin.second + "\"}");
  EXPECT_TRUE(Has(both.text, "print('shop v2')")) << both.text;
  EXPECT_TRUE(Has(both.text, "return 2")) << both.text;
  EXPECT_EQ(GitCommands(server), commands + 2);
}

TEST(OnDemandFetch, NoFetchRunsIntoASyncAndCallsWaitingForTheSameContentsShareOne) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  auto fetcher = MakeContentFetcher(c, c.mirrors[0]);
  auto served = ServedMirror(c.mirrors[0], fetcher);
  // The file at the second commit, as each call finds it.
  auto node_at = [&](RepoReader& reader) {
    auto at = reader.At(origin.second);
    EXPECT_TRUE(at) << at.error();
    auto node = reader.Find(*at, RepoPath::Parse("src/app.py").take(), StopToken());
    EXPECT_TRUE(node) << node.error();
    return node.take();
  };
  // A sync of the mirror holds its lock: a call whose time ends meanwhile fetches nothing and
  // says why.
  auto sync_lock = MirrorLock(c.mirrors[0].dir);
  sync_lock->lock();
  {
    auto reader = served->Open();
    ASSERT_TRUE(reader);
    const Node node = node_at(reader.value());
    auto data = reader->Read(node, StopToken(std::make_shared<std::atomic<bool>>(false),
                                             std::chrono::milliseconds(300)));
    ASSERT_FALSE(data);
    EXPECT_TRUE(Has(data.error(), "could not be fetched")) << data.error();
    EXPECT_EQ(fetcher->fetches(), 0u);
  }
  // Calls that want the same contents wait for the sync; the first to go fetches them, the
  // others find them there.
  std::vector<std::thread> calls;
  std::vector<std::string> read(3);
  for (size_t i = 0; i < read.size(); ++i) {
    calls.emplace_back([&, i] {
      auto reader = served->Open();
      if (!reader) return;
      auto data = reader->Read(node_at(reader.value()), StopToken());
      read[i] = data ? std::string(data->bytes()) : data.error();
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // let them wait for the lock
  EXPECT_EQ(fetcher->fetches(), 0u);
  sync_lock->unlock();
  for (auto& t : calls) t.join();
  for (const auto& r : read) EXPECT_EQ(r, "# the shop\nprint('shop v2')\n");
  EXPECT_EQ(fetcher->fetches(), 1u);
}

TEST(OnDemandFetch, ExcludedAndCredentialFilesAtOlderCommitsAreNeverFetched) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  const std::set<std::string> never = {origin.Blob(origin.first + ":secret/plan.txt"),
                                       origin.Blob(origin.second + ":secret/plan.txt"),
                                       origin.Blob(origin.first + ":.env"),
                                       origin.Blob(origin.second + ":.env")};
  {
    // Every tool that reads an older version, over the whole repository.
    ToolHarness h(ToolHarness::FromConfig{}, c);
    for (const auto& rev : {origin.first, origin.second}) {
      for (const char* path : {"secret/plan.txt", ".env"}) {
        const auto read = h.Call("read_file", R"({"repo":"shop","path":")" + std::string(path) +
                                                  R"(","ref":")" + rev + "\"}");
        EXPECT_TRUE(read.is_error);
        EXPECT_TRUE(Has(read.text, "outside what this server serves")) << read.text;
      }
      const auto grep = h.Call("grep", R"({"repo":"shop","pattern":"draft","ref":")" + rev + "\"}");
      EXPECT_FALSE(Has(grep.text, "plan")) << grep.text;
      h.Call("show_commit", R"({"repo":"shop","commit":")" + rev + "\"}");
    }
    const auto diff = h.Call("diff", R"({"repo":"shop","base":")" + origin.first + R"(","head":")" +
                                         origin.second + "\"}");
    EXPECT_TRUE(Has(diff.text, "src/app.py")) << diff.text;
  }
  // Attack at the reader: a node an unserved path names, handed to FetchMissing on a mirror
  // whose fetcher would fetch anything (its configuration serves everything).
  MirrorConfig permissive = c.mirrors[0];
  permissive.exclude.clear();
  permissive.serve_credential_files = true;
  auto served = ServedMirror(c.mirrors[0], MakeContentFetcher(c, permissive));
  auto reader = served->Open();
  ASSERT_TRUE(reader) << reader.error();
  std::vector<Node> nodes;
  for (const auto& [rev, path] : std::vector<std::pair<std::string, std::string>>{
           {origin.first, "secret/plan.txt"}, {origin.first, ".env"}}) {
    auto at = reader->At(rev);
    ASSERT_TRUE(at);
    Node n{RepoPath::Parse(path).take(), EntryKind::kFile};
    ASSERT_EQ(git_oid_fromstr(&n.oid, origin.Blob(rev + ":" + path).c_str()), 0);
    nodes.push_back(n);
  }
  EXPECT_EQ(reader->FetchMissing(nodes, StopToken()), 0u);
  // Attack at the fetcher: asked for an excluded path's contents directly, it refuses.
  auto fetcher = MakeContentFetcher(c, c.mirrors[0]);
  ASSERT_TRUE(fetcher);
  std::vector<ContentWant> wants;
  for (const Node& n : nodes) wants.push_back(ContentWant{n.oid, n.path});
  Status refused = fetcher->Fetch(wants, StopToken());
  EXPECT_FALSE(refused);
  EXPECT_EQ(fetcher->fetches(), 0u);
  // Not one of them left the host.
  const std::set<std::string> sent = server.SentObjects();
  for (const auto& id : never) EXPECT_FALSE(sent.count(id)) << id << "\n" << server.PackLog();
  EXPECT_TRUE(sent.count(origin.Blob(origin.first + ":src/app.py")));  // the served one came
}

TEST(OnDemandFetch, AFilesIdGivenAsARefStaysAnUnknownName) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const size_t commands = GitCommands(server);
  const std::string guessed = origin.Blob(origin.first + ":src/app.py");
  const auto read =
      h.Call("read_file", R"({"repo":"shop","path":"src/app.py","ref":")" + guessed + "\"}");
  EXPECT_TRUE(read.is_error);
  EXPECT_TRUE(Has(read.text, "is not a branch, tag or commit")) << read.text;
  EXPECT_EQ(GitCommands(server), commands);
  EXPECT_FALSE(server.SentObjects().count(guessed));
}

TEST(OnDemandFetch, DiffAndShowCommitBetweenOlderCommitsCountTheirLines) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const size_t commands = GitCommands(server);
  const auto diff = h.Call("diff", R"({"repo":"shop","base":")" + origin.first + R"(","head":")" +
                                       origin.second + "\"}");
  EXPECT_FALSE(diff.is_error) << diff.text;
  EXPECT_TRUE(Has(diff.text, "M  src/app.py  +1 -1")) << diff.text;
  EXPECT_TRUE(Has(diff.text, "-print('shop v1')")) << diff.text;
  EXPECT_TRUE(Has(diff.text, "+print('shop v2')")) << diff.text;
  EXPECT_FALSE(Has(diff.text, "not compared")) << diff.text;
  EXPECT_EQ(GitCommands(server), commands + 1);  // both versions in one fetch
  const auto shown = h.Call("show_commit", R"({"repo":"shop","commit":")" + origin.second + "\"}");
  EXPECT_TRUE(Has(shown.text, "M  src/app.py  +1 -1")) << shown.text;
  EXPECT_TRUE(Has(shown.text, "+print('shop v2')")) << shown.text;
  // The excluded file changed too: counted, never named.
  EXPECT_FALSE(Has(shown.text, "plan")) << shown.text;
}

TEST(OnDemandFetch, BlameInAMirrorFollowsTheFileThroughItsOlderVersions) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const size_t commands = GitCommands(server);
  const auto blame = h.Call("blame", R"({"repo":"shop","path":"src/app.py"})");
  EXPECT_FALSE(blame.is_error) << blame.text;
  // The first line was written by the first commit: blame reached it through both older
  // versions, which the mirror did not have.
  EXPECT_TRUE(Has(blame.text, origin.first.substr(0, 8))) << blame.text;
  EXPECT_TRUE(Has(blame.text, origin.third.substr(0, 8))) << blame.text;
  EXPECT_FALSE(Has(blame.text, "not in the local copy")) << blame.text;
  EXPECT_TRUE(server.SentObjects().count(origin.Blob(origin.first + ":src/app.py")));
  EXPECT_EQ(GitCommands(server), commands + 1);  // both older versions in one fetch
}

TEST(OnDemandFetch, GrepAtAnOlderCommitSearchesItsFiles) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const size_t commands = GitCommands(server);
  const auto grep =
      h.Call("grep", R"({"repo":"shop","pattern":"shop","ref":")" + origin.first + "\"}");
  EXPECT_FALSE(grep.is_error) << grep.text;
  EXPECT_TRUE(Has(grep.text, "print('shop v1')")) << grep.text;
  EXPECT_TRUE(Has(grep.text, "def shop(): return 1")) << grep.text;
  EXPECT_EQ(GitCommands(server), commands + 1);  // both files' older contents in one fetch
}

TEST(OnDemandFetch, OverviewAndListFilesOutlinesAtAnOlderCommit) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  Config c = Synced(server, folder);
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const auto overview = h.Call("overview", R"({"repo":"shop","ref":")" + origin.first + "\"}");
  EXPECT_FALSE(overview.is_error) << overview.text;
  EXPECT_TRUE(Has(overview.text, "## First edition")) << overview.text;        // the index file
  EXPECT_FALSE(Has(overview.text, "not in the local copy")) << overview.text;  // every size
  const auto outline = h.Call("list_files", R"({"repo":"shop","recursive":true,"outline":true,)" +
                                                std::string(R"("ref":")") + origin.first + "\"}");
  EXPECT_TRUE(Has(outline.text, "## First edition")) << outline.text;
  EXPECT_FALSE(Has(outline.text, "headings not read")) << outline.text;
}

TEST(OnDemandFetch, TheTokenTravelsAsForTheSyncAndNeverOnACommandLine) {
  Origin origin;
  GitHttpServer server({origin.root.path(), kToken});
  TempDir folder;
  ScopedEnv env("RR_TEST_FETCH_TOKEN", kToken);
  Config c = Synced(server, folder, "    token_env: RR_TEST_FETCH_TOKEN\n");
  const size_t before = server.Requests().size();
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const auto read =
      h.Call("read_file", R"({"repo":"shop","path":"src/app.py","ref":")" + origin.first + "\"}");
  EXPECT_TRUE(Has(read.text, "print('shop v1')")) << read.text;
  const auto requests = server.Requests();
  ASSERT_GT(requests.size(), before);
  for (size_t i = before; i < requests.size(); ++i) {
    EXPECT_TRUE(Has(requests[i], "\"token\": true")) << requests[i];
    EXPECT_TRUE(Has(requests[i], "\"cmdline_with_token\": []")) << requests[i];
  }
  EXPECT_FALSE(Has(read.text, kToken));
  EXPECT_FALSE(Has(AllFileBytes(c.mirrors[0].dir), kToken));
}

TEST(OnDemandFetch, AHostThatIsDownGivesAnErrorPerFileAndTheRestStillComes) {
  Origin origin;
  TempDir folder;
  Config c;
  {
    GitHttpServer server({origin.root.path()});
    c = Synced(server, folder);
  }
  // The host is gone.
  ToolHarness h(ToolHarness::FromConfig{}, c);
  const auto read =
      h.Call("read_file", R"({"repo":"shop","paths":["src/app.py","docs/readme.md"],"ref":")" +
                              origin.first + "\"}");
  EXPECT_TRUE(Has(read.text, "# Shop")) << read.text;  // there already: read
  EXPECT_TRUE(Has(read.text, "src/app.py · not read: the contents of `src/app.py`")) << read.text;
  EXPECT_TRUE(Has(read.text, "could not be fetched from")) << read.text;
  const auto diff = h.Call("diff", R"({"repo":"shop","base":")" + origin.first + R"(","head":")" +
                                       origin.second + "\"}");
  EXPECT_FALSE(diff.is_error) << diff.text;
  EXPECT_TRUE(Has(diff.text,
                  "src/app.py  (not compared: a version of it is not in the mirror "
                  "and could not be fetched"))
      << diff.text;
}

}  // namespace
}  // namespace rr::testing::on_demand_fetch
