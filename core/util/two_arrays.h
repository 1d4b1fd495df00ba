// TwoArrays<A, B>: two arrays, their sizes fixed once made, kept in one block behind one pointer
// -- 16 bytes with the two sizes, where two std::vectors take 48 and a block each. Every
// repository's text index keeps its parts and its runs so: 20,000 of them.
//
// Slice<T>: a view of one of them (begin, end, size, indexing), as a vector is read.
//
// Thread safety: none of its own; a const TwoArrays may be read from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

namespace rr {

template <typename T>
class Slice {
 public:
  Slice(const T* data, size_t size) : data_(data), size_(size) {}
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  const T* data_;
  size_t size_;
};

template <typename A, typename B>
class TwoArrays {
  static_assert(alignof(A) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
                    alignof(B) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                "a block from operator new holds both");

 public:
  TwoArrays() = default;
  // The elements of `a` and `b`, moved into one block (none for two empty arrays). Each holds
  // fewer than 2^32.
  TwoArrays(std::vector<A>&& a, std::vector<B>&& b) {
    if (a.size() > std::numeric_limits<uint32_t>::max() ||
        b.size() > std::numeric_limits<uint32_t>::max()) {
      throw std::length_error("TwoArrays: an array of 2^32 elements or more");
    }
    if (a.empty() && b.empty()) return;
    block_ = ::operator new(SecondAt(a.size()) + b.size() * sizeof(B));
    size_t i = 0, j = 0;
    try {
      for (; i < a.size(); ++i) new (First() + i) A(std::move(a[i]));
      for (; j < b.size(); ++j) new (SecondOf(a.size()) + j) B(std::move(b[j]));
    } catch (...) {
      Destroy(i, j, a.size());
      throw;
    }
    na_ = static_cast<uint32_t>(a.size());
    nb_ = static_cast<uint32_t>(b.size());
  }
  TwoArrays(TwoArrays&& o) noexcept
      : block_(std::exchange(o.block_, nullptr)),
        na_(std::exchange(o.na_, 0)),
        nb_(std::exchange(o.nb_, 0)) {}
  TwoArrays& operator=(TwoArrays&& o) noexcept {
    if (this != &o) {
      Destroy(na_, nb_, na_);
      block_ = std::exchange(o.block_, nullptr);
      na_ = std::exchange(o.na_, 0);
      nb_ = std::exchange(o.nb_, 0);
    }
    return *this;
  }
  TwoArrays(const TwoArrays&) = delete;
  TwoArrays& operator=(const TwoArrays&) = delete;
  ~TwoArrays() { Destroy(na_, nb_, na_); }

  Slice<A> first() const { return Slice<A>(First(), na_); }
  Slice<B> second() const { return Slice<B>(SecondOf(na_), nb_); }

 private:
  // Where the second array starts in a block whose first holds `na`: past it, aligned for B.
  static size_t SecondAt(size_t na) {
    const size_t end = na * sizeof(A);
    return (end + alignof(B) - 1) / alignof(B) * alignof(B);
  }
  A* First() const { return static_cast<A*>(block_); }
  B* SecondOf(size_t na) const {
    return reinterpret_cast<B*>(static_cast<unsigned char*>(block_) + SecondAt(na));
  }
  // Ends the first `i` of the first array and `j` of the second (in a block laid out for `na`),
  // and frees the block.
  void Destroy(size_t i, size_t j, size_t na) noexcept {
    if (!block_) return;
    for (size_t k = j; k > 0; --k) SecondOf(na)[k - 1].~B();
    for (size_t k = i; k > 0; --k) First()[k - 1].~A();
    ::operator delete(block_);
    block_ = nullptr;
  }

  void* block_ = nullptr;
  uint32_t na_ = 0, nb_ = 0;
};

}  // namespace rr
