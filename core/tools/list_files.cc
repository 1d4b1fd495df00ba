#include "core/tools/list_files.h"

#include "core/tools/common.h"
#include "core/util/text.h"

namespace rr {
namespace {

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
        false, 0, std::nullopt}}};
  return s;
}

Result<Draft> ListFilesTool::Call(const CallContext& ctx, const Args& args) const {
  auto path = PathOf(args);
  if (!path) return Error{path.error()};
  auto o = OpenAt(ctx, args);
  if (!o) return Error{o.error()};
  auto node = o->reader.Find(o->at, *path, ctx.stop);
  if (!node) return Error{node.error()};
  if (node->kind != EntryKind::kFolder) {
    return Error{"`" + node->path.Display() + "` is a file, not a folder: read it with read_file"};
  }
  const std::string where =
      o->at.Where(o->repo->name()) + " · " + (path->is_root() ? "/" : path->Display() + "/");
  const size_t skip = static_cast<size_t>(args.Integer("skip").value_or(0));
  Draft d;
  if (!args.Boolean("recursive", false)) {
    auto listing = o->reader.List(*node, ctx.stop);
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
      if (index++ >= skip) d.lines.push_back(f.path.Display() + "/");
    }
    for (const auto& f : listing->files) {
      if (index++ >= skip) d.lines.push_back(f.path.Display() + Mark(f.kind));
    }
    if (d.lines.empty()) d.lines.push_back("(nothing served here)");
    if (listing->unchecked) {
      d.closing.push_back("[" + Plural(listing->unchecked, "subfolder was", "subfolders were") +
                          " not shown: checking whether they hold anything served took more "
                          "work than one call may spend — list them by path]");
    }
    d.cut_note = [skip](const std::vector<std::string>& lines, size_t first) {
      const size_t left = lines.size() - first;
      std::string note = "[" + Plural(left, "more entry", "more entries") +
                         " not shown — continue with skip: " + WithCommas(skip + first);
      // Subfolders come first: once a file is left out, no narrower folder holds the rest.
      std::string hint = lines[first];
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
  Status st = o->reader.Walk(
      *node, ctx.stop,
      [&](const Node& f) {
        if (++total % 4096 == 0) ctx.Progress(total, std::nullopt, "files listed");
        if (total <= skip) return true;
        if (stored_chars <= keep) {
          std::string line = f.path.Display() + Mark(f.kind);
          stored_chars += CodePoints(line) + 1;  // as the cap counts: past it, the cut is sure
          d.lines.push_back(std::move(line));
        }
        return true;
      },
      &too_deep);
  if (!st) return Error{st.error()};
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
  d.cut_note = [total, skip, asked = path->is_root() ? std::string() : path->Display()](
                   const std::vector<std::string>& lines, size_t first) {
    // A folder strictly below the one listed that holds a file left out; never the folder
    // listed itself, which would only repeat this answer.
    std::string folder;
    for (size_t i = first; i < lines.size() && folder.empty(); ++i) {
      std::string f = FolderOf(lines[i]);
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
