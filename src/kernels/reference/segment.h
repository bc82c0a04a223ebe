// SEGMENT_SUM and the UNSORTED_SEGMENT_{SUM,PROD,MAX,MIN} family: rows of `data` (each
// `inner` elements) are combined into the output row their segment id names. Integer sums
// and products wrap around (two's complement) instead of overflowing.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace octet::reference {

template <typename T>
T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <typename T>
T WrappingMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // In uint64 no operand promotes to (overflowing) signed int.
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

// segment_ids are sorted, start at 0 and step by 0 or 1 (checked by the caller); the output
// has num_segments rows of `inner` elements.
template <typename T>
void SegmentSum(const T* data, const int32_t* segment_ids, int64_t rows, int64_t inner,
                int64_t num_segments, T* output) {
  for (int64_t i = 0; i < num_segments * inner; ++i) output[i] = T(0);
  for (int64_t r = 0; r < rows; ++r) {
    T* out = output + segment_ids[r] * inner;
    const T* in = data + r * inner;
    for (int64_t j = 0; j < inner; ++j) out[j] = WrappingAdd(out[j], in[j]);
  }
}

enum class SegmentReduction { kSum, kProd, kMax, kMin };

// Rows whose id is negative are dropped; ids must be < num_segments (checked by the
// caller). Segments no row reaches keep the reduction's identity: 0, 1, the lowest value
// (max) or the largest value (min). max/min keep the running value unless the new one
// compares greater/less, so a NaN row is skipped as it is in TFLite.
template <typename T>
void UnsortedSegment(SegmentReduction op, const T* data, const int32_t* segment_ids,
                     int64_t num_ids, int64_t inner, int64_t num_segments, T* output) {
  T init = T(0);
  switch (op) {
    case SegmentReduction::kSum:
      init = T(0);
      break;
    case SegmentReduction::kProd:
      init = T(1);
      break;
    case SegmentReduction::kMax:
      init = std::numeric_limits<T>::lowest();
      break;
    case SegmentReduction::kMin:
      init = std::numeric_limits<T>::max();
      break;
  }
  for (int64_t i = 0; i < num_segments * inner; ++i) output[i] = init;
  for (int64_t r = 0; r < num_ids; ++r) {
    if (segment_ids[r] < 0) continue;
    T* out = output + segment_ids[r] * inner;
    const T* in = data + r * inner;
    for (int64_t j = 0; j < inner; ++j) {
      switch (op) {
        case SegmentReduction::kSum:
          out[j] = WrappingAdd(out[j], in[j]);
          break;
        case SegmentReduction::kProd:
          out[j] = WrappingMul(out[j], in[j]);
          break;
        case SegmentReduction::kMax:
          if (out[j] < in[j]) out[j] = in[j];
          break;
        case SegmentReduction::kMin:
          if (in[j] < out[j]) out[j] = in[j];
          break;
      }
    }
  }
}

}  // namespace octet::reference
