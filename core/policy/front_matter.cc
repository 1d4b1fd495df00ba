#include "core/policy/front_matter.h"

namespace rr {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

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
    fm.yaml.append(line);
    fm.yaml.push_back('\n');
    pos = next;
  }
  fm.problem = "the `---` on its first line is never closed by another `---` line";
  fm.yaml.clear();
  return fm;
}

}  // namespace rr
