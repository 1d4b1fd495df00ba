// The lines list_repos shows for a mirror the server keeps: where it is mirrored from (and the
// group that listed it), when it last synced, why its last sync failed, or that it is not
// mirrored yet. Nothing for a local repository.
#pragma once

#include <string>
#include <vector>

#include "core/served/served_repo.h"

namespace rr {

// Appends the mirror's lines to `out`. True when the mirror holds nothing to read yet (no sync
// has succeeded): then there is nothing more to say of it.
bool AddMirrorLines(const ServedRepo& repo, std::vector<std::string>& out);

}  // namespace rr
