#include "core/history/served_changes.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "core/history/history.h"
#include "core/util/text.h"

namespace rr {
namespace {

// Where a path stands against the path an answer is narrowed to.
enum class Place {
  kInside,  // the path asked about, or below it
  kAbove,   // a folder the path asked about is in: walked through, never counted
  kAside    // elsewhere: neither shown nor counted
};

Place PlaceOf(std::string_view path, const RepoPath& under) {
  const std::string& u = under.str();
  if (under.is_root() || path == u) return Place::kInside;
  if (path.size() > u.size() && path.substr(0, u.size()) == u && path[u.size()] == '/') {
    return Place::kInside;
  }
  if (u.size() > path.size() && std::string_view(u).substr(0, path.size()) == path &&
      u[path.size()] == '/') {
    return Place::kAbove;
  }
  return Place::kAside;
}

std::optional<Node> NodeOf(const RepoPath& path, const std::optional<TreeSide>& side) {
  if (!side) return std::nullopt;
  return Node{path, side->kind, side->oid, side->mode == GIT_FILEMODE_BLOB_EXECUTABLE};
}

// Applies the policy to the tree comparison: decides which folders are opened, which changes
// are served, and counts the rest.
class PolicyVisitor final : public TreeDiffVisitor {
 public:
  PolicyVisitor(const PathPolicy& policy, const RepoPath& under, const StopToken& stop,
                const std::function<bool(const RepoPath&, const git_oid&)>& holds_served,
                const std::function<bool(const FileChange&)>& visit, NotServed* not_served)
      : policy_(policy),
        under_(under),
        stop_(stop),
        holds_served_(holds_served),
        visit_(visit),
        not_served_(not_served) {}

  bool Descend(std::string_view folder, std::string_view name) override {
    const std::string path = Join(folder, name);
    const Place place = PlaceOf(path, under_);
    if (place == Place::kAside) return false;
    if (place == Place::kAbove) return true;  // `under` was judged whole: no folder above it is out
    if (!IsServableEntryName(name) || path.size() > RepoPath::kMaxBytes ||
        policy_.ChildOutside(FolderPath(folder).Child(name), name)) {
      ++not_served_->folders;
      return false;
    }
    return true;
  }

  bool Changed(const TreeChange& c) override {
    const std::string joined = Join(c.folder, c.name);
    if (PlaceOf(joined, under_) != Place::kInside) return true;
    const auto odd = [](const std::optional<TreeSide>& s) {
      return s && s->kind == EntryKind::kOther;
    };
    if (!IsServableEntryName(c.name) || joined.size() > RepoPath::kMaxBytes || odd(c.before) ||
        odd(c.after)) {
      ++not_served_->files;
      return true;
    }
    RepoPath path = FolderPath(c.folder).Child(c.name);
    if (!policy_.ServesChild(path, c.name)) {
      ++not_served_->files;
      return true;
    }
    FileChange f;
    f.kind = c.kind;
    f.before = NodeOf(path, c.before);
    f.after = NodeOf(path, c.after);
    // A folder at the same name on the other side: when it holds nothing served, git's diff of
    // this path would carry that folder's files along, so the file is listed without its diff.
    if (c.folder_in_other_tree) {
      f.beside_unserved_folder = !holds_served_(path, *c.folder_in_other_tree);
      if (stop_.stopped()) return false;
    }
    f.path = std::move(path);
    return visit_(f);
  }

 private:
  static std::string Join(std::string_view folder, std::string_view name) {
    std::string p(folder);
    if (!p.empty()) p.push_back('/');
    p.append(name);
    return p;
  }

  // The RepoPath of a folder the walk is in, from its raw text. Every part was a servable name
  // the walk went through (or a part of `under`, already checked); the last one is kept, since
  // a walk's changes come folder by folder.
  const RepoPath& FolderPath(std::string_view folder) {
    if (folder_.str() == folder) return folder_;
    RepoPath p = RepoPath::Root();
    while (!folder.empty()) {
      const size_t slash = folder.find('/');
      p = p.Child(folder.substr(0, slash));
      folder = slash == std::string_view::npos ? std::string_view() : folder.substr(slash + 1);
    }
    folder_ = std::move(p);
    return folder_;
  }

