// MATRIX_DIAG and MATRIX_SET_DIAG on batches of matrices (the last two dims), and
// REVERSE_SEQUENCE and ONE_HOT: index arithmetic only, any element type.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/shape.h"

namespace octet::reference {

// out[b, i, j] = i == j ? diag[b, i] : 0, for `batches` diagonals of length n.
template <typename T>
void MatrixDiag(int64_t batches, int64_t n, const T* diag, T* out) {
  for (int64_t b = 0; b < batches; ++b) {
    T* m = out + b * n * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) m[i * n + j] = i == j ? diag[b * n + i] : T(0);
    }
  }
}

// out = input (rows x cols matrices) with each main diagonal replaced by diag[b, :].
template <typename T>
void MatrixSetDiag(int64_t batches, int64_t rows, int64_t cols, const T* input, const T* diag,
                   T* out) {
  const int64_t len = rows < cols ? rows : cols;
  for (int64_t b = 0; b < batches; ++b) {
    const T* in_m = input + b * rows * cols;
    T* out_m = out + b * rows * cols;
    for (int64_t i = 0; i < rows * cols; ++i) out_m[i] = in_m[i];
    for (int64_t i = 0; i < len; ++i) out_m[i * cols + i] = diag[b * len + i];
  }
}

// For every slice b along batch_dim, reverses the first lengths[b] elements along seq_dim
// (the rest is copied). Lengths must lie in [0, shape.dim(seq_dim)].
template <typename T>
void ReverseSequence(const Shape& shape, int seq_dim, int batch_dim,
                     const std::vector<int64_t>& lengths, const T* input, T* output) {
  const int rank = shape.rank();
  std::vector<int64_t> strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape.dim(d + 1);
  const int64_t total = shape.FlatSize();
  std::vector<int> idx(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    const int64_t len = lengths[idx[batch_dim]];
    int64_t src = flat;
    const int s = idx[seq_dim];
    if (s < len) src += (len - 1 - 2 * static_cast<int64_t>(s)) * strides[seq_dim];
    output[flat] = input[src];
    for (int d = rank - 1; d >= 0; --d) {  // next row-major index
      if (++idx[d] < shape.dim(d)) break;
      idx[d] = 0;
    }
  }
}

// Output [prefix, depth, suffix]: on where indices[p, s] == d, off elsewhere.
template <typename T, typename Index>
void OneHot(const Index* indices, int64_t prefix, int64_t depth, int64_t suffix, T on, T off,
            T* out) {
  for (int64_t p = 0; p < prefix; ++p) {
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t s = 0; s < suffix; ++s) {
        out[(p * depth + d) * suffix + s] =
            static_cast<int64_t>(indices[p * suffix + s]) == d ? on : off;
      }
    }
  }
}

}  // namespace octet::reference
