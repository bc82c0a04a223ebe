// A small value type for tensor shapes, used by the reference and optimized kernels so that
// they stay free of TfLite types (tests call them with plain lists). Up to kInlineRank
// dimensions live inside the object: building one per invoke allocates nothing.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "tensorflow/lite/c/common.h"

namespace octet {

class Shape {
 public:
  static constexpr int kInlineRank = 6;

  Shape() = default;
  Shape(std::initializer_list<int> dims) { Assign(dims.begin(), static_cast<int>(dims.size())); }
  explicit Shape(const std::vector<int>& dims) {
    Assign(dims.data(), static_cast<int>(dims.size()));
  }
  explicit Shape(const TfLiteIntArray* dims) {
    if (dims != nullptr) Assign(dims->data, dims->size);
  }
  Shape(const Shape& o) { Assign(o.data(), o.rank_); }
  Shape(Shape&& o) noexcept { *this = std::move(o); }
  Shape& operator=(const Shape& o) {
    if (this != &o) Assign(o.data(), o.rank_);
    return *this;
  }
  Shape& operator=(Shape&& o) noexcept {
    if (this == &o) return *this;
    rank_ = o.rank_;
    heap_ = std::move(o.heap_);
    std::copy(o.inline_, o.inline_ + kInlineRank, inline_);
    o.rank_ = 0;
    return *this;
  }
  static Shape Of(const TfLiteTensor* t) { return Shape(t->dims); }

  int rank() const { return rank_; }
  int dim(int i) const { return data()[i]; }
  int& dim(int i) { return data()[i]; }
  const int* data() const { return heap_ ? heap_.get() : inline_; }
  int* data() { return heap_ ? heap_.get() : inline_; }
  const int* begin() const { return data(); }
  const int* end() const { return data() + rank_; }
  std::vector<int> ToVector() const { return std::vector<int>(begin(), end()); }

  int64_t FlatSize() const { return SizeBetween(0, rank_); }
  // Product of the dimensions in [begin, end).
  int64_t SizeBetween(int begin, int end) const {
    int64_t n = 1;
    for (int i = begin; i < end; ++i) n *= data()[i];
    return n;
  }
  // Dimensions [begin, end) as a shape of their own.
  Shape SubShape(int begin, int end) const {
    Shape s;
    s.Assign(data() + begin, end - begin);
    return s;
  }
  // The same shape left-padded with 1s to `rank` dimensions (rank must not shrink).
  Shape Extended(int rank) const {
    assert(rank >= rank_);
    Shape s;
    s.Resize(rank);
    const int pad = rank - rank_;
    std::fill(s.data(), s.data() + pad, 1);
    std::copy(begin(), end(), s.data() + pad);
    return s;
  }
  // Row-major offset of a 4-D index (shape must be rank 4).
  int64_t Offset(int i0, int i1, int i2, int i3) const {
    const int* d = data();
    return ((static_cast<int64_t>(i0) * d[1] + i1) * d[2] + i2) * d[3] + i3;
  }
  bool operator==(const Shape& o) const {
    return rank_ == o.rank_ && std::equal(begin(), end(), o.begin());
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  void Resize(int rank) {
    rank_ = rank;
    heap_ = rank > kInlineRank ? std::make_unique<int[]>(rank) : nullptr;
  }
  void Assign(const int* dims, int rank) {
    // `dims` may point into this shape (self-assignment of a sub-shape): copy first.
    int copy[kInlineRank];
    if (rank <= kInlineRank) {
      std::copy(dims, dims + rank, copy);
      Resize(rank);
      std::copy(copy, copy + rank, data());
      return;
    }
    auto heap = std::make_unique<int[]>(rank);
    std::copy(dims, dims + rank, heap.get());
    rank_ = rank;
    heap_ = std::move(heap);
  }

  int rank_ = 0;
  int inline_[kInlineRank] = {};
  std::unique_ptr<int[]> heap_;  // only for rank > kInlineRank
};

}  // namespace octet
