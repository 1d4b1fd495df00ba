// FirstFew: a note's list of names that stays short however many there are (repositories not
// reached, cut or skipped), so that an answer's closing notes stay within its cap.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/util/text.h"

namespace rr {

// The first `shown` names added are kept and named; the rest are only counted. Names are added
// in the order an answer shows them.
class FirstFew {
 public:
  explicit FirstFew(size_t shown = 10) : shown_(shown) {}
  void Add(std::string name) {
    if (names_.size() < shown_) names_.push_back(std::move(name));
    ++count_;
  }
  bool empty() const { return count_ == 0; }
  size_t count() const { return count_; }
  // "a, b, c", or "a, b, c and 1,234 more"
  std::string Text() const {
    std::string out;
    for (const auto& n : names_) out += (out.empty() ? "" : ", ") + n;
    if (count_ > names_.size()) out += " and " + WithCommas(count_ - names_.size()) + " more";
    return out;
  }

 private:
  size_t shown_;
  size_t count_ = 0;
  std::vector<std::string> names_;
};

}  // namespace rr
