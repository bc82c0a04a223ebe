// The pieces the hybrid ("dynamic range": int8 weights, float activations) recurrent kernels
// (SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM) share, as TFLite's tensor utilities compute them:
//
//   1. each row of a float operand is quantized on its own (symmetric to [-127, 127], or
//      asymmetric to [-128, 127] with a zero point when the op asks for it);
//   2. every weight row is dotted with every quantized row in integers (int32 sums);
//   3. the sums are scaled back and accumulated into a float result:
//        result += float(dot') * (row_scale * weights_scale)
//      where, for asymmetric rows, dot' is the sum corrected for the zero point the way
//      TFLite does it -- in float, then truncated back to int32:
//        dot' = int32(float(dot) - float(Σw) * float(zero_point)).
//
// Step 2 is a plain loop here; the optimized glue computes the same int32 sums on the
// quantized GEMM micro-kernels and then runs steps 1 and 3 from this file, so both give the
// same bits.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/reference/fully_connected_hybrid.h"

namespace octet::reference {

// True when all n values compare equal to zero (TFLite skips the matrix products then).
inline bool HybridIsZero(const float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] != 0.f) return false;
  }
  return true;
}

// Quantizes `rows` rows of `cols` floats, one scale (and, when asymmetric, one zero point)
// per row. `zero_points` is untouched for symmetric rows.
inline void HybridQuantizeRows(const float* x, int rows, int cols, bool asymmetric, int8_t* q,
                               float* scales, int32_t* zero_points) {
  for (int r = 0; r < rows; ++r) {
    const int64_t at = static_cast<int64_t>(r) * cols;
    if (asymmetric) {
      AsymmetricQuantize(x + at, cols, q + at, &scales[r], &zero_points[r]);
    } else {
      SymmetricQuantize(x + at, cols, q + at, &scales[r]);
    }
  }
}

// sums[j] = Σ_k weights[j, k] for a [n, cols] int8 matrix (the zero-point correction term),
// wrapped to int32 as TFLite's int32 sum.
inline void HybridRowSums(const int8_t* weights, int n, int cols, int32_t* sums) {
  for (int j = 0; j < n; ++j) {
    const int8_t* w = weights + static_cast<int64_t>(j) * cols;
    int64_t sum = 0;
    for (int k = 0; k < cols; ++k) sum += w[k];
    sums[j] = static_cast<int32_t>(static_cast<uint32_t>(sum));
  }
}

// dots[r * dots_stride + j] = Σ_k weights[j, k] * q[r, k] for the [n, cols] int8 matrix and
// `rows` quantized rows of `cols` values (modulo 2^32, as TFLite's int32 sum).
inline void HybridDots(const int8_t* weights, int n, int cols, const int8_t* q, int rows,
                       int32_t* dots, int64_t dots_stride) {
  for (int r = 0; r < rows; ++r) {
    const int8_t* x = q + static_cast<int64_t>(r) * cols;
    for (int j = 0; j < n; ++j) {
      const int8_t* w = weights + static_cast<int64_t>(j) * cols;
      int64_t dot = 0;
      for (int k = 0; k < cols; ++k) dot += int32_t{w[k]} * int32_t{x[k]};
      dots[r * dots_stride + j] = static_cast<int32_t>(static_cast<uint32_t>(dot));
    }
  }
}

// result[r * result_stride + j] += float(dot') * (scales[r] * weights_scale) for j < n and
// r < rows, with dot' = dots[r * dots_stride + j] corrected by row_sums[j] * zero_points[r]
// when `zero_points` is given (asymmetric rows; symmetric ones pass nullptr).
inline void HybridAccumulate(const int32_t* dots, int64_t dots_stride, int n, int rows,
                             float weights_scale, const float* scales, const int32_t* zero_points,
                             const int32_t* row_sums, float* result, int64_t result_stride) {
  for (int r = 0; r < rows; ++r) {
    const float scale = scales[r] * weights_scale;
    const int32_t* d = dots + r * dots_stride;
    float* out = result + r * result_stride;
    if (zero_points != nullptr) {
      for (int j = 0; j < n; ++j) {
        const int32_t dot = HybridZeroPointCorrected(d[j], row_sums[j], zero_points[r]);
        out[j] += static_cast<float>(dot) * scale;
      }
    } else {
      for (int j = 0; j < n; ++j) out[j] += static_cast<float>(d[j]) * scale;
    }
  }
}

}  // namespace octet::reference
