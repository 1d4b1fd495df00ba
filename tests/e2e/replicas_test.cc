// Past one machine: three replicas of the real binary on loopback behind HAProxy (Debian's
// package) balancing round robin with no affinity, and the official SDK's clients of both
// protocol eras — v2 pinned to 2026-07-28 and v1 on 2025-11-25 — each making many calls through
// it at once. Every call must be answered as expected, and each client's calls must land on
// every replica (each replica's access log shows them). Skipped, saying why, when HAProxy,
// Node.js or the SDKs are not installed (scripts/setup.sh and scripts/test.sh install them).
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/http_server.h"
#include "tests/testkit/node.h"

namespace rr::testing {
namespace replicas_test {
namespace {

const std::string kSdkDir = std::string(RR_SOURCE_DIR) + "/tests/e2e/sdk";
const std::string kToken = "replicas-test-token";

std::string FindHaproxy() {
  for (const char* p : {"/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

// A port free now (HAProxy binds it a moment later).
int FreePort() {
  Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
  const int port = s.address().port();
  s.close();
  return port;
}

// HAProxy in the foreground with `config`, its output in `log`; stopped when this goes away.
class Haproxy {
 public:
  Haproxy(const std::string& binary, const std::string& config, const std::string& log) {
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(fd, 1);
      dup2(fd, 2);
      execl(binary.c_str(), binary.c_str(), "-db", "-f", config.c_str(), nullptr);
      _exit(127);
    }
  }
  ~Haproxy() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

 private:
  pid_t pid_ = -1;
};

// The lines of `log` that record a tools/call of `repo`, and how many of them were not "ok".
struct Calls {
  int count = 0;
  int not_ok = 0;
};
Calls CallsIn(const std::string& log, const std::string& repo) {
  Calls c;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("http: POST /mcp ", 0) != 0 || line.find(" tools/call ") == std::string::npos ||
        line.find(" repo=" + repo + " ") == std::string::npos) {
      continue;
    }
    ++c.count;
    if (line.find("http: POST /mcp 200 tools/call ") != 0 || line.find(" ok ") == std::string::npos)
      ++c.not_ok;
  }
  return c;
}

TEST(Replicas, ClientsOfBothErasReachEveryReplicaBehindHaproxyWithoutError) {
  const std::string haproxy = FindHaproxy();
  if (haproxy.empty()) GTEST_SKIP() << "HAProxy is not installed (apt-get install haproxy)";
  for (const char* package : {"@modelcontextprotocol/sdk", "@modelcontextprotocol/client"}) {
    const std::string why = WhyNoNode(kSdkDir, package);
    if (!why.empty()) GTEST_SKIP() << why;
  }
  TempDir tmp;
  TestRepo shop(tmp / "shop"), web(tmp / "web");
  shop.Write("README.md", "# Shop\n");
  shop.Commit("Add the shop");
  web.Write("README.md", "# Web\n");
  web.Commit("Add the web site");
  const std::string config = tmp / "config.yaml";
  std::ofstream(config) << "repos:\n  - name: shop\n    path: " << shop.path()
                        << "\n  - name: web\n    path: " << web.path()
                        << "\nhttp:\n  token_env: RR_TOKEN\n";
  std::vector<std::unique_ptr<HttpServerProcess>> replicas;
  for (int i = 0; i < 3; ++i) {
    replicas.push_back(std::make_unique<HttpServerProcess>(
        std::vector<std::string>{RR_BINARY, "--config", config, "--http", "127.0.0.1:0"},
        tmp.path(), std::map<std::string, std::string>{{"RR_TOKEN", kToken}}));
    ASSERT_TRUE(replicas.back()->ok()) << replicas.back()->Stderr();
  }

  // Round robin, no stickiness of any kind, health checks on /healthz with the token.
  const int port = FreePort();
  std::ofstream(tmp / "haproxy.cfg")
      << "defaults\n  mode http\n  timeout connect 2s\n  timeout client 30s\n"
         "  timeout server 30s\n"
         "frontend mcp\n  bind 127.0.0.1:"
      << port
      << "\n  default_backend replicas\n"
         "backend replicas\n  balance roundrobin\n  option httpchk GET /healthz\n"
         "  http-check send hdr Authorization \"Bearer "
      << kToken << "\"\n"
      << "  server r1 127.0.0.1:" << replicas[0]->port() << " check\n"
      << "  server r2 127.0.0.1:" << replicas[1]->port() << " check\n"
      << "  server r3 127.0.0.1:" << replicas[2]->port() << " check\n";
  Haproxy proxy(haproxy, tmp / "haproxy.cfg", tmp / "haproxy.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    status = HttpRequest(port, "GET", "/healthz", "", {{"Authorization", "Bearer " + kToken}},
                         std::chrono::seconds(2))
                 .status;
    if (status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(status, 200) << "HAProxy did not answer on port " << port;

  // Both clients at once, each on its own repository so that the logs tell their calls apart.
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  const int calls = 150;
  CommandResult modern, legacy;
  auto run = [&](const std::string& generation, const std::string& repo) {
    return rr::testing::Run({FindNode(kSdkDir), kSdkDir + "/many_calls.mjs", generation, url, repo,
                             std::to_string(calls)},
                            kSdkDir, {{"RR_TEST_TOKEN", kToken}});
  };
  std::thread t([&] { modern = run("v2", "shop"); });
  legacy = run("v1", "web");
  t.join();
  EXPECT_EQ(modern.status, 0) << modern.out << modern.err;
  EXPECT_NE(modern.out.find("many_calls v2: OK"), std::string::npos) << modern.out << modern.err;
  EXPECT_EQ(legacy.status, 0) << legacy.out << legacy.err;
  EXPECT_NE(legacy.out.find("many_calls v1: OK"), std::string::npos) << legacy.out << legacy.err;

  // Every call is in exactly one replica's log, answered ok, and every replica has some of
  // each client's. The replicas stop first, so each has written its last line.
  int shop_total = 0, web_total = 0;
  for (size_t i = 0; i < replicas.size(); ++i) {
    replicas[i]->Terminate();
    const int exit_status = replicas[i]->Wait();
    const std::string log = replicas[i]->Stderr();
    EXPECT_EQ(exit_status, 0) << "replica " << i + 1 << "'s log:\n" << log;
    const Calls shop_calls = CallsIn(log, "shop"), web_calls = CallsIn(log, "web");
    EXPECT_GT(shop_calls.count, 0) << "replica " << i + 1 << " saw no 2026-07-28 call\n" << log;
    EXPECT_GT(web_calls.count, 0) << "replica " << i + 1 << " saw no 2025-11-25 call\n" << log;
    EXPECT_EQ(shop_calls.not_ok + web_calls.not_ok, 0) << log;
    shop_total += shop_calls.count;
    web_total += web_calls.count;
  }
  EXPECT_EQ(shop_total, calls);
  EXPECT_EQ(web_total, calls);
}

}  // namespace
}  // namespace replicas_test
}  // namespace rr::testing
