#pragma once

// The version is set in one place, CMakeLists.txt's `project(repo-reader VERSION ...)`, and
// reaches the code as RR_VERSION (a compile definition of rr_core and everything that links it).
// The packages, the image, server.json and CHANGELOG.md take it from there too
// (scripts/release.sh; tests/release/release_files_test.cc keeps them in step).
#ifndef RR_VERSION
#error "RR_VERSION comes from CMakeLists.txt's project VERSION; build with CMake"
#endif

namespace rr {
inline constexpr const char* kServerName = "repo-reader";
inline constexpr const char* kServerVersion = RR_VERSION;
}  // namespace rr