  const PathPolicy& policy_;
  const RepoPath& under_;
  const StopToken& stop_;
  const std::function<bool(const RepoPath&, const git_oid&)>& holds_served_;
  const std::function<bool(const FileChange&)>& visit_;
  NotServed* not_served_;
  RepoPath folder_ = RepoPath::Root();
};

}  // namespace

Result<CommitDetails> ChangeReader::Details(const CommitId& id) {
  return ReadCommit(*reader_.lease_, id);
}

Result<std::optional<CommitSummary>> ChangeReader::MergeBase(const CommitId& a, const CommitId& b,
                                                             const StopToken& stop) {
  // The one `git merge-base` shows: the newest of the best common ancestors, found by
  // generation numbers where the commit-graph has them (core/history/history.h).
  auto bases = MergeBases(reader_, a, b, stop);
  if (!bases) return Error{bases.error()};
  if (bases->empty()) return std::optional<CommitSummary>();
  auto summary = (*reader_.lease_).Summary(bases->front());
  if (!summary) return Error{summary.error()};
  return std::optional<CommitSummary>(summary.take());
}

Status ChangeReader::CheckPath(const RepoPath& path) const {
  if (reader_.repo().policy().Outside(path)) {
    return Error{"path `" + path.Display() + "` is outside what this server serves in `" +
                 reader_.repo().name() + "`"};
  }
  return Status::Ok();
}

Status ChangeReader::Compare(const std::optional<CommitId>& before, const CommitId& after,
                             const RepoPath& under, const StopToken& stop,
                             const std::function<bool(const FileChange&)>& visit,
                             NotServed* not_served) {
  GitRepo& git = *reader_.lease_;
  *not_served = NotServed{};
  git_oid before_tree{}, after_tree{};
  if (before) {
    auto root = git.RootTree(*before);
    if (!root) return Error{root.error()};
    before_tree = *git_tree_id(root->get());
  }
  {
    auto root = git.RootTree(after);
    if (!root) return Error{root.error()};
    after_tree = *git_tree_id(root->get());
  }
  const std::function<bool(const RepoPath&, const git_oid&)> holds_served =
      [&](const RepoPath& folder, const git_oid& tree) {
        return reader_.HoldsServed(folder, tree, stop);
      };
  if (reader_.repo().settings().fetcher) {
    // A mirror: the served versions the comparison will read are fetched first, in batches,
    // when the local copy lacks them (RepoReader::FetchMissing judges each path again).
    std::vector<Node> sides;
    const std::function<bool(const FileChange&)> collect = [&](const FileChange& f) {
      if (f.beside_unserved_folder) return true;
      for (const auto* side : {&f.before, &f.after}) {
        if (*side && (*side)->kind != EntryKind::kSubmodule) sides.push_back(**side);
      }
      return true;
    };
    NotServed ignored;
    PolicyVisitor pass(reader_.repo().policy(), under, stop, holds_served, collect, &ignored);
    Status st = DiffTrees(git, before ? &before_tree : nullptr, &after_tree, pass, stop);
    if (!st) return st;
    if (stop.stopped()) return Error{stop.Why()};
    reader_.FetchMissing(sides, stop);
  }
  PolicyVisitor v(reader_.repo().policy(), under, stop, holds_served, visit, not_served);
  Status st = DiffTrees(git, before ? &before_tree : nullptr, &after_tree, v, stop);
  if (!st) return st;
  if (stop.stopped()) return Error{stop.Why()};
  return Status::Ok();
}

namespace {

// What one side holds for the comparison: a blob, a line of text made here, or why it cannot be
// compared.
struct SideText {
  BlobPtr blob;
  std::string synthetic;  // a submodule's line
  bool binary = false;
  std::string why_not;
  std::string_view bytes() const {
    if (!blob) return synthetic;
    return std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                            static_cast<size_t>(git_blob_rawsize(blob.get())));
  }
};

}  // namespace

