// TOPK_V2: the k largest values of each row (the last dimension), largest first. Equal
// values keep their input order (the lower index ranks first), which is the order TFLite's
// heap-based collector produces. NaN ranks above every number (and NaNs among themselves by
// index) so that the ranking stays a strict weak ordering.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace octet::reference {

// True when (a at index ia) ranks before (b at index ib).
template <typename T>
bool TopKRanksBefore(T a, int64_t ia, T b, int64_t ib) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na && nb ? ia < ib : na;
  }
  if (a != b) return a > b;
  return ia < ib;
}

// rows x row_size values in, rows x k indices and values out (k <= row_size).
template <typename T, typename Index>
void TopK(const T* data, int64_t rows, int64_t row_size, int64_t k, Index* out_indices,
          T* out_values) {
  std::vector<int64_t> order(static_cast<size_t>(row_size));
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = data + r * row_size;
    for (int64_t i = 0; i < row_size; ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](int64_t x, int64_t y) {
      return TopKRanksBefore(row[x], x, row[y], y);
    });
    for (int64_t i = 0; i < k; ++i) {
      out_indices[r * k + i] = static_cast<Index>(order[i]);
      out_values[r * k + i] = row[order[i]];
    }
  }
}

}  // namespace octet::reference
