#include "core/runtime/logged_errors.h"

#include <functional>

namespace rr {

bool LoggedErrors::First(const std::string& repo, std::string_view error) {
  const uint64_t digest = std::hash<std::string_view>()(error);
  auto [it, added] = last_.emplace(NameKey(repo), digest);
  if (added) return true;
  if (it->second == digest) return false;
  it->second = digest;
  return true;
}

}  // namespace rr
