// The layers of docs/architecture.md hold in the code: each `core/` folder includes only the
// folders the document allows it, the allowed arrows have no circle, and neither `sdk/` nor
// `plugins/` includes anything of `core/`; and the build states the same layers:
// core/CMakeLists.txt makes one library a folder, linked to exactly the folders the document allows
// it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rr {
namespace layering_test {
namespace {

namespace fs = std::filesystem;
using Arrows = std::map<std::string, std::set<std::string>>;

// "- `core/tools/` may include: answer, guidance, util" lines of docs/architecture.md.
Arrows ReadAllowed() {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/docs/architecture.md");
  EXPECT_TRUE(in) << "docs/architecture.md is missing";
  Arrows allowed;
  std::string line;
  const std::string lead = "- `core/", mid = "/` may include: ";
  while (std::getline(in, line)) {
    if (line.rfind(lead, 0) != 0) continue;
    const size_t m = line.find(mid);
    if (m == std::string::npos) continue;
    const std::string from = line.substr(lead.size(), m - lead.size());
    auto& to = allowed[from];
    std::stringstream rest(line.substr(m + mid.size()));
    std::string item;
    while (std::getline(rest, item, ',')) {
      const size_t b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b == std::string::npos) continue;
      item = item.substr(b, e - b + 1);
      if (item != "(nothing)") to.insert(item);
    }
  }
  return allowed;
}

// Every `#include "core/<folder>/…"` in the files below `dir`, as (file, folder included).
std::vector<std::pair<std::string, std::string>> CoreIncludes(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!fs::exists(dir)) return out;
  const std::string tag = "#include \"core/";
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const auto ext = e.path().extension();
    if (ext != ".h" && ext != ".cc") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind(tag, 0) != 0) continue;
      const size_t slash = line.find('/', tag.size());
      if (slash == std::string::npos) continue;  // core/version.h: the one file at the top
      out.emplace_back(fs::relative(e.path(), RR_SOURCE_DIR).string(),
                       line.substr(tag.size(), slash - tag.size()));
    }
  }
  return out;
}

TEST(Layering, EveryCoreFolderIsInTheDocument) {
  const Arrows allowed = ReadAllowed();
  ASSERT_FALSE(allowed.empty()) << "docs/architecture.md lists no layers";
  for (const auto& e : fs::directory_iterator(fs::path(RR_SOURCE_DIR) / "core")) {
    if (!e.is_directory()) continue;
    EXPECT_TRUE(allowed.count(e.path().filename().string()))
        << "core/" << e.path().filename().string()
        << "/ is not in docs/architecture.md's layers: add it with what it may include";
  }
}

TEST(Layering, NoIncludeOutsideTheAllowedArrows) {
  const Arrows allowed = ReadAllowed();
  ASSERT_FALSE(allowed.empty());
  size_t seen = 0;
  for (const auto& [file, to] : CoreIncludes(fs::path(RR_SOURCE_DIR) / "core")) {
    const std::string from = fs::path(file).begin()->string() == "core"
                                 ? std::next(fs::path(file).begin())->string()
                                 : std::string();
    ++seen;
    if (from == to) continue;
    auto it = allowed.find(from);
    ASSERT_NE(it, allowed.end()) << file << ": core/" << from << "/ has no layer";
    EXPECT_TRUE(it->second.count(to))
        << file << " includes core/" << to << "/, which docs/architecture.md does not allow core/"
        << from << "/ to include: move the code to where it belongs, or add the arrow if it "
        << "keeps the layers";
  }
  EXPECT_GT(seen, 100u) << "the include scan found too little: is RR_SOURCE_DIR right?";
}

TEST(Layering, TheAllowedArrowsHaveNoCircle) {
  const Arrows allowed = ReadAllowed();
  std::map<std::string, int> state;  // 1: on the path, 2: done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& u) {
    state[u] = 1;
    path.push_back(u);
    auto it = allowed.find(u);
    if (it != allowed.end()) {
      for (const auto& v : it->second) {
        if (state[v] == 1) {
          std::string circle;
          for (const auto& p : path) circle += p + " -> ";
          ADD_FAILURE() << "a circle in docs/architecture.md's layers: " << circle << v;
        } else if (state[v] == 0) {
          visit(v);
        }
      }
    }
    path.pop_back();
    state[u] = 2;
  };
  for (const auto& [u, _] : allowed) {
    if (state[u] == 0) visit(u);
  }
}

