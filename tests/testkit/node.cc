#include "tests/testkit/node.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace rr::testing {

std::string FindNode(const std::string& sdk_dir) {
  const std::string local = sdk_dir + "/node_modules/.bin/node";
  if (access(local.c_str(), X_OK) == 0) return local;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/node";
    if (access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
      return candidate;
    }
  }
  return "";
}

std::string WhyNoNode(const std::string& sdk_dir, const std::string& package) {
  if (FindNode(sdk_dir).empty()) return "Node.js (node) is not on PATH; this test needs it";
  if (!std::filesystem::is_directory(sdk_dir + "/node_modules/" + package)) {
    return package +
           " is not installed in tests/e2e/sdk/node_modules; run `npm ci --prefix tests/e2e/sdk` "
           "from the source folder (scripts/test.sh does)";
  }
  return "";
}

}  // namespace rr::testing
