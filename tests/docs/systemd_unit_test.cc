// The systemd unit docs/operating.md gives (scripts/systemd/repo-reader.service) is one systemd
// accepts: `systemd-analyze verify` on it, with ExecStart pointed at the binary just built.
// Skipped, saying why, where systemd-analyze is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace systemd_unit_test {
namespace {

TEST(SystemdUnit, SystemdAnalyzeVerifyAcceptsTheUnit) {
  const std::string analyze = "/usr/bin/systemd-analyze";
  if (access(analyze.c_str(), X_OK) != 0) GTEST_SKIP() << "systemd-analyze is not installed";
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/scripts/systemd/repo-reader.service");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string unit = ss.str();
  ASSERT_NE(unit.find("--http 127.0.0.1:8080"), std::string::npos);
  // A missing /etc/repo-reader/env (no token: loopback only) must not stop the service.
  EXPECT_NE(unit.find("\nEnvironmentFile=-/etc/repo-reader/env\n"), std::string::npos);
  EXPECT_NE(unit.find("\nUser=repo-reader\n"), std::string::npos);  // the package's user
  const std::string installed = "/usr/bin/repo-reader";
  const size_t at = unit.find(installed);
  ASSERT_NE(at, std::string::npos);
  unit.replace(at, installed.size(), RR_BINARY);
  TempDir tmp;
  const std::string path = tmp / "repo-reader.service";
  std::ofstream(path) << unit;
  // Documentation=man:repo-reader(1): verify runs `man`; the page is the one this build made
  // (help2man, packaging/Packaging.cmake), found through MANPATH.
  const std::string page =
      std::filesystem::path(RR_BINARY).parent_path().string() + "/packaging/repo-reader.1.gz";
  ASSERT_TRUE(std::filesystem::exists(page))
      << page << " is missing: install help2man (scripts/setup.sh --test) and build again";
  std::filesystem::create_directories(tmp / "man/man1");
  std::filesystem::copy_file(page, tmp / "man/man1/repo-reader.1.gz");
  const CommandResult r =
      rr::testing::Run({analyze, "verify", path}, tmp.path(), {{"MANPATH", tmp / "man"}});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("repo-reader.service:"), std::string::npos) << r.err;
}

// A plugin can take the process down (docs/plugins.md, "A plugin runs inside the server"):
// the unit starts it again, as docs/operating.md says.
TEST(SystemdUnit, TheUnitRestartsTheServerWhenItEndsOnAFault) {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/scripts/systemd/repo-reader.service");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string unit = ss.str();
  EXPECT_NE(unit.find("\nRestart=on-failure\n"), std::string::npos) << unit;
  EXPECT_NE(unit.find("\nRestartSec=2\n"), std::string::npos) << unit;
}

// systemd kills what is still running at TimeoutStopSec; the server is gone within
// http.drain_seconds + 1 s (HttpFront.SigtermRefusesNewConnectionsAtOnceAndExitsWithinTheDrain),
// so with the default drain the unit's timeout must be longer.
TEST(SystemdUnit, StopTimeoutIsAboveTheDrain) {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/scripts/systemd/repo-reader.service");
  std::string line;
  long timeout = -1;
  while (std::getline(in, line)) {
    if (line.rfind("TimeoutStopSec=", 0) == 0) timeout = std::stol(line.substr(15));
  }
  ASSERT_GT(timeout, 0) << "no TimeoutStopSec= in the unit";
  EXPECT_GT(timeout, static_cast<long>(HttpConfig{}.drain_seconds) + 1);
}

}  // namespace
}  // namespace systemd_unit_test
}  // namespace rr::testing
