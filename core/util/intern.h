// Intern: one copy of a text that many objects keep -- the folder every repository of a text
// index store shares, the parent of every repository's index folder -- so that each keeps a
// pointer rather than a copy, and holders of the same text compare addresses. The copies are
// never freed (a server holds a handful).
#pragma once

#include <string>

namespace rr {

// The one copy of `text`: the same address for the same text, for the life of the process.
const std::string& Intern(std::string text);

}  // namespace rr
