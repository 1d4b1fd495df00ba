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
      "serves is answered as a folder that isn't there. Sizes are not shown.",
      {RepoArg(),
       RefArg(),
       PathArg("The folder, written from the repository's root: src/api. Default: the root.",
               false),
       {"recursive", ArgType::kBoolean,
        "true: every file under the folder at any depth, instead of its direct content.", false}}};
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
  Draft d;
  if (!args.Boolean("recursive", false)) {
    auto listing = o->reader.List(*node, ctx.stop);
    if (!listing) return Error{listing.error()};
    d.header = where + " — " + Plural(listing->folders.size(), "folder", "folders") + ", " +
               Plural(listing->files.size(), "file", "files");
    for (const auto& f : listing->folders) d.lines.push_back(f.path.Display() + "/");
    for (const auto& f : listing->files) d.lines.push_back(f.path.Display() + Mark(f.kind));
    if (d.lines.empty()) d.lines.push_back("(nothing served here)");
    d.cut_note = [limit = ctx.answer_characters](const std::vector<std::string>& lines,
                                                 size_t first) {
      const size_t left = lines.size() - first;
      std::string hint = lines[first];
      // Subfolders come first: once a file is left out, no narrower folder holds the rest.
      if (hint.empty() || hint.back() != '/') {
        return "[" + Plural(left, "more entry", "more entries") +
               " not shown: the answer reached its limit of " + WithCommas(limit) + " characters]";
      }
      hint.pop_back();
      return "[" + Plural(left, "more entry", "more entries") +
             " not shown — list a narrower folder, e.g. path: \"" + hint + "\"]";
    };
    return d;
  }

  size_t total = 0, stored_chars = 0;
  const size_t keep = ctx.answer_characters * 2 + 4096;
  size_t too_deep = 0;
  Status st = o->reader.Walk(
      *node, ctx.stop,
      [&](const Node& f) {
        ++total;
        if (stored_chars <= keep) {
          std::string line = f.path.Display() + Mark(f.kind);
          stored_chars += CodePoints(line) + 1;  // as the cap counts: past it, the cut is sure
          d.lines.push_back(std::move(line));
        }
        return true;
      },
      &too_deep);
  if (!st) return Error{st.error()};
  d.header = where + " — " + Plural(total, "file", "files") + ", at any depth";
  if (total == 0) d.lines.push_back("(nothing served here)");
  if (too_deep) {
    d.closing.push_back("[" + Plural(too_deep, "entry", "entries") +
                        " passed over: their paths are longer than 4,096 bytes]");
  }
  d.cut_note = [total, asked = path->is_root() ? std::string() : path->Display(),
                limit = ctx.answer_characters](const std::vector<std::string>& lines,
                                               size_t first) {
    // A folder strictly below the one listed that holds a file left out; never the folder
    // listed itself, which would only repeat this answer.
    std::string folder;
    for (size_t i = first; i < lines.size() && folder.empty(); ++i) {
      std::string f = FolderOf(lines[i]);
      if (f.size() > asked.size()) folder = std::move(f);
    }
    if (folder.empty()) {
      return "[" + Plural(total - first, "more file", "more files") +
             " not shown: the answer reached its limit of " + WithCommas(limit) + " characters]";
    }
    return "[" + Plural(total - first, "more file", "more files") +
           " not shown — list a narrower folder, e.g. path: \"" + folder + "\"]";
  };
  return d;
}

}  // namespace rr
