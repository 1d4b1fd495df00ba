// The release's files agree with the one version (CMakeLists.txt's project VERSION, compiled in
// as kServerVersion): server.json for the MCP registry (and the shape its published schema,
// 2025-12-11, asks for), CHANGELOG.md's newest entry, and the packages and image the docs name.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/version.h"

namespace rr::testing {
namespace release_files_test {
namespace {

const std::string kSource = RR_SOURCE_DIR;

std::string ReadAll(const std::string& rel) {
  std::ifstream in(kSource + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Poco::JSON::Object::Ptr ServerJson() {
  Poco::JSON::Parser parser;
  return parser.parse(ReadAll("server.json")).extract<Poco::JSON::Object::Ptr>();
}

TEST(ReleaseFiles, ServerJsonHasTheVersion) {
  const auto server = ServerJson();
  EXPECT_EQ(server->getValue<std::string>("version"), kServerVersion)
      << "server.json's version differs from CMakeLists.txt's project VERSION";
  const auto packages = server->getArray("packages");
  ASSERT_TRUE(packages && packages->size() > 0);
  for (size_t i = 0; i < packages->size(); ++i) {
    const auto p = packages->getObject(i);
    if (p->getValue<std::string>("registryType") == "oci") {
      const std::string id = p->getValue<std::string>("identifier");
      EXPECT_EQ(id.substr(id.rfind(':') + 1), kServerVersion) << id;
    } else {
      EXPECT_EQ(p->getValue<std::string>("version"), kServerVersion);
    }
  }
}

// The published schema's rules (modelcontextprotocol/registry, server.schema.json 2025-12-11):
// the keys it knows, a reverse-DNS name with one slash, a description of 1 to 100 characters, a
// version that is not a range, packages with a known registryType and transport, named
// arguments with a name and positional ones with a value or valueHint.
TEST(ReleaseFiles, ServerJsonFollowsTheRegistrySchema) {
  const auto server = ServerJson();
  EXPECT_EQ(server->getValue<std::string>("$schema"),
            "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
  const std::set<std::string> known = {"$schema",  "name",       "title",      "description",
                                       "version",  "repository", "websiteUrl", "icons",
                                       "packages", "remotes",    "_meta"};
  for (const auto& [key, value] : *server) EXPECT_TRUE(known.count(key)) << "unknown key " << key;
  const std::string name = server->getValue<std::string>("name");
  EXPECT_TRUE(std::regex_match(name, std::regex("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"))) << name;
  EXPECT_GE(name.size(), 3u);
  const std::string description = server->getValue<std::string>("description");
  EXPECT_GE(description.size(), 1u);
  EXPECT_LE(description.size(), 100u) << description;
  EXPECT_TRUE(std::regex_match(server->getValue<std::string>("version"),
                               std::regex("^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?$")));
  const auto packages = server->getArray("packages");
  ASSERT_TRUE(packages);
  const std::set<std::string> registries = {"npm", "pypi", "nuget", "oci", "mcpb"};
  const std::set<std::string> transports = {"stdio", "streamable-http", "sse"};
  const std::set<std::string> package_keys = {
      "registryType",     "registryBaseUrl",     "identifier", "version",
      "fileSha256",       "runtimeHint",         "transport",  "runtimeArguments",
      "packageArguments", "environmentVariables"};
  for (size_t i = 0; i < packages->size(); ++i) {
    const auto p = packages->getObject(i);
    for (const auto& [key, value] : *p) EXPECT_TRUE(package_keys.count(key)) << key;
    EXPECT_TRUE(registries.count(p->getValue<std::string>("registryType")));
    EXPECT_FALSE(p->getValue<std::string>("identifier").empty());
    EXPECT_TRUE(transports.count(p->getObject("transport")->getValue<std::string>("type")));
    for (const char* list : {"runtimeArguments", "packageArguments"}) {
      const auto args = p->getArray(list);
      if (!args) continue;
      if (std::string(list) == "runtimeArguments") {
        EXPECT_TRUE(p->has("runtimeHint"));
      }
      for (size_t j = 0; j < args->size(); ++j) {
        const auto a = args->getObject(j);
        const std::string type = a->getValue<std::string>("type");
        ASSERT_TRUE(type == "named" || type == "positional") << type;
        if (type == "named") {
          EXPECT_FALSE(a->getValue<std::string>("name").empty());
        }
        if (type == "positional") {
          EXPECT_TRUE(a->has("value") || a->has("valueHint"));
        }
      }
    }
  }
}

TEST(ReleaseFiles, ChangelogsNewestEntryIsTheVersion) {
  const std::string log = ReadAll("CHANGELOG.md");
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(log, m, std::regex("\n## \\[([^\\]]+)\\] - \\d{4}-\\d{2}-\\d{2}\n")))
      << "CHANGELOG.md has no `## [VERSION] - YYYY-MM-DD` entry";
  EXPECT_EQ(m[1].str(), kServerVersion) << "CHANGELOG.md's newest entry is not this version";
}

// The docs' package file names and image tags (repo-reader_0.1.0_amd64.deb,
// repo-reader-0.1.0.oci.tar, repo-reader:0.1.0) name this version, never an older one.
TEST(ReleaseFiles, TheDocsNameThisVersionsPackagesAndImage) {
  const std::regex named("repo-reader(-dev)?[_:-]([0-9]+\\.[0-9]+\\.[0-9]+)");
  for (const char* doc : {"README.md", "docs/operating.md", "docs/plugins.md"}) {
    SCOPED_TRACE(doc);
    const std::string text = ReadAll(doc);
    int seen = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), named);
         it != std::sregex_iterator(); ++it, ++seen) {
      EXPECT_EQ((*it)[2].str(), kServerVersion) << doc << " names " << (*it)[0];
    }
    EXPECT_GT(seen, 0) << doc << " names no package or image of this version";
  }
}

}  // namespace
}  // namespace release_files_test
}  // namespace rr::testing
