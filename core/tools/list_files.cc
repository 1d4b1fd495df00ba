#include "core/tools/list_files.h"

#include <algorithm>
#include <map>

#include "core/outline/outline.h"
#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

// With outline, a recursive listing reads at most this many Markdown files.
constexpr size_t kMaxOutlined = 40;

bool IsMarkdownFile(const Node& f) {
  return f.kind == EntryKind::kFile && IsMarkdownPath(f.path.str());
}

// Appends the headings of Markdown file `f` beneath its line: each numbered with the start_line
// that reads it, indented, read by the secret filter as that file's lines. Returns the
// characters appended.
size_t AppendHeadings(const CallContext& ctx, RepoReader& reader, const Node& f, Draft* d) {
  auto data = reader.Read(f, ctx.stop);
  if (!data) {
    d->lines.push_back("  (headings not read: " + data.error() + ")");
    return CodePoints(d->lines.back()) + 1;
  }
  if (data->kind == FileData::Kind::kBinary) return 0;
  const std::string_view bytes = data->bytes();
  const auto headings = Outline(bytes, OutlineKind::kMarkdown, ctx.stop);
  if (headings.empty()) return 0;
  const size_t width = std::to_string(FileLineReader(bytes).Count()).size() + 2;  // indented
  d->StartFilePart(f.path.Display(), width + 2);
  size_t chars = 0;
  for (const auto& h : headings) {
    const std::string raw = std::string(static_cast<size_t>(h.level), '#') + " " + h.text;
    chars += AppendFileLine(raw, h.line, width, d);
  }
  // The listing's lines that follow are names again.
  d->StartPart();
  return chars;
}

std::string Mark(EntryKind k) {
  switch (k) {
    case EntryKind::kLink:
      return " (link)";
    case EntryKind::kSubmodule:
      return " (submodule)";
    default:
      return "";
  }
}

// The folder holding a path ("" for the root), for a "narrow to" hint.
std::string FolderOf(const std::string& line) {
  const size_t slash = line.rfind('/', line.size() > 1 ? line.size() - 2 : 0);
  return slash == std::string::npos ? "" : line.substr(0, slash);
}

}  // namespace

const ToolSpec& ListFilesTool::spec() const {
  static const ToolSpec s{
      "list_files",
      "List a folder",
      "A folder at any ref. Without recursive: its subfolders (ending in /) and then its files, "
      "each with its full path from the root. With recursive: every file under it, at any depth. "
      "Links are marked (link), submodules (submodule). A folder holding nothing this server "
      "serves is answered as a folder that isn't there. Sizes are not shown. A cut answer gives "
      "the skip that continues it.",
      {RepoArg(),
       RefArg(),
       PathArg("The folder, written from the repository's root: src/api. Default: the root.",
               false),
       {"recursive", ArgType::kBoolean,
        "true: every file under the folder at any depth, instead of its direct content.", false},
       {"skip", ArgType::kInteger,
        "Skip this many entries first, to page on; a cut answer gives the next skip. Default 0.",
        false, 0, std::nullopt},
       {"outline", ArgType::kBoolean,
        "true: each Markdown file's headings beneath it, with the start_line that reads each "
        "(one read a file: with recursive, refused past 40 Markdown files).",
        false}},
      [] {
        ToolTraits t;
        t.link = LinkKind::kFolder;
        t.refs = {"ref"};
        return t;
      }()};
  return s;
}

