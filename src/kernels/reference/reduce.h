// Reductions over a set of axes (SUM, PROD, MAX, MIN, MEAN). As in TFLite's reference,
// inputs are visited in row-major order and folded into their output element, so each
// output accumulates its inputs in increasing index order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/reference/shape_util.h"
#include "kernels/shape.h"
#include "quant/quantization_util.h"

namespace octet::reference {

// Output offset of every input element when the axes flagged in `reduced` collapse.
// Calls f(input_offset, output_offset) in input row-major order.
template <typename F>
void ForEachReduced(const Shape& input_shape, const std::vector<bool>& reduced, F&& f) {
  const int rank = input_shape.rank();
  const int64_t total = input_shape.FlatSize();
  if (total == 0) return;
  // Strides of the output (reduced axes have extent 1 and contribute nothing).
  std::vector<int64_t> out_strides(rank, 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (!reduced[d]) {
      out_strides[d] = stride;
      stride *= input_shape.dim(d);
    }
  }
  std::vector<int> index(rank, 0);
  int64_t in_offset = 0;
  do {
    int64_t out_offset = 0;
    for (int d = 0; d < rank; ++d) out_offset += index[d] * out_strides[d];
    f(in_offset++, out_offset);
  } while (NextIndex(input_shape, &index));
}

// output[j] = reducer(... reducer(reducer(init, x0), x1) ...) over the inputs x of output j.
// As in TFLite, when every dim is reduced the fold starts from the first element instead
// of `init` (this only differs for NaNs and -0.0).
template <typename T, typename Reducer>
void Reduce(const Shape& input_shape, const std::vector<bool>& reduced, const T* input,
            int64_t output_size, T init, Reducer reducer, T* output) {
  bool all = true;
  for (bool r : reduced) all = all && r;
  const int64_t total = input_shape.FlatSize();
  if (all && output_size == 1) {
    output[0] = total > 0 ? input[0] : init;
    for (int64_t i = 1; i < total; ++i) output[0] = reducer(output[0], input[i]);
    return;
  }
  for (int64_t i = 0; i < output_size; ++i) output[i] = init;
  ForEachReduced(input_shape, reduced,
                 [&](int64_t in, int64_t out) { output[out] = reducer(output[out], input[in]); });
}

// Mean: sum in the accumulator type Acc, then divide by the number of reduced elements.
// An empty reduction gives NaN for floats and 0 for integers, as TFLite does.
template <typename T, typename Acc>
void Mean(const Shape& input_shape, const std::vector<bool>& reduced, const T* input,
          int64_t output_size, T* output) {
  std::vector<Acc> sums(output_size, Acc());
  ForEachReduced(input_shape, reduced,
                 [&](int64_t in, int64_t out) { sums[out] += static_cast<Acc>(input[in]); });
  int64_t count = 1;
  for (int d = 0; d < input_shape.rank(); ++d) {
    if (reduced[d]) count *= input_shape.dim(d);
  }
  for (int64_t i = 0; i < output_size; ++i) {
    output[i] = count > 0 ? static_cast<T>(sums[i] / static_cast<Acc>(count))
                          : std::numeric_limits<T>::quiet_NaN();
  }
}

// Quantized MEAN / SUM as TFLite's reference: sum the raw values in int32, remove the
// input zero point, then requantize with (multiplier, shift) encoding s_in / s_out; for
// MEAN the 1/count factor is folded into the multiplier. With no reduced dim the input is
// copied as is; an empty input leaves zeros.
// MEAN folds 1/count into the multiplier with floor(log2(count)) extra bits of precision, as
// TFLite does; SUM keeps it.
inline void MeanMultiplier(int64_t count, int32_t* multiplier, int* shift) {
  int extra = 0;
  while ((count >> (extra + 1)) != 0) ++extra;
  extra = std::min(extra, 32);
  extra = std::min(extra, 31 + *shift);
  *multiplier = static_cast<int32_t>((static_cast<int64_t>(*multiplier) << extra) / count);
  *shift -= extra;
}

// One output from the int32 sum (modulo 2^32) of its `count` inputs.
template <typename T>
inline T FinishMeanOrSum(int32_t sum, int64_t count, int32_t input_zero_point, int32_t multiplier,
                         int shift, int32_t output_zero_point) {
  const int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const int32_t centered = static_cast<int32_t>(
      static_cast<uint32_t>(static_cast<int64_t>(sum) - input_zero_point * count));
  const int32_t v =
      quant::MultiplyByQuantizedMultiplier(centered, multiplier, shift) + output_zero_point;
  return static_cast<T>(std::min(std::max(v, lo), hi));
}

template <typename T>
void QuantizedMeanOrSum(const Shape& input_shape, const std::vector<bool>& reduced, const T* input,
                        int32_t input_zero_point, int32_t multiplier, int shift,
                        int32_t output_zero_point, int64_t output_size, bool compute_sum,
                        T* output) {
  bool any = false;
  for (bool r : reduced) any = any || r;
  if (!any) {
    CopyElements(output, input, output_size);
    return;
  }
  for (int64_t i = 0; i < output_size; ++i) output[i] = T();
  if (input_shape.FlatSize() == 0) return;
  std::vector<int32_t> sums(output_size, 0);
  ForEachReduced(input_shape, reduced, [&](int64_t in, int64_t out) {
    sums[out] = static_cast<int32_t>(static_cast<uint32_t>(sums[out]) +
                                     static_cast<uint32_t>(static_cast<int32_t>(input[in])));
  });
  int64_t count = 1;
  for (int d = 0; d < input_shape.rank(); ++d) {
    if (reduced[d]) count *= input_shape.dim(d);
  }
  if (!compute_sum) MeanMultiplier(count, &multiplier, &shift);
  for (int64_t i = 0; i < output_size; ++i) {
    output[i] =
        FinishMeanOrSum<T>(sums[i], count, input_zero_point, multiplier, shift, output_zero_point);
  }
}

}  // namespace octet::reference
