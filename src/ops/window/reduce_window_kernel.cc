#include "ops/window/reduce_window_kernel.h"

#include <cstring>
#include <type_traits>

namespace octet::ops::window {
namespace {

// Signed integer ADD / MUL in two's complement without UB.
template <typename T>
T WrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= sizeof(int)) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return static_cast<T>(a + b);
  }
}
template <typename T>
T WrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= sizeof(int)) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T>) {
    // int8 / int16 / uint8 promote to int; the product of two such values fits.
    return static_cast<T>(static_cast<int>(a) * static_cast<int>(b));
  } else {
    return a * b;
  }
}

template <typename T>
T Apply(TfLiteReduceWindowFunction f, T a, T b) {
  switch (f) {
    case TfLiteReduceWindowFunctionAdd:
      return WrapAdd(a, b);
    case TfLiteReduceWindowFunctionMul:
      return WrapMul(a, b);
    case TfLiteReduceWindowFunctionMin:
      return a <= b ? a : b;
    case TfLiteReduceWindowFunctionMax:
      return a >= b ? a : b;
    case TfLiteReduceWindowFunctionAll:
      return static_cast<T>(a && b);
    default:  // ANY (callers admit nothing else)
      return static_cast<T>(a || b);
  }
}

template <typename T>
void Reduce(const WindowGeometry& g, TfLiteReduceWindowFunction f, const T* in, T init, T* out) {
  const int rank = g.rank;
  int64_t out_elements = 1, window_elements = 1;
  for (int i = 0; i < rank; ++i) out_elements *= g.out_dims[i];
  if (out_elements == 0) return;
  // Every window fits in the input here, so this product is at most its element count.
  for (int i = 0; i < rank; ++i) window_elements *= g.window[i];
  int64_t o_index[kReduceWindowMaxRank] = {}, base = 0;
  for (int64_t o = 0; o < out_elements; ++o) {
    T acc = init;
    int64_t w_index[kReduceWindowMaxRank] = {}, offset = 0;
    for (int64_t w = 0; w < window_elements; ++w) {
      acc = Apply(f, acc, in[base + offset]);
      for (int d = rank - 1; d >= 0; --d) {  // odometer over the window
        offset += g.window_steps[d];
        if (++w_index[d] < g.window[d]) break;
        offset -= g.window_steps[d] * g.window[d];
        w_index[d] = 0;
      }
    }
    out[o] = acc;
    for (int d = rank - 1; d >= 0; --d) {  // odometer over the output
      base += g.output_steps[d];
      if (++o_index[d] < g.out_dims[d]) break;
      base -= g.output_steps[d] * g.out_dims[d];
      o_index[d] = 0;
    }
  }
}

template <typename T>
void Run(const WindowGeometry& g, TfLiteReduceWindowFunction f, const void* input, const void* init,
         void* output) {
  T init_value;
  std::memcpy(&init_value, init, sizeof(T));
  Reduce<T>(g, f, static_cast<const T*>(input), init_value, static_cast<T*>(output));
}

}  // namespace

void ComputeWindowGeometry(int rank, const int64_t* dims, const int64_t* window_shape,
                           const int64_t* strides, const int64_t* dilations, WindowGeometry* g) {
  g->rank = rank;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    g->in_strides[i] = stride;
    stride *= dims[i];
  }
  for (int i = 0; i < rank; ++i) {
    const int64_t in = dims[i];
    g->window[i] = window_shape[i];
    // The dilated window (w - 1) * dilation + 1 fits iff (w - 1) * dilation < in; tested
    // without forming a product that could overflow.
    const bool fits = in > 0 && (window_shape[i] - 1) <= (in - 1) / dilations[i];
    g->out_dims[i] =
        fits ? static_cast<int>((in - 1 - (window_shape[i] - 1) * dilations[i]) / strides[i] + 1)
             : 0;
    g->window_steps[i] = fits ? g->in_strides[i] * dilations[i] : 0;
    g->output_steps[i] = fits ? g->in_strides[i] * strides[i] : 0;
  }
}

bool ReduceWindowTypeSupported(TfLiteType type) {
  switch (type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteUInt8:
    case kTfLiteFloat32:
    case kTfLiteFloat64:
      return true;
    default:
      return false;
  }
}

void ReduceWindow(TfLiteType type, const WindowGeometry& g, TfLiteReduceWindowFunction f,
                  const void* input, const void* init, void* output) {
  switch (type) {
    case kTfLiteBool:  // one byte per element, reduced as int8 (as TFLite)
    case kTfLiteInt8:
      return Run<int8_t>(g, f, input, init, output);
    case kTfLiteInt16:
      return Run<int16_t>(g, f, input, init, output);
    case kTfLiteInt32:
      return Run<int32_t>(g, f, input, init, output);
    case kTfLiteInt64:
      return Run<int64_t>(g, f, input, init, output);
    case kTfLiteUInt8:
      return Run<uint8_t>(g, f, input, init, output);
    case kTfLiteFloat32:
      return Run<float>(g, f, input, init, output);
    default:  // kTfLiteFloat64 (callers admit nothing else)
      return Run<double>(g, f, input, init, output);
  }
}

}  // namespace octet::ops::window
