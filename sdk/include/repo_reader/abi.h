// repo-reader plugin SDK: the ABI version, for C++.
//
// The binary interface is the C header plugin_abi.h; its version is RR_PLUGIN_ABI_VERSION, and
// a server loads plugins built against any version from RR_PLUGIN_ABI_MIN_VERSION to its own.
// These are the same numbers for C++ code.
#pragma once

#include <cstdint>

#include "repo_reader/plugin_abi.h"

namespace repo_reader {

inline constexpr uint32_t kAbiVersion = RR_PLUGIN_ABI_VERSION;
inline constexpr uint32_t kAbiMinVersion = RR_PLUGIN_ABI_MIN_VERSION;

}  // namespace repo_reader
