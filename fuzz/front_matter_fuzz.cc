// A SKILL.md's or a rule's front matter: SplitFrontMatter cuts it from the file, and
// LoadFrontMatter reads it within its bounds, as the guidance reader (core/guidance/guidance.cc)
// and the skills extension (core/guidance/skills.cc) do. The tree is then walked with a node
// budget.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/guidance/front_matter.h"

namespace {

void Walk(const YAML::Node& n, int depth, size_t* budget) {
  if (*budget == 0 || depth > 200) return;
  --*budget;
  if (n.IsScalar()) {
    (void)n.Scalar().size();
    (void)n.Tag();
  } else if (n.IsSequence()) {
    for (const auto& item : n) Walk(item, depth + 1, budget);
  } else if (n.IsMap()) {
    for (const auto& kv : n) {
      Walk(kv.first, depth + 1, budget);
      Walk(kv.second, depth + 1, budget);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const rr::FrontMatter fm = rr::SplitFrontMatter(text);
  if (fm.present && fm.problem.empty() && (fm.body_offset > text.size())) std::abort();
  if (!fm.present || !fm.problem.empty()) return 0;
  try {
    const YAML::Node root = rr::LoadFrontMatter(fm.yaml);  // bounded, as the server reads it
    size_t budget = 10000;
    Walk(root, 0, &budget);
    if (root.IsMap()) {
      (void)root["name"];
      (void)root["description"];
    }
  } catch (const YAML::Exception&) {
  }
  return 0;
}
