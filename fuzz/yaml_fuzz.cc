// The configuration's YAML reader (LoadYaml: libyaml's parser building yaml-cpp's tree), then a
// walk over the tree it built, as the configuration code walks it, and FreeYaml.
#include <cstdint>
#include <string>

#include "core/util/yaml_load.h"

namespace {

// Visits at most `*budget` nodes (an alias makes a tree a graph: a small text can name a huge
// tree, which the configuration code never walks whole either).
void Walk(const YAML::Node& n, int depth, size_t* budget) {
  if (*budget == 0 || depth > 200) return;
  --*budget;
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      (void)n.Scalar().size();
      (void)n.Mark().line;
      break;
    case YAML::NodeType::Sequence:
      for (const auto& item : n) Walk(item, depth + 1, budget);
      break;
    case YAML::NodeType::Map:
      for (const auto& kv : n) {
        Walk(kv.first, depth + 1, budget);
        Walk(kv.second, depth + 1, budget);
      }
      break;
    default:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    YAML::Node root = rr::LoadYaml(text);
    size_t budget = 10000;
    Walk(root, 0, &budget);
    if (root.IsMap()) {
      (void)root["repos"];
      (void)root["http"];
    }
    rr::FreeYaml(root, text.size());
  } catch (const YAML::Exception&) {
    // invalid YAML: refused with libyaml's position and problem
  }
  return 0;
}
