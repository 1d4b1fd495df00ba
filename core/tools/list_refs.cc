#include "core/tools/list_refs.h"

#include <algorithm>

#include "core/policy/glob.h"
#include "core/tools/common.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxRefs = 200000;

}  // namespace

const ToolSpec& ListRefsTool::spec() const {
  static const ToolSpec s{
      "list_refs",
      "List branches and tags",
      "Branches and tags of one repository, newest first: each one's name, the commit it points "
      "at (for an annotated tag, the commit the tag is on), that commit's date and subject. "
      "* marks the default branch. Any name shown can be given as `ref` to the other tools.",
      {RepoArg(),
       {"kind",
        ArgType::kString,
        "all (default), branches (with remote-tracking branches such as origin/main), or tags.",
        false,
        std::nullopt,
        std::nullopt,
        {"all", "branches", "tags"}},
       {"pattern", ArgType::kString,
        "Only names matching this glob: release/*, v1.*. * matches any characters, ? one.", false}},
      [] {
        ToolTraits t;
        t.open = true;
        return t;
      }()};
  return s;
}

Result<Draft> ListRefsTool::Call(const CallContext& ctx, const Args& args) const {
  const std::shared_ptr<const ServedRepo>& repo = ctx.target->repo;
  RepoReader* reader = ctx.target->reader.get();
  const std::string kind = args.String("kind").value_or("all");
  const auto pattern = args.String("pattern");
  if (pattern) {
    if (pattern->size() > Glob::kMaxBytes) {
      return Error{"argument `pattern` is " + WithCommas(pattern->size()) +
                   " bytes long; a pattern is at most " + WithCommas(Glob::kMaxBytes) +
                   " bytes: write a glob such as v1.*"};
    }
    for (char c : *pattern) {
      if (static_cast<unsigned char>(c) < 0x20) {
        return Error{"argument `pattern` holds a control character; write a glob such as v1.*"};
      }
    }
  }
  bool truncated = false;
  auto refs = reader->Refs(kMaxRefs, &truncated);
  if (!refs) return Error{refs.error()};
  HeadState head = reader->Head();

  std::vector<RefEntry> shown;
  size_t branches = 0, tags = 0;
  for (auto& r : *refs) {
    const bool is_tag = r.kind == RefEntry::Kind::kTag;
    if (kind == "branches" && is_tag) continue;
    if (kind == "tags" && !is_tag) continue;
    if (pattern && !MatchPart(*pattern, r.name, false)) continue;
    (is_tag ? tags : branches)++;
    shown.push_back(std::move(r));
  }
  std::sort(shown.begin(), shown.end(), [](const RefEntry& a, const RefEntry& b) {
    if (a.commit.time != b.commit.time) return a.commit.time > b.commit.time;
    return a.name < b.name;
  });

  Draft d;
  std::string what = kind == "tags"       ? Plural(tags, "tag", "tags")
                     : kind == "branches" ? Plural(branches, "branch", "branches")
                                          : Plural(branches, "branch", "branches") + ", " +
                                                Plural(tags, "tag", "tags");
  d.header = repo->name() + " · " + what +
             (pattern ? " matching `" + EchoArgument(*pattern) + "`" : std::string()) +
             ", newest first";
  if (head.kind == HeadState::Kind::kBranch || head.kind == HeadState::Kind::kUnborn) {
    d.header += " — * marks the default branch, " + DisplayName(head.branch);
  }
  for (const auto& r : shown) {
    const bool is_default = r.kind == RefEntry::Kind::kBranch &&
                            head.kind == HeadState::Kind::kBranch && r.name == head.branch;
    std::string line = is_default ? "* " : "  ";
    line += DisplayName(r.name);
    if (r.kind == RefEntry::Kind::kTag) line += r.annotated ? " (annotated tag)" : " (tag)";
    if (r.kind == RefEntry::Kind::kRemoteBranch) line += " (remote-tracking)";
    line += "  " + r.commit.id.Short() + " " + ShortDate(r.commit.time, r.commit.offset) + "  " +
            DisplayName(r.commit.subject);
    d.lines.push_back(std::move(line));
  }
  if (shown.empty()) {
    d.lines.push_back(pattern ? "No ref matches that pattern." : "No branches or tags.");
  }
  if (truncated) {
    d.closing.push_back("[the repository has more than " + WithCommas(kMaxRefs) +
                        " refs; only the first were read — narrow with pattern]");
  }
  d.cut_note = [](const std::vector<std::string>& lines, size_t first) {
    const size_t left = lines.size() - first;
    return "[" + Plural(left, "more ref", "more refs") +
           " not shown — narrow with pattern (e.g. release/*) or kind]";
  };
  return d;
}

}  // namespace rr
