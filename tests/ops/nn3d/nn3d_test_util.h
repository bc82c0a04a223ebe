// Shared pieces of the CONV_3D / CONV_3D_TRANSPOSE tests: deterministic data, the SAME/VALID
// axis arithmetic from TensorFlow's definitions, double-precision truths computed straight
// from the mathematical definitions (a gather for both ops, unlike the kernels' scatter for
// the transpose), and error-message matching.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/nn3d/nn3d_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::nn3d_test {

using octet::testing::OpModel;
using octet::testing::TensorSpec;

// Deterministic 32-bit LCG (tests must not depend on rand()).
class Lcg {
 public:
  explicit Lcg(uint32_t seed) : s_(seed * 2654435761u + 7u) {}
  uint32_t Next() {
    s_ = s_ * 1664525u + 1013904223u;
    return s_ >> 8;
  }
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % (hi - lo + 1)); }  // [lo, hi]
  float Float(float lo = -1.f, float hi = 1.f) {
    return lo + (hi - lo) * static_cast<float>(Next()) / static_cast<float>(1u << 24);
  }
  std::vector<float> Floats(size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = Float();
    return v;
  }

 private:
  uint32_t s_;
};

inline int Count(const std::vector<int>& dims) {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

// Row-major flat index of (i0..i4) in a 5-D array of `dims`.
inline int At(const std::vector<int>& dims, int i0, int i1, int i2, int i3, int i4) {
  return (((i0 * dims[1] + i1) * dims[2] + i2) * dims[3] + i3) * dims[4] + i4;
}

// Forward-convolution output size and leading padding of one axis (TensorFlow's
// GetWindowedOutputSize: SAME = ceil(in / stride), VALID = ceil((in - eff + 1) / stride)).
struct Axis {
  int out;
  int pad;
};
inline Axis ForwardAxis(TfLitePadding padding, int in, int filter, int stride, int dilation) {
  const int eff = (filter - 1) * dilation + 1;
  if (padding == kTfLitePaddingValid) return {(in - eff) / stride + 1, 0};
  const int out = (in + stride - 1) / stride;
  return {out, std::max(0, (out - 1) * stride + eff - in) / 2};
}

inline double Activate(TfLiteFusedActivation act, double x) {
  switch (act) {
    case kTfLiteActRelu:
      return std::max(0.0, x);
    case kTfLiteActReluN1To1:
      return std::min(1.0, std::max(-1.0, x));
    case kTfLiteActRelu6:
      return std::min(6.0, std::max(0.0, x));
    default:
      return x;
  }
}

// The geometry of one test case: input, filter, strides, dilations, padding, activation.
struct Case {
  int batches, in_c, out_c;
  int in[3];      // input depth, height, width
  int filter[3];  // filter depth, height, width
  int stride[3];
  int dilation[3];
  int out[3];  // output spatial sizes
  int pad[3];  // leading padding per axis
  TfLitePadding padding = kTfLitePaddingSame;
  TfLiteFusedActivation act = kTfLiteActNone;
  bool bias = false;
};

inline TfLiteConv3DParams Params(const Case& c) {
  TfLiteConv3DParams p{};
  p.padding = c.padding;
  p.stride_depth = c.stride[0];
  p.stride_height = c.stride[1];
  p.stride_width = c.stride[2];
  p.dilation_depth_factor = c.dilation[0];
  p.dilation_height_factor = c.dilation[1];
  p.dilation_width_factor = c.dilation[2];
  p.activation = c.act;
  return p;
}

// CONV_3D by definition: out[b, o, oc] = act(bias[oc] + sum over taps f and input channels
// of in[b, o * stride - pad + f * dilation, ic] * w[f, ic, oc]), zero outside the input.
inline std::vector<double> NaiveConv3D(const Case& c, const std::vector<float>& in,
                                       const std::vector<float>& w,
                                       const std::vector<float>& bias) {
  const std::vector<int> in_dims = {c.batches, c.in[0], c.in[1], c.in[2], c.in_c};
  const std::vector<int> w_dims = {c.filter[0], c.filter[1], c.filter[2], c.in_c, c.out_c};
  const std::vector<int> out_dims = {c.batches, c.out[0], c.out[1], c.out[2], c.out_c};
  std::vector<double> out(Count(out_dims));
  for (int b = 0; b < c.batches; ++b)
    for (int od = 0; od < c.out[0]; ++od)
      for (int oy = 0; oy < c.out[1]; ++oy)
        for (int ox = 0; ox < c.out[2]; ++ox)
          for (int oc = 0; oc < c.out_c; ++oc) {
            double sum = c.bias ? bias[oc] : 0.0;
            for (int fd = 0; fd < c.filter[0]; ++fd)
              for (int fy = 0; fy < c.filter[1]; ++fy)
                for (int fx = 0; fx < c.filter[2]; ++fx) {
                  const int id = od * c.stride[0] - c.pad[0] + fd * c.dilation[0];
                  const int iy = oy * c.stride[1] - c.pad[1] + fy * c.dilation[1];
                  const int ix = ox * c.stride[2] - c.pad[2] + fx * c.dilation[2];
                  if (id < 0 || id >= c.in[0] || iy < 0 || iy >= c.in[1] || ix < 0 || ix >= c.in[2])
                    continue;
                  for (int ic = 0; ic < c.in_c; ++ic) {
                    sum += double{in[At(in_dims, b, id, iy, ix, ic)]} *
                           w[At(w_dims, fd, fy, fx, ic, oc)];
                  }
                }
            out[At(out_dims, b, od, oy, ox, oc)] = Activate(c.act, sum);
          }
  return out;
}

// The input index i along one axis that tap f sends to output o in a transposed
// convolution (i * stride - pad + f * dilation == o), or -1.
inline int SourceIndex(int o, int f, int stride, int pad, int dilation, int in_size) {
  const int t = o + pad - f * dilation;
  if (t < 0 || t % stride != 0 || t / stride >= in_size) return -1;
  return t / stride;
}

// CONV_3D_TRANSPOSE by definition, as a gather: every output cell sums the input cells
// whose (strided, padded) tap lands on it. Filter [KD, KH, KW, Cout, Cin].
inline std::vector<double> NaiveConv3DTranspose(const Case& c, const std::vector<float>& in,
                                                const std::vector<float>& w,
                                                const std::vector<float>& bias) {
  const std::vector<int> in_dims = {c.batches, c.in[0], c.in[1], c.in[2], c.in_c};
  const std::vector<int> w_dims = {c.filter[0], c.filter[1], c.filter[2], c.out_c, c.in_c};
  const std::vector<int> out_dims = {c.batches, c.out[0], c.out[1], c.out[2], c.out_c};
  std::vector<double> out(Count(out_dims));
  for (int b = 0; b < c.batches; ++b)
    for (int od = 0; od < c.out[0]; ++od)
      for (int oy = 0; oy < c.out[1]; ++oy)
        for (int ox = 0; ox < c.out[2]; ++ox)
          for (int oc = 0; oc < c.out_c; ++oc) {
            double sum = c.bias ? bias[oc] : 0.0;
            for (int fd = 0; fd < c.filter[0]; ++fd) {
              const int id = SourceIndex(od, fd, c.stride[0], c.pad[0], c.dilation[0], c.in[0]);
              if (id < 0) continue;
              for (int fy = 0; fy < c.filter[1]; ++fy) {
                const int iy = SourceIndex(oy, fy, c.stride[1], c.pad[1], c.dilation[1], c.in[1]);
                if (iy < 0) continue;
                for (int fx = 0; fx < c.filter[2]; ++fx) {
                  const int ix = SourceIndex(ox, fx, c.stride[2], c.pad[2], c.dilation[2], c.in[2]);
                  if (ix < 0) continue;
                  for (int ic = 0; ic < c.in_c; ++ic) {
                    sum += double{in[At(in_dims, b, id, iy, ix, ic)]} *
                           w[At(w_dims, fd, fy, fx, oc, ic)];
                  }
                }
              }
            }
            out[At(out_dims, b, od, oy, ox, oc)] = Activate(c.act, sum);
          }
  return out;
}

// Float output against the double truth within 1e-5 relative (plus 1e-5 absolute near 0).
inline void ExpectAllNear(const std::vector<float>& got, const std::vector<double>& want,
                          const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::fabs(want[i])) << what << " at " << i;
  }
}

// Build (prepare) must fail with `message` in the report.
inline void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

inline bool IsDynamic(OpModel& m, int tensor) {
  return m.tensor(tensor)->allocation_type == kTfLiteDynamic;
}

constexpr TfLiteFusedActivation kActivations[] = {kTfLiteActNone, kTfLiteActRelu,
                                                  kTfLiteActReluN1To1, kTfLiteActRelu6};

}  // namespace octet::nn3d_test
