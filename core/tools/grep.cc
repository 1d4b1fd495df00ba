#include "core/tools/grep.h"

#include "core/search/text_search.h"
#include "core/tools/common.h"
#include "core/tools/text_hits.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxPerFile = 100;

}  // namespace

const ToolSpec& GrepTool::spec() const {
  static const ToolSpec s = [] {
    ToolSpec t{"grep",
               "Search one repository at any ref",
               "Text in one repository at any branch, tag or commit: every matching line with "
               "its file and line number (12:), and lines of context around it (11-; -- where "
               "lines are skipped). Up to 100 matches a file. Binary files are skipped; files "
               "include / exclude keep out are never searched. A line holding a value that "
               "looks like a secret is shown hidden, and a match is kept only where the plain "
               "text lies outside it (with regex, such a line never matches).",
               {RepoArg(), RefArg()}};
    auto pattern = PatternArgs();
    t.args.push_back(pattern[0]);
    t.args.push_back(
        PathArg("Only under this folder, or in this file. A path outside what the server serves is "
                "refused.",
                false));
    t.args.push_back(pattern[1]);
    t.args.push_back(pattern[2]);
    t.args.push_back({"context", ArgType::kInteger,
                      "Lines shown before and after each match, 0 to 10. Default 0.", false, 0,
                      10});
    t.args.push_back({"files_only", ArgType::kBoolean, "true: only the files that match.", false});
    t.traits.refs = {"ref"};
    t.traits.check_first = CheckPattern;
    return t;
  }();
  return s;
}

Result<Draft> GrepTool::Call(const CallContext& ctx, const Args& args) const {
  auto pattern = PatternOf(args);
  if (!pattern) return Error{pattern.error()};
  const Opened o = OpenedOf(ctx);
  auto node = o.reader.Find(o.at, ctx.target->path, ctx.stop);
  if (!node) return Error{node.error()};

  SearchOptions options;
  options.max_per_file = kMaxPerFile;
  options.context = static_cast<size_t>(args.Integer("context").value_or(0));
  options.files_only = args.Boolean("files_only", false);
  options.progress = [&ctx](size_t searched, std::optional<size_t> total) {
    ctx.Progress(searched, total,
                 total ? WithCommas(searched) + " of " + WithCommas(*total) + " files searched"
                       : WithCommas(searched) + " files searched (more being listed)");
  };
  const SearchResult found = SearchText({SearchTarget{o.repo.get(), o.at, *node}}, *pattern,
                                        ctx.secrets.get(), options, ctx.stop);
  const TargetReport& report = found.targets.front();
  if (!report.error.empty()) return Error{report.error};
  if (!found.filter_failure.empty()) {
    Draft withheld;
    withheld.withheld = found.filter_failure;
    return withheld;
  }

  const std::string repo = o.repo->name();
  std::string where = o.at.Where(repo);
  where = where.substr(repo.size() + std::string(" · ").size());  // "main @ 14a4c0422ae3 (…)"
  const size_t lines = report.matched_lines, matched = report.matched_files;
  const bool capped = report.more;
  Draft d;
  d.header = repo + " · grep " + DescribePattern(args) + " · " + where + " — ";
  if (options.files_only) {
    d.header += Plural(matched, "matching file", "matching files");
  } else {
    d.header += Plural(lines, "matching line", "matching lines") + " in " +
                Plural(matched, "file", "files");
    if (capped) d.header += " (at most 100 a file)";
  }
  if (!node->path.is_root()) d.header += " · under " + node->path.Display();

  // More than an answer holds: the cap cuts where they begin, and its note says how to narrow.
  const std::string more_files =
      "[more files match; their lines are not shown here — narrow with path, a more precise "
      "pattern, or files_only]";
  if (matched == 0) {
    if (node->kind == EntryKind::kLink || node->kind == EntryKind::kSubmodule) {
      // As git grep at a tree: links and submodules are not searched.
      d.lines.push_back("`" + node->path.Display() + "` is " +
                        (node->kind == EntryKind::kLink
                             ? "a symbolic link: read_file gives its target, which is not searched"
                             : "a submodule: its files belong to another repository") +
                        ".");
    } else {
      d.lines.push_back(report.files == 0           ? "No served file to search there."
                        : !found.too_costly.empty() ? kNoLineKnownToMatch
                                                    : "No line matches.");
    }
  } else if (options.files_only) {
    for (const auto& f : found.files) d.lines.push_back(DisplayName(f.node.path.str()));
    if (found.unkept) d.lines.push_back(more_files);
  } else {
    const size_t width = NumberWidth(found.files);
    // One file: the secret filter reads its lines knowing which file they come from.
    StartHits(width, found.files.size() == 1 ? found.files.front().node.path.str() : "", &d);
    size_t budget = 0;
    bool all = true;
    for (const auto& f : found.files) {
      if (budget > ctx.answer_characters) {
        all = false;
        break;
      }
      budget += AppendHits(f, width, options.context > 0, &d);
      if (f.more) {
        d.AddOwnLine(
            "  [more matching lines in this file: read it, or narrow the "
            "pattern]");
      }
    }
    if (!all || found.unkept) d.lines.push_back(more_files);
  }
  if (!found.too_costly.empty()) d.closing.push_back(CostlyLinesNote(found.too_costly));
  if (report.binary) {
    d.closing.push_back("[" + Plural(report.binary, "binary file", "binary files") +
                        " not searched]");
  }
  if (report.unreadable) {
    d.closing.push_back("[" + Plural(report.unreadable, "file", "files") +
                        " not searched: over 10 MB, or not in the local copy]");
  }
  if (found.stopped) {
    const std::string why = !found.why.empty()        ? found.why
                            : !report.problem.empty() ? report.problem
                                                      : "the search stopped early";
    d.closing.push_back("[partial: " + why + " — searched " + WithCommas(report.searched) + " of " +
                        (report.listed ? "" : "the first ") + WithCommas(report.files) + " files" +
                        (report.listed ? "" : " found; the rest were not listed") + "]");
  }
  d.cut_note = [limit = ctx.answer_characters](const std::vector<std::string>&, size_t) {
    return "[the answer reached its limit of " + WithCommas(limit) +
           " characters; the rest is not shown — narrow with path (a folder or a file), a "
           "more precise pattern, or files_only]";
  };
  return d;
}

}  // namespace rr
