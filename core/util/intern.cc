#include "core/util/intern.h"

#include <mutex>
#include <set>

namespace rr {

const std::string& Intern(std::string text) {
  static std::mutex mu;
  static auto* kept = new std::set<std::string>();  // never freed: its texts are pointed at
  std::lock_guard<std::mutex> lock(mu);
  return *kept->insert(std::move(text)).first;
}

}  // namespace rr
