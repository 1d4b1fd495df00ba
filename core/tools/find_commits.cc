#include "core/tools/find_commits.h"

#include <ctime>

#include "core/tools/common.h"
#include "core/tools/first_few.h"
#include "core/tools/history_common.h"
#include "core/tools/read_guidance.h"
#include "core/util/text.h"

namespace rr {

const ToolSpec& FindCommitsTool::spec() const {
  static const ToolSpec s = [] {
    ToolSpec t{
        "find_commits",
        "Find commits across repositories",
        "When did this land, and which release has it? Commits whose message (or author, or "
        "date) matches, across every branch and tag of every repository at once (or those "
        "named). Per repository, newest first: id, date, author, subject, and where it is — on "
        "the default branch or on which branches, and the first tag that holds it. Give "
        "message or author (and since / until to bound it).",
        {}};
    for (auto& a : HistoryFilterArgs()) t.args.push_back(std::move(a));
    t.args.push_back(ReposArg());
    t.args.push_back({"max_count", ArgType::kInteger,
                      "At most this many commits per repository. Default 10, at most 100.", false,
                      1, 100});
    t.traits.guidance = GuidanceWay::kMarksHeadings;
    t.traits.check_first = [](const Args& args) -> Status {
      if (!args.String("message") && !args.String("author")) {
        return Error{
            "give `message` (an extended regular expression) or `author` to find commits "
            "by; since / until bound the search"};
      }
      return CheckFilter(args);
    };
    return t;
  }();
  return s;
}

Result<Draft> FindCommitsTool::Call(const CallContext& ctx, const Args& args) const {
  auto filter = FilterOf(ctx, args, static_cast<int64_t>(std::time(nullptr)));
  if (!filter) return Error{filter.error()};
  filter->skip_hidden_messages = true;
  const size_t max_count = static_cast<size_t>(args.Integer("max_count").value_or(10));

  const std::vector<std::shared_ptr<const ServedRepo>>& repos = ctx.target->repos;

  Draft d;
  d.ShowsCommitMessages();
  size_t total = 0, with = 0, failed = 0, costly = 0;
  FirstFew partial;
  // Progress: the commits walked so far, over every repository (so it only grows).
  uint64_t walked_before = 0, walked_here = 0;
  size_t index = 0;
  for (const auto& repo : repos) {
    ++index;
    walked_before += walked_here;
    walked_here = 0;
    if (ctx.stop.stopped()) {
      partial.Add(repo->name());
      continue;
    }
    auto reader = repo->Open();
    if (!reader) {
      d.lines.push_back("## " + repo->name() + " — not read: " + reader.error());
      failed++;
      continue;
    }
    const std::string where = repos.size() > 1 ? " (repository " + WithCommas(index) + " of " +
                                                     WithCommas(repos.size()) + ")"
                                               : std::string();
    auto found = FindCommits(reader.value(), *filter, max_count, ctx.stop, [&](uint64_t walked) {
      walked_here = walked;
      ctx.Progress(walked_before + walked, std::nullopt,
                   WithCommas(walked_before + walked) + " commits walked" + where);
    });
    if (!found) {
      d.lines.push_back("## " + repo->name() + " — not read: " + found.error());
      failed++;
      continue;
    }
    if (!found->stopped.empty()) partial.Add(repo->name());
    if (found->too_costly.count) {
      costly += found->too_costly.count;
      d.closing.push_back(
          TooCostlyNote(found->too_costly, repos.size() > 1 ? " in " + repo->name() : ""));
    }
    if (found->commits.empty()) continue;
    with++;
    total += found->commits.size();
    std::string heading =
        "## " + repo->name() + " · " + Plural(found->commits.size(), "commit", "commits");
    if (found->more) heading += " (more: narrow with since / until, or raise max_count)";
    if (repo->policy().partial()) heading += " · served in part";
    heading += GuidanceMark(*repo, ctx.stop);
    d.lines.push_back(std::move(heading));
    const std::string main =
        found->default_branch.empty() ? "the default branch" : DisplayName(found->default_branch);
    for (const auto& fc : found->commits) {
      d.lines.push_back(CommitLineText(fc.commit));
      std::string where = "    ";
      if (fc.on_default) {
        where += "on " + main;
      } else if (fc.branches.empty()) {
        where += "not on " + main + ": on no branch (only in tags)";
      } else {
        where += "not on " + main + ": on ";
        for (size_t i = 0; i < fc.branches.size(); i++) {
          if (i) where += ", ";
          where += DisplayName(fc.branches[i]);
        }
        if (fc.more_branches) where += " and " + WithCommas(fc.more_branches) + " more";
      }
      where += fc.first_tag.empty() ? " · in no tag yet"
                                    : " · first released in " + DisplayName(fc.first_tag);
      d.lines.push_back(std::move(where));
    }
  }
  if (std::string failure = filter->failures->First(); !failure.empty()) {
    Draft withheld;
    withheld.withheld = std::move(failure);
    return withheld;
  }
  if (!repos.empty() && failed == repos.size()) {
    // Nothing could be searched: an error, saying why for each.
    std::string why;
    for (const auto& line : d.lines) why += (why.empty() ? "" : "\n") + line.substr(3);
    return Error{why};
  }
  d.header = "Commits" + DescribeFilter(args) + " across " +
             Plural(repos.size(), "repository", "repositories") +
             " (every branch and tag): " + Plural(total, "commit", "commits") + " in " +
             Plural(with, "repository", "repositories") + ", newest first";
  if (total == 0 && d.lines.empty()) {
    d.lines.push_back(costly ? kNoneKnownToMatch : "No commit matches.");
  }
  if (!partial.empty()) {
    d.closing.push_back("[partial: " + ctx.stop.Why() +
                        " — not searched in full: " + partial.Text() + "]");
  }
  d.cut_note = [](const std::vector<std::string>& lines, size_t first) {
    return "[" + Plural(lines.size() - first, "more line", "more lines") +
           " not shown — narrow with repos, since / until, or a more precise message]";
  };
  return d;
}

}  // namespace rr
