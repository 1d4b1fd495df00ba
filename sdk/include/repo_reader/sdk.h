// repo-reader plugin SDK: the one header a C++ plugin includes.
//
//   #include <repo_reader/sdk.h>
//
// plugin_abi.h        the C boundary between the server and a plugin: all that crosses it
// plugin.h            the entry point (REPO_READER_PLUGIN) and the C++ layer over the boundary
// secret_detector.h   the secret-detector interface
// host.h              the host interface (links, group listing)
// abi.h               the ABI versions (of plugin_abi.h) for C++
//
// A plugin written in C includes plugin_abi.h alone. The test kit for a plugin's own test suite
// is separate: repo_reader/testkit.h (over plugin_host.h, the host side the server uses too).
#pragma once

#include "repo_reader/abi.h"
#include "repo_reader/host.h"
#include "repo_reader/plugin.h"
#include "repo_reader/plugin_abi.h"
#include "repo_reader/secret_detector.h"