Result<FileDiff> ChangeReader::Diff(const Node* before, const Node* after,
                                    const std::function<void(const DiffLine&)>& emit,
                                    const StopToken& stop, std::vector<BlockSource>* hunks) {
  GitRepo& git = *reader_.lease_;
  auto read = [&](const Node* node, SideText* out) {
    if (!node) return;
    if (node->kind == EntryKind::kSubmodule) {
      // As git shows a submodule's change: the commit it pins, as a line of text.
      out->synthetic = "Subproject commit " + CommitId(node->oid).Hex() + "\n";
      return;
    }
    // The size first, from the object's header: a side over the bound is never inflated.
    size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (!git.ObjectHeader(node->oid, &size, &type) &&
        !(reader_.FetchMissing({*node}, stop) && git.ObjectHeader(node->oid, &size, &type))) {
      if (reader_.repo().settings().fetcher) {
        const std::string why = reader_.FetchProblem(node->oid);
        out->why_not = "a version of it is not in the mirror and could not be fetched" +
                       (why.empty() ? std::string() : ": " + why);
      } else {
        out->why_not = "its contents are not in the local copy (a partial clone; never fetched)";
      }
      return;
    }
    if (size > RepoReader::kMaxFileBytes) {
      out->why_not =
          "a version of it is " + HumanBytes(size) + ", over the 10 MB this server reads";
      return;
    }
    auto blob = type == GIT_OBJECT_BLOB ? git.Blob(node->oid) : Result<BlobPtr>(Error{""});
    if (!blob) {
      out->why_not = "a version of it cannot be read";
      return;
    }
    out->blob = blob.take();
    out->binary = LooksBinary(out->bytes());
  };
  SideText old_side, new_side;
  read(before, &old_side);
  read(after, &new_side);
  FileDiff out;
  if (!old_side.why_not.empty() || !new_side.why_not.empty()) {
    out.kind = FileDiff::Kind::kNotRead;
    out.why_not_read = !old_side.why_not.empty() ? old_side.why_not : new_side.why_not;
    return out;
  }
  if (old_side.binary || new_side.binary) {
    out.kind = FileDiff::Kind::kBinary;
    return out;
  }
  // Blobs as they are when both sides are blobs (or nothing); a submodule's made-up line is
  // compared as text.
  const bool text = (before && !old_side.blob) || (after && !new_side.blob);
  // Each hunk's source, from the side that has lines there: where its first line starts and
  // where the line after its last starts, found walking each side once (hunks come in order).
  struct Cursor {
    std::string_view bytes;
    size_t line = 1, pos = 0;  // line `line` starts at `pos`
    size_t At(size_t l) {
      if (l < line) line = 1, pos = 0;
      while (line < l && pos < bytes.size()) {
        const size_t nl = bytes.find('\n', pos);
        pos = nl == std::string_view::npos ? bytes.size() : nl + 1;
        ++line;
      }
      return pos;
    }
  };
  Cursor old_at{old_side.bytes()}, new_at{new_side.bytes()};
  std::function<void(const DiffLine&)> with_sources;
  if (hunks && emit) {
    with_sources = [&](const DiffLine& l) {
      if (l.kind == DiffLine::Kind::kHunk) {
        const bool on_new = l.new_lines > 0 || l.old_lines == 0;
        Cursor& c = on_new ? new_at : old_at;
        const size_t start = on_new ? l.new_start : l.old_start;
        const size_t count = on_new ? l.new_lines : l.old_lines;
        const size_t begin = c.At(std::max<size_t>(start, 1));
        const size_t end = c.At(std::max<size_t>(start, 1) + count);
        hunks->push_back(BlockSource::Around(c.bytes, begin, end));
      }
      emit(l);
    };
  }
  const auto& sink = with_sources ? with_sources : emit;
  auto counts = text ? DiffTexts(old_side.bytes(), new_side.bytes(), sink, stop)
                     : DiffBlobs(old_side.blob.get(), new_side.blob.get(), sink, stop);
  if (!counts) return Error{counts.error()};
  out.counts = *counts;
  return out;
}

}  // namespace rr
