// The sync's protections, each by attack against a real git smart-HTTP server on loopback:
// the token never on a command line, in a mirror's files or in an error; no token to a host a
// redirect names; a mirror's configuration cannot switch the protocol; git's process is started
// only for the fixed subcommands, only in the mirror folder, and never with the server's git
// variables.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "core/sync/token.h"
#include "tests/sync/sync_kit.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing::sync_safety {
namespace {

// Sets an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

const char* const kToken = "ghp_Zx9TokenForTheSyncTests0123456789abcd";

struct Origin {
  TempDir root;
  TestRepo repo{root / "shop"};
  Origin() {
    repo.Write("src/app.py", "print('shop')\n");
    repo.Commit("First");
  }
};

// Every form the token travels in.
std::vector<std::string> TokenForms() {
  return {kToken, Base64(std::string("x-access-token:") + kToken), PercentEncode(kToken)};
}

void ExpectNoToken(const std::string& text, const std::string& where) {
  for (const auto& form : TokenForms()) {
    EXPECT_FALSE(Has(text, form)) << where << " holds the token (" << form << "):\n" << text;
  }
}

TEST(SyncSafety, TheTokenIsSentButNeverOnACommandLineNorInTheMirrorsFiles) {
  Origin origin;
  GitHttpServer server({origin.root.path(), kToken});
  TempDir folder;
  ScopedEnv env("RR_TEST_SYNC_TOKEN", kToken);
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    token_env: RR_TEST_SYNC_TOKEN\n",
      folder.path());
  auto report = SyncNow(c);
  ASSERT_TRUE(report) << report.error();
  const auto requests = server.Requests();
  ASSERT_FALSE(requests.empty());
  for (const auto& r : requests) {
    // Every request carried the token (the server refuses any other)...
    EXPECT_TRUE(Has(r, "\"token\": true")) << r;
    // ...and while it was served, no process on this machine had it on its command line.
    EXPECT_TRUE(Has(r, "\"cmdline_with_token\": []")) << r;
  }
  ExpectNoToken(AllFileBytes(folder.path()), "the mirror folder");
}

TEST(SyncSafety, WithoutItsTokenTheSyncFailsAndSaysWhichVariableToSet) {
  Origin origin;
  GitHttpServer server({origin.root.path(), kToken});
  TempDir folder;
  unsetenv("RR_TEST_SYNC_TOKEN_UNSET");
  Config c = MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") +
                                 "\n    token_env: RR_TEST_SYNC_TOKEN_UNSET\n",
                             folder.path());
  auto report = SyncNow(c);
  ASSERT_FALSE(report);
  EXPECT_TRUE(Has(report.error(), "RR_TEST_SYNC_TOKEN_UNSET is not set")) << report.error();
  EXPECT_TRUE(server.Requests().empty());
}

TEST(SyncSafety, AHostThatRepeatsTheTokenInItsErrorHasItTakenOut) {
  Origin origin;
  GitHttpServer server({origin.root.path(), kToken, "", /*echo_auth=*/true});
  TempDir folder;
  ScopedEnv env("RR_TEST_SYNC_TOKEN", kToken);
  Config c = MirrorConfigFor(
      "  - name: shop\n    url: " + server.Url("shop") + "\n    token_env: RR_TEST_SYNC_TOKEN\n",
      folder.path());
  auto report = SyncNow(c);
  ASSERT_FALSE(report);
  // The host's message is shown (the operator needs it), the token taken out of it.
  EXPECT_TRUE(Has(report.error(), "remote error: refused: Basic [token] [token]"))
      << report.error();
  ExpectNoToken(report.error(), "the error");
  c.mirrors[0].state->Failed(1, report.error());
  ExpectNoToken(AllFileBytes(folder.path()), "the mirror folder (with its status file)");
}

TEST(SyncSafety, WithATokenNoRedirectIsFollowed) {
  Origin origin;
  TempDir folder;
  ScopedEnv env("RR_TEST_SYNC_TOKEN", kToken);
  // To another host, which records what it is sent...
  GitHttpServer elsewhere({origin.root.path(), kToken});
  GitHttpServer redirecting({origin.root.path(), "", elsewhere.Base()});
  // ...and to another path of the same host, where git would keep sending the header.
  GitHttpServer self({origin.root.path(), kToken, "self"});
  for (const GitHttpServer* server : {&redirecting, &self}) {
    Config c = MirrorConfigFor("  - name: shop\n    url: " + server->Url("moved/shop") +
                                   "\n    token_env: RR_TEST_SYNC_TOKEN\n",
                               folder.path());
    auto report = SyncNow(c);
    EXPECT_FALSE(report);
    ASSERT_FALSE(server->Requests().empty());
  }
  EXPECT_TRUE(elsewhere.Requests().empty());
  for (const auto& r : self.Requests()) {
    EXPECT_TRUE(Has(r, "\"path\": \"/moved/")) << "a redirect was followed: " << r;
  }
}

TEST(SyncSafety, AMirrorsConfigurationCannotSwitchToTheExtProtocol) {
  Origin origin;
  GitHttpServer server({origin.root.path()});
  TempDir folder;
  TempDir outside;
  Config c =
      MirrorConfigFor("  - name: shop\n    url: " + server.Url("shop") + "\n", folder.path());
  ASSERT_TRUE(SyncNow(c));
  // Someone writes into the mirror's configuration: ext allowed, the URL rewritten to run a
  // program.
  const std::string marker = outside / "ran";
  MirrorRepo mirror(c.mirrors[0].dir);
  mirror.Git({"config", "protocol.ext.allow", "always"});
  mirror.Git({"config", "url.ext::touch " + marker + " .insteadOf", server.Base() + "/"});
  auto report = SyncNow(c);
  EXPECT_FALSE(report);
  struct stat st;
  EXPECT_NE(stat(marker.c_str(), &st), 0) << "the ext:: program ran";
}

