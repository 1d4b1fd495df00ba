// MadeOnFirstUse<T>: an object an owner keeps but does not make -- made on first use by the
// code that uses it, freed with the owner -- in one pointer. Its type may be incomplete where
// the owner is defined (a ServedRepo keeps its text index slot and its guidance cache, both of
// layers above it): the code that makes it says how to free it. With 20,000 repositories, a
// std::shared_ptr and a std::once_flag each (20 bytes, and a 16-byte count beside the object)
// added up.
//
// Thread safety: Get may be called from any thread at once; two threads making the object on
// its first use both make one, one of them is kept and the other freed (`make` must have no
// effect but the object it returns).
#pragma once

#include <atomic>

namespace rr {

template <typename T>
class MadeOnFirstUse {
 public:
  using Free = void (*)(T*);
  MadeOnFirstUse() = default;
  MadeOnFirstUse(const MadeOnFirstUse&) = delete;
  MadeOnFirstUse& operator=(const MadeOnFirstUse&) = delete;
  ~MadeOnFirstUse() {
    if (T* p = p_.load(std::memory_order_acquire)) free_.load()(p);
  }

  // The object, made by `make` (returning a T* of its own) on first use; `free` frees what it
  // makes.
  template <typename Make>
  T& Get(Make&& make, Free free) const {
    if (T* p = p_.load(std::memory_order_acquire)) return *p;
    free_.store(free);  // before the object is seen: whoever frees it finds how
    T* made = make();
    T* was = nullptr;
    if (p_.compare_exchange_strong(was, made, std::memory_order_acq_rel)) return *made;
    free(made);  // another thread's came first
    return *was;
  }
  // The object when made, else null.
  T* IfMade() const { return p_.load(std::memory_order_acquire); }

 private:
  mutable std::atomic<T*> p_{nullptr};
  // One for the type: every owner's objects of T are made and freed by the same code.
  static inline std::atomic<Free> free_{nullptr};
};

}  // namespace rr
