// docs/tools.md and tools/list must agree: every tool has a section, every section is a tool,
// and each section's argument table lists exactly the tool's arguments, with their types and
// whether they are required.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/tools/tool.h"

namespace rr {
namespace tools_doc_test {
namespace {

struct DocArg {
  std::string type;
  bool required;
};

std::map<std::string, std::map<std::string, DocArg>> ReadDoc() {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/docs/tools.md");
  EXPECT_TRUE(in) << "docs/tools.md is missing";
  std::map<std::string, std::map<std::string, DocArg>> tools;
  std::string line, current;
  const std::regex heading(R"(^## ([a-z_]+)\s*$)");
  const std::regex row(
      R"(^\| `([a-z_]+)` \| (string|integer|boolean|list of strings) \| (yes|no) \|)");
  std::smatch m;
  bool in_code = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    if (in_code) continue;
    if (std::regex_match(line, m, heading)) {
      current = m[1];
      tools[current];
    } else if (line.rfind("## ", 0) == 0) {
      current.clear();  // a section that is not a tool ("What every reading tool shares")
    } else if (!current.empty() && std::regex_search(line, m, row)) {
      tools[current][m[1]] = DocArg{m[2], m[3] == "yes"};
    }
  }
  return tools;
}

const char* TypeName(ArgType t) {
  switch (t) {
    case ArgType::kString:
      return "string";
    case ArgType::kInteger:
      return "integer";
    case ArgType::kBoolean:
      return "boolean";
    case ArgType::kStrings:
      return "list of strings";
  }
  return "";
}

TEST(ToolsDoc, EveryToolIsDocumentedWithExactlyItsArguments) {
  auto doc = ReadDoc();
  auto tools = BuiltinTools();
  for (const auto& t : tools) {
    const ToolSpec& s = t->spec();
    ASSERT_TRUE(doc.count(s.name)) << "docs/tools.md has no section `## " << s.name << "`";
    auto& documented = doc[s.name];
    for (const auto& a : s.args) {
      ASSERT_TRUE(documented.count(a.name))
          << s.name << ": argument `" << a.name << "` is not in docs/tools.md";
      EXPECT_EQ(documented[a.name].type, TypeName(a.type)) << s.name << "." << a.name;
      EXPECT_EQ(documented[a.name].required, a.required) << s.name << "." << a.name;
      documented.erase(a.name);
    }
    for (const auto& [name, _] : documented) {
      ADD_FAILURE() << s.name << ": docs/tools.md documents `" << name
                    << "`, which the tool does not take";
    }
    doc.erase(s.name);
  }
  for (const auto& [name, _] : doc) {
    ADD_FAILURE() << "docs/tools.md documents a tool `" << name << "` that tools/list lacks";
  }
}

TEST(ToolsDoc, EveryToolAndArgumentHasADescription) {
  for (const auto& t : BuiltinTools()) {
    const ToolSpec& s = t->spec();
    EXPECT_GT(s.description.size(), 40u) << s.name;
    EXPECT_FALSE(s.title.empty()) << s.name;
    for (const auto& a : s.args) EXPECT_GT(a.description.size(), 10u) << s.name << "." << a.name;
  }
}

// Tools reach git only through core/policy (RepoReader), which applies include / exclude:
// a tool that included the git layer directly could read around the policy.
TEST(Architecture, ToolsNeverIncludeTheGitLayer) {
  for (const auto& t : BuiltinTools()) {
    const std::string file = std::string(RR_SOURCE_DIR) + "/core/tools/" + t->spec().name + ".cc";
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str().find("core/git/"), std::string::npos) << file;
    EXPECT_EQ(ss.str().find("git2.h"), std::string::npos) << file;
    EXPECT_EQ(ss.str().find("git_"), std::string::npos) << file << " calls libgit2 directly";
  }
}

}  // namespace
}  // namespace tools_doc_test
}  // namespace rr
