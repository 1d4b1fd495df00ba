#include "core/guidance/front_matter.h"

#include "core/util/text.h"
#include "core/util/yaml_load.h"

namespace rr {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

YAML::Node LoadFrontMatter(const std::string& yaml) {
  YamlBounds bounds;
  bounds.max_depth = kMaxFrontMatterDepth;
  bounds.max_aliases = kMaxFrontMatterAliases;
  bounds.max_expanded = kMaxFrontMatterExpanded;
  // A front matter is never larger than SplitFrontMatter lets it be; a text that is, is refused
  // here too, for a caller that did not split it so.
  if (yaml.size() > kMaxFrontMatterBytes) {
    throw YamlBoundsExceeded(YAML::Mark::null_mark(),
                             "it is larger than " + WithCommas(kMaxFrontMatterBytes) +
                                 " bytes, the most a front matter may hold");
  }
  return LoadYaml(yaml, bounds);
}

FrontMatter SplitFrontMatter(std::string_view text) {
  FrontMatter fm;
  size_t pos = 0;
  if (StartsWith(text, "\xEF\xBB\xBF")) pos = 3;
  auto line_at = [&](size_t from, size_t* next) {
    size_t nl = text.find('\n', from);
    *next = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line =
        text.substr(from, (nl == std::string_view::npos ? text.size() : nl) - from);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };
  size_t next = 0;
  if (line_at(pos, &next) != "---" || (next == text.size() && text.back() != '\n')) {
    return fm;  // not a first line `---` ended by a line end
  }
  fm.present = true;
  pos = next;
  while (pos < text.size()) {
    std::string_view line = line_at(pos, &next);
    size_t i = 3;
    if (StartsWith(line, "---")) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) {
        fm.body_offset = next;
        return fm;
      }
    }
    if (fm.yaml.size() + line.size() + 1 > kMaxFrontMatterBytes) {
      fm.problem = "it is larger than " + WithCommas(kMaxFrontMatterBytes) +
                   " bytes, the most a front matter may hold";
      fm.yaml.clear();
      return fm;
    }
    fm.yaml.append(line);
    fm.yaml.push_back('\n');
    pos = next;
  }
  fm.problem = "the `---` on its first line is never closed by another `---` line";
  fm.yaml.clear();
  return fm;
}

}  // namespace rr
