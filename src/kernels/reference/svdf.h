// SVDF (singular value decomposition filter): a fully-connected layer factored
// into a "feature" projection (num_filters x input_size) followed by a
// per-filter FIR over the last memory_size feature outputs ("time" weights,
// num_filters x memory_size), summed over `rank` filters per output unit.
//
// State layout (as TFLite and TFLite Micro keep it): [batch][filter][memory],
// the newest activation in the last memory slot. Each invoke first slides the
// whole buffer one element to the left (the element that crosses into the
// previous filter's row is then overwritten by that row's newest activation),
// writes the new feature outputs into the last slots, and then applies the time
// weights. The state after an invoke therefore holds the current activation in
// its last column (TFLite Micro's convention).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/fused_activation.h"
#include "quant/quantization_util.h"

namespace octet::reference {

struct SvdfShape {
  int batch = 0;
  int input_size = 0;
  int num_filters = 0;
  int rank = 1;
  int memory_size = 0;
  int num_units() const { return num_filters / rank; }
  int64_t state_size() const { return int64_t{batch} * num_filters * memory_size; }
};

// Slides the state one element to the left (see the file comment).
template <typename T>
inline void SvdfShiftState(const SvdfShape &s, T *state) {
  const int64_t n = s.state_size();
  if (n > 1) std::copy(state + 1, state + n, state);
}

// Float SVDF after the newest activations are in place: time weights, bias,
// rank reduction, activation. `scratch` holds batch * num_filters floats.
inline void SvdfFloatTimeStage(const SvdfShape &s, const float *weights_time, const float *bias,
                               FusedActivation act, const float *state, float *scratch,
                               float *output) {
  const int units = s.num_units();
  for (int b = 0; b < s.batch; ++b) {
    const float *w = weights_time;
    const float *st = state + int64_t{b} * s.num_filters * s.memory_size;
    float *out = scratch + int64_t{b} * s.num_filters;
    for (int f = 0; f < s.num_filters; ++f) {
      float sum = 0.f;
      for (int m = 0; m < s.memory_size; ++m) sum += *w++ * *st++;
      out[f] = sum;
    }
  }
  for (int b = 0; b < s.batch; ++b) {
    float *out = output + int64_t{b} * units;
    const float *sc = scratch + int64_t{b} * s.num_filters;
    for (int u = 0; u < units; ++u) {
      float v = bias ? bias[u] : 0.f;
      for (int r = 0; r < s.rank; ++r) v += *sc++;
      out[u] = ApplyFusedActivation(act, v);
    }
  }
}

// Float SVDF, one invoke. input [batch, input_size], weights_feature
// [num_filters, input_size], weights_time [num_filters, memory_size], bias
// [num_units] or nullptr, state as above (updated), output [batch, num_units].
inline void SvdfFloat(const SvdfShape &s, const float *input, const float *weights_feature,
                      const float *weights_time, const float *bias, FusedActivation act,
                      float *state, float *scratch, float *output) {
  SvdfShiftState(s, state);
  for (int b = 0; b < s.batch; ++b) {
    const float *w = weights_feature;
    const float *x = input + int64_t{b} * s.input_size;
    float *newest = state + int64_t{b} * s.num_filters * s.memory_size + (s.memory_size - 1);
    for (int f = 0; f < s.num_filters; ++f) {
      float dot = 0.f;
      for (int i = 0; i < s.input_size; ++i) dot += *w++ * x[i];
      newest[int64_t{f} * s.memory_size] = dot;
    }
  }
  SvdfFloatTimeStage(s, weights_time, bias, act, state, scratch, output);
}

// Requantization constants of the full-integer SVDF. scale_1 = input *
// weights_feature / state takes feature outputs to the state; scale_2 = state *
// weights_time / output takes the time-filtered sums to the output.
struct SvdfIntegerParams {
  int32_t input_zero_point = 0;
  int32_t state_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t scale_1_multiplier = 0;
  int scale_1_shift = 0;
  int32_t scale_2_multiplier = 0;
  int scale_2_shift = 0;
};

// Full-integer SVDF as TFLite Micro's reference computes it: int8 input and
// feature weights; StateT (int16 or int8) state and time weights; int32 bias;
// int8 output. The fused activation is not applied (the output range carries
// it). `scratch` holds batch * num_filters int32, `scratch_out` batch *
// num_units int32.
template <typename StateT>
inline void SvdfInteger(const SvdfShape &s, const SvdfIntegerParams &p, const int8_t *input,
                        const int8_t *weights_feature, const StateT *weights_time,
                        const int32_t *bias, StateT *state, int32_t *scratch, int32_t *scratch_out,
                        int8_t *output) {
  constexpr int32_t kStateMin = std::numeric_limits<StateT>::min();
  constexpr int32_t kStateMax = std::numeric_limits<StateT>::max();
  SvdfShiftState(s, state);

  // Feature stage: newest state column = requantized (weights_feature · (x -
  // zp)).
  for (int b = 0; b < s.batch; ++b) {
    const int8_t *w = weights_feature;
    const int8_t *x = input + int64_t{b} * s.input_size;
    StateT *newest = state + int64_t{b} * s.num_filters * s.memory_size + (s.memory_size - 1);
    for (int f = 0; f < s.num_filters; ++f) {
      int64_t dot = 0;  // wraps to int32 below exactly as the reference's int32 sum
      for (int i = 0; i < s.input_size; ++i) {
        dot += int32_t{*w++} * (int32_t{x[i]} - p.input_zero_point);
      }
      int32_t v = quant::MultiplyByQuantizedMultiplier(static_cast<int32_t>(dot),
                                                       p.scale_1_multiplier, p.scale_1_shift);
      v += p.state_zero_point;
      v = std::min(kStateMax, std::max(kStateMin, v));
      newest[int64_t{f} * s.memory_size] = static_cast<StateT>(v);
    }
  }

  // Time stage: per filter, weights_time · (state - zp) over the memory.
  for (int b = 0; b < s.batch; ++b) {
    const StateT *w = weights_time;
    const StateT *st = state + int64_t{b} * s.num_filters * s.memory_size;
    int32_t *out = scratch + int64_t{b} * s.num_filters;
    for (int f = 0; f < s.num_filters; ++f) {
      int64_t sum = 0;
      for (int m = 0; m < s.memory_size; ++m) {
        sum += int32_t{*w++} * (int32_t{*st++} - p.state_zero_point);
      }
      out[f] = static_cast<int32_t>(sum);
    }
  }

  // Bias, rank reduction, requantization to int8.
  const int units = s.num_units();
  for (int b = 0; b < s.batch; ++b) {
    const int32_t *sc = scratch + int64_t{b} * s.num_filters;
    int32_t *acc = scratch_out + int64_t{b} * units;
    for (int u = 0; u < units; ++u) {
      int64_t v = bias ? bias[u] : 0;
      for (int r = 0; r < s.rank; ++r) v += *sc++;
      acc[u] = static_cast<int32_t>(v);
    }
  }
  const int64_t n_out = int64_t{s.batch} * units;
  for (int64_t i = 0; i < n_out; ++i) {
    int32_t v =
        quant::MultiplyByQuantizedMultiplier(scratch_out[i], p.scale_2_multiplier, p.scale_2_shift);
    v += p.output_zero_point;
    output[i] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }
}

}  // namespace octet::reference
