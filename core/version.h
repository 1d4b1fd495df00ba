#pragma once

namespace rr {
inline constexpr const char* kServerName = "repo-reader";
inline constexpr const char* kServerVersion = "0.1.0";
}  // namespace rr
