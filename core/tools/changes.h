// What show_commit and diff share: their path and files_only arguments, and the part of the
// answer from the list of changed files on — the list (`M  src/cart.py  +3 -1`), the count of
// changed files this server doesn't serve, then the diff with git's headers and hunks.
//
// Streamed and cut: the list and the diff are produced file by file, and lines stop being kept
// once the draft holds well past what the answer can show (a huge diff is never held whole);
// files past the list's cut are counted, not compared. The cut's note names the file the answer
// stopped in and says to narrow with path (or to ask for files_only).
#pragma once

#include <optional>

#include "core/history/served_changes.h"
#include "core/tools/tool.h"

namespace rr {

ArgSpec ChangesPathArg();
ArgSpec FilesOnlyArg();

struct ChangesAsked {
  std::optional<CommitId> before;  // nullopt: nothing (a root commit, shown as adding everything)
  CommitId after;
  RepoPath under;  // only changes at or below it; checked with ChangeReader::CheckPath
  bool files_only = false;
};

// Appends the changes to `d` (Draft::ShowsDiff: read as a diff by the secret filter, each hunk a
// block whose source is the file around it) and sets its cut note. *changed receives how many
// served files changed.
Status WriteChanges(const CallContext& ctx, ChangeReader& changes, const ChangesAsked& asked,
                    Draft* d, size_t* changed);

// Adds a line of text written by others (a message line, a diff line) to `d` as shown: `lead`,
// then the text made safe (DisplayText), cut after 2,000 characters between words, with what
// the secret filter reads for it when that differs (escapes, the rest past a cut).
void AddShownLine(std::string_view lead, std::string_view raw, Draft* d);

}  // namespace rr
