#include "core/git/tree_diff.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace rr {
namespace {

EntryKind KindOfMode(git_filemode_t mode) {
  switch (mode) {
    case GIT_FILEMODE_TREE:
      return EntryKind::kFolder;
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return EntryKind::kFile;
    case GIT_FILEMODE_LINK:
      return EntryKind::kLink;
    case GIT_FILEMODE_COMMIT:
      return EntryKind::kSubmodule;
    default:
      return EntryKind::kOther;
  }
}

bool IsTree(const git_tree_entry* e) { return git_tree_entry_filemode(e) == GIT_FILEMODE_TREE; }

// git's order of tree entries (base_name_compare): by name, a folder's name compared as if it
// ended in '/'. It is the order of full paths, so the changes come out sorted by path.
int CompareNames(std::string_view a, bool a_tree, std::string_view b, bool b_tree) {
  const size_t n = std::min(a.size(), b.size());
  if (n > 0) {
    const int c = std::memcmp(a.data(), b.data(), n);
    if (c != 0) return c;
  }
  const unsigned char ca = n < a.size() ? static_cast<unsigned char>(a[n]) : (a_tree ? '/' : 0);
  const unsigned char cb = n < b.size() ? static_cast<unsigned char>(b[n]) : (b_tree ? '/' : 0);
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

std::string_view NameOf(const git_tree_entry* e) { return git_tree_entry_name(e); }

TreeSide SideOf(const git_tree_entry* e) {
  TreeSide s;
  const git_filemode_t mode = git_tree_entry_filemode(e);
  s.kind = KindOfMode(mode);
  s.oid = *git_tree_entry_id(e);
  s.mode = static_cast<uint32_t>(mode);
  return s;
}

// The entry at `i`, or null past the end (or for an empty side).
const git_tree_entry* At(const TreePtr& tree, size_t i) {
  if (!tree || i >= git_tree_entrycount(tree.get())) return nullptr;
  return git_tree_entry_byindex(tree.get(), i);
}

// Moves past the entry at *i and any entry right after it of the same name and kind (a name
// repeated in a hostile tree is visited once).
void Advance(const TreePtr& tree, size_t* i) {
  const git_tree_entry* e = At(tree, *i);
  ++*i;
  if (!e) return;
  while (const git_tree_entry* next = At(tree, *i)) {
    if (NameOf(next) != NameOf(e) || IsTree(next) != IsTree(e)) break;
    ++*i;
  }
}

// The folder named `name` in `tree`, found by git's order; null when there is none.
const git_tree_entry* FindFolder(const TreePtr& tree, std::string_view name) {
  if (!tree) return nullptr;
  size_t lo = 0, hi = git_tree_entrycount(tree.get());
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const git_tree_entry* e = git_tree_entry_byindex(tree.get(), mid);
    const int c = CompareNames(NameOf(e), IsTree(e), name, true);
    if (c == 0) return e;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return nullptr;
}

// One folder being compared: its two trees (null: absent or unreadable, compared as empty) and
// where each walk through them stands.
struct Frame {
  TreePtr before, after;
  size_t i = 0, j = 0;
  std::string path;  // from the root; "" for the root
};

TreePtr OpenOrEmpty(GitRepo& git, const git_tree_entry* e) {
  if (!e) return nullptr;
  auto tree = git.Subtree(*git_tree_entry_id(e));
  return tree ? tree.take() : nullptr;
}

std::string ChildPath(const std::string& folder, std::string_view name) {
  std::string p;
  p.reserve(folder.size() + 1 + name.size());
  p = folder;
  if (!p.empty()) p.push_back('/');
  p.append(name);
  return p;
}

}  // namespace

char ChangeLetter(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kAdded:
      return 'A';
    case ChangeKind::kModified:
      return 'M';
    case ChangeKind::kDeleted:
      return 'D';
    case ChangeKind::kTypeChanged:
      return 'T';
  }
  return '?';
}

Status DiffTrees(GitRepo& git, const git_oid* before, const git_oid* after,
                 TreeDiffVisitor& visitor, const StopToken& stop) {
  std::vector<Frame> stack;
  stack.emplace_back();
  for (const auto& [oid, out] :
       {std::pair{before, &stack.back().before}, std::pair{after, &stack.back().after}}) {
    if (!oid) continue;
    auto tree = git.Subtree(*oid);
    if (!tree) return Error{tree.error()};
    *out = tree.take();
  }
  size_t steps = 0;
  while (!stack.empty()) {
    if ((++steps & 255) == 0 && stop.stopped()) return Error{stop.Why()};
    Frame& f = stack.back();
    const git_tree_entry* a = At(f.before, f.i);
    const git_tree_entry* b = At(f.after, f.j);
    if (!a && !b) {
      stack.pop_back();
      continue;
    }
    const int cmp = !a ? 1 : !b ? -1 : CompareNames(NameOf(a), IsTree(a), NameOf(b), IsTree(b));
    if (cmp < 0) {
      Advance(f.before, &f.i);
    } else if (cmp > 0) {
      Advance(f.after, &f.j);
    } else {
      Advance(f.before, &f.i);
      Advance(f.after, &f.j);
      if (git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
          git_tree_entry_filemode(a) == git_tree_entry_filemode(b)) {
        continue;
      }
    }
    const git_tree_entry* one = cmp > 0 ? b : a;  // names the entry either way
    const std::string_view name = NameOf(one);
    if (IsTree(one)) {
      if (!visitor.Descend(f.path, name)) continue;
      Frame child;
      child.before = cmp <= 0 ? OpenOrEmpty(git, a) : nullptr;
      child.after = cmp >= 0 ? OpenOrEmpty(git, b) : nullptr;
      child.path = ChildPath(f.path, name);
      stack.push_back(std::move(child));  // `f` is not used after this
      continue;
    }
    TreeChange c;
    c.folder = f.path;
    c.name = name;
    if (cmp <= 0) c.before = SideOf(a);
    if (cmp >= 0) c.after = SideOf(b);
    if (cmp < 0) {
      c.kind = ChangeKind::kDeleted;
      if (const git_tree_entry* folder = FindFolder(f.after, name)) {
        c.folder_in_other_tree = *git_tree_entry_id(folder);
      }
    } else if (cmp > 0) {
      c.kind = ChangeKind::kAdded;
      if (const git_tree_entry* folder = FindFolder(f.before, name)) {
        c.folder_in_other_tree = *git_tree_entry_id(folder);
      }
    } else {
      // git's rule: a type change is a change of the kind of entry (file, link, submodule); a
      // file that becomes executable is modified.
      const auto type = [](uint32_t mode) { return mode & 0170000; };
      c.kind = type(c.before->mode) == type(c.after->mode) ? ChangeKind::kModified
                                                           : ChangeKind::kTypeChanged;
    }
    if (!visitor.Changed(c)) return Status::Ok();
  }
  return Status::Ok();
}

