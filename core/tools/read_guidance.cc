#include "core/tools/read_guidance.h"

#include "core/guidance/guidance.h"
#include "core/guidance/guidance_join.h"
#include "core/tools/common.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kNamesInError = 30;
constexpr size_t kNamesInSummary = 5;

// Where the guidance was read: "shop · main @ 14a4c0422ae3 (2026-03-01)", and the operator's
// repository and commit when it gave some.
std::string Where(const Guidance& g, const std::string& repo) {
  std::string s = g.owners ? g.owners->at.Where(repo) : repo;
  s += " · guidance for agents";
  if (g.operators) {
    s += ", with the operator's from " + g.operators->at.Where(g.operators->repo);
  }
  return s;
}

std::string NameList(const Guidance& g, size_t most) {
  std::string s;
  size_t shown = 0;
  for (const GuidancePiece* p : g.pieces) {
    if (shown == most) break;
    s += (shown++ ? ", " : "") + DisplayName(p->name);
  }
  if (g.pieces.size() > shown) s += " and " + std::to_string(g.pieces.size() - shown) + " more";
  return s;
}

std::string NoGuidance(const ServedRepo& repo) {
  std::string s = repo.name() +
                  " carries no guidance for agents: none of AGENTS.md, CLAUDE.md, "
                  ".claude/rules, .cursor/rules, .github/instructions, "
                  ".github/copilot-instructions.md or .claude/skills is served on its default "
                  "branch";
  if (!repo.settings().own) {
    s += " that counts (its own files are not taken as guidance: own: false in the "
         "configuration)";
  }
  if (repo.settings().guidance_repo) {
    s += ", nor in the operator's guidance repository " + repo.settings().guidance_repo->name();
  }
  return s + ".";
}

// The text of a piece to show: the text after its front matter, blank lines around trimmed.
std::string_view Trimmed(std::string_view body) {
  while (!body.empty() && (body.front() == '\n' || body.front() == '\r')) body.remove_prefix(1);
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' ')) {
    body.remove_suffix(1);
  }
  return body;
}

// The commit a piece was read at, and the repository it is in.
const GuidanceSource* SourceOf(const Guidance& g, const GuidancePiece& p) {
  const auto& s = p.from.empty() ? g.owners : g.operators;
  return s ? &*s : nullptr;
}

// Everything in force, then the skills.
Draft Overview(const Guidance& g, const ServedRepo& repo, size_t limit) {
  Draft d;
  size_t whole = 0, scoped = 0, skills = 0;
  for (const GuidancePiece* p : g.pieces) {
    if (p->kind == GuidancePiece::Kind::kSkill) {
      ++skills;
    } else if (p->scoped()) {
      ++scoped;
    } else {
      ++whole;
    }
  }
  d.header = Where(g, repo.name()) + " — " + std::to_string(whole) + " for the whole repository, " +
             std::to_string(scoped) + " for some paths, " + Plural(skills, "skill", "skills");
  d.ShowsFile("", 0);
  // Where each piece's section begins, for the cut note.
  std::vector<std::pair<size_t, std::string>> starts;
  auto add = [&](const GuidancePiece* p) {
    starts.push_back({d.lines.size(), p->name});
    d.AddOwnLine("=== " + DisplayName(p->name) + " — for " + p->scope.Describe() + " ===");
    if (!p->note.empty()) {
      d.AddOwnLine("[" + p->note + "]");
    }
    AppendTextLines(Trimmed(p->body()), &d);
  };
  for (const GuidancePiece* p : g.pieces) {
    if (p->kind != GuidancePiece::Kind::kSkill && !p->scoped()) add(p);
  }
  for (const GuidancePiece* p : g.pieces) {
    if (p->kind != GuidancePiece::Kind::kSkill && p->scoped()) add(p);
  }
  if (skills) {
    starts.push_back({d.lines.size(), ""});
    d.AddOwnLine("=== Skills — read one when it fits the task ===");
    for (const GuidancePiece* p : g.pieces) {
      if (p->kind != GuidancePiece::Kind::kSkill) continue;
      std::string line = DisplayName(p->name);
      if (!p->description.empty()) line += " — " + DisplayName(p->description);
      if (!p->note.empty()) line += " [" + p->note + "]";
      d.AddOwnLine(line + " — " + ReadGuidanceCall(kReadGuidanceTool, repo.name(), p->name));
    }
  }
  if (g.incomplete) {
    d.closing.push_back(
        "[Not every folder was looked at for AGENTS.md and CLAUDE.md (over 200,000 different "
        "folders, or 2,000 pieces), or a rules or skills folder holds over 10,000 files: what "
        "is shown may be incomplete.]");
  }
  d.cut_note = [limit, starts, name = repo.name()](const std::vector<std::string>& lines,
                                                   size_t first) {
    // The piece the cut fell in, and every piece after it.
    std::string left;
    for (size_t i = 0; i < starts.size(); ++i) {
      const size_t end = i + 1 < starts.size() ? starts[i + 1].first : lines.size();
      if (end <= first) continue;
      left += (left.empty() ? "" : ", ") +
              (starts[i].second.empty() ? "the skills" : DisplayName(starts[i].second));
    }
    return "[" + Plural(lines.size() - first, "more line", "more lines") +
           " not shown: the answer reached its limit of " + WithCommas(limit) +
           " characters — read each piece whole with " +
           ReadGuidanceCall(kReadGuidanceTool, name, "<name>") + ": " + left + "]";
  };
  return d;
}