Result<Draft> ListFilesTool::Call(const CallContext& ctx, const Args& args) const {
  const RepoPath& path = ctx.target->path;
  const Opened o = OpenedOf(ctx);
  auto node = o.reader.Find(o.at, path, ctx.stop);
  if (!node) return Error{node.error()};
  if (node->kind != EntryKind::kFolder) {
    return Error{"`" + node->path.Display() + "` is a file, not a folder: read it with read_file"};
  }
  const std::string where =
      o.at.Where(o.repo->name()) + " · " + (path.is_root() ? "/" : path.Display() + "/");
  const size_t skip = static_cast<size_t>(args.Integer("skip").value_or(0));
  const bool outline = args.Boolean("outline", false);
  Draft d;
  // With outline: the entry each line belongs to (a heading belongs to its file), counted from
  // the first shown, and the line each entry starts on.
  std::vector<size_t> entry_of, entry_line;
  auto close_entry = [&] {
    while (entry_of.size() < d.lines.size()) entry_of.push_back(entry_line.size() - 1);
  };
  auto add_entry = [&](std::string line) {
    close_entry();  // the lines so far belong to the entries before this one
    entry_line.push_back(d.lines.size());
    d.lines.push_back(std::move(line));
  };
  if (!args.Boolean("recursive", false)) {
    auto listing = o.reader.List(*node, ctx.stop);
    if (!listing) return Error{listing.error()};
    const size_t total = listing->folders.size() + listing->files.size();
    if (skip > 0 && skip >= total) {
      return Error{"skip " + WithCommas(skip) + " is past the end: the folder has " +
                   Plural(total, "entry", "entries") + "; give a smaller skip"};
    }
    d.header = where + " — " + Plural(listing->folders.size(), "folder", "folders") + ", " +
               Plural(listing->files.size(), "file", "files");
    if (skip > 0) d.header += ", from entry " + WithCommas(skip + 1);
    size_t index = 0;
    for (const auto& f : listing->folders) {
      if (index++ >= skip) add_entry(f.path.Display() + "/");
    }
    size_t chars = 0;  // with outline: past the answer, no more files are read
    if (outline) {
      // A mirror fetches the Markdown files' contents it lacks (an older ref) at once.
      std::vector<Node> wanted;
      for (const auto& f : listing->files) {
        if (IsMarkdownFile(f) && wanted.size() < kMaxOutlined) wanted.push_back(f);
      }
      o.reader.FetchMissing(wanted, ctx.stop);
    }
    for (const auto& f : listing->files) {
      if (index++ < skip) continue;
      add_entry(f.path.Display() + Mark(f.kind));
      chars += CodePoints(d.lines.back()) + 1;
      if (outline && IsMarkdownFile(f) && chars <= ctx.answer_characters) {
        if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
        chars += AppendHeadings(ctx, o.reader, f, &d);
      }
    }
    close_entry();
    if (!outline) entry_of.clear();
    if (d.lines.empty()) d.lines.push_back("(nothing served here)");
    if (listing->unchecked) {
      d.closing.push_back("[" + Plural(listing->unchecked, "subfolder was", "subfolders were") +
                          " not shown: checking whether they hold anything served took more "
                          "work than one call may spend — list them by path]");
    }
    d.cut_note = [skip, entry_of, entry_line](const std::vector<std::string>& lines, size_t first) {
      // With outline, a file cut among its headings is listed again.
      const size_t entry = entry_of.empty() ? first : entry_of[first];
      const size_t entries = entry_of.empty() ? lines.size() : entry_line.size();
      const size_t left = entries - entry;
      std::string note = "[" + Plural(left, "more entry", "more entries") +
                         " not shown — continue with skip: " + WithCommas(skip + entry);
      // Subfolders come first: once a file is left out, no narrower folder holds the rest.
      std::string hint = lines[entry_of.empty() ? first : entry_line[entry]];
      if (!hint.empty() && hint.back() == '/') {
        hint.pop_back();
        note += ", or list a narrower folder, e.g. path: \"" + hint + "\"";
      }
      return note + "]";
    };
    return d;
  }

  size_t total = 0, stored_chars = 0;
  const size_t keep = ctx.answer_characters * 2 + 4096;
  size_t too_deep = 0;
  // With outline: the Markdown files, and how many each subfolder holds (for a refusal).
  std::vector<std::pair<size_t, Node>> markdown;  // the line each is on, the file
  std::map<std::string, size_t> markdown_under;
  size_t markdown_total = 0;
  const size_t depth = path.is_root() ? 0 : path.parts().size();
  Status st = o.reader.Walk(
      *node, ctx.stop,
      [&](const Node& f) {
        if (outline && IsMarkdownFile(f)) {
          ++markdown_total;
          const auto parts = f.path.parts();
          if (parts.size() > depth + 1) ++markdown_under[std::string(parts[depth])];
        }
        if (++total % 4096 == 0) ctx.Progress(total, std::nullopt, "files listed");
        if (total <= skip) return true;
        if (stored_chars <= keep) {
          std::string line = f.path.Display() + Mark(f.kind);
          stored_chars += CodePoints(line) + 1;  // as the cap counts: past it, the cut is sure
          if (outline && IsMarkdownFile(f)) markdown.emplace_back(d.lines.size(), f);
          d.lines.push_back(std::move(line));
        }
        return true;
      },
      &too_deep);
  if (!st) return Error{st.error()};
  if (outline && markdown_total > kMaxOutlined) {
    const std::string folder = path.is_root() ? "the repository" : "`" + path.Display() + "/`";
    std::string narrower;
    size_t named = 0;
    for (const auto& [sub, n] : markdown_under) {
      if (named++ == 8) {
        narrower += ", …";
        break;
      }
      narrower += (narrower.empty() ? "" : ", ") + (path.is_root() ? "" : path.Display() + "/") +
                  DisplayName(sub) + " (" + WithCommas(n) + ")";
    }
    return Error{"outline reads each Markdown file, at most " + std::to_string(kMaxOutlined) +
                 " a call: " + folder + " holds " + WithCommas(markdown_total) +
                 " at any depth. Narrow path to a subfolder" +
                 (narrower.empty() ? "" : " — " + narrower + " —") +
                 " or leave recursive out to outline one folder's own files"};
  }
  if (outline) {
    // The files' lines, each Markdown file's headings beneath it.
    std::vector<std::string> files = std::move(d.lines);
    d.lines.clear();
    std::vector<Node> wanted;  // a mirror fetches the contents it lacks at once
    for (const auto& m : markdown) wanted.push_back(m.second);
    o.reader.FetchMissing(wanted, ctx.stop);
    size_t next = 0;
    for (size_t i = 0; i < files.size(); ++i) {
      add_entry(std::move(files[i]));
      if (next < markdown.size() && markdown[next].first == i) {
        if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
        AppendHeadings(ctx, o.reader, markdown[next++].second, &d);
      }
    }
    close_entry();
  }
  if (skip > 0 && skip >= total) {
    return Error{"skip " + WithCommas(skip) + " is past the end: the folder has " +
                 Plural(total, "file", "files") + " at any depth; give a smaller skip"};
  }
  d.header = where + " — " + Plural(total, "file", "files") + ", at any depth";
  if (skip > 0) d.header += ", from file " + WithCommas(skip + 1);
  if (total == 0) d.lines.push_back("(nothing served here)");
  if (too_deep) {
    d.closing.push_back("[" + Plural(too_deep, "entry", "entries") +
                        " passed over: their paths are longer than 4,096 bytes]");
  }
  d.cut_note = [total, skip, asked = path.is_root() ? std::string() : path.Display(), entry_of,
                entry_line](const std::vector<std::string>& lines, size_t first) {
    // With outline, a file cut among its headings is listed again; headings are not files.
    if (!entry_of.empty()) first = entry_of[first];
    auto file_line = [&](size_t i) -> const std::string& {
      return lines[entry_of.empty() ? i : entry_line[i]];
    };
    const size_t files = entry_of.empty() ? lines.size() : entry_line.size();
    // A folder strictly below the one listed that holds a file left out; never the folder
    // listed itself, which would only repeat this answer.
    std::string folder;
    for (size_t i = first; i < files && folder.empty(); ++i) {
      std::string f = FolderOf(file_line(i));
      if (f.size() > asked.size()) folder = std::move(f);
    }
    std::string note = "[" + Plural(total - skip - first, "more file", "more files") +
                       " not shown — continue with skip: " + WithCommas(skip + first);
    if (!folder.empty()) note += ", or list a narrower folder, e.g. path: \"" + folder + "\"";
    return note + "]";
  };
  return d;
}

}  // namespace rr
