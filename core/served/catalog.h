// Catalog: the set of repositories a call reads. Immutable once built; a call holds a
// shared_ptr to the catalog it began with, so whatever changes the set later (a sync, a
// group's listing) never changes what one call sees.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/served/served_repo.h"
#include "core/util/result.h"

namespace rr {

class Catalog {
 public:
  explicit Catalog(std::vector<std::shared_ptr<const ServedRepo>> repos);

  // Every repository, configuration order.
  const std::vector<std::shared_ptr<const ServedRepo>>& all() const { return repos_; }
  // The ones list_repos shows (listed: false hides one; it can still be read by name).
  std::vector<std::shared_ptr<const ServedRepo>> listed() const;

  // The repository an agent named, or an error listing the names it could have meant. Looked up
  // by name, not by a walk over every repository: as fast with 20,000 as with one.
  Result<std::shared_ptr<const ServedRepo>> Find(const std::string& name) const;

 private:
  std::vector<std::shared_ptr<const ServedRepo>> repos_;
  // Name -> index in repos_ (the first, when a name is given twice); views of the repositories'
  // own names.
  std::unordered_map<std::string_view, size_t> by_name_;
};

}  // namespace rr
