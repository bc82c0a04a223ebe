// SPACE_TO_DEPTH / DEPTH_TO_SPACE (NHWC) and SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND (any
// number of spatial dims after the batch; trailing dims move as a block).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/reference/shape_util.h"
#include "kernels/shape.h"

namespace octet::reference {

// out[b, h, w, (dy * bs + dx) * C + c] = in[b, h * bs + dy, w * bs + dx, c].
template <typename T>
void SpaceToDepth(const Shape& input_shape, const T* input, int block, const Shape& output_shape,
                  T* output) {
  const int batch = output_shape.dim(0), out_h = output_shape.dim(1), out_w = output_shape.dim(2);
  const int depth = input_shape.dim(3);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < out_h; ++h)
      for (int w = 0; w < out_w; ++w)
        for (int dy = 0; dy < block; ++dy)
          for (int dx = 0; dx < block; ++dx)
            CopyElements(output + output_shape.Offset(b, h, w, (dy * block + dx) * depth),
                         input + input_shape.Offset(b, h * block + dy, w * block + dx, 0), depth);
}

// out[b, h * bs + dy, w * bs + dx, c] = in[b, h, w, (dy * bs + dx) * C_out + c].
template <typename T>
void DepthToSpace(const Shape& input_shape, const T* input, int block, const Shape& output_shape,
                  T* output) {
  const int batch = input_shape.dim(0), in_h = input_shape.dim(1), in_w = input_shape.dim(2);
  const int depth = output_shape.dim(3);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < in_h; ++h)
      for (int w = 0; w < in_w; ++w)
        for (int dy = 0; dy < block; ++dy)
          for (int dx = 0; dx < block; ++dx)
            CopyElements(output + output_shape.Offset(b, h * block + dy, w * block + dx, 0),
                         input + input_shape.Offset(b, h, w, (dy * block + dx) * depth), depth);
}

namespace space_internal {

// Splits a block number into per-spatial-dim offsets (last spatial dim varies fastest).
inline void BlockOffsets(int64_t k, const std::vector<int>& block, std::vector<int>* offsets) {
  for (int i = static_cast<int>(block.size()) - 1; i >= 0; --i) {
    (*offsets)[i] = static_cast<int>(k % block[i]);
    k /= block[i];
  }
}

}  // namespace space_internal

// Output batch ob = k * B + b takes, from the zero-padded input batch b, the positions
// o * block + offset(k) of every spatial dim; padding positions get `pad_value`.
template <typename T>
void SpaceToBatchNd(const Shape& input_shape, const T* input, const std::vector<int>& block,
                    const std::vector<int>& pad_before, T pad_value, const Shape& output_shape,
                    T* output) {
  const int m = static_cast<int>(block.size());
  const int in_batch = input_shape.dim(0);
  const int64_t depth = input_shape.SizeBetween(m + 1, input_shape.rank());
  const Shape out_spatial = output_shape.SubShape(1, 1 + m);
  const std::vector<int64_t> in_strides = Strides(input_shape);
  if (output_shape.FlatSize() == 0) return;
  std::vector<int> offsets(m), pos(m);
  T* out = output;
  for (int ob = 0; ob < output_shape.dim(0); ++ob) {
    const int b = ob % in_batch;
    space_internal::BlockOffsets(ob / in_batch, block, &offsets);
    std::fill(pos.begin(), pos.end(), 0);
    do {
      int64_t offset = b * in_strides[0];
      bool inside = true;
      for (int i = 0; i < m; ++i) {
        const int x = pos[i] * block[i] + offsets[i] - pad_before[i];
        if (x < 0 || x >= input_shape.dim(i + 1)) {
          inside = false;
          break;
        }
        offset += x * in_strides[i + 1];
      }
      if (inside) {
        CopyElements(out, input + offset, depth);
      } else {
        for (int64_t j = 0; j < depth; ++j) out[j] = pad_value;
      }
      out += depth;
    } while (m > 0 && NextIndex(out_spatial, &pos));
  }
}

// Inverse of SpaceToBatchNd without padding: output position o of batch b comes from
// input batch k * B + b, where (o + crop_before) = x * block + offset(k).
template <typename T>
void BatchToSpaceNd(const Shape& input_shape, const T* input, const std::vector<int>& block,
                    const std::vector<int>& crop_before, const Shape& output_shape, T* output) {
  const int m = static_cast<int>(block.size());
  const int out_batch = output_shape.dim(0);
  const int64_t depth = input_shape.SizeBetween(m + 1, input_shape.rank());
  const Shape out_spatial = output_shape.SubShape(1, 1 + m);
  const std::vector<int64_t> in_strides = Strides(input_shape);
  if (output_shape.FlatSize() == 0) return;
  std::vector<int> pos(m);
  T* out = output;
  for (int b = 0; b < out_batch; ++b) {
    std::fill(pos.begin(), pos.end(), 0);
    do {
      int64_t k = 0, offset = 0;
      for (int i = 0; i < m; ++i) {
        const int p = pos[i] + crop_before[i];
        k = k * block[i] + p % block[i];
        offset += static_cast<int64_t>(p / block[i]) * in_strides[i + 1];
      }
      offset += (k * out_batch + b) * in_strides[0];
      CopyElements(out, input + offset, depth);
      out += depth;
    } while (m > 0 && NextIndex(out_spatial, &pos));
  }
}

}  // namespace octet::reference
