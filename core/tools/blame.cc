#include "core/tools/blame.h"

#include <algorithm>
#include <memory>

#include "core/history/served_blame.h"
#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

std::string Digits(size_t n) { return std::to_string(n); }

constexpr std::string_view kOrOlder = " [this commit or older]";

// "80f39763c22b 2026-02-15 Grace Hopper — Fix the cart total for empty carts": the commit, its
// author's date and name (as written), its subject; then the file's path there when it was
// another, and the mark of a commit where blame stopped.
std::string GroupLine(const BlameResult& r, const BlameLine& l, const std::string& asked) {
  const BlameCommit& c = r.commits[l.commit];
  std::string s = c.id.Short() + " " + ShortDate(c.author_time, c.author_offset) + " " +
                  DisplayName(c.author) + " — " + DisplayName(c.subject);
  if (r.paths[l.path] != asked) s += " [path then: " + DisplayName(r.paths[l.path]) + "]";
  if (l.stop != BlameStop::kNone) s += kOrOlder;
  return s;
}

// Why blame stopped before the commits that last changed some lines, one clause per reason.
std::string StopNote(const std::vector<bool>& why, const StopToken& stop) {
  std::vector<std::string> reasons;
  if (why[static_cast<size_t>(BlameStop::kNotFollowed)]) {
    reasons.push_back(
        "the file came there from a path this server does not serve, which blame "
        "does not follow");
  }
  if (why[static_cast<size_t>(BlameStop::kTooLarge)]) {
    reasons.push_back(
        "an earlier version of the file is over 10 MB, which this server does not "
        "read");
  }
  if (why[static_cast<size_t>(BlameStop::kMissing)]) {
    reasons.push_back(
        "an earlier commit or version of the file is not in the local copy (a "
        "partial clone), and this server never fetches it");
  }
  if (why[static_cast<size_t>(BlameStop::kStopped)]) {
    reasons.push_back(stop.cancelled() ? "the call was cancelled"
                                       : "the call reached its time limit before the history "
                                         "was read to its end (a smaller window — start_line, "
                                         "max_lines — takes less time)");
  }
  std::string note = "[Blame stopped early at the commits marked" + std::string(kOrOlder) +
                     ": the lines under them were last changed in that commit or earlier. Why: ";
  for (size_t i = 0; i < reasons.size(); ++i) note += (i ? "; " : "") + reasons[i];
  return note + ".]";
}

}  // namespace

const ToolSpec& BlameTool::spec() const {
  static const ToolSpec s{
      "blame",
      "Blame a file",
      "Who last changed each line of a file at any ref, and in which commit. Lines are grouped "
      "under the commit that last changed them — its id, date, author and subject, as in "
      "`80f39763c22b 2026-02-15 Grace Hopper — Fix the cart total for empty carts` — followed by "
      "the numbered lines. The file is followed through renames as git blame does. The window "
      "and the cut work as in read_file: the first line names the lines shown (lines 12–13 of "
      "40), a cut answer gives the start_line that continues it. A binary file, a symbolic "
      "link, a submodule and a folder are refused; a file over 10 MB is not read.",
      {RepoArg(), RefArg(),
       PathArg("The file, written from the repository's root: src/app.py.", true), StartLineArg(),
       MaxLinesArg()},
      [] {
        ToolTraits t;
        t.link = LinkKind::kFile;
        t.refs = {"ref"};
        t.root_refused =
            "path names the repository's root, a folder; blame takes a file: list the folder "
            "with list_files";
        return t;
      }()};
  return s;
}

