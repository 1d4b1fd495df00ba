#include "core/tools/overview.h"

#include <cstdio>

#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

// The files a repository's map is read from, the first found at its root.
constexpr const char* kIndexNames[] = {"INDEX.md", "index.md", "README.md"};

// A size as the listing shows it: 340 B, 1.2 KB, 3.4 MB.
std::string CompactSize(uint64_t n) {
  if (n < 1024) return std::to_string(n) + " B";
  char buf[32];
  if (n < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(n) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(n) / (1024.0 * 1024.0));
  }
  return buf;
}

std::string Indent(size_t depth) { return std::string(2 * depth, ' '); }

// Appends the index file's lines as they are (no numbers), up to `budget` characters, as a part
// the secret filter reads as that file; a file longer than that ends with the read_file call
// that continues it. Returns the file's name, or "" when none of kIndexNames is a text file
// served at the root; a candidate passed over for another reason (a link, a binary file, one
// too large to read) is said in *notes.
std::string AppendIndex(const CallContext& ctx, const Opened& o, size_t budget, Draft* d,
                        std::vector<std::string>* notes) {
  for (const char* name : kIndexNames) {
    auto path = RepoPath::Parse(name);
    if (!path) continue;
    auto node = o.reader.Find(o.at, *path, ctx.stop);
    if (!node) continue;  // not there, or outside what this server serves
    if (node->kind == EntryKind::kLink) {
      auto target = o.reader.Read(*node, ctx.stop);
      notes->push_back("(" + std::string(name) + " is a symbolic link" +
                       (target ? " to `" + DisplayName(target->bytes()) + "`" : "") +
                       ", not followed: read the target by its own path)");
      continue;
    }
    if (node->kind != EntryKind::kFile && node->kind != EntryKind::kOther) continue;
    auto data = o.reader.Read(*node, ctx.stop);
    if (!data) {
      notes->push_back("(" + std::string(name) + " not read: " + data.error() + ")");
      continue;
    }
    if (data->kind == FileData::Kind::kBinary) {
      notes->push_back("(" + std::string(name) + " is a binary file; not shown)");
      continue;
    }
    const std::string_view bytes = data->bytes();
    FileLineReader lines(bytes);
    const size_t total = lines.Count();
    d->AddOwnLine("=== " + std::string(name) + " · " + Plural(total, "line", "lines"));
    const size_t first = d->lines.size();
    d->StartFilePart(name, 0);
    size_t spent = 0, shown = 0, pos = 0;
    while (shown < total) {
      pos = lines.pos();
      std::string scan;
      size_t scan_shown = 0;
      std::string text = ShownText(lines.Next(), &scan, &scan_shown);
      const size_t cost = CodePoints(text) + 1;
      if (spent + cost > budget) break;
      d->AddLine(std::move(text), std::move(scan), scan_shown);
      spent += cost;
      ++shown;
      pos = lines.pos();
    }
    if (shown > 0) EndFileLines(bytes, 0, pos, first, d, BlobIdOf(*node), 0);
    if (shown < total) {
      const std::string next = std::to_string(shown + 1);
      d->AddOwnLine("[" + std::string(name) + " continues: lines " + next + "–" +
                    std::to_string(total) +
                    " are not shown here, to leave room for the files — read them with "
                    "read_file (path: \"" +
                    name + "\", start_line: " + next + ")]");
    }
    return name;
  }
  return "";
}

}  // namespace

const ToolSpec& OverviewTool::spec() const {
  static const ToolSpec s{
      "overview",
      "A repository's map",
      "A repository's own map in one call: the first of INDEX.md, index.md and README.md at its "
      "root, whole up to half of the answer, then every file this server serves with its size — "
      "folders once, their files beneath. Call it first to know where things are and how large "
      "they are before reading. A cut listing gives the skip that continues it, or a folder to "
      "list with list_files.",
      {RepoArg(),
       RefArg(),
       {"skip", ArgType::kInteger,
        "Skip this many files of the listing first, to page on (the index file is then left "
        "out); a cut answer gives the next skip. Default 0.",
        false, 0, std::nullopt}},
      [] {
        ToolTraits t;
        t.refs = {"ref"};
        return t;
      }()};
  return s;
}

