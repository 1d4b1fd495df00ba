// A Markdown file's front matter (guidance rules and skills, core/guidance/guidance.h; the skills
// extension, core/guidance/skills.h): cut from the file's text, then read as YAML within bounds.
// Pure functions of the file's bytes, kept apart so that the fuzz targets (fuzz/) link them alone.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace rr {

// A front matter: the YAML between a first line `---` and the next line `---` (a byte order
// mark and CRLF line ends allowed), as SKILL.md readers split it.
struct FrontMatter {
  bool present = false;    // the text begins with a `---` line
  std::string yaml;        // the YAML, LF line ends
  size_t body_offset = 0;  // where the text after the closing line begins
  std::string problem;     // present but never closed, or larger than kMaxFrontMatterBytes
};
FrontMatter SplitFrontMatter(std::string_view text);

// A front matter is written by whoever can push to a repository, and read for every agent: its
// YAML is read within bounds (docs/safety.md, "Front matter is read within bounds").
inline constexpr size_t kMaxFrontMatterBytes = 64 * 1024;  // its YAML's text
inline constexpr size_t kMaxFrontMatterDepth = 32;         // collections within collections
inline constexpr size_t kMaxFrontMatterAliases = 100;      // aliases (*name) used
// The tree with every alias written out: no larger than a front matter may be written.
inline constexpr size_t kMaxFrontMatterExpanded = kMaxFrontMatterBytes;

// The tree of a front matter's YAML (fm.yaml), read within the bounds above. Throws
// YAML::Exception: YamlBoundsExceeded (core/util/yaml_load.h) past a bound, another when the
// text is not YAML.
YAML::Node LoadFrontMatter(const std::string& yaml);

}  // namespace rr
