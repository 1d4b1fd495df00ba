// The ABI lock: sdk/abi.lock records RR_PLUGIN_ABI_VERSION and RR_PLUGIN_ABI_MIN_VERSION with a
// digest of the one header that is the binary interface between the server and a plugin, the C
// header plugin_abi.h. The C++ headers (secret_detector.h, host.h, plugin.h) are compiled into
// the plugin and never cross the boundary, so they may change without a bump. The digest
// ignores comments and runs of whitespace, so the header may be reworded freely; any other
// change must come with a bump of RR_PLUGIN_ABI_VERSION, or plugins built against the old header
// would load and misbehave. The test fails until the version is bumped and the lock recorded.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "repo_reader/plugin_abi.h"

namespace rr::testing {
namespace abi_lock_test {
namespace {

constexpr const char* kAbiHeaders[] = {"plugin_abi.h"};

// `source` without its comments, each run of whitespace (comments included) one space, and no
// space at either end. String and character literals are kept as they are.
std::string Normalise(std::string_view source) {
  std::string out;
  bool space = false;
  auto put = [&](char c) {
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  };
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
      space = true;
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      const size_t end = source.find("*/", i + 2);
      i = end == std::string_view::npos ? source.size() : end + 1;
      space = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
    } else if (c == '"' || c == '\'') {
      put(c);
      for (++i; i < source.size() && source[i] != c; ++i) {
        out.push_back(source[i]);
        if (source[i] == '\\' && i + 1 < source.size()) out.push_back(source[++i]);
      }
      if (i < source.size()) out.push_back(c);
    } else {
      put(c);
    }
  }
  return out;
}

// FNV-1a, 64 bits, as 16 hex digits.
std::string Fnv1a64(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// The digest of a set of headers, each named and normalised, in order of name.
std::string Digest(const std::map<std::string, std::string>& headers) {
  std::string all;
  for (const auto& [name, text] : headers) all += name + "\n" + Normalise(text) + "\n";
  return "fnv1a64:" + Fnv1a64(all);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path << " cannot be read";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> SdkHeaders() {
  std::map<std::string, std::string> headers;
  for (const char* name : kAbiHeaders) {
    headers[name] = ReadFile(std::string(RR_SOURCE_DIR) + "/sdk/include/repo_reader/" + name);
  }
  return headers;
}

// sdk/abi.lock's `key: value` lines (blank lines and # comments skipped).
std::map<std::string, std::string> ReadLock() {
  std::map<std::string, std::string> values;
  std::istringstream in(ReadFile(std::string(RR_SOURCE_DIR) + "/sdk/abi.lock"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t from = colon + 1;
    while (from < line.size() && line[from] == ' ') ++from;
    values[line.substr(0, colon)] = line.substr(from);
  }
  return values;
}

TEST(AbiLock, TheSdkHeadersMatchTheDigestRecordedForThisAbiVersion) {
  const std::map<std::string, std::string> lock = ReadLock();
  ASSERT_TRUE(lock.count("abi_version") && lock.count("min_abi_version") && lock.count("digest"))
      << "sdk/abi.lock must hold `abi_version: N`, `min_abi_version: M` and "
         "`digest: fnv1a64:…`";
  const std::string digest = Digest(SdkHeaders());
  const std::string version = std::to_string(RR_PLUGIN_ABI_VERSION);
  const std::string min_version = std::to_string(RR_PLUGIN_ABI_MIN_VERSION);
  if (lock.at("abi_version") != version || lock.at("min_abi_version") != min_version) {
    FAIL() << "plugin_abi.h says version " << version << " (minimum " << min_version
           << ") but sdk/abi.lock records version " << lock.at("abi_version") << " (minimum "
           << lock.at("min_abi_version") << "): record them and the digest in sdk/abi.lock: "
           << "abi_version: " << version << ", min_abi_version: " << min_version
           << ", digest: " << digest;
  }
  EXPECT_EQ(lock.at("digest"), digest)
      << "plugin_abi.h changed without an ABI version bump: bump RR_PLUGIN_ABI_VERSION in "
         "sdk/include/repo_reader/plugin_abi.h and record the new digest in sdk/abi.lock: "
      << digest;
  EXPECT_LE(RR_PLUGIN_ABI_MIN_VERSION, RR_PLUGIN_ABI_VERSION);
}

TEST(AbiLock, CommentsAndWhitespaceDoNotCountAndEverythingElseDoes) {
  const std::string base = "struct A {\n  int x;  // the x\n  const char* s = \"a // b\";\n};\n";
  EXPECT_EQ(Normalise(base), "struct A { int x; const char* s = \"a // b\"; };");
  const std::string digest = Digest({{"a.h", base}});
  EXPECT_EQ(Digest({{"a.h",
                     "/* A, reworded */ struct A {  int x;\n\n const char* s =\t\"a // "
                     "b\"; // a note\n};"}}),
            digest);
  EXPECT_NE(Digest({{"a.h", "struct A {\n  int x;\n  int y;\n  const char* s = \"a // b\";\n};"}}),
            digest);
  EXPECT_NE(Digest({{"a.h", "struct A {\n  long x;\n  const char* s = \"a // b\";\n};"}}), digest);
  EXPECT_NE(Digest({{"a.h", "struct A {\n  int x;\n  const char* s = \"a //  b\";\n};"}}), digest)
      << "a string literal's spaces count";
  EXPECT_NE(Digest({{"b.h", base}}), digest) << "a header's name counts";
}

}  // namespace
}  // namespace abi_lock_test
}  // namespace rr::testing
