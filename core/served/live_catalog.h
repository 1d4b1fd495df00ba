// LiveCatalog: the served set while the server runs. A group listed again changes it (a
// repository added, one removed); whoever reads takes a snapshot (Get) when its work begins and
// uses only that: one call, one set (seed: "One call, one set"). A snapshot is an immutable
// Catalog, so a call that began before a swap finishes on the set it began with, the removed
// repositories included.
//
// Views: sets derived from the whole (an HTTP token's repositories), recomputed from each new
// whole before it is swapped in, so that a view and the whole always change together.
//
// Thread safety: Get, View and Set from any thread. Set is meant for one writer (the group
// relister); AddView before serving.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/served/catalog.h"

namespace rr {

class LiveCatalog {
 public:
  // Makes the part of a whole that a view shows.
  using Select = std::function<std::shared_ptr<const Catalog>(const Catalog& whole)>;

  // `may_change`: whether Set will be called (groups are configured); background work that
  // finds nothing to do in the first set waits for later ones instead of ending.
  explicit LiveCatalog(std::shared_ptr<const Catalog> whole, bool may_change = false);

  // The whole set now.
  std::shared_ptr<const Catalog> Get() const;
  // Adds a view of the whole; answers its number, for View.
  size_t AddView(Select select);
  // A view now (null for an unknown number).
  std::shared_ptr<const Catalog> View(size_t view) const;
  // Swaps in a new whole; every view is made from it first, then all change at once.
  void Set(std::shared_ptr<const Catalog> whole);

  bool may_change() const { return may_change_; }
  // How many times Set was called.
  uint64_t generation() const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const Catalog> whole_;
  std::vector<Select> selects_;
  std::vector<std::shared_ptr<const Catalog>> views_;
  uint64_t generation_ = 0;
  const bool may_change_;
};

}  // namespace rr