// The rr_layer(...) calls of core/CMakeLists.txt: folder -> (the folders it USES, its SOURCES).
struct Layer {
  std::set<std::string> uses;
  std::vector<std::string> sources;
};
std::map<std::string, Layer> ReadLayers() {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/core/CMakeLists.txt");
  EXPECT_TRUE(in) << "core/CMakeLists.txt is missing";
  std::map<std::string, Layer> layers;
  std::string line, folder, section;
  while (std::getline(in, line)) {
    if (line.rfind("rr_layer(", 0) == 0) {
      folder = line.substr(9);
      section.clear();
      layers[folder];
      continue;
    }
    if (folder.empty()) continue;
    if (line == ")") {
      folder.clear();
      continue;
    }
    std::stringstream words(line);
    std::string w;
    while (words >> w) {
      if (w == "USES" || w == "SOURCES") {
        section = w;
      } else if (section == "USES") {
        layers[folder].uses.insert(w);
      } else if (section == "SOURCES") {
        layers[folder].sources.push_back(w);
      }
    }
  }
  return layers;
}

TEST(Layering, EachCoreFolderIsALibraryLinkedToWhatItMayInclude) {
  const Arrows allowed = ReadAllowed();
  const auto layers = ReadLayers();
  ASSERT_FALSE(layers.empty()) << "core/CMakeLists.txt has no rr_layer(...)";
  for (const auto& [folder, may] : allowed) {
    auto it = layers.find(folder);
    if (it == layers.end()) {
      // A folder of headers only needs no library.
      bool has_source = false;
      for (const auto& e : fs::directory_iterator(fs::path(RR_SOURCE_DIR) / "core" / folder)) {
        has_source = has_source || e.path().extension() == ".cc";
      }
      EXPECT_FALSE(has_source) << "core/" << folder << "/ has sources but no rr_layer(" << folder
                               << ") in core/CMakeLists.txt";
      continue;
    }
    EXPECT_EQ(it->second.uses, may)
        << "rr_layer(" << folder << ") in core/CMakeLists.txt must USE exactly what "
        << "docs/architecture.md lets core/" << folder << "/ include";
  }
  for (const auto& [folder, layer] : layers) {
    EXPECT_TRUE(allowed.count(folder))
        << "rr_layer(" << folder << ") names no folder of the document";
    for (const auto& src : layer.sources) {
      EXPECT_EQ(src.rfind(folder + "/", 0), 0u)
          << "rr_layer(" << folder << ") builds " << src << ", a file of another folder";
    }
  }
}

TEST(Layering, EveryCoreSourceIsBuiltByItsFoldersLibrary) {
  const auto layers = ReadLayers();
  std::set<std::string> built;
  for (const auto& [_, layer] : layers) built.insert(layer.sources.begin(), layer.sources.end());
  const fs::path core = fs::path(RR_SOURCE_DIR) / "core";
  for (const auto& e : fs::recursive_directory_iterator(core)) {
    if (!e.is_regular_file() || e.path().extension() != ".cc") continue;
    const std::string rel = fs::relative(e.path(), core).string();
    if (rel == "app/main.cc") continue;  // the server's own executable
    EXPECT_TRUE(built.count(rel)) << "core/" << rel
                                  << " is in no rr_layer(...) of core/CMakeLists.txt";
  }
}

TEST(Layering, PluginsAndTheSdkIncludeNothingOfTheCore) {
  for (const char* dir : {"sdk", "plugins"}) {
    for (const auto& [file, to] : CoreIncludes(fs::path(RR_SOURCE_DIR) / dir)) {
      ADD_FAILURE() << file << " includes core/" << to
                    << "/: plugins and the SDK are built against sdk/include only";
    }
  }
}

}  // namespace
}  // namespace layering_test
}  // namespace rr