Result<Draft> OverviewTool::Call(const CallContext& ctx, const Args& args) const {
  const Opened o = OpenedOf(ctx);
  auto root = o.reader.Find(o.at, RepoPath::Root(), ctx.stop);
  if (!root) return Error{root.error()};
  const size_t skip = static_cast<size_t>(args.Integer("skip").value_or(0));

  Draft d;
  std::vector<std::string> notes;
  const std::string index =
      skip == 0 ? AppendIndex(ctx, o, ctx.answer_characters / 2, &d, &notes) : "";
  for (auto& n : notes) {
    d.AddOwnLine(std::move(n));
  }

  // The listing: every served file in git's order, each folder's line once before what it
  // holds. Lines are kept only while the answer may show them; files are counted to the end.
  d.StartPart();
  const size_t listing_line = d.lines.size();
  d.AddOwnLine("");  // its first line, once the files are counted
  const size_t listing_begin = d.lines.size();
  std::vector<std::string> open;               // the folders whose lines the listing is inside
  std::vector<size_t> file_of_line;            // per listing line: its file's index, or npos
  std::vector<std::string> folder_of;          // per file shown: the folder holding it
  std::vector<std::pair<size_t, Node>> files;  // the line each file is on, the file
  size_t total = 0, stored_chars = 0, too_deep = 0;
  const size_t keep = ctx.answer_characters * 2 + 4096;
  auto add = [&](std::string line, size_t file) {
    stored_chars += CodePoints(line) + 1;
    file_of_line.push_back(file);
    d.lines.push_back(std::move(line));
  };
  Status st = o.reader.Walk(
      *root, ctx.stop,
      [&](const Node& f) {
        if (total++ < skip || stored_chars > keep) return true;
        const auto parts = f.path.parts();
        size_t common = 0;
        while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) {
          ++common;
        }
        open.resize(common);
        for (size_t k = common; k + 1 < parts.size(); ++k) {
          add(Indent(k) + DisplayName(parts[k]) + "/", std::string::npos);
          open.emplace_back(parts[k]);
        }
        folder_of.push_back(f.path.Parent().is_root() ? "" : f.path.Parent().Display());
        files.emplace_back(d.lines.size(), f);
        add(Indent(parts.size() - 1) + DisplayName(parts.back()), folder_of.size() - 1);
        return true;
      },
      &too_deep);
  if (!st) return Error{st.error()};
  if (skip > 0 && skip >= total) {
    return Error{"skip " + WithCommas(skip) + " is past the end: the repository has " +
                 Plural(total, "served file", "served files") + "; give a smaller skip"};
  }
  // Sizes, read from each object's header (never its contents), for the files the answer can
  // hold: past its limit the cap is sure to cut, so the lines after that are dropped and a last
  // line says how to go on (what the cut's note says, should the cap not cut before it).
  size_t chars = 0, kept_files = 0, kept_lines = d.lines.size();
  for (size_t i = 0; i < listing_begin; ++i) chars += CodePoints(d.lines[i]) + 1;
  {
    // A mirror fetches the listed files' contents it lacks (an older ref), one batch at most:
    // a size is no reason for more.
    std::vector<Node> wanted;
    for (const auto& [line, f] : files) {
      if (wanted.size() == ContentFetcher::kMaxIdsPerFetch) break;
      if (f.kind == EntryKind::kFile) wanted.push_back(f);
    }
    o.reader.FetchMissing(wanted, ctx.stop);
  }
  for (size_t i = listing_begin; i < d.lines.size(); ++i) {
    std::string& line = d.lines[i];
    if (kept_files < files.size() && files[kept_files].first == i) {
      if (kept_files % 1024 == 0 && ctx.stop.stopped()) return Error{ctx.stop.Why()};
      const Node& f = files[kept_files++].second;
      switch (f.kind) {
        case EntryKind::kLink:
          line += " (link)";
          break;
        case EntryKind::kSubmodule:
          line += " (submodule)";
          break;
        default: {
          const auto size = o.reader.Size(f);
          line += "  " + (size ? CompactSize(*size) : std::string("(not in the local copy)"));
        }
      }
    }
    chars += CodePoints(line) + 1;
    if (chars > ctx.answer_characters && i + 1 < d.lines.size()) {
      kept_lines = i + 1;
      break;
    }
  }
  const bool dropped = kept_lines < d.lines.size();
  d.KeepFirst(kept_lines);
  file_of_line.resize(kept_lines - listing_begin);
  d.lines[listing_line] = "=== " + Plural(total, "served file", "served files") +
                          ", with their sizes" +
                          (skip > 0 ? ", from file " + WithCommas(skip + 1) : "");
  if (total == 0) d.lines.push_back("(nothing served here)");
  if (too_deep) {
    d.closing.push_back("[" + Plural(too_deep, "entry", "entries") +
                        " passed over: their paths are longer than 4,096 bytes]");
  }
  d.header = o.at.Where(o.repo->name()) + " · overview: ";
  if (skip == 0) {
    d.header += (index.empty() ? "no INDEX.md, index.md or README.md at the root" : index) + ", ";
  }
  d.header += Plural(total, "served file", "served files");
  if (skip > 0) d.header += ", from file " + WithCommas(skip + 1);
  auto how_to_go_on = [index, listing_begin, file_of_line = std::move(file_of_line),
                       folder_of = std::move(folder_of), kept_files, total, skip,
                       limit = ctx.answer_characters](size_t first) {
    if (first < listing_begin) {
      return "[the answer reached its limit of " + WithCommas(limit) +
             " characters before the files — read " +
             (index.empty() ? std::string()
                            : index + " with read_file (path: \"" + index + "\"), and ") +
             "list the files with list_files (recursive: true)]";
    }
    // The first file left out (a folder's line always comes before a file of it).
    size_t k = first - listing_begin;
    while (k < file_of_line.size() && file_of_line[k] == std::string::npos) ++k;
    const size_t file = k < file_of_line.size() ? file_of_line[k] : kept_files;
    std::string note = "[" + Plural(total - skip - file, "more file", "more files") +
                       " not shown — continue with skip: " + WithCommas(skip + file);
    if (file < folder_of.size() && !folder_of[file].empty()) {
      note += ", or list one folder with list_files (path: \"" + folder_of[file] +
              "\", recursive: true)";
    }
    return note + "]";
  };
  if (dropped) {
    d.AddOwnLine(how_to_go_on(d.lines.size()));
  }
  d.cut_note = [how_to_go_on](const std::vector<std::string>&, size_t first) {
    return how_to_go_on(first);
  };
  return d;
}

}  // namespace rr
