// ARG_MAX / ARG_MIN: index of the first extreme value along one axis (ties keep the
// earliest index, NaNs never replace the current candidate).
#pragma once

#include <cstdint>

#include "kernels/shape.h"

namespace octet::reference {

// `better(a, b)` is true when a should replace the current candidate b.
template <typename T, typename Index, typename Better>
void ArgMinMax(const Shape& input_shape, int axis, const T* input, Index* output, Better better) {
  const int64_t outer = input_shape.SizeBetween(0, axis);
  const int axis_size = input_shape.dim(axis);
  const int64_t inner = input_shape.SizeBetween(axis + 1, input_shape.rank());
  int64_t o = 0;
  if (inner == 1) {
    // Contiguous axis (class logits per pixel): four rows at a time. Each row's scan is a
    // chain of dependent compare-and-selects; four independent chains keep the CPU busy.
    constexpr int kRows = 4;
    for (; o + kRows <= outer; o += kRows) {
      T best[kRows];
      Index best_index[kRows];
      for (int r = 0; r < kRows; ++r) {
        best[r] = input[(o + r) * axis_size];
        best_index[r] = 0;
      }
      for (int a = 1; a < axis_size; ++a) {
        for (int r = 0; r < kRows; ++r) {
          const T v = input[(o + r) * axis_size + a];
          const bool take = better(v, best[r]);
          best[r] = take ? v : best[r];
          best_index[r] = take ? static_cast<Index>(a) : best_index[r];
        }
      }
      for (int r = 0; r < kRows; ++r) output[o + r] = best_index[r];
    }
  }
  for (; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* base = input + o * axis_size * inner + i;
      T best = base[0];
      Index best_index = 0;
      for (int a = 1; a < axis_size; ++a) {
        // A select rather than a branch: on real data (segmentation logits) the outcome is
        // unpredictable and mispredictions would dominate.
        const T v = base[a * inner];
        const bool take = better(v, best);
        best = take ? v : best;
        best_index = take ? static_cast<Index>(a) : best_index;
      }
      output[o * inner + i] = best_index;
    }
  }
}

}  // namespace octet::reference
