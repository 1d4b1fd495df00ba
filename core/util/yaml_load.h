// LoadYaml: YAML text read into yaml-cpp's node tree (YAML::Node, with each node's line and
// column), the tree the configuration code reads -- by libyaml's parser, which reads a
// configuration naming 20,000 repositories several times faster than yaml-cpp's own. The tree is
// the one YAML::Load builds: the first document; a plain `~`, `null`, `Null`, `NULL` or empty
// value is null; a key given twice is kept twice (the configuration code reports it); an alias
// is the node its anchor names. Invalid YAML throws YAML::ParserException with libyaml's
// position and problem, as YAML::Load throws its own.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <limits>
#include <string>

namespace rr {

YAML::Node LoadYaml(const std::string& text);

// Bounds on a tree read from YAML written by others (a SKILL.md's front matter). An alias adds
// the whole node its anchor names each time it is used, so a few hundred bytes of anchors and
// aliases describe a tree of gigabytes to whoever walks it: the tree is measured as if every
// alias were written out (each node counts one, a scalar its bytes too) while it is read.
struct YamlBounds {
  size_t max_depth = std::numeric_limits<size_t>::max();     // collections within collections
  size_t max_aliases = std::numeric_limits<size_t>::max();   // aliases used
  size_t max_expanded = std::numeric_limits<size_t>::max();  // the tree, every alias written out
};

// What LoadYaml throws when a tree would pass a bound.
class YamlBoundsExceeded : public YAML::ParserException {
 public:
  using YAML::ParserException::ParserException;
};

// LoadYaml within `bounds`: text whose tree would pass one throws YamlBoundsExceeded saying
// which bound and where, as soon as the parser reaches it. An alias used inside the node its
// anchor names (a tree that never ends) is refused so too.
YAML::Node LoadYaml(const std::string& text, const YamlBounds& bounds);

// Frees a tree LoadYaml read from `text_bytes` of text; `tree` no longer refers to it after. A
// large one (a configuration naming thousands of repositories) takes as long to free as to read:
// it is freed on a thread of its own, and the memory handed back to the system after
// (GiveBackFreeHeap). A small one is freed at once. The thread is waited for by the next large
// tree, and when the process ends.
void FreeYaml(YAML::Node& tree, size_t text_bytes);

}  // namespace rr
