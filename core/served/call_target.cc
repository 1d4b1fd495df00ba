#include "core/served/call_target.h"

#include <algorithm>

namespace rr {

std::vector<RepoPath> CallTarget::NamedPaths(size_t max) const {
  std::vector<RepoPath> out;
  auto add = [&out, max](const RepoPath& p) {
    if (out.size() >= max || p.is_root()) return;
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  add(path);
  for (const auto& p : paths) {
    if (p) add(*p);
  }
  return out;
}

}  // namespace rr
