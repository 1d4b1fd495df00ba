#include "core/tools/text_hits.h"

#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {

std::vector<ArgSpec> PatternArgs() {
  return {{"pattern", ArgType::kString,
           "The text to find; with regex, a POSIX extended regular expression (as grep -E reads "
           "it). One line. Matched line by line.",
           true},
          {"regex", ArgType::kBoolean,
           "true: pattern is a POSIX extended regular expression. Default: plain text.", false},
          {"ignore_case", ArgType::kBoolean, "true: letters' case aside.", false}};
}

Result<TextPattern> PatternOf(const Args& args) {
  return TextPattern::Make(args.String("pattern").value_or(""), args.Boolean("regex", false),
                           args.Boolean("ignore_case", false), "pattern");
}

Status CheckPattern(const Args& args) {
  auto p = PatternOf(args);
  if (!p) return Error{p.error()};
  return Status::Ok();
}

std::string DescribePattern(const Args& args) {
  std::string out = "`" + EchoArgument(args.String("pattern").value_or("")) + "`";
  const bool regex = args.Boolean("regex", false), any_case = args.Boolean("ignore_case", false);
  if (regex && any_case) {
    out += " (regular expression, any case)";
  } else if (regex) {
    out += " (regular expression)";
  } else if (any_case) {
    out += " (any case)";
  }
  return out;
}

size_t NumberWidth(const std::vector<FileHits>& files) {
  size_t most = 1;
  for (const auto& f : files) {
    if (!f.lines.empty()) most = std::max(most, f.lines.back().number);
  }
  return std::to_string(most).size();
}

void StartHits(size_t width, std::string path, Draft* d) {
  d->ShowsFile(path, width + 4);  // "  " + the number + ": " (or "- ")
}

size_t AppendHits(const FileHits& file, size_t width, bool context, Draft* d) {
  size_t cost = 0;
  auto own = [&](std::string line) {
    cost += CodePoints(line) + 1;
    d->AddOwnLine(std::move(line));
  };
  own(DisplayName(file.node.path.str()));
  size_t last = 0;
  auto run = file.runs.begin();
  for (size_t i = 0; i < file.lines.size(); ++i) {
    const ShownLine& l = file.lines[i];
    if (context && last && l.number > last + 1) own("  --");
    last = l.number;
    // Each run of consecutive lines is a block whose source is the file.
    if (run != file.runs.end() && run->first == i) {
      d->AddBlock(d->lines.size(), run->count, run->source, file.node.path.str());
      ++run;
    }
    // AppendFileLine writes the number right-aligned to width + 2 and two blanks: the blank
    // after the number becomes git grep's separator.
    cost += AppendFileLine(l.text, l.number, width + 2, d);
    d->lines.back()[width + 2] = l.match ? ':' : '-';
  }
  return cost;
}

const char kNoLineKnownToMatch[] =
    "No line is known to match: the pattern was too costly on some lines (below).";

std::string CostlyLinesNote(const std::vector<FileHits>& files,
                            const std::function<std::string(size_t target)>& repo_of) {
  constexpr size_t kNamed = 5;
  size_t count = 0;
  std::vector<std::string> named, rest;
  for (const auto& f : files) {
    const std::string in = repo_of ? " in " + repo_of(f.target) : "";
    for (size_t line : f.costly_lines) {
      count++;
      if (named.size() < kNamed) {
        named.push_back("`" + DisplayName(f.node.path.str()) + ":" + std::to_string(line) + "`" +
                        in);
      }
    }
    if (f.costly_rest && rest.size() < kNamed) {
      rest.push_back("`" + DisplayName(f.node.path.str()) + "`" + in);
    }
  }
  if (count == 0) return "";
  std::string where;
  for (size_t i = 0; i < named.size(); ++i) {
    where += (i == 0                                           ? ""
              : i + 1 == named.size() && count == named.size() ? " and "
                                                               : ", ") +
             named[i];
  }
  if (count > named.size()) where += " and " + WithCommas(count - named.size()) + " more lines";
  std::string note = "[this pattern is too costly on " + where +
                     "; narrow it (a repeat inside a repeat, such as (.*a){25}, is the usual "
                     "cause) — the regular expression engine gave up on " +
                     (count == 1 ? "that line, so it may match" : "those lines, so they may match");
  if (!rest.empty()) {
    std::string files_left;
    for (size_t i = 0; i < rest.size(); ++i) files_left += (i ? ", " : "") + rest[i];
    note += "; after " + std::to_string(FileHits::kMaxCostlyLines) +
            " such lines the rest of a file is not searched: " + files_left;
  }
  return note + "]";
}

}  // namespace rr
