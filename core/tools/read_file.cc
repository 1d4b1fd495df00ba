#include "core/tools/read_file.h"

#include <algorithm>

#include "core/outline/outline.h"
#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr int64_t kMaxPaths = 20;

std::string Digits(size_t n) { return std::to_string(n); }

// What of each file is shown: the same for every file of a call.
struct Window {
  size_t start = 1;
  int64_t max_lines = 0;  // 0: as many as fit
  bool outline = false;
};

// One file as read_file shows it. Alone, `d` is the answer (its header, cut note and first line
// for the cut included); in a batch, its lines are placed under the file's own first line, and
// `what` says there what the lines are.
struct FileRead {
  Draft d;
  std::string what;     // after the path: "40 lines", "lines 3–10 of 40", "binary"…
  size_t numbered = 0;  // d.lines[0, numbered): the file's lines, or its outline's entries
  size_t start = 1;     // the first line asked for
  size_t end = 0;       // the last line asked for
  std::vector<size_t> entry_lines;  // an outline: the line each entry stands on
  bool cut_short = false;           // formatting stopped where the budget ran out
  size_t spent = 0;                 // characters formatted
};

// The entries of an outline that fall in the window, formatted as numbered lines.
Result<FileRead> OutlineOf(const CallContext& ctx, std::string_view bytes, const Node& node,
                           const Window& w, size_t budget, FileRead r) {
  const std::string shown_path = node.path.Display();
  FileLineReader lines(bytes);
  const size_t total = lines.Count();
  const OutlineKind kind = OutlineKindOf(node.path.str(), lines.Next());
  if (kind == OutlineKind::kNone) {
    return Error{"no outline rule for `" + shown_path +
                 "`: outlines cover Markdown, C/C++, Python, JavaScript/TypeScript, Go, Rust, "
                 "Java, shell and YAML files (docs/tools.md gives the rules); read it with "
                 "start_line / max_lines"};
  }
  if (w.start > total) {
    return Error{"`" + shown_path + "` has " + Plural(total, "line", "lines") + "; start_line " +
                 Digits(w.start) + " is past its end"};
  }
  r.start = w.start;
  r.end = w.max_lines > 0 && static_cast<uint64_t>(w.max_lines) < total - w.start + 1
              ? w.start - 1 + static_cast<size_t>(w.max_lines)
              : total;
  std::vector<OutlineEntry> entries = Outline(bytes, kind, ctx.stop);
  if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
  const size_t width = Digits(total).size();
  StartFileLines(shown_path, width, &r.d);
  size_t in_window = 0;
  for (const auto& e : entries) {
    if (e.line < r.start || e.line > r.end) continue;
    ++in_window;
    if (r.cut_short) continue;
    const std::string raw =
        e.level > 0 ? std::string(static_cast<size_t>(e.level), '#') + " " + e.text : e.text;
    r.spent += AppendFileLine(raw, e.line, width, &r.d);
    r.entry_lines.push_back(e.line);
    r.cut_short = r.spent > budget;
  }
  r.numbered = r.d.lines.size();
  const bool markdown = kind == OutlineKind::kMarkdown;
  const std::string noun = markdown ? Plural(in_window, "heading", "headings")
                                    : Plural(in_window, "definition", "definitions");
  r.what = std::string("outline (") + OutlineKindName(kind) + "): " + noun + " in " +
           Plural(total, "line", "lines");
  if (r.start > 1 || r.end < total) {
    r.what += ", lines " + Digits(r.start) + "–" + Digits(r.end);
  }
  if (in_window == 0) {
    r.d.lines.push_back(markdown ? "(no headings)"
                                 : std::string("(no definitions found by the ") +
                                       OutlineKindName(kind) + " rules)");
  }
  return r;
}

