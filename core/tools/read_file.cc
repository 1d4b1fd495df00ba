#include "core/tools/read_file.h"

#include <algorithm>

#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

std::string Digits(size_t n) { return std::to_string(n); }

}  // namespace

const ToolSpec& ReadFileTool::spec() const {
  static const ToolSpec s{
      "read_file",
      "Read a file",
      "A file at any ref, as numbered lines. The first line names the file, the ref, the commit "
      "and "
      "the window (lines 1–850 of 3001); a file longer than the answer is cut where the answer is "
      "full, with the start_line that continues it. A line over 2,000 characters is cut, saying "
      "how many were left out. A binary file is given by its size, a symbolic link by its target "
      "(never followed), a submodule by the commit it pins; a file over 10 MB is not read; a "
      "folder is refused with a pointer to list_files.",
      {RepoArg(), RefArg(),
       PathArg("The file, written from the repository's root: src/app.py.", true), StartLineArg(),
       MaxLinesArg()}};
  return s;
}

Result<Draft> ReadFileTool::Call(const CallContext& ctx, const Args& args) const {
  auto path = PathOf(args);
  if (!path) return Error{path.error()};
  if (path->is_root()) {
    return Error{"path names the repository's root, a folder: list it with list_files"};
  }
  auto o = OpenAt(ctx, args);
  if (!o) return Error{o.error()};
  auto node = o->reader.Find(o->at, *path, ctx.stop);
  if (!node) return Error{node.error()};
  const std::string where = o->at.Where(o->repo->name()) + " · " + node->path.Display();
  const std::string quoted = "`" + node->path.Display() + "`";

  Draft d;
  switch (node->kind) {
    case EntryKind::kFolder:
      return Error{quoted + " is a folder: list it with list_files (repo: \"" + o->repo->name() +
                   "\", path: \"" + node->path.Display() + "\")"};
    case EntryKind::kSubmodule: {
      d.header = where + " · submodule";
      d.lines.push_back("A submodule, pinned at commit " + CommitId(node->oid).Hex() +
                        ". Its files belong to another repository and are not read here.");
      return d;
    }
    case EntryKind::kLink: {
      auto data = o->reader.Read(*node);
      if (!data) return Error{data.error()};
      d.header = where + " · symbolic link";
      d.lines.push_back("A symbolic link to `" + DisplayName(data->bytes()) +
                        "`. It is not followed: read the target by its own path.");
      return d;
    }
    case EntryKind::kFile:
    case EntryKind::kOther:
      break;
  }

  auto data = o->reader.Read(*node);
  if (!data) return Error{data.error()};
  const std::string_view bytes = data->bytes();
  if (data->kind == FileData::Kind::kBinary) {
    const bool utf16 = bytes.size() >= 2 && ((bytes[0] == '\xFF' && bytes[1] == '\xFE') ||
                                             (bytes[0] == '\xFE' && bytes[1] == '\xFF'));
    d.header = where + " · binary";
    d.lines.push_back(std::string(utf16 ? "UTF-16 text" : "A binary file") + " of " +
                      HumanBytes(data->size) + "; not shown as text.");
    return d;
  }

  // Lines are counted in one pass and read one at a time from the window's first: nothing is
  // held per line of the file.
  FileLineReader reader(bytes);
  const size_t total = reader.Count();
  if (total == 0) {
    d.header = where + " · empty file (0 lines)";
    return d;
  }
  const size_t start = static_cast<size_t>(args.Integer("start_line").value_or(1));
  if (start > total) {
    return Error{quoted + " has " + Plural(total, "line", "lines") + "; start_line " +
                 Digits(start) + " is past its end"};
  }
  const int64_t max_lines = args.Integer("max_lines").value_or(0);
  size_t end = total;  // one past the last line asked for
  if (max_lines > 0 && static_cast<uint64_t>(max_lines) < total - start + 1) {
    end = start - 1 + static_cast<size_t>(max_lines);
  }
  const size_t width = Digits(total).size();
  size_t budget = 0;         // characters formatted so far
  bool past_budget = false;  // then the answer is cut, and the cut's note continues it
  for (size_t i = 0; i + 1 < start; ++i) reader.Next();
  StartFileLines(bytes, reader.pos(), node->path.Display(), width, &d);
  for (size_t i = start - 1; i < end; ++i) {
    budget += AppendFileLine(reader.Next(), i + 1, width, &d);
    // Once the lines alone are longer than the answer, the cap is sure to cut: formatting more
    // would only be thrown away.
    if (budget > ctx.answer_characters) {
      past_budget = true;
      break;
    }
  }
  const size_t numbered = d.lines.size();
  EndFileLines(bytes, reader.pos(), &d);
  d.header_for = [where, start, total, numbered](size_t shown) {
    shown = std::min(shown, numbered);  // the window's closing note is not a line of the file
    if (shown == 0)
      return where + " · no line fits the answer (" + Plural(total, "line", "lines") + ")";
    return where + " · lines " + Digits(start) + "–" + Digits(start + shown - 1) + " of " +
           Digits(total);
  };
  d.cut_note = [start, total, limit = ctx.answer_characters](const std::vector<std::string>&,
                                                             size_t first) {
    const size_t next = start + first;
    return "[lines " + Digits(next) + "–" + Digits(total) +
           " not shown: the answer reached its limit of " + WithCommas(limit) +
           " characters — continue with start_line: " + Digits(next) + "]";
  };
  if (end < total && !past_budget) {
    // The window stopped before the end of the file (max_lines), not the cap. Its note is the
    // body's last line, so that a cut answer ends with the cut's note (the start_line that
    // continues it) instead of this one.
    d.lines.push_back("[" + Plural(total - end, "more line", "more lines") +
                      " after this — continue with start_line: " + Digits(end + 1) + "]");
  }
  return d;
}

}  // namespace rr