// The cut note of one file shown whole from its first line: the read_file call that continues.
std::function<std::string(const std::vector<std::string>&, size_t)> ContinueWithReadFile(
    size_t limit, const GuidanceSource* at, const RepoPath& file, size_t lines_before) {
  return [limit, repo = at ? at->repo : "", commit = at ? at->at.commit.id.Hex() : "", file,
          lines_before](const std::vector<std::string>& lines, size_t first) {
    std::string how;
    if (!repo.empty() && first >= lines_before) {
      how = " — read on with read_file " + JsonWriter()
                                               .BeginObject()
                                               .Field("repo", repo)
                                               .Field("ref", commit.substr(0, 12))
                                               .Field("path", file.str())
                                               .Field("start_line", first - lines_before + 1)
                                               .End()
                                               .Take();
    }
    return "[" + Plural(lines.size() - first, "more line", "more lines") +
           " not shown: the answer reached its limit of " + WithCommas(limit) + " characters" +
           how + "]";
  };
}

Draft OnePiece(const Guidance& g, const ServedRepo& repo, const GuidancePiece& p, size_t limit) {
  Draft d;
  const GuidanceSource* at = SourceOf(g, p);
  const std::string where = Where(g, repo.name()) + " · ";
  if (p.kind == GuidancePiece::Kind::kSkill) {
    d.header = where + "skill " + DisplayName(p.name) + " (" + p.file.Display() + ")";
  } else {
    d.header = where + DisplayName(p.name) + " — for " + p.scope.Describe();
  }
  d.ShowsFile(p.file.str(), 0);
  if (!p.note.empty()) {
    d.AddOwnLine("[" + p.note + "]");
  }
  const size_t before = d.lines.size();
  AppendTextLines(p.text, &d);
  const size_t text_end = d.lines.size();
  if (p.kind == GuidancePiece::Kind::kSkill && p.files.size() > 1) {
    d.AddOwnLine("");
    d.AddOwnLine("Files of this skill, each read with " +
                 ReadGuidanceCall(kReadGuidanceTool, repo.name(), "<file>") + ":");
    for (size_t i = 1; i < p.files.size(); ++i) {
      d.AddOwnLine(DisplayName(Guidance::FileName(p, p.files[i])));
    }
  }
  auto cont = ContinueWithReadFile(limit, at, p.file, before);
  d.cut_note = [cont, text_end, limit](const std::vector<std::string>& lines, size_t first) {
    if (first < text_end) return cont(lines, first);
    return "[" + Plural(lines.size() - first, "more line", "more lines") +
           " not shown: the answer reached its limit of " + WithCommas(limit) + " characters]";
  };
  return d;
}