// Reads `path` at `o.at` for a window, formatting lines until `budget` characters are spent.
// Errors are the file's own (missing, refused, a folder, a start_line past its end). In a
// batch, a note that continues the file names it.
Result<FileRead> ReadOne(const CallContext& ctx, const Opened& o, const RepoPath& path,
                         const Window& w, size_t budget, bool batch) {
  if (path.is_root()) {
    return Error{"path names the repository's root, a folder: list it with list_files"};
  }
  auto node = o.reader.Find(o.at, path, ctx.stop);
  if (!node) return Error{node.error()};
  const std::string where = o.at.Where(o.repo->name()) + " · " + node->path.Display();
  const std::string quoted = "`" + node->path.Display() + "`";

  FileRead r;
  Draft& d = r.d;
  switch (node->kind) {
    case EntryKind::kFolder:
      return Error{quoted + " is a folder: list it with list_files (repo: \"" + o.repo->name() +
                   "\", path: \"" + node->path.Display() + "\")"};
    case EntryKind::kSubmodule: {
      r.what = "submodule";
      d.header = where + " · " + r.what;
      d.lines.push_back("A submodule, pinned at commit " + CommitId(node->oid).Hex() +
                        ". Its files belong to another repository and are not read here.");
      return r;
    }
    case EntryKind::kLink: {
      auto data = o.reader.Read(*node, ctx.stop);
      if (!data) return Error{data.error()};
      r.what = "symbolic link";
      d.header = where + " · " + r.what;
      d.lines.push_back("A symbolic link to `" + DisplayName(data->bytes()) +
                        "`. It is not followed: read the target by its own path.");
      return r;
    }
    case EntryKind::kFile:
    case EntryKind::kOther:
      break;
  }

  auto data = o.reader.Read(*node, ctx.stop);
  if (!data) return Error{data.error()};
  const std::string_view bytes = data->bytes();
  if (data->kind == FileData::Kind::kBinary) {
    const bool utf16 = bytes.size() >= 2 && ((bytes[0] == '\xFF' && bytes[1] == '\xFE') ||
                                             (bytes[0] == '\xFE' && bytes[1] == '\xFF'));
    r.what = "binary";
    d.header = where + " · " + r.what;
    d.lines.push_back(std::string(utf16 ? "UTF-16 text" : "A binary file") + " of " +
                      HumanBytes(data->size) + "; not shown as text.");
    return r;
  }

  // Lines are counted in one pass and read one at a time from the window's first: nothing is
  // held per line of the file.
  FileLineReader reader(bytes);
  const size_t total = reader.Count();
  if (total == 0) {
    r.what = "empty file (0 lines)";
    d.header = where + " · " + r.what;
    return r;
  }
  if (w.outline) {
    auto outlined = OutlineOf(ctx, bytes, *node, w, budget, std::move(r));
    if (!outlined) return outlined;
    FileRead& out = outlined.value();
    out.d.header = where + " · " + out.what + " — read one with start_line";
    out.d.cut_note = [entries = out.entry_lines, start = out.start, limit = ctx.answer_characters](
                         const std::vector<std::string>&, size_t first) {
      const size_t left = entries.size() - std::min(first, entries.size());
      const size_t next = first < entries.size() ? entries[first]
                          : entries.empty()      ? start
                                                 : entries.back() + 1;
      return "[" + Plural(left, "more entry", "more entries") +
             " not shown: the answer reached its limit of " + WithCommas(limit) +
             " characters — continue with outline: true, start_line: " + Digits(next) + "]";
    };
    return outlined;
  }
  const size_t start = w.start;
  if (start > total) {
    return Error{quoted + " has " + Plural(total, "line", "lines") + "; start_line " +
                 Digits(start) + " is past its end"};
  }
  size_t end = total;  // one past the last line asked for
  if (w.max_lines > 0 && static_cast<uint64_t>(w.max_lines) < total - start + 1) {
    end = start - 1 + static_cast<size_t>(w.max_lines);
  }
  r.start = start;
  r.end = end;
  r.what = start == 1 && end == total
               ? Plural(total, "line", "lines")
               : "lines " + Digits(start) + "–" + Digits(end) + " of " + Digits(total);
  const size_t width = Digits(total).size();
  for (size_t i = 0; i + 1 < start; ++i) reader.Next();
  StartFileLines(node->path.Display(), width, &d);
  const size_t window_begin = reader.pos(), window_first = d.lines.size();
  for (size_t i = start - 1; i < end; ++i) {
    r.spent += AppendFileLine(reader.Next(), i + 1, width, &d);
    // Once the lines alone are longer than the answer, the cap is sure to cut: formatting more
    // would only be thrown away.
    if (r.spent > budget) {
      r.cut_short = true;
      break;
    }
  }
  const size_t numbered = d.lines.size();
  r.numbered = numbered;
  EndFileLines(bytes, window_begin, reader.pos(), window_first, &d, BlobIdOf(*node), start - 1);
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
  if (end < total && !r.cut_short) {
    // The window stopped before the end of the file (max_lines), not the cap. Its note is the
    // body's last line, so that a cut answer ends with the cut's note (the start_line that
    // continues it) instead of this one.
    const std::string next = "start_line: " + Digits(end + 1);
    d.lines.push_back(
        "[" + Plural(total - end, "more line", "more lines") + " after this — continue with " +
        (batch ? "read_file (path: \"" + node->path.Display() + "\", " + next + ")" : next) + "]");
  }
  return r;
}

// A file of a batch, where its lines stand in the answer.
struct Section {
  std::string path;       // as shown
  size_t first = 0;       // its own first line
  size_t numbered = 0;    // its numbered lines begin at first + 1 and run this many
  size_t end = 0;         // one past its last line
  size_t start = 1;       // the first line its window asked for
  size_t window_end = 0;  // the last line its window asked for
  std::vector<size_t> entry_lines;
  bool cut_short = false;
};

