#include "core/served/catalog.h"

#include "core/util/text.h"

namespace rr {

Catalog::Catalog(std::vector<std::shared_ptr<const ServedRepo>> repos) : repos_(std::move(repos)) {
  by_name_.reserve(repos_.size());
  for (size_t i = 0; i < repos_.size(); ++i) by_name_.emplace(repos_[i]->name(), i);
}

std::vector<std::shared_ptr<const ServedRepo>> Catalog::listed() const {
  std::vector<std::shared_ptr<const ServedRepo>> out;
  for (const auto& r : repos_) {
    if (r->listed()) out.push_back(r);
  }
  return out;
}

Result<std::shared_ptr<const ServedRepo>> Catalog::Find(const std::string& name) const {
  if (auto it = by_name_.find(name); it != by_name_.end()) return repos_[it->second];
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
