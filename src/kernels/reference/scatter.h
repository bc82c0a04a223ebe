// SCATTER_ND, SPARSE_TO_DENSE and DYNAMIC_UPDATE_SLICE: writes of slices or single elements
// at positions given by index tensors. Every index is checked before anything is written;
// the first bad one is reported back to the caller.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/reference/segment.h"
#include "kernels/reference/shape_util.h"
#include "kernels/shape.h"

namespace octet::reference {

struct IndexError {
  bool ok = true;
  int64_t row = 0;    // which index tuple
  int dim = 0;        // which of its coordinates
  int64_t value = 0;  // the coordinate
  int64_t limit = 0;  // valid range is [0, limit)
};

// Checks rows x depth coordinates against the first `depth` dims of `shape` and returns the
// flat element offset of each row (times the stride of dim depth - 1).
template <typename Index>
IndexError RowOffsets(const Index* indices, int64_t rows, int depth, const Shape& shape,
                      std::vector<int64_t>* offsets) {
  IndexError err;
  const std::vector<int64_t> strides = Strides(shape);
  offsets->assign(static_cast<size_t>(rows), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int d = 0; d < depth; ++d) {
      const int64_t x = static_cast<int64_t>(indices[r * depth + d]);
      if (x < 0 || x >= shape.dim(d)) {
        err = {false, r, d, x, shape.dim(d)};
        return err;
      }
      offset += x * strides[d];
    }
    (*offsets)[r] = offset;
  }
  return err;
}

// output (shape `output_shape`) = zeros, then for each of the `rows` index tuples (depth
// coordinates each) the matching updates slice is added in. Repeated indices accumulate;
// bool accumulates as logical or.
template <typename T, typename Index>
IndexError ScatterNd(const Index* indices, int64_t rows, int depth, const Shape& output_shape,
                     const T* updates, T* output) {
  std::vector<int64_t> offsets;
  const IndexError err = RowOffsets(indices, rows, depth, output_shape, &offsets);
  if (!err.ok) return err;
  const int64_t slice = output_shape.SizeBetween(depth, output_shape.rank());
  const int64_t total = output_shape.FlatSize();
  for (int64_t i = 0; i < total; ++i) output[i] = T(0);
  for (int64_t r = 0; r < rows; ++r) {
    T* out = output + offsets[r];
    const T* in = updates + r * slice;
    for (int64_t j = 0; j < slice; ++j) {
      if constexpr (std::is_same_v<T, bool>) {
        out[j] = out[j] || in[j];
      } else {
        out[j] = WrappingAdd(out[j], in[j]);
      }
    }
  }
  return err;
}

// output = default_value everywhere, then values[i] (or values[0] for every index when
// `scalar_value`) at index tuple i. A repeated index keeps the last value written.
template <typename T, typename Index>
IndexError SparseToDense(const Index* indices, int64_t rows, const Shape& output_shape,
                         const T* values, bool scalar_value, T default_value, T* output) {
  std::vector<int64_t> offsets;
  const IndexError err = RowOffsets(indices, rows, output_shape.rank(), output_shape, &offsets);
  if (!err.ok) return err;
  const int64_t total = output_shape.FlatSize();
  for (int64_t i = 0; i < total; ++i) output[i] = default_value;
  for (int64_t r = 0; r < rows; ++r) output[offsets[r]] = values[scalar_value ? 0 : r];
  return err;
}

// output = operand with `update` written at `start` (per dim clamped into
// [0, operand_dim - update_dim], as XLA's DynamicUpdateSlice does). update's dims must not
// exceed operand's (checked by the caller). `output` may alias `operand`.
template <typename T>
void DynamicUpdateSlice(const Shape& operand_shape, const T* operand, const Shape& update_shape,
                        const T* update, const int64_t* start, T* output) {
  const int64_t total = operand_shape.FlatSize();
  if (output != operand) CopyElements(output, operand, total);
  const int64_t update_total = update_shape.FlatSize();
  if (update_total == 0) return;
  const int rank = operand_shape.rank();
  if (rank == 0) {
    output[0] = update[0];
    return;
  }
  const std::vector<int64_t> strides = Strides(operand_shape);
  int64_t base = 0;
  for (int d = 0; d < rank; ++d) {
    const int64_t hi = operand_shape.dim(d) - update_shape.dim(d);
    base += std::clamp<int64_t>(start[d], 0, hi) * strides[d];
  }
  // Walk the update row by row (its last dim is contiguous in both tensors).
  const int64_t row = update_shape.dim(rank - 1);
  const Shape outer = update_shape.SubShape(0, rank - 1);
  std::vector<int> index(rank - 1, 0);
  const T* in = update;
  do {
    int64_t offset = base;
    for (int d = 0; d < rank - 1; ++d) offset += index[d] * strides[d];
    CopyElements(output + offset, in, row);
    in += row;
  } while (NextIndex(outer, &index));
}

}  // namespace octet::reference
