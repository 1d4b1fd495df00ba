// MakePrivateFolder: the folder a server-made index lives in (the history index's, the text
// index's), made with every missing folder above it, and checked: it must be a folder of its
// own (a link to somewhere else, a repository's objects say, is refused, never followed) and
// readable by its owner only (group and other bits are taken away), since what an index holds
// is the served repositories' text.
#pragma once

#include <string>

#include "core/util/result.h"

namespace rr {

// `folder` must be an absolute path. Folders made are 0700. `what` names the folder in errors
// ("the history index folder"): "<what> /x/y is not a folder (a link is refused)".
Status MakePrivateFolder(const std::string& folder, const std::string& what);

}  // namespace rr
