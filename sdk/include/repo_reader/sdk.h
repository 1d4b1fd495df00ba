// repo-reader plugin SDK: the one header a plugin includes.
//
//   #include <repo_reader/sdk.h>
//
// plugin.h     the entry point (REPO_READER_PLUGIN) and what it answers
// secret_detector.h   the secret-detector interface
// host.h       the host interface (links, group listing)
// abi.h        the ABI version the server checks at load
//
// The test kit for a plugin's own GoogleTest suite is separate: repo_reader/testkit.h.
#pragma once

#include "repo_reader/abi.h"
#include "repo_reader/host.h"
#include "repo_reader/plugin.h"
#include "repo_reader/secret_detector.h"
