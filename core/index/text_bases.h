// The text index's bases (docs/performance.md, "Bases"): what a commit shares with its first
// parent, listed once in the store for every copy standing on the same parent.
//
// Copies and forks across an organisation mostly differ from a shared commit by the few files
// their own last commit changed. A list written as its folders' parts still names each part and
// lists each file of the root (about a kilobyte, 20,000 times). So a list is written again over
// a *base*: a part of the store holding every path the commit shares with its first parent --
// the list just written, less the paths the last commit added, changed or deleted -- keyed by
// the parent's tree and the policy (TextPartKey(tree, ".", policy): "." is no folder's name) and
// recorded under a digest of its paths and contents (BaseId). The list then names runs of the
// base and lists only the files the base lacks.
//
// A base is written only for a parent's tree wanted by two repositories (this server's
// indexer saw another repository's commit on it first; one built twice counts once), so a
// repository alone on its history keeps the list as before and the store gains nothing. The list
// over the base is made by comparing the paths the commit has with the base's, whatever the base
// holds (any key may meet any part): it lists exactly the commit's files either way, and a base
// rewritten with other paths (its digest changes) makes the lists naming it unused, as a folder's
// part does, until they are written again.
#pragma once

#include <cstdint>
#include <string>

#include "core/served/served_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

struct OverBase {
  bool used = false;          // the list was written again over the base
  bool base_written = false;  // this call wrote the base
  uint64_t base_bytes = 0;    // the base's file, when written
};

// Writes the list `file` of commit `at` again over its parent's base (writing the base when it
// is wanted the second time), when that lists at most 64 files itself, in at most 64 runs. The
// caller holds the store's lock; the list at `file` is the commit's, just written.
Result<OverBase> ListOverBase(RepoReader& reader, const ReadPoint& at,
                              const std::string& store_folder, uint64_t policy,
                              const std::string& file, const StopToken& stop);

}  // namespace rr