Result<Draft> SkillFile(const Guidance& g, const ServedRepo& repo, const GuidancePiece& skill,
                        const Node& file, size_t limit) {
  auto data = ReadGuidanceFile(repo, skill, file);
  if (!data) return Error{data.error()};
  Draft d;
  d.header = Where(g, repo.name()) + " · " + DisplayName(Guidance::FileName(skill, file)) +
             " (a file of skill " + DisplayName(skill.name) + ")";
  if (data->binary) {
    d.lines.push_back("A binary file of " + HumanBytes(data->bytes.size()) +
                      "; not shown as text.");
    return d;
  }
  d.ShowsFile(file.path.str(), 0);
  AppendTextLines(data->bytes, &d);
  d.cut_note = ContinueWithReadFile(limit, SourceOf(g, skill), file.path, 0);
  return d;
}

Result<std::shared_ptr<const Guidance>> Found(const ServedRepo& repo, const StopToken& stop) {
  auto g = GuidanceOf(repo, stop);
  if (!g)
    return Error{"the guidance for agents of `" + repo.name() + "` cannot be read: " + g.error()};
  return g;
}

}  // namespace

const ToolSpec& ReadGuidanceTool::spec() const {
  static const ToolSpec s{
      kReadGuidanceTool,
      "Read guidance for agents",
      "The guidance a repository carries for agents — written by its owners (AGENTS.md, "
      "CLAUDE.md, rules, skills) and by the people who run this server — read on its default "
      "branch, whatever ref you read. Without name: everything in force — for the whole "
      "repository, then for some paths (each with its scope) — then the skills, each named with "
      "the call that reads it. With name: that piece in full, or a file of a skill. Answers "
      "about a repository that carries guidance say so on their first line.",
      {RepoArg(),
       {"name", ArgType::kString,
        "One piece, by the name the guidance gives it: a file (AGENTS.md, "
        ".claude/rules/pricing.md, acme-rules:shop/AGENTS.md), a skill (refund-flow) or a file "
        "of a skill. Default: everything in force.",
        false}},
      [] {
        ToolTraits t;
        t.guidance = GuidanceWay::kReads;
        return t;
      }()};
  return s;
}

Result<Draft> ReadGuidanceTool::Call(const CallContext& ctx, const Args& args) const {
  const ServedRepo& r = *ctx.target->repo;
  auto found = Found(r, ctx.stop);
  if (!found) return Error{found.error()};
  const Guidance& g = **found;
  const auto name = args.String("name");
  if (!name) {
    if (g.empty()) {
      Draft d;
      d.header = Where(g, r.name());
      d.lines.push_back(NoGuidance(r));
      return d;
    }
    return Overview(g, r, ctx.answer_characters);
  }
  if (g.empty()) return Error{NoGuidance(r)};
  if (const GuidancePiece* p = g.Find(*name)) return OnePiece(g, r, *p, ctx.answer_characters);
  const auto [skill, file] = g.FindSkillFile(*name);
  if (skill) return SkillFile(g, r, *skill, *file, ctx.answer_characters);
  return Error{"no guidance for agents named `" + EchoArgument(*name) + "` in `" + r.name() +
               "`; the names there are: " + NameList(g, kNamesInError) + " (" +
               ReadGuidanceCall(kReadGuidanceTool, r.name()) + " shows everything in force)"};
}

std::string GuidanceSummary(const ServedRepo& repo, const StopToken& stop) {
  auto g = GuidanceOf(repo, stop);
  if (!g || (*g)->empty()) return "";
  std::string s;
  size_t shown = 0;
  for (const GuidancePiece* p : (*g)->pieces) {
    if (shown == kNamesInSummary) break;
    s += (shown++ ? ", " : "") +
         std::string(p->kind == GuidancePiece::Kind::kSkill ? "skill " : "") + DisplayName(p->name);
  }
  const size_t total = (*g)->pieces.size();
  if (total > shown) s += " and " + std::to_string(total - shown) + " more";
  return s;
}

std::string GuidanceMark(const ServedRepo& repo, const StopToken& stop,
                         const std::optional<CommitId>& head) {
  auto g = GuidanceOf(repo, stop, nullptr, head);
  if (!g || (*g)->empty()) return "";
  return " · carries guidance for agents — " + ReadGuidanceCall(kReadGuidanceTool, repo.name()) +
         " reads it";
}

}  // namespace rr
