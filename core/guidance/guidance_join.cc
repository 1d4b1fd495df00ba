#include "core/guidance/guidance_join.h"

#include <Poco/JSON/Array.h>

#include <algorithm>

#include "core/guidance/guidance.h"
#include "core/util/json_text.h"
#include "core/util/text.h"

namespace rr {
namespace {

// At most this many paths of one call are looked up (read_file's `paths` takes up to 20).
constexpr size_t kMaxPaths = 100;

// The repository the call is about: its `repo`, or the only one served when the tool takes
// `repo` and it was left out. Null when none.
std::shared_ptr<const ServedRepo> RepoOfCall(const Catalog& catalog, const GuidanceCall& tool,
                                             const Poco::JSON::Object::Ptr& arguments) {
  if (!tool.takes_repo) return nullptr;
  if (arguments && arguments->has("repo") && arguments->get("repo").isString()) {
    auto r = catalog.Find(arguments->getValue<std::string>("repo"));
    return r ? r.take() : nullptr;
  }
  // Without `repo`, a tool that also takes `repos` reads many (find_files): it marks headings.
  if (tool.takes_repos) return nullptr;
  return catalog.all().size() == 1 ? catalog.all().front() : nullptr;
}

// The paths the call names: `path` and the strings of `paths`, each once, in order.
std::vector<RepoPath> PathsOfCall(const Poco::JSON::Object::Ptr& arguments) {
  std::vector<RepoPath> out;
  if (!arguments) return out;
  auto add = [&out](const Poco::Dynamic::Var& v) {
    if (out.size() >= kMaxPaths || !v.isString()) return;
    auto p = RepoPath::Parse(v.extract<std::string>());
    if (p && !p->is_root() && std::find(out.begin(), out.end(), *p) == out.end()) {
      out.push_back(p.take());
    }
  };
  if (arguments->has("path")) add(arguments->get("path"));
  if (arguments->has("paths") && arguments->get("paths").type() == typeid(Poco::JSON::Array::Ptr)) {
    const auto paths = arguments->getArray("paths");
    for (size_t i = 0; i < paths->size(); ++i) add(paths->get(static_cast<unsigned>(i)));
  }
  return out;
}

std::string ShownPaths(const std::vector<const RepoPath*>& paths) {
  std::string s;
  const size_t shown = std::min<size_t>(paths.size(), 3);
  for (size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + paths[i]->Display();
  if (paths.size() > shown) s += " and " + Plural(paths.size() - shown, "more", "more");
  return s;
}

}  // namespace

std::string ReadGuidanceCall(const std::string& repo, const std::string& name) {
  std::string call = std::string(kReadGuidanceTool) + " {\"repo\":" + JsonQuote(repo);
  if (!name.empty()) call += ",\"name\":" + JsonQuote(name);
  return call + "}";
}

void AppendTextLines(std::string_view text, std::vector<std::string>* lines,
                     std::vector<Draft::ScanAs>* scan) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    if (nl != std::string_view::npos && !line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    std::string as_scanned;
    std::string shown = DisplayText(line, &as_scanned);
    if (!as_scanned.empty()) {
      const size_t n = as_scanned.size();
      scan->push_back(Draft::ScanAs{lines->size(), std::move(as_scanned), n});
    }
    lines->push_back(std::move(shown));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
}

void JoinGuidance(const Catalog& catalog, const GuidanceCall& tool,
                  const Poco::JSON::Object::Ptr& arguments, const StopToken& stop, Draft* draft) {
  if (tool.tool == kReadGuidanceTool) return;
  const auto repo = RepoOfCall(catalog, tool, arguments);
  if (!repo) return;
  auto guidance = GuidanceOf(*repo, stop);
  if (!guidance) {
    draft->guidance_line = "The guidance for agents of " + repo->name() + " cannot be read now (" +
                           guidance.error() + "); " + ReadGuidanceCall(repo->name()) +
                           " tries again";
    return;
  }
  const Guidance& g = **guidance;
  if (g.empty()) return;
  draft->guidance_line = repo->name() + " carries guidance for agents — " +
                         ReadGuidanceCall(repo->name()) + " reads it";

  const std::vector<RepoPath> paths = PathsOfCall(arguments);
  if (paths.empty()) return;
  // Each scoped rule in force for one of the paths, with the paths it is for.
  std::vector<std::pair<const GuidancePiece*, std::vector<const RepoPath*>>> rules;
  for (const RepoPath& path : paths) {
    for (const GuidancePiece* p : g.Covering(path)) {
      auto it =
          std::find_if(rules.begin(), rules.end(), [p](const auto& r) { return r.first == p; });
      if (it == rules.end()) it = rules.insert(rules.end(), {p, {}});
      it->second.push_back(&path);
    }
  }
  if (rules.empty()) return;
  // In the order the guidance lists them (the operator's first).
  std::stable_sort(rules.begin(), rules.end(), [&g](const auto& a, const auto& b) {
    return std::find(g.pieces.begin(), g.pieces.end(), a.first) <
           std::find(g.pieces.begin(), g.pieces.end(), b.first);
  });
  for (const auto& [piece, for_paths] : rules) {
    Draft::GuidanceRule rule;
    rule.name = DisplayName(piece->name);
    rule.opener = "=== Guidance for " + ShownPaths(for_paths) + ": " + rule.name + " (" +
                  piece->scope.Describe() + ") ===";
    rule.path = piece->file.str();
    std::string_view body = piece->body();
    while (!body.empty() && (body.front() == '\n' || body.front() == '\r')) body.remove_prefix(1);
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' ')) {
      body.remove_suffix(1);
    }
    if (!piece->note.empty()) rule.lines.push_back("[" + piece->note + "]");
    AppendTextLines(body, &rule.lines, &rule.scan_as);
    draft->guidance.push_back(std::move(rule));
  }
  draft->guidance_left_out = [name = repo->name()](const std::vector<std::string>& names) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "[Also in force, not shown here for room (guidance takes at most half of an answer): " +
           list + " — " +
           (names.size() == 1 ? ReadGuidanceCall(name, names.front()) + " reads it"
                              : ReadGuidanceCall(name, "<name>") + " reads each") +
           "]";
  };
}

}  // namespace rr
