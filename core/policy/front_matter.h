// SplitFrontMatter: a Markdown file's front matter cut from its text, before any YAML parser sees
// it (guidance rules and skills, core/policy/guidance.h; the skills extension, core/mcp/skills.h).
// A pure function of the file's bytes, kept apart so that the fuzz target (fuzz/) links it alone.
#pragma once

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
  std::string problem;     // present but never closed
};
FrontMatter SplitFrontMatter(std::string_view text);

}  // namespace rr
