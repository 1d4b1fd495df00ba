// Comparing two trees, and two texts line by line. Policy-free: which paths are served is for the
// caller to decide (core/history/served_changes.h does), through the visitor.
//
// Trees are compared by their entries' ids, as git's diff-tree does: a folder whose id is the
// same on both sides is never opened, so comparing two commits costs what changed between them,
// not the size of their trees. Entries are visited in git's order (the order of full paths), and
// only where the visitor lets the walk into a folder is that folder read: a folder the caller
// does not serve is never opened. Renames are not detected: a renamed file is a deletion and an
// addition.
//
// Texts are compared with libgit2's copy of git's xdiff, given as buffers (DiffTexts) or as blobs
// with an empty path (DiffBlobs). libgit2 looks a file's attributes up by its path, and with no
// path it looks nothing up (git_diff_driver_lookup): no attribute, no diff driver, no textconv
// and no external program apply, whatever the repository's configuration or .gitattributes say
// (tests/safety/hostile_history_test.cc attacks this). Blobs spare libgit2 hashing each buffer
// to learn whether the two are the same: SHA-1 with collision detection, which costs more than
// the comparison itself on large files. The result is git's unified diff with git's defaults:
// 3 lines of context, hunks not merged across unchanged lines, the indent heuristic, and hunk
// headers naming the nearest line above that starts with a letter, '_' or '$' (git's rule when
// no driver applies).
//
// Not thread-safe beyond GitRepo's own rule: one thread uses a GitRepo at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "core/git/git_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// One side of a changed tree entry.
struct TreeSide {
  EntryKind kind = EntryKind::kOther;
  git_oid oid{};
  uint32_t mode = 0;  // as git writes it: 0100644, 0100755, 0120000, 0160000
};

enum class ChangeKind { kAdded, kModified, kDeleted, kTypeChanged };

// git's letter for a change: A, M, D or T.
char ChangeLetter(ChangeKind kind);

// A changed entry that is not a folder: a file, a link, a submodule, or an entry of a mode git
// never writes (kind kOther). Its views are valid during the visitor's call only.
struct TreeChange {
  ChangeKind kind = ChangeKind::kModified;
  std::string_view folder;  // the folder holding it, from the root ("" at the root), raw bytes
  std::string_view name;    // its name in that folder, raw bytes
  std::optional<TreeSide> before, after;  // before is absent when added, after when deleted
  // For an entry added or deleted where the other tree has a folder of the same name (a file
  // replaced by a folder, or a folder by a file): that folder's id. The folder's own entries are
  // visited separately, below this path, as additions or deletions.
  std::optional<git_oid> folder_in_other_tree;
};

class TreeDiffVisitor {
 public:
  virtual ~TreeDiffVisitor() = default;
  // A folder named `name` in `folder` whose id differs between the trees, or that only one of
  // them has. True to compare what is in it; nothing below a folder refused here is read.
  virtual bool Descend(std::string_view folder, std::string_view name) = 0;
  // A changed entry that is not a folder. False stops the comparison (DiffTrees then succeeds).
  virtual bool Changed(const TreeChange& change) = 0;
};

// Compares the tree `before` with the tree `after`; either may be null: an empty tree (a root
// commit is compared with nothing). A folder whose tree cannot be read (missing from a partial
// clone's copy, or recorded as a folder but not one) is compared as an empty folder. An entry
// name repeated in a tree is visited once. Errors: a tree given cannot be read; the stop token
// fired (its sentence).
Status DiffTrees(GitRepo& git, const git_oid* before, const git_oid* after,
                 TreeDiffVisitor& visitor, const StopToken& stop);

// git's rule for binary contents (buffer_is_binary): a NUL among the first 8,000 bytes.
bool LooksBinary(std::string_view bytes);

// One line of a unified diff.
struct DiffLine {
  enum class Kind {
    kHunk,           // "@@ -1,3 +1,4 @@ def total(items):", without its line break
    kContext,        // a line both sides have
    kAdded,          // a line only the new side has
    kRemoved,        // a line only the old side has
    kNoNewlineAtEnd  // the line before it ends its side without a line break
  };
  Kind kind;
  std::string_view text;  // the line without its '\n' (a '\r' before it is kept); empty for
                          // kNoNewlineAtEnd
  // kHunk: the lines the hunk covers on each side, as its header gives them (from 1; a side
  // with no line there has 0 lines).
  size_t old_start = 0, old_lines = 0, new_start = 0, new_lines = 0;
};

struct LineCounts {
  size_t added = 0, removed = 0;
};

// The unified diff of two texts (either may be empty: a file added or deleted), line by line
// into `emit` (may be empty: counting only), and how many lines were added and removed. Both
// texts are compared as text; decide binary first (LooksBinary). Errors: libgit2's, or the stop
// token fired.
Result<LineCounts> DiffTexts(std::string_view before, std::string_view after,
                             const std::function<void(const DiffLine&)>& emit,
                             const StopToken& stop);

// The same for two blobs (either may be null: nothing on that side), without copying or hashing
// them.
Result<LineCounts> DiffBlobs(const git_blob* before, const git_blob* after,
                             const std::function<void(const DiffLine&)>& emit,
                             const StopToken& stop);

}  // namespace rr