// `paths: ["a", "b"]` as an agent writes it.
std::string PathsArgument(const std::vector<std::string>& paths, size_t from) {
  std::string s = "[";
  for (size_t i = from; i < paths.size(); ++i) {
    s += (i > from ? ", \"" : "\"") + paths[i] + "\"";
  }
  return s + "]";
}

// The window's own arguments, to repeat in a call that continues: ", start_line: 5, …".
std::string WindowArguments(const Window& w) {
  std::string s;
  if (w.outline) s += ", outline: true";
  if (w.start > 1) s += ", start_line: " + Digits(w.start);
  if (w.max_lines > 0) s += ", max_lines: " + Digits(static_cast<size_t>(w.max_lines));
  return s;
}

// How a batch cut before lines[first] continues: the file shown in part, from the line after
// the last shown, and the files not reached, in one call.
std::string BatchNote(const std::vector<Section>& sections, const std::vector<std::string>& paths,
                      const Window& w, size_t limit, size_t first) {
  std::string note = "[the answer reached its limit of " + WithCommas(limit) + " characters";
  size_t next = sections.size();  // the first path not shown at all
  for (size_t k = 0; k < sections.size(); ++k) {
    const Section& s = sections[k];
    if (first >= s.end && !s.cut_short) continue;  // shown whole
    if (s.numbered == 0 || first <= s.first + 1) {
      next = k;  // nothing of it shown: read it again
      break;
    }
    const size_t shown = std::min(first - (s.first + 1), s.numbered);
    if (shown < s.numbered || s.cut_short) {
      std::string where;
      std::string call = "read_file (path: \"" + s.path + "\"";
      if (w.outline) {
        const size_t line =
            shown < s.entry_lines.size() ? s.entry_lines[shown] : s.entry_lines.back() + 1;
        where = "its outline up to line " + Digits(s.entry_lines[shown - 1]);
        call += ", outline: true, start_line: " + Digits(line);
        if (w.max_lines > 0) {
          call += ", max_lines: " + Digits(s.window_end - line + 1);
        }
      } else {
        const size_t line = s.start + shown;
        where = "up to line " + Digits(line - 1);
        call += ", start_line: " + Digits(line);
        if (w.max_lines > 0) call += ", max_lines: " + Digits(s.window_end - line + 1);
      }
      note += " — `" + s.path + "` is shown " + where + ": continue it with " + call + ")";
    }
    next = k + 1;
    break;
  }
  // Sections are the paths read, in order; paths after the last were never reached.
  const size_t from = next;
  if (from < paths.size()) {
    const size_t left = paths.size() - from;
    note += "; " + Plural(left, "file", "files") + " not reached — read " +
            (left == 1 ? "it with read_file (path: \"" + paths[from] + "\""
                       : "them with read_file (paths: " + PathsArgument(paths, from)) +
            WindowArguments(w) + ")";
  }
  return note + "]";
}

// Reads every path of `paths` in order, into one answer.
Result<Draft> ReadBatch(const CallContext& ctx, const Window& w) {
  const Opened o = OpenedOf(ctx);
  const std::vector<std::string>& asked = ctx.target->paths_asked;
  // Each path once; a path that does not parse is reported in place, as a missing one is.
  const std::vector<Result<RepoPath>>& parsed = ctx.target->paths;
  std::vector<std::string> shown;  // each path as the answer writes it
  for (size_t k = 0; k < parsed.size(); ++k) {
    shown.push_back(parsed[k] ? parsed[k]->Display() : EchoArgument(asked[k]));
    for (size_t i = 0; i < k; ++i) {
      if (parsed[i] && parsed[k] && *parsed[i] == *parsed[k]) {
        return Error{"`" + shown.back() + "` is named twice in paths; name each file once"};
      }
    }
  }
  Draft d;
  d.header = o.at.Where(o.repo->name()) + " · " + Plural(asked.size(), "file", "files");
  if (w.outline) d.header += ", outlines";
  if (w.start > 1 || w.max_lines > 0) {
    d.header += w.max_lines > 0
                    ? ", lines " + Digits(w.start) + "–" +
                          Digits(w.start - 1 + static_cast<size_t>(w.max_lines)) + " of each"
                    : ", from line " + Digits(w.start) + " of each";
  }
  if (o.reader.repo().settings().fetcher) {
    // A mirror fetches the contents of the files asked that its local copy lacks, at once.
    std::vector<Node> files;
    for (const auto& p : parsed) {
      if (!p || p->is_root()) continue;
      if (auto node = o.reader.Find(o.at, *p, ctx.stop)) files.push_back(node.take());
    }
    o.reader.FetchMissing(files, ctx.stop);
  }
  std::vector<Section> sections;
  size_t spent = 0;
  const size_t limit = ctx.answer_characters;
  for (size_t k = 0; k < asked.size() && spent <= limit; ++k) {
    if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
    Section s;
    s.path = shown[k];
    s.first = d.lines.size();
    std::string own;  // the file's first line
    Result<FileRead> r = parsed[k] ? ReadOne(ctx, o, *parsed[k], w, limit - spent, true)
                                   : Result<FileRead>(Error{parsed[k].error()});
    if (!r) {
      own = "=== " + s.path + " · not read: " + r.error();
      d.StartPart();
    } else {
      FileRead& f = r.value();
      own = "=== " + s.path + " · " + f.what;
      s.numbered = f.numbered;
      s.start = f.start;
      s.window_end = f.end;
      s.entry_lines = std::move(f.entry_lines);
      s.cut_short = f.cut_short;
      spent += f.spent;
      // The file's lines as its own text for the secret filter, after its first line; lines
      // that are not the file's (what a binary file or a link is) are the tool's own.
      d.StartPartAs(f.d);
      if (f.numbered == 0) f.d.AllOwnLines();
    }
    spent += CodePoints(own) + 1;
    d.AddOwnLine(std::move(own));
    if (r) d.Append(std::move(r->d));
    s.end = d.lines.size();
    sections.push_back(std::move(s));
    if (sections.back().cut_short) break;
  }
  std::vector<std::string> paths = shown;
  if (sections.size() < asked.size() || sections.back().cut_short) {
    // The answer is full before every file was read: the cap cuts here, and its note says how
    // to go on. Should the secret filter have shortened what comes before, this line says it.
    const size_t at = d.lines.size();
    d.StartPart();
    d.AddOwnLine(BatchNote(sections, paths, w, limit, at));
  }
  d.cut_note = [sections = std::move(sections), paths = std::move(paths), w, limit](
                   const std::vector<std::string>&, size_t first) {
    return BatchNote(sections, paths, w, limit, first);
  };
  return d;
}

}  // namespace