TEST(SyncSafety, GitIsStartedOnlyForTheSyncsSubcommandsAndOnlyInItsFolder) {
  TempDir folder;
  // A stand-in for git that leaves a mark when started.
  const std::string fake = folder / "fake-git";
  const std::string marker = folder / "started";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\ntouch " << marker << "\n";
  }
  chmod(fake.c_str(), 0755);
  GitProcess git(fake, folder.path());
  struct stat st;
  for (const char* refused : {"push", "clone", "remote-ext", "-c", "daemon", "archive"}) {
    GitRun run;
    run.subcommand = refused;
    run.git_dir = folder / "m.git";
    auto r = git.Run(run);
    ASSERT_FALSE(r) << refused;
    EXPECT_TRUE(Has(r.error(), "is refused")) << r.error();
    EXPECT_NE(stat(marker.c_str(), &st), 0) << refused << " started git";
  }
  for (const std::string& dir : {std::string("/tmp/elsewhere.git"), folder / "../x.git",
                                 folder.path(), folder / "a/./b.git"}) {
    GitRun run;
    run.subcommand = "fetch";
    run.git_dir = dir;
    EXPECT_FALSE(git.Run(run)) << dir;
    EXPECT_NE(stat(marker.c_str(), &st), 0) << dir << " started git";
  }
  // The stand-in does leave its mark when the run is allowed.
  GitRun ok;
  ok.subcommand = "fetch";
  ok.git_dir = folder / "m.git";
  ASSERT_TRUE(git.Run(ok));
  EXPECT_EQ(stat(marker.c_str(), &st), 0);
}

TEST(SyncSafety, TheServersGitVariablesNeverReachGit) {
  TempDir folder;
  GitProcess git(GitProcess::FindGit(), folder.path());
  GitRun init;
  init.subcommand = "init";
  init.args = {"--bare", "--quiet"};
  init.git_dir = folder / "m.git";
  ASSERT_TRUE(git.Run(init));
  ScopedEnv injected("GIT_CONFIG_PARAMETERS", "'core.injected=yes'");
  ScopedEnv count("GIT_CONFIG_COUNT", "1");
  ScopedEnv key("GIT_CONFIG_KEY_0", "core.injectedtoo");
  ScopedEnv value("GIT_CONFIG_VALUE_0", "yes");
  ScopedEnv dir("GIT_DIR", "/somewhere/else");
  ScopedEnv askpass("SSH_ASKPASS", "/bin/true");
  GitRun list;
  list.subcommand = "config";
  list.args = {"--list"};
  list.git_dir = folder / "m.git";
  auto r = git.Run(list);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->status, 0) << r->err;
  EXPECT_FALSE(Has(r->out, "injected")) << r->out;
  // What every run gets instead.
  EXPECT_TRUE(Has(r->out, "core.hookspath=/dev/null")) << r->out;
  EXPECT_TRUE(Has(r->out, "credential.helper=\n")) << r->out;
  const auto env = git.Environment(list);
  for (const auto& e : env) {
    EXPECT_FALSE(Has(e, "SSH_ASKPASS") || e.rfind("GIT_DIR=", 0) == 0) << e;
  }
  EXPECT_NE(std::find(env.begin(), env.end(), "GIT_ALLOW_PROTOCOL=none"), env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "GIT_TERMINAL_PROMPT=0"), env.end());
}

TEST(SyncSafety, ARunPastItsTimeIsKilled) {
  TempDir folder;
  const std::string fake = folder / "slow-git";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\nsleep 30\n";
  }
  chmod(fake.c_str(), 0755);
  GitProcess git(fake, folder.path());
  GitRun run;
  run.subcommand = "fetch";
  run.git_dir = folder / "m.git";
  run.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  auto r = git.Run(run);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->status, -1);
}

TEST(SyncSafety, TokenScrubTakesOutEveryForm) {
  const HostToken t = HostToken::Of("tok/en+1", "x-access-token");
  const std::string text = std::string("a tok/en+1 b ") + PercentEncode("tok/en+1") + " c " +
                           Base64("x-access-token:tok/en+1") + " d " + Base64("oauth2:tok/en+1");
  EXPECT_EQ(t.Scrub(text), "a [token] b [token] c [token] d [token]");
}

TEST(SyncSafety, CheckNamesTheTokensVariableNeverItsValueAndReachesNoHost) {
  Origin origin;
  GitHttpServer server({origin.root.path(), kToken});
  TempDir folder;
  const std::string config = folder / "c.yaml";
  {
    std::ofstream f(config);
    f << "mirror_folder: " << folder.path()
      << "/mirrors\nmirrors:\n  - name: shop\n    url: " << server.Url("shop")
      << "\n    token_env: RR_TEST_SYNC_TOKEN\n";
  }
  auto r = rr::testing::Run({RR_BINARY, "--config", config, "--check"}, folder.path(),
                            {{"RR_TEST_SYNC_TOKEN", kToken}, {"HOME", folder.path()}});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "shop — mirrored from " + server.Url("shop"))) << r.out;
  EXPECT_TRUE(Has(r.out, "token from $RR_TEST_SYNC_TOKEN (set)")) << r.out;
  EXPECT_TRUE(Has(r.out, "not mirrored yet")) << r.out;
  ExpectNoToken(r.out + r.err, "--check");
  EXPECT_TRUE(server.Requests().empty());
}

}  // namespace
}  // namespace rr::testing::sync_safety
