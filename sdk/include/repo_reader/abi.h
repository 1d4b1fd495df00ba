// repo-reader plugin SDK: the ABI version.
//
// A plugin records the version it was built against in its PluginEntry; the server refuses a
// plugin whose version differs from its own, with a sentence saying which version to rebuild
// against. Any change to a header of this SDK that a built plugin could notice (a type, a
// member, a virtual function, an enumerator, a signature) bumps kAbiVersion. The server's test
// suite keeps a digest of these headers with the version (sdk/abi.lock) and fails when a header
// changes without a bump.
#pragma once

#include <cstdint>

namespace repo_reader {

inline constexpr uint32_t kAbiVersion = 1;

}  // namespace repo_reader
