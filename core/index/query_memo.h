// QueryMemo: the last few answers an index file or list gave to a query, by the query's key
// (TrigramQueryKey), so that a search asking every repository the same question works it out
// once per file. Made on first use: most files are asked nothing of the kind (20,000
// repositories' own lists kept an empty memo's 64 bytes each).
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rr {

template <typename V>
class QueryMemo {
 public:
  QueryMemo() = default;
  QueryMemo(const QueryMemo&) = delete;
  QueryMemo& operator=(const QueryMemo&) = delete;
  ~QueryMemo() { delete kept_.load(); }
  // The answer kept for `key`, or null.
  std::shared_ptr<const V> Find(const std::string& key) const {
    Kept& kept = Get();
    std::lock_guard<std::mutex> lock(kept.mu);
    for (const auto& [k, v] : kept.answers) {
      if (k == key) return v;
    }
    return nullptr;
  }
  // Keeps `answer` for `key`, the oldest of kMax let go.
  void Keep(std::string key, std::shared_ptr<const V> answer) const {
    Kept& kept = Get();
    std::lock_guard<std::mutex> lock(kept.mu);
    if (kept.answers.size() >= kMax) kept.answers.erase(kept.answers.begin());
    kept.answers.emplace_back(std::move(key), std::move(answer));
  }

 private:
  static constexpr size_t kMax = 8;
  struct Kept {
    std::mutex mu;
    std::vector<std::pair<std::string, std::shared_ptr<const V>>> answers;
  };
  Kept& Get() const {
    if (Kept* kept = kept_.load(std::memory_order_acquire)) return *kept;
    auto made = std::make_unique<Kept>();
    Kept* none = nullptr;
    if (kept_.compare_exchange_strong(none, made.get(), std::memory_order_acq_rel)) {
      return *made.release();
    }
    return *none;  // made by another thread meanwhile
  }
  // One pointer (every TextList and IndexFile keeps a memo: 20,000 repositories' lists), made on
  // first use by whichever thread gets there first.
  mutable std::atomic<Kept*> kept_{nullptr};
};

}  // namespace rr
