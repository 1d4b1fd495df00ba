#include "core/guidance/guidance_join.h"

#include <algorithm>

#include "core/guidance/guidance.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"

namespace rr {
namespace {

// At most this many paths of one call are looked up (a `paths` argument takes far fewer).
constexpr size_t kMaxPaths = 100;

std::string ShownPaths(const std::vector<const RepoPath*>& paths) {
  std::string s;
  const size_t shown = std::min<size_t>(paths.size(), 3);
  for (size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + paths[i]->Display();
  if (paths.size() > shown) s += " and " + Plural(paths.size() - shown, "more", "more");
  return s;
}

}  // namespace

std::string ReadGuidanceCall(const std::string& tool, const std::string& repo,
                             const std::string& name) {
  JsonWriter args;
  args.BeginObject().Field("repo", repo);
  if (!name.empty()) args.Field("name", name);
  return tool + " " + args.End().Take();
}

void ForEachShownLine(std::string_view text,
                      const std::function<void(std::string shown, std::string read_as)>& add) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    if (nl != std::string_view::npos && !line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    std::string as_scanned;
    std::string shown = DisplayText(line, &as_scanned);
    add(std::move(shown), std::move(as_scanned));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
}

void AppendTextLines(std::string_view text, Draft* d) {
  ForEachShownLine(text, [d](std::string shown, std::string read_as) {
    const size_t n = read_as.size();
    d->AddLine(std::move(shown), std::move(read_as), n);
  });
}

void JoinGuidance(const CallTarget& target, const GuidanceJoin& how, const StopToken& stop,
                  Draft* draft) {
  if (how.reading_tool.empty()) return;
  if (how.way == GuidanceWay::kReads || how.way == GuidanceWay::kNone) return;
  // A tool about many repositories marks its headings; the first line is for a named one.
  if (how.way == GuidanceWay::kMarksHeadings && !target.repo_named) return;
  const std::shared_ptr<const ServedRepo>& repo = target.repo;
  if (!repo) return;
  const std::string& tool = how.reading_tool;
  auto guidance = GuidanceOf(*repo, stop, target.reader.get(),
                             target.reader && target.at && target.at_default
                                 ? std::optional<CommitId>(target.at->commit.id)
                                 : std::nullopt);
  if (!guidance) {
    draft->guidance_line = "The guidance for agents of " + repo->name() + " cannot be read now (" +
                           guidance.error() + "); " + ReadGuidanceCall(tool, repo->name()) +
                           " tries again";
    return;
  }
  const Guidance& g = **guidance;
  if (g.empty()) return;
  draft->guidance_line = repo->name() + " carries guidance for agents — " +
                         ReadGuidanceCall(tool, repo->name()) + " reads it";

  if (how.way != GuidanceWay::kByPaths) return;
  const std::vector<RepoPath> paths = target.NamedPaths(kMaxPaths);
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
    ForEachShownLine(body, [&rule](std::string shown, std::string read_as) {
      if (!read_as.empty()) {
        const size_t n = read_as.size();
        rule.scan_as.push_back({rule.lines.size(), std::move(read_as), n});
      }
      rule.lines.push_back(std::move(shown));
    });
    draft->guidance.push_back(std::move(rule));
  }
  draft->guidance_left_out = [tool, name = repo->name()](const std::vector<std::string>& names) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "[Also in force, not shown here for room (guidance takes at most half of an answer): " +
           list + " — " +
           (names.size() == 1 ? ReadGuidanceCall(tool, name, names.front()) + " reads it"
                              : ReadGuidanceCall(tool, name, "<name>") + " reads each") +
           "]";
  };
}

}  // namespace rr
