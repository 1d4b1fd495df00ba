// The tree as the docs describe it. The README's layout section names what the tree holds: every
// folder at the top of the source tree (but the build folders .gitignore keeps out), every
// folder of `core/` and every file directly in it, and every folder of `plugins/`, `sdk/` and
// `tests/`; a folder added without a word in the README fails here. And every test file keeps
// its helpers in a namespace of its own (docs/architecture.md): the test files are compiled
// several to a unit, so two files' helpers of one name in a shared namespace collide as soon as
// a new file moves them into one unit.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rr::testing::tree {
namespace {

namespace fs = std::filesystem;

// The README's "## Layout" section, up to the next heading of its level.
std::string LayoutSection() {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/README.md");
  EXPECT_TRUE(in) << "README.md is missing";
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const size_t begin = text.find("\n## Layout\n");
  if (begin == std::string::npos) return "";
  const size_t end = text.find("\n## ", begin + 1);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The names in `folder` (relative to the source tree) that are folders, or files when `files`.
std::vector<std::string> Entries(const std::string& folder, bool files) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(RR_SOURCE_DIR) / folder)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.' || name.rfind("build", 0) == 0) continue;
    if (name == "node_modules" || name == "dist") continue;  // .gitignore'd, made by tools
    if (e.is_directory() != !files) continue;
    out.push_back(name);
  }
  return out;
}

TEST(ReadmeLayout, NamesEveryTopFolderAndEveryFolderOfCorePluginsSdkAndTests) {
  const std::string layout = LayoutSection();
  ASSERT_FALSE(layout.empty()) << "README.md has no `## Layout` section";
  size_t checked = 0;
  for (const auto& top : Entries("", false)) {
    ++checked;
    EXPECT_NE(layout.find("`" + top + "/`"), std::string::npos)
        << "README.md's layout does not name `" << top << "/`";
  }
  for (const std::string parent : {"core", "plugins", "sdk", "tests"}) {
    for (const auto& sub : Entries(parent, false)) {
      ++checked;
      // `core/`'s folders are listed under it as `app/`; a test folder named for a core folder
      // is covered by "a folder for each core folder".
      const bool named = layout.find("`" + sub + "/`") != std::string::npos;
      const bool mirrors_core =
          parent == "tests" && fs::is_directory(fs::path(RR_SOURCE_DIR) / "core" / sub);
      EXPECT_TRUE(named || mirrors_core)
          << "README.md's layout does not name `" << parent << "/" << sub << "/`";
    }
  }
  for (const auto& file : Entries("core", true)) {
    ++checked;
    EXPECT_TRUE(layout.find("`" + file + "`") != std::string::npos ||
                layout.find("`core/" + file + "`") != std::string::npos)
        << "README.md's layout does not name `core/" << file << "`";
  }
  EXPECT_GT(checked, 40u);  // the tree was read
}

// Each test file's namespaces, as `namespace a::b {` lines open them (`` for an anonymous one).
std::vector<std::string> NamespacesOpened(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  static const std::regex kOpen(R"(^namespace ([A-Za-z_:0-9]*) ?\{\s*$)");
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, kOpen)) out.push_back(m[1]);
  }
  return out;
}

TEST(TestFiles, EachKeepsItsHelpersInANamespaceOfItsOwn) {
  // For every test file: the namespace each of its anonymous namespaces sits in (the one opened
  // just before it), which no other test file may open.
  std::map<std::string, std::set<std::string>> opened_by;  // namespace -> files
  std::multimap<std::string, std::string> home;  // file -> each anonymous namespace's parent
  size_t files = 0;
  for (const auto& folder : fs::directory_iterator(fs::path(RR_SOURCE_DIR) / "tests")) {
    if (!folder.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(folder.path())) {
      const std::string name = e.path().filename().string();
      if (name.size() < 8 || name.compare(name.size() - 8, 8, "_test.cc") != 0) continue;
      ++files;
      const std::string rel = folder.path().filename().string() + "/" + name;
      const auto spaces = NamespacesOpened(e.path());
      for (size_t i = 0; i < spaces.size(); ++i) {
        if (!spaces[i].empty()) opened_by[spaces[i]].insert(rel);
        if (spaces[i].empty()) home.emplace(rel, i > 0 ? spaces[i - 1] : "");
      }
    }
  }
  ASSERT_GT(files, 100u);
  for (const auto& [file, space] : home) {
    EXPECT_FALSE(space.empty() || space == "rr" || space == "rr::testing")
        << file << ": its anonymous namespace is not inside a namespace of the file's own "
        << "(write `namespace <file>_test {` around it)";
    if (space.empty() || space == "rr" || space == "rr::testing") continue;
    EXPECT_EQ(opened_by[space].size(), 1u)
        << file << ": namespace " << space << " is opened by " << opened_by[space].size()
        << " test files; give each its own";
  }
}

}  // namespace
}  // namespace rr::testing::tree
