#include "core/served/live_catalog.h"

namespace rr {

LiveCatalog::LiveCatalog(std::shared_ptr<const Catalog> whole, bool may_change)
    : whole_(std::move(whole)), may_change_(may_change) {
  if (!whole_)
    whole_ = std::make_shared<const Catalog>(std::vector<std::shared_ptr<const ServedRepo>>{});
}

std::shared_ptr<const Catalog> LiveCatalog::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return whole_;
}

size_t LiveCatalog::AddView(Select select) {
  std::lock_guard<std::mutex> lock(mu_);
  views_.push_back(select(*whole_));
  selects_.push_back(std::move(select));
  return views_.size() - 1;
}

std::shared_ptr<const Catalog> LiveCatalog::View(size_t view) const {
  std::lock_guard<std::mutex> lock(mu_);
  return view < views_.size() ? views_[view] : nullptr;
}

void LiveCatalog::Set(std::shared_ptr<const Catalog> whole) {
  if (!whole) return;
  std::vector<Select> selects;
  {
    std::lock_guard<std::mutex> lock(mu_);
    selects = selects_;
  }
  // Made outside the lock: readers are never held up by the work of a swap.
  std::vector<std::shared_ptr<const Catalog>> views;
  views.reserve(selects.size());
  for (const auto& s : selects) views.push_back(s(*whole));
  std::lock_guard<std::mutex> lock(mu_);
  whole_ = std::move(whole);
  // A view added meanwhile is kept as made from the old whole until the next swap; views are
  // added before serving, so this does not happen.
  for (size_t i = 0; i < views.size() && i < views_.size(); ++i) views_[i] = std::move(views[i]);
  ++generation_;
}

uint64_t LiveCatalog::generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

}  // namespace rr
