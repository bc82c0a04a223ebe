// Quantized REDUCE_PROD (int8, int16) as TFLite computes it: a running product that is
// requantized after every multiplication, so it never leaves int32. Each step scales by
// s_in / s_out^(1/count), which after count - 1 multiplications and one final rescale
// gives s_in^count / s_out overall.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/reference/reduce.h"
#include "kernels/shape.h"
#include "quant/quantization_util.h"

namespace octet::reference {

// The per-step rescale, in TFLite's formula (count = reduced elements per output).
inline double QuantizedProdScaling(double input_scale, double output_scale, int64_t count) {
  return input_scale / std::pow(output_scale, 1.0 / static_cast<double>(count));
}

// Each output's product starts from its first input (row-major) less the zero point; an
// empty input leaves zeros.
template <typename T>
void QuantizedReduceProd(const Shape& input_shape, const std::vector<bool>& reduced, const T* input,
                         int32_t input_zero_point, int32_t multiplier, int shift,
                         int32_t output_zero_point, int64_t output_size, T* output) {
  std::fill(output, output + output_size, T());
  if (input_shape.FlatSize() == 0) return;
  std::vector<int32_t> products(output_size);
  std::vector<bool> started(output_size, false);
  ForEachReduced(input_shape, reduced, [&](int64_t in, int64_t out) {
    const int32_t value = static_cast<int32_t>(input[in]) - input_zero_point;
    if (!started[out]) {
      products[out] = value;
      started[out] = true;
      return;
    }
    products[out] = quant::MultiplyByQuantizedMultiplier(
        static_cast<int64_t>(products[out]) * value, multiplier, shift);
  });
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  for (int64_t i = 0; i < output_size; ++i) {
    const int32_t q =
        quant::MultiplyByQuantizedMultiplier(static_cast<int64_t>(products[i]), multiplier, shift);
    // Wrapping add: q can be near INT32_MAX when the scales make the product explode.
    const auto sum =
        static_cast<int32_t>(static_cast<uint32_t>(q) + static_cast<uint32_t>(output_zero_point));
    output[i] = static_cast<T>(std::min(kMax, std::max(kMin, sum)));
  }
}

}  // namespace octet::reference
