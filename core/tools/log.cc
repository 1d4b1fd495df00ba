#include "core/tools/log.h"

#include <ctime>

#include "core/tools/common.h"
#include "core/tools/history_common.h"
#include "core/util/text.h"

namespace rr {

const ToolSpec& LogTool::spec() const {
  static const ToolSpec s = [] {
    ToolSpec t{
        "log",
        "Read a history",
        "The history of a ref — of the whole repository or of one file or folder — newest first: "
        "each commit's id, date (when it was committed), author and subject. Filter by author, "
        "message, since and until; page with skip. Renames are not followed. When only part of "
        "the repository is served, only commits that changed something served (or nothing at "
        "all) are listed.",
        {RepoArg(), RefArg(),
         PathArg("Only commits that changed this file or folder, written from the repository's "
                 "root.",
                 false)}};
    for (auto& a : HistoryFilterArgs()) t.args.push_back(std::move(a));
    t.args.push_back({"max_count", ArgType::kInteger,
                      "At most this many commits. Default 30, at most 500.", false, 1, 500});
    t.args.push_back({"skip", ArgType::kInteger,
                      "Skip this many listed commits first, to page on. Default 0.", false, 0,
                      1000000000});
    t.traits.refs = {"ref"};
    t.traits.check_first = [](const Args& args) -> Status {
      // A path that does not parse is named before the filters, as it always was.
      if (auto text = args.String("path")) {
        if (auto path = RepoPath::Parse(*text); !path) return Error{path.error()};
      }
      return CheckFilter(args);
    };
    return t;
  }();
  return s;
}

Result<Draft> LogTool::Call(const CallContext& ctx, const Args& args) const {
  const RepoPath& path = ctx.target->path;
  auto filter = FilterOf(ctx, args, static_cast<int64_t>(std::time(nullptr)));
  if (!filter) return Error{filter.error()};
  const Opened o = OpenedOf(ctx);
  const PathPolicy& policy = o.repo->policy();
  if (!path.is_root()) {
    // Judged by the path alone: the answer never tells whether it exists or changed.
    if (policy.Outside(path)) {
      return Error{"path `" + path.Display() + "` is outside what this server serves in `" +
                   o.repo->name() + "`"};
    }
    filter->path = path;
  }
  const size_t skip = static_cast<size_t>(args.Integer("skip").value_or(0));
  const size_t max_count = static_cast<size_t>(args.Integer("max_count").value_or(30));
  auto page = Log(o.reader, o.at, *filter, skip, max_count, ctx.stop, [&ctx](uint64_t walked) {
    ctx.Progress(walked, std::nullopt, WithCommas(walked) + " commits walked");
  });
  if (!page) return Error{page.error()};
  if (std::string failed = filter->failures->First(); !failed.empty()) {
    Draft withheld;
    withheld.withheld = std::move(failed);
    return withheld;
  }

  Draft d;
  const std::string where = o.at.Where(o.repo->name());
  const std::string scope = path.is_root() ? std::string() : " · history of " + path.Display();
  const std::string filters = DescribeFilter(args);
  const size_t count = page->commits.size();
  d.header_for = [where, scope, filters, skip, count](size_t shown) {
    std::string what = Plural(std::min(shown, count), "commit", "commits");
    if (skip > 0) what += " after the first " + WithCommas(skip);
    return where + scope + filters + " · " + what + ", newest first";
  };
  d.header = d.header_for(count);
  d.ShowsCommitMessages();
  for (const auto& c : page->commits) d.lines.push_back(CommitLineText(c));
  if (page->commits.empty()) {
    d.lines.push_back(page->too_costly.count ? kNoneKnownToMatch
                      : skip > 0             ? "No more commits."
                                             : "No commit matches.");
  }
  // How to continue ends the body, not the closing lines: an answer cut at the cap leaves it
  // out with the commits it does not show, and the cut's note gives the skip instead.
  std::string next;
  if (!page->stopped.empty()) {
    next = "[the history is partial: " + page->stopped +
           "; continue with skip: " + WithCommas(skip + count) + "]";
  } else if (page->more) {
    next = "[more commits — continue with skip: " + WithCommas(skip + count) + "]";
  }
  if (!next.empty()) d.lines.push_back(next);
  if (page->too_costly.count) d.closing.push_back(TooCostlyNote(page->too_costly));
  if (policy.partial()) {
    d.closing.push_back(
        "[only part of this repository is served: commits that changed only files this server "
        "does not serve are left out]");
  }
  d.cut_note = [skip, count, next](const std::vector<std::string>&, size_t first) -> std::string {
    if (first < count) {
      return "[" + Plural(count - first, "more commit", "more commits") +
             " not shown — continue with skip: " + WithCommas(skip + first) + "]";
    }
    if (!next.empty()) return next;  // every commit shown: only the line after them was cut
    return "[the rest of the answer is not shown: it reached its limit]";
  };
  return d;
}

}  // namespace rr
