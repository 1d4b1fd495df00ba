// The systemd unit docs/operating.md gives (scripts/systemd/repo-reader.service) is one systemd
// accepts: `systemd-analyze verify` on it, with ExecStart pointed at the binary just built.
// Skipped, saying why, where systemd-analyze is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/config/config.h"
#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace {

TEST(SystemdUnit, SystemdAnalyzeVerifyAcceptsTheUnit) {
  const std::string analyze = "/usr/bin/systemd-analyze";
  if (access(analyze.c_str(), X_OK) != 0) GTEST_SKIP() << "systemd-analyze is not installed";
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/scripts/systemd/repo-reader.service");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string unit = ss.str();
  ASSERT_NE(unit.find("--http 127.0.0.1:8080"), std::string::npos);
  const std::string installed = "/usr/local/bin/repo-reader";
  const size_t at = unit.find(installed);
  ASSERT_NE(at, std::string::npos);
  unit.replace(at, installed.size(), RR_BINARY);
  TempDir tmp;
  const std::string path = tmp / "repo-reader.service";
  std::ofstream(path) << unit;
  const CommandResult r = rr::testing::Run({analyze, "verify", path}, tmp.path());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("repo-reader.service:"), std::string::npos) << r.err;
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
}  // namespace rr::testing