const ToolSpec& ReadFileTool::spec() const {
  static const ToolSpec s{
      "read_file",
      "Read a file",
      "A file at any ref, as numbered lines. The first line names the file, the ref, the commit "
      "and the window (lines 1–850 of 3001); a file longer than the answer is cut where the "
      "answer is full, with the start_line that continues it. A line over 2,000 characters is "
      "cut, saying how many were left out. A binary file is given by its size, a symbolic link "
      "by its target (never followed), a submodule by the commit it pins; a file over 10 MB is "
      "not read; a folder is refused with a pointer to list_files. paths reads up to 20 files "
      "in one call, in the order given, sharing one answer; outline: true gives a file's "
      "headings (Markdown) or the lines that define something (code), each with its "
      "start_line.",
      {RepoArg(),
       RefArg(),
       PathArg("The file, written from the repository's root: src/app.py. For several files, "
               "paths instead.",
               false),
       {"paths", ArgType::kStrings,
        "Several files, up to 20, instead of path: [\"src/app.py\", \"README.md\"]. Read in the "
        "order given, each under a line of its own, sharing one answer: a later file gets what "
        "is left, and a cut says how to continue. A file that cannot be read says why in its "
        "place; the others still come.",
        false, 1, kMaxPaths},
       StartLineArg(),
       MaxLinesArg(),
       {"outline", ArgType::kBoolean,
        "true: the file's outline instead of its text — a Markdown file's headings with their "
        "levels, or the lines of code that define something (C/C++, Python, "
        "JavaScript/TypeScript, Go, Rust, Java, shell; YAML's top-level keys) — each with the "
        "start_line that reads it.",
        false}},
      [] {
        ToolTraits t;
        t.link = LinkKind::kFile;
        t.refs = {"ref"};
        t.root_refused = "path names the repository's root, a folder: list it with list_files";
        t.check_first = [](const Args& args) -> Status {
          const bool paths = args.Strings("paths").has_value(),
                     one = args.String("path").has_value();
          if (paths && one) return Error{"give path (one file) or paths (several), not both"};
          if (!paths && !one) {
            return Error{
                "read_file needs path, the file (src/app.py), or paths, up to 20 files "
                "([\"src/app.py\", \"README.md\"])"};
          }
          return Status::Ok();
        };
        return t;
      }()};
  return s;
}

Result<Draft> ReadFileTool::Call(const CallContext& ctx, const Args& args) const {
  Window w;
  w.start = static_cast<size_t>(args.Integer("start_line").value_or(1));
  w.max_lines = args.Integer("max_lines").value_or(0);
  w.outline = args.Boolean("outline", false);
  if (args.Strings("paths")) return ReadBatch(ctx, w);
  auto r = ReadOne(ctx, OpenedOf(ctx), ctx.target->path, w, ctx.answer_characters, false);
  if (!r) return Error{r.error()};
  return std::move(r->d);
}

}  // namespace rr