bool LooksBinary(std::string_view bytes) {
  constexpr size_t kFirstFewBytes = 8000;  // git's FIRST_FEW_BYTES
  const size_t n = std::min(bytes.size(), kFirstFewBytes);
  return n > 0 && std::memchr(bytes.data(), '\0', n) != nullptr;
}

namespace {

struct DiffState {
  const std::function<void(const DiffLine&)>* emit;
  const StopToken* stop;
  LineCounts counts;
  size_t lines = 0;
  bool stopped = false;
};

int OnHunk(const git_diff_delta*, const git_diff_hunk* hunk, void* payload) {
  auto* s = static_cast<DiffState*>(payload);
  if (!*s->emit) return 0;
  std::string_view header(hunk->header, hunk->header_len);
  while (!header.empty() && (header.back() == '\n' || header.back() == '\r')) {
    header.remove_suffix(1);
  }
  DiffLine out{DiffLine::Kind::kHunk, header};
  out.old_start = static_cast<size_t>(std::max(hunk->old_start, 0));
  out.old_lines = static_cast<size_t>(std::max(hunk->old_lines, 0));
  out.new_start = static_cast<size_t>(std::max(hunk->new_start, 0));
  out.new_lines = static_cast<size_t>(std::max(hunk->new_lines, 0));
  (*s->emit)(out);
  return 0;
}

int OnLine(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line, void* payload) {
  auto* s = static_cast<DiffState*>(payload);
  DiffLine out{DiffLine::Kind::kContext, {}};
  switch (line->origin) {
    case GIT_DIFF_LINE_CONTEXT:
      break;
    case GIT_DIFF_LINE_ADDITION:
      out.kind = DiffLine::Kind::kAdded;
      ++s->counts.added;
      break;
    case GIT_DIFF_LINE_DELETION:
      out.kind = DiffLine::Kind::kRemoved;
      ++s->counts.removed;
      break;
    case GIT_DIFF_LINE_CONTEXT_EOFNL:
    case GIT_DIFF_LINE_ADD_EOFNL:
    case GIT_DIFF_LINE_DEL_EOFNL:
      out.kind = DiffLine::Kind::kNoNewlineAtEnd;
      break;
    default:
      return 0;  // file and hunk headers: written by the caller
  }
  if ((++s->lines & 4095) == 0 && s->stop->stopped()) {
    s->stopped = true;
    return 1;  // ends the comparison
  }
  if (!*s->emit) return 0;
  if (out.kind != DiffLine::Kind::kNoNewlineAtEnd) {
    out.text = std::string_view(line->content, line->content_len);
    if (!out.text.empty() && out.text.back() == '\n') out.text.remove_suffix(1);
  }
  (*s->emit)(out);
  return 0;
}

git_diff_options TextDiffOptions() {
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  // FORCE_TEXT: binary is decided before (LooksBinary, git's rule); INDENT_HEURISTIC: git's
  // default since 2.14, which places a hunk's edges where git does.
  opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
  opts.context_lines = 3;
  opts.interhunk_lines = 0;
  return opts;
}

Result<LineCounts> Finish(int rc, const DiffState& state, const StopToken& stop) {
  if (state.stopped) return Error{stop.Why()};
  if (rc != 0) return Error{"the two versions cannot be compared: " + LastGitError()};
  return state.counts;
}

}  // namespace

Result<LineCounts> DiffTexts(std::string_view before, std::string_view after,
                             const std::function<void(const DiffLine&)>& emit,
                             const StopToken& stop) {
  const git_diff_options opts = TextDiffOptions();
  DiffState state{&emit, &stop};
  // No repository behind buffers: libgit2 looks up no attributes and no diff driver for them.
  const int rc = git_diff_buffers(before.data(), before.size(), "", after.data(), after.size(), "",
                                  &opts, nullptr, nullptr, OnHunk, OnLine, &state);
  return Finish(rc, state, stop);
}

Result<LineCounts> DiffBlobs(const git_blob* before, const git_blob* after,
                             const std::function<void(const DiffLine&)>& emit,
                             const StopToken& stop) {
  const git_diff_options opts = TextDiffOptions();
  DiffState state{&emit, &stop};
  // The empty paths are the protection: with no path, libgit2 looks up no attribute (and so no
  // diff driver) in the blobs' repository.
  const int rc =
      git_diff_blobs(before, "", after, "", &opts, nullptr, nullptr, OnHunk, OnLine, &state);
  return Finish(rc, state, stop);
}

}  // namespace rr
