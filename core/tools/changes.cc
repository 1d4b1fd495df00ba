#include "core/tools/changes.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/util/text.h"

namespace rr {
namespace {

std::string ModeOf(const Node& n) {
  switch (n.kind) {
    case EntryKind::kLink:
      return "120000";
    case EntryKind::kSubmodule:
      return "160000";
    default:
      return n.executable ? "100755" : "100644";
  }
}

std::string KindWord(EntryKind k) {
  switch (k) {
    case EntryKind::kLink:
      return "link";
    case EntryKind::kSubmodule:
      return "submodule";
    default:
      return "file";
  }
}

std::string ShortOf(const std::optional<Node>& n) {
  return n ? CommitId(n->oid).Short() : std::string(12, '0');
}

// The folder holding a path ("" at the root).
std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Where the kept lines stand, for the cut's note.
struct Layout {
  size_t list_begin = 0, list_end = 0;  // the list's lines in the draft
  std::vector<std::string> listed;      // the paths listed, as shown
  size_t changed = 0;                   // served files changed (listed or not)
  // The diff's sections: (first line in the draft, index of the file in the list).
  std::vector<std::pair<size_t, size_t>> sections;
  bool files_only = false;
  std::string under;          // the path asked about, as shown ("" for everything)
  std::string before, after;  // the commits compared, short ("" for nothing before)
};

void Header(const FileChange& f, const std::optional<Node>& before,
            const std::optional<Node>& after, Draft* s) {
  const std::string p = f.path.Display();
  s->lines.push_back("diff --git a/" + p + " b/" + p);
  if (!before) {
    s->lines.push_back("new file mode " + ModeOf(*after));
  } else if (!after) {
    s->lines.push_back("deleted file mode " + ModeOf(*before));
  } else if (ModeOf(*before) != ModeOf(*after)) {
    s->lines.push_back("old mode " + ModeOf(*before));
    s->lines.push_back("new mode " + ModeOf(*after));
  }
  const bool same = before && after && CommitId(before->oid) == CommitId(after->oid);
  if (!same) {
    std::string index = "index " + ShortOf(before) + ".." + ShortOf(after);
    if (before && after && ModeOf(*before) == ModeOf(*after)) index += " " + ModeOf(*after);
    s->lines.push_back(std::move(index));
  }
}

}  // namespace

ArgSpec ChangesPathArg() {
  return PathArg(
      "Only the changes at or under this file or folder, written from the repository's root: "
      "src/api. Default: every change.",
      false);
}

ArgSpec FilesOnlyArg() {
  return {"files_only", ArgType::kBoolean,
          "true: only the list of changed files with lines added and removed, without the diff.",
          false};
}

void AddShownLine(std::string_view lead, std::string_view raw, Draft* d) {
  std::string scan;
  size_t shown = 0;
  const std::string text = ShownText(raw, &scan, &shown);
  if (!scan.empty()) {
    scan = std::string(lead) + scan;
    shown += lead.size();
  }
  d->AddLine(std::string(lead) + text, std::move(scan), shown);
}

Status WriteChanges(const CallContext& ctx, ChangeReader& changes, const ChangesAsked& asked,
                    Draft* d, size_t* changed) {
  // Kept while the draft is under this many characters: past it, the cap is sure to cut.
  // The list is kept first, the diff in what room the list leaves: the answer shows the list
  // before the diff, so a diff line past that room could never be shown.
  const size_t keep = ctx.answer_characters * 2 + 4096;
  size_t list_chars = 0, diff_chars = 0;
  for (const auto& l : d->lines) list_chars += CodePoints(l) + 1;

  auto layout = std::make_shared<Layout>();
  layout->files_only = asked.files_only;
  layout->under = asked.under.is_root() ? std::string() : asked.under.Display();
  layout->before = asked.before ? asked.before->Short() : std::string();
  layout->after = asked.after.Short();
  std::vector<std::string> list;
  Draft diff;  // every section kept, in order
  std::vector<std::pair<size_t, size_t>> section_starts;
  bool list_full = false, diff_full = false;
  NotServed not_served;
  std::string failed;  // a comparison that failed for another reason than the stop token

  auto visit = [&](const FileChange& f) {
    const size_t index = layout->changed++;
    if (list_full) return true;  // counted only: past the cut, nothing of it is shown
    const bool want_lines = !asked.files_only && !diff_full;
    std::string stats;
    Draft s;  // this file's section
    if (f.beside_unserved_folder) {
      stats = f.after ? "(replaced a folder of files this server doesn't serve: not compared)"
                      : "(replaced by a folder of files this server doesn't serve: not compared)";
    } else {
      // A type change is shown as git shows it: the old entry deleted, the new one added.
      std::vector<std::pair<std::optional<Node>, std::optional<Node>>> parts;
      if (f.kind == ChangeKind::kTypeChanged) {
        parts = {{f.before, std::nullopt}, {std::nullopt, f.after}};
      } else {
        parts = {{f.before, f.after}};
      }
      LineCounts total;
      FileDiff::Kind kind = FileDiff::Kind::kText;
      std::string why;
      for (const auto& [before, after] : parts) {
        Draft part;
        if (want_lines) Header(f, before, after, &part);
        const size_t header_lines = part.lines.size();
        std::vector<size_t> hunk_lines;  // where each hunk's first line (after its header) is
        std::function<void(const DiffLine&)> emit;
        if (want_lines) {
          emit = [&](const DiffLine& l) {
            switch (l.kind) {
              case DiffLine::Kind::kHunk:
                if (part.lines.size() == header_lines) {
                  const std::string p = f.path.Display();
                  part.lines.push_back(before ? "--- a/" + p : "--- /dev/null");
                  part.lines.push_back(after ? "+++ b/" + p : "+++ /dev/null");
                }
                AddShownLine("", l.text, &part);
                hunk_lines.push_back(part.lines.size());
                break;
              case DiffLine::Kind::kContext:
                AddShownLine(" ", l.text, &part);
                break;
              case DiffLine::Kind::kAdded:
                AddShownLine("+", l.text, &part);
                break;
              case DiffLine::Kind::kRemoved:
                AddShownLine("-", l.text, &part);
                break;
              case DiffLine::Kind::kNoNewlineAtEnd:
                part.lines.push_back("\\ No newline at end of file");
                break;
            }
          };
        }
        std::vector<BlockSource> hunks;
        auto r = changes.Diff(before ? &*before : nullptr, after ? &*after : nullptr, emit,
                              ctx.stop, want_lines ? &hunks : nullptr);
        if (!r) {
          if (!ctx.stop.stopped()) failed = "`" + f.path.Display() + "`: " + r.error();
          return false;  // the stop token's sentence comes from Compare
        }
        if (r->kind != FileDiff::Kind::kText && kind == FileDiff::Kind::kText) {
          kind = r->kind;
          why = r->why_not_read;
        }
        // Each hunk runs to the next one's header, the last to the end of the diff's lines.
        for (size_t h = 0; h < hunk_lines.size() && h < hunks.size(); ++h) {
          const size_t end = h + 1 < hunk_lines.size() ? hunk_lines[h + 1] - 1 : part.lines.size();
          if (end > hunk_lines[h]) {
            part.AddBlock(hunk_lines[h], end - hunk_lines[h], std::move(hunks[h]));
          }
        }
        total.added += r->counts.added;
        total.removed += r->counts.removed;
        if (want_lines && r->kind == FileDiff::Kind::kBinary) {
          part.lines.push_back(
              "Binary files " + (before ? "a/" + f.path.Display() : std::string("/dev/null")) +
              " and " + (after ? "b/" + f.path.Display() : std::string("/dev/null")) + " differ");
        } else if (want_lines && r->kind == FileDiff::Kind::kNotRead) {
          part.lines.push_back("(not compared: " + r->why_not_read + ")");
        }
        s.Append(std::move(part));
      }
      switch (kind) {
        case FileDiff::Kind::kText:
          stats = "+" + std::to_string(total.added) + " -" + std::to_string(total.removed);
          break;
        case FileDiff::Kind::kBinary:
          stats = "binary";
          break;
        case FileDiff::Kind::kNotRead:
          stats = "(not compared: " + why + ")";
          break;
      }
      if (f.kind == ChangeKind::kTypeChanged) {
        stats += "  (" + KindWord(f.before->kind) + " → " + KindWord(f.after->kind) + ")";
      } else if (f.before && f.after && ModeOf(*f.before) != ModeOf(*f.after)) {
        stats += "  (mode " + ModeOf(*f.before) + " → " + ModeOf(*f.after) + ")";
      }
    }
    std::string line =
        std::string(1, ChangeLetter(f.kind)) + "  " + f.path.Display() + "  " + stats;
    list_chars += CodePoints(line) + 1;
    list.push_back(std::move(line));
    layout->listed.push_back(f.path.Display());
    if (list_chars > keep) list_full = true;
    if (want_lines && !s.lines.empty()) {
      section_starts.emplace_back(diff.lines.size(), index);
      size_t kept = 0;
      for (; kept < s.lines.size(); ++kept) {
        if (list_chars + diff_chars > keep) {
          diff_full = true;
          break;
        }
        diff_chars += CodePoints(s.lines[kept]) + 1;
      }
      // Cut inside a hunk, what follows the hunk does not follow its last line kept.
      s.KeepFirst(kept);
      diff.Append(std::move(s));
    }
    return true;
  };

  Status st = changes.Compare(asked.before, asked.after, asked.under, ctx.stop, visit, &not_served);
  if (!st) return st;
  if (!failed.empty()) return Error{failed};
  *changed = layout->changed;

  // The list, the count of what is not served, then the diff.
  layout->list_begin = d->lines.size();
  for (auto& l : list) d->lines.push_back(std::move(l));
  layout->list_end = d->lines.size();
  const std::string under =
      asked.under.is_root() ? std::string() : " under `" + asked.under.Display() + "`";
  if (layout->changed == 0 && not_served.files == 0 && not_served.folders == 0) {
    d->lines.push_back("(no files changed" + under + ")");
  }
  if (not_served.files || not_served.folders) {
    std::string what;
    if (not_served.files) what = Plural(not_served.files, "changed file", "changed files");
    if (not_served.folders) {
      what += (what.empty() ? "changes in " : " and changes in ") +
              Plural(not_served.folders, "folder", "folders");
    }
    const bool one = not_served.files + (not_served.folders ? 1 : 0) == 1;
    d->lines.push_back("[" + what + (one ? " is" : " are") +
                       " not shown: this server doesn't serve " + (one ? "it" : "them") + "]");
  }
  if (!diff.lines.empty()) {
    d->lines.push_back("");
    const size_t base = d->lines.size();
    for (auto& [line, file] : section_starts) layout->sections.emplace_back(base + line, file);
    d->Append(std::move(diff));
  }
  if (list_full || diff_full) {
    // Kept lines end here; the cap cuts before this line, and its note says how to go on. This
    // line is only seen if hidden values made the kept lines shorter than the cap.
    d->lines.push_back("[the rest is not shown: narrow with path, or ask for files_only]");
  }
  d->ShowsDiff();
  const size_t limit = ctx.answer_characters;
  d->cut_note = [layout, limit](const std::vector<std::string>&, size_t first) -> std::string {
    const Layout& l = *layout;
    if (first < l.list_begin) {
      const std::string how = l.before.empty() ? "list_files and read_file at ref: \"" + l.after +
                                                     "\" show what it added"
                                               : "the diff tool gives them alone: base: \"" +
                                                     l.before + "\", head: \"" + l.after + "\"";
      return "[the commit's message is longer than the answer (its limit is " + WithCommas(limit) +
             " characters): the rest of it, the changed files and the diff are not shown — " + how +
             "]";
    }
    if (first < l.list_end) {
      const size_t shown = first - l.list_begin;
      const std::string& next = l.listed[shown];
      const std::string folder = FolderOf(next);
      std::string note =
          "[" + Plural(l.changed - shown, "more changed file", "more changed files") +
          (l.files_only ? "" : ", and the diff,") + " not shown — narrow with path, e.g. path: \"" +
          (folder.empty() ? next : folder) + "\"";
      return note + "]";
    }
    // In the diff: the section the cut falls in, if it falls after the first one's start.
    auto it = std::upper_bound(
        l.sections.begin(), l.sections.end(), first,
        [](size_t line, const std::pair<size_t, size_t>& s) { return line < s.first; });
    const std::string how = " — narrow with path, e.g. path: \"";
    const std::string list_alone = "\" (files_only: true lists every changed file alone)]";
    if (it == l.sections.begin()) {
      const std::string path = l.sections.empty() ? std::string() : l.listed[l.sections[0].second];
      return "[the diff is not shown: the answer reached its limit of " + WithCommas(limit) +
             " characters" + (path.empty() ? "]" : how + path + list_alone);
    }
    const auto& [start, file] = *std::prev(it);
    const std::string& path = l.listed[file];
    if (first == start) {
      return "[the diffs of " + Plural(l.changed - file, "file", "files") + " from `" + path +
             "` on are not shown" + how + path + list_alone;
    }
    const size_t after = l.changed - file - 1;
    if (path == l.under) {
      // Narrowed to this one file already: only its versions, read whole, can show more.
      return "[the diff of `" + path + "` was cut: it is longer than the answer — read the file " +
             "itself with read_file, at " +
             (l.before.empty() ? std::string() : "ref: \"" + l.before + "\" and ") + "ref: \"" +
             l.after + "\" (start_line pages on)]";
    }
    return "[the diff was cut in `" + path + "`" +
           (after ? "; the diffs of " + Plural(after, "more file", "more files") +
                        " after it are not shown"
                  : std::string()) +
           how + path + list_alone;
  };
  return Status::Ok();
}

}  // namespace rr