Result<Draft> BlameTool::Call(const CallContext& ctx, const Args& args) const {
  const RepoPath& path = ctx.target->path;
  const Opened o = OpenedOf(ctx);
  auto subject = FindBlameSubject(o.reader, o.at, path, ctx.stop);
  if (!subject) return Error{subject.error()};
  const RepoPath& file = subject->file.path;
  const std::string where = o.at.Where(o.repo->name()) + " · " + file.Display();
  const std::string_view bytes = subject->data.bytes();

  Draft d;
  const size_t total = subject->total_lines;
  if (total == 0) {
    d.header = where + " · empty file (0 lines)";
    return d;
  }
  const size_t start = static_cast<size_t>(args.Integer("start_line").value_or(1));
  if (start > total) {
    return Error{"`" + file.Display() + "` has " + Plural(total, "line", "lines") +
                 "; start_line " + Digits(start) + " is past its end"};
  }
  const int64_t max_lines = args.Integer("max_lines").value_or(0);
  size_t end = total;  // one past the last line asked for
  if (max_lines > 0 && static_cast<uint64_t>(max_lines) < total - start + 1) {
    end = start - 1 + static_cast<size_t>(max_lines);
  }
  const size_t width = Digits(total).size();
  FileLineReader lines(bytes);
  for (size_t i = 0; i + 1 < start; ++i) lines.Next();

  // Only the lines the answer can hold are blamed: past the line where even their least cost
  // is over the answer's limit, none can be shown, and the history walked for them would only
  // be thrown away.
  size_t last = end;  // one past the last line blamed
  {
    FileLineReader probe = lines;
    size_t least = 0;
    for (size_t i = start - 1; i < end; ++i) {
      least += LeastFileLineCost(probe.Next(), width);
      if (least > ctx.answer_characters) {
        last = i + 1;
        break;
      }
    }
  }
  auto blame = BlameServed(
      o.reader, o.at, *subject, static_cast<uint32_t>(start),
      static_cast<uint32_t>(last - start + 1), ctx.stop, [&ctx](uint32_t settled, uint32_t total) {
        ctx.Progress(settled, total,
                     WithCommas(settled) + " of " + WithCommas(total) + " lines blamed");
      });
  if (!blame) return Error{blame.error()};
  if (blame->lines.size() != last - start + 1) {
    return Error{"`" + file.Display() + "` cannot be blamed: its lines could not be counted"};
  }

  StartFileLines(file.Display(), width, &d);
  const size_t window_begin = lines.pos();
  std::vector<bool> stopped_by(static_cast<size_t>(BlameStop::kStopped) + 1, false);
  size_t budget = 0;         // characters formatted so far
  bool past_budget = false;  // then the answer is cut, and the cut's note continues it
  const BlameLine* previous = nullptr;
  for (size_t i = start - 1; i < last; ++i) {
    const BlameLine& b = blame->lines[i - (start - 1)];
    stopped_by[static_cast<size_t>(b.stop)] = true;
    if (!previous || previous->commit != b.commit || previous->path != b.path ||
        previous->stop != b.stop) {
      std::string group = GroupLine(*blame, b, file.str());
      budget += CodePoints(group) + 1;
      d.AddOwnLine(std::move(group));
    }
    previous = &b;
    budget += AppendFileLine(lines.Next(), i + 1, width, &d);
    if (budget > ctx.answer_characters) {
      past_budget = true;
      break;
    }
  }
  EndFileLines(bytes, window_begin, lines.pos(), 0, &d, BlobIdOf(subject->file), start - 1);
  // The file's lines among the first `shown` (the commit lines and the window's closing note
  // are not numbered), one copy for both closures.
  const auto numbers = std::make_shared<const std::vector<Draft::Number>>(d.numbers());
  d.header_for = [where, start, total, numbers](size_t shown) {
    const size_t n = NumberedBefore(*numbers, shown);
    if (n == 0) {
      return where + " · no line fits the answer (" + Plural(total, "line", "lines") + ")";
    }
    return where + " · lines " + Digits(start) + "–" + Digits(start + n - 1) + " of " +
           Digits(total);
  };
  d.cut_note = [start, total, numbers, limit = ctx.answer_characters](
                   const std::vector<std::string>&, size_t first) {
    const size_t next = start + NumberedBefore(*numbers, first);
    return "[lines " + Digits(next) + "–" + Digits(total) +
           " not shown: the answer reached its limit of " + WithCommas(limit) +
           " characters — continue with start_line: " + Digits(next) + "]";
  };
  if (end < total && !past_budget) {
    // The window stopped before the end of the file (max_lines), not the cap: its note is the
    // body's last line, so that a cut answer ends with the cut's note instead.
    d.lines.push_back("[" + Plural(total - end, "more line", "more lines") +
                      " after this — continue with start_line: " + Digits(end + 1) + "]");
  }
  if (std::find(stopped_by.begin() + 1, stopped_by.end(), true) != stopped_by.end()) {
    d.closing.push_back(StopNote(stopped_by, ctx.stop));
  }
  return d;
}

}  // namespace rr
