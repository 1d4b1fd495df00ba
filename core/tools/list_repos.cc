#include "core/tools/list_repos.h"

#include "core/tools/mirror_lines.h"
#include "core/tools/read_guidance.h"
#include "core/util/text.h"

namespace rr {
namespace {

void Describe(const ServedRepo& repo, const StopToken& stop, std::vector<std::string>& out) {
  out.push_back("## " + repo.name());
  if (!repo.description().empty()) out.push_back(DisplayName(repo.description()));
  if (AddMirrorLines(repo, out)) return;
  auto reader = repo.Open();
  if (!reader) {
    out.push_back("Cannot be read now: " + reader.error());
    return;
  }
  HeadState head = reader->Head();
  if (head.kind == HeadState::Kind::kUnborn) {
    out.push_back("Default branch: " + DisplayName(head.branch) + " — no commit yet");
  } else if (head.kind == HeadState::Kind::kBroken) {
    out.push_back("Default branch: unreadable (" + head.problem + ")");
  }
  std::optional<ReadPoint> at;
  if (head.kind == HeadState::Kind::kBranch || head.kind == HeadState::Kind::kDetached) {
    auto a = reader->At(std::nullopt);
    if (a) {
      at = a.take();
      out.push_back("Default branch: " + DisplayName(at->label) + " @ " + at->commit.id.Short() +
                    " (" + ShortDate(at->commit.time, at->commit.offset) + ") — " +
                    DisplayName(at->commit.subject));
    } else {
      out.push_back("Default branch: " + a.error());
    }
  }
  auto counts = reader->CountRefs();
  if (counts) {
    std::string line = Plural(counts->branches, "branch", "branches");
    if (counts->remotes) {
      line += ", " + Plural(counts->remotes, "remote-tracking branch", "remote-tracking branches");
    }
    line += ", " + Plural(counts->tags, "tag", "tags") + " — list_refs lists them";
    out.push_back(line);
  } else {
    out.push_back("Branches and tags: " + counts.error());
  }
  if (repo.policy().partial()) {
    out.push_back("Only part of it is served (include / exclude in the configuration).");
  }
  if (at) {
    const std::string found = GuidanceSummary(repo, stop);
    if (!found.empty()) out.push_back("Carries guidance for agents: " + found + ".");
  }
}

}  // namespace

const ToolSpec& ListReposTool::spec() const {
  static const ToolSpec s{
      "list_repos",
      "List repositories",
      "The repositories this server reads. For each: its name (the `repo` argument of every other "
      "tool), its description, its default branch with the commit it is at (date and subject), "
      "how many branches and tags it has, whether only part of it is served, and whether it "
      "carries guidance for agents. Takes nothing.",
      {}};
  return s;
}

Result<Draft> ListReposTool::Call(const CallContext& ctx, const Args&) const {
  const auto repos = ctx.catalog->listed();
  Draft d;
  d.header = "repo-reader · " + Plural(repos.size(), "repository", "repositories") + " served";
  for (const auto& r : repos) {
    if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
    if (!d.lines.empty()) d.lines.push_back("");
    Describe(*r, ctx.stop, d.lines);
  }
  if (repos.empty()) d.lines.push_back("No repository is listed (see the configuration's repos).");
  d.cut_note = [limit = ctx.answer_characters](const std::vector<std::string>& lines,
                                               size_t first) {
    const size_t left = lines.size() - first;
    return "[" + Plural(left, "more line", "more lines") +
           " not shown: the answer reached its limit of " + WithCommas(limit) +
           " characters — list_refs and list_files read one repository at a time]";
  };
  return d;
}

}  // namespace rr
