// Shared by the TRANSPOSE_CONV quantized, hybrid and validation tests: random geometries as
// TFLite accepts them, a plain scatter over the taps, and a one-node model builder.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet::tc_test {

struct Geometry {
  int n = 1, h = 1, w = 1, c = 1;  // input
  int oc = 1, kh = 1, kw = 1;      // filter [oc, kh, kw, c]
  int sh = 1, sw = 1;
  TfLitePadding padding = kTfLitePaddingSame;
  int oh = 1, ow = 1;  // output [n, oh, ow, oc]
  int pad_h = 0, pad_w = 0;

  int64_t InputSize() const { return int64_t{n} * h * w * c; }
  int64_t FilterSize() const { return int64_t{oc} * kh * kw * c; }
  int64_t OutputSize() const { return int64_t{n} * oh * ow * oc; }
};

// Leading padding: TensorFlow's SAME padding of the forward convolution from the output
// (oh) back to the input (h); VALID has none.
inline void SetPadding(Geometry* g) {
  auto pad = [&](int in, int out, int k, int s) {
    if (g->padding == kTfLitePaddingValid) return 0;
    return std::max(0, (in - 1) * s + k - out) / 2;
  };
  g->pad_h = pad(g->h, g->oh, g->kh, g->sh);
  g->pad_w = pad(g->w, g->ow, g->kw, g->sw);
}

// Output sizes whose forward convolution gives back the input size: for SAME any size in
// ((h-1)*s, h*s], for VALID any size in [(h-1)*s + k, (h-1)*s + k + s).
inline Geometry RandomGeometry(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  Geometry g;
  g.n = pick(1, 2);
  g.h = pick(1, 5);
  g.w = pick(1, 5);
  g.c = pick(1, 6);
  g.oc = pick(1, 5);
  g.kh = pick(1, 4);
  g.kw = pick(1, 4);
  g.sh = pick(1, 3);
  g.sw = pick(1, 3);
  g.padding = rng() % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
  auto out = [&](int in, int k, int s) {
    return g.padding == kTfLitePaddingSame ? pick((in - 1) * s + 1, in * s)
                                           : pick((in - 1) * s + k, (in - 1) * s + k + s - 1);
  };
  g.oh = out(g.h, g.kh, g.sh);
  g.ow = out(g.w, g.kw, g.sw);
  SetPadding(&g);
  return g;
}

// Calls f(input index, filter index, output index, output channel) for every product the
// transposed convolution adds: input (b, iy, ix, ic) times filter (oc, fy, fx, ic) lands on
// output (b, iy*sh - pad_h + fy, ix*sw - pad_w + fx, oc).
template <typename F>
void ForEachProduct(const Geometry& g, F f) {
  for (int b = 0; b < g.n; ++b)
    for (int iy = 0; iy < g.h; ++iy)
      for (int ix = 0; ix < g.w; ++ix)
        for (int ic = 0; ic < g.c; ++ic)
          for (int fy = 0; fy < g.kh; ++fy)
            for (int fx = 0; fx < g.kw; ++fx) {
              const int oy = iy * g.sh - g.pad_h + fy, ox = ix * g.sw - g.pad_w + fx;
              if (oy < 0 || oy >= g.oh || ox < 0 || ox >= g.ow) continue;
              for (int o = 0; o < g.oc; ++o) {
                const int64_t in = ((int64_t{b} * g.h + iy) * g.w + ix) * g.c + ic;
                const int64_t w = ((int64_t{o} * g.kh + fy) * g.kw + fx) * g.c + ic;
                const int64_t out = ((int64_t{b} * g.oh + oy) * g.ow + ox) * g.oc + o;
                f(in, w, out, o);
              }
            }
}

inline TfLiteTransposeConvParams Params(const Geometry& g, TfLiteFusedActivation act,
                                        TfLiteType quantized_bias_type = kTfLiteFloat32) {
  TfLiteTransposeConvParams p{};
  p.padding = g.padding;
  p.stride_height = g.sh;
  p.stride_width = g.sw;
  p.activation = act;
  p.quantized_bias_type = quantized_bias_type;
  return p;
}

inline void SetTransposeConv(testing::OpModel* m, const TfLiteTransposeConvParams& p) {
  m->SetBuiltinOp(tflite::BuiltinOperator_TRANSPOSE_CONV,
                  tflite::ops::builtin::Register_TRANSPOSE_CONV(), p);
}

}  // namespace octet::tc_test
