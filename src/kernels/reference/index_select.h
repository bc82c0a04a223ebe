// WHERE (coordinates of the non-zero elements), UNIQUE (distinct values in order of first
// appearance) and BUCKETIZE (bucket numbers against sorted boundaries).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <type_traits>
#include <vector>

#include "kernels/shape.h"

namespace octet::reference {

// An element counts as true when it differs from zero (NaN is true, -0.0 is not).
template <typename T>
int64_t CountNonZero(const T* data, int64_t n) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += data[i] != T(0) ? 1 : 0;
  return count;
}

// For each non-zero element in row-major order, its rank coordinates.
template <typename T>
void SelectTrueCoords(const Shape& shape, const T* data, int64_t* output) {
  const int rank = shape.rank();
  std::vector<int64_t> coords(rank, 0);
  const int64_t n = shape.FlatSize();
  for (int64_t i = 0; i < n; ++i) {
    if (data[i] != T(0)) {
      output = std::copy(coords.begin(), coords.end(), output);
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (++coords[d] < shape.dim(d)) break;
      coords[d] = 0;
    }
  }
}

// Orders values for UNIQUE: numbers by value (so -0.0 and 0.0 are one value, as in TFLite's
// std::map), every NaN after them and all NaNs equal to each other.
template <typename T>
struct UniqueLess {
  bool operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return !std::isnan(a);
    }
    return a < b;
  }
};

// values gets the distinct elements in order of first appearance; index[i] is the position
// of input[i] in values.
template <typename T, typename Index>
void Unique(const T* input, int64_t n, std::vector<T>* values, Index* index) {
  std::map<T, Index, UniqueLess<T>> seen;
  values->clear();
  for (int64_t i = 0; i < n; ++i) {
    const auto it = seen.find(input[i]);
    if (it != seen.end()) {
      index[i] = it->second;
      continue;
    }
    const Index next = static_cast<Index>(values->size());
    seen.emplace(input[i], next);
    values->push_back(input[i]);
    index[i] = next;
  }
}

// output[i] = number of boundaries <= input[i] (the first boundary greater than the value,
// as an index). Boundaries are sorted and NaN-free (checked by the caller); the comparison
// is done in the usual arithmetic conversion of T and float, as TFLite does. A NaN input
// compares below nothing and lands in the last bucket.
template <typename T>
void Bucketize(const T* input, int64_t n, const float* boundaries, int num_boundaries,
               int32_t* output) {
  for (int64_t i = 0; i < n; ++i) {
    const float* it = std::upper_bound(boundaries, boundaries + num_boundaries, input[i],
                                       [](const T& v, float b) { return v < b; });
    output[i] = static_cast<int32_t>(it - boundaries);
  }
}

}  // namespace octet::reference
