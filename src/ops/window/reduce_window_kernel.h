// The reduction shared by REDUCE_WINDOW and STABLEHLO_REDUCE_WINDOW: per output position o,
// init reduced with every input element at o * stride + k * dilation for k over the window
// (row-major order). The StableHLO op dilates and pads its input first and then runs this.
#pragma once

#include <cstdint>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::window {

constexpr int kReduceWindowMaxRank = 6;

struct WindowGeometry {
  int rank = 0;
  int64_t in_strides[kReduceWindowMaxRank] = {};
  int64_t window[kReduceWindowMaxRank] = {};
  int64_t window_steps[kReduceWindowMaxRank] = {};  // input offset of one step inside the window
  int64_t output_steps[kReduceWindowMaxRank] = {};  // input offset of one output step
  int out_dims[kReduceWindowMaxRank] = {};
};

// Output dims (d - ((w - 1) * dilation + 1)) / stride + 1, or 0 when the dilated window does
// not fit, and the offsets of a walk over `dims` (each in [0, INT_MAX]). Window attributes
// must be >= 1; nothing here overflows for any such values.
void ComputeWindowGeometry(int rank, const int64_t* dims, const int64_t* window_shape,
                           const int64_t* strides, const int64_t* dilations, WindowGeometry* g);

// The element types both ops accept: bool, int8, int16, int32, int64, uint8, float32, float64.
bool ReduceWindowTypeSupported(TfLiteType type);

// Reduces `input` (laid out as g's dims) into `output` (g.out_dims) with `f`, starting each
// window from the one element at `init`. MIN / MAX are `a <= b ? a : b` / `a >= b ? a : b`,
// ALL / ANY give 1 or 0 in the element type, bool is reduced as int8 and integer ADD / MUL
// wrap (TFLite's bits, without its UB). `type` must be supported.
void ReduceWindow(TfLiteType type, const WindowGeometry& g, TfLiteReduceWindowFunction f,
                  const void* input, const void* init, void* output);

}  // namespace octet::ops::window
