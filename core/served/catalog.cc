#include "core/served/catalog.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "core/util/text.h"

namespace rr {

Catalog::Catalog(std::vector<std::shared_ptr<const ServedRepo>> repos) : repos_(std::move(repos)) {
  if (repos_.size() > UINT32_MAX) throw std::length_error("a catalog of 2^32 repositories");
  by_name_.resize(repos_.size());
  for (size_t i = 0; i < repos_.size(); ++i) by_name_[i] = static_cast<uint32_t>(i);
  // By name, and a name given twice in configuration order: the first is found.
  std::stable_sort(by_name_.begin(), by_name_.end(),
                   [&](uint32_t a, uint32_t b) { return repos_[a]->name() < repos_[b]->name(); });
}

std::vector<std::shared_ptr<const ServedRepo>> Catalog::listed() const {
  std::vector<std::shared_ptr<const ServedRepo>> out;
  for (const auto& r : repos_) {
    if (r->listed()) out.push_back(r);
  }
  return out;
}

Result<std::shared_ptr<const ServedRepo>> Catalog::Find(const std::string& name) const {
  auto it =
      std::lower_bound(by_name_.begin(), by_name_.end(), name,
                       [&](uint32_t i, const std::string& n) { return repos_[i]->name() < n; });
  if (it != by_name_.end() && repos_[*it]->name() == name) return repos_[*it];
  std::string names;
  size_t shown = 0;
  for (const auto& r : repos_) {
    if (!r->listed()) continue;
    if (shown == 20) {
      names += ", …";
      break;
    }
    names += (shown++ ? ", " : "") + r->name();
  }
  return Error{"no repository named `" + EchoArgument(name) + "` is served" +
               (names.empty() ? std::string(".") : "; served: " + names) +
               " — list_repos lists them"};
}

}  // namespace rr
