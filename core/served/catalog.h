// Catalog: the set of repositories a call reads. Immutable once built; a call holds a
// shared_ptr to the catalog it began with, so whatever changes the set later (a sync, a
// group's listing) never changes what one call sees.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
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
  // by name, not by a walk over every repository: 15 comparisons with 20,000.
  Result<std::shared_ptr<const ServedRepo>> Find(const std::string& name) const;

 private:
  std::vector<std::shared_ptr<const ServedRepo>> repos_;
  // The indexes in repos_ in the order of their names (a name given twice: in configuration
  // order), searched by halves. 4 bytes a repository, where a hash table by name took 56 (a
  // node and its bucket), for each of 20,000 repositories and each catalog made.
  std::vector<uint32_t> by_name_;
};

}  // namespace rr
