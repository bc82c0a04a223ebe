// Reference 3-D convolution (CONV_3D) and transposed 3-D convolution (CONV_3D_TRANSPOSE),
// float, NDHWC. The loop and accumulation orders follow TFLite's reference kernels so the
// float results match them bit for bit: CONV_3D sums per output element over filter depth,
// y, x, then input channel and adds the bias afterwards; CONV_3D_TRANSPOSE scatters each
// input element into the outputs it reaches and adds the bias at the end. Clamp last.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace octet::reference {

// The geometry of one 3-D convolution; all sizes already validated by the op.
struct Conv3DGeometry {
  int batches = 0;
  int in_depth = 0, in_height = 0, in_width = 0, in_channels = 0;
  int filter_depth = 0, filter_height = 0, filter_width = 0;
  int out_depth = 0, out_height = 0, out_width = 0, out_channels = 0;
  int stride_depth = 1, stride_height = 1, stride_width = 1;
  int dilation_depth = 1, dilation_height = 1, dilation_width = 1;
  int pad_depth = 0, pad_height = 0, pad_width = 0;  // leading padding
  float act_min = std::numeric_limits<float>::lowest();
  float act_max = std::numeric_limits<float>::max();
};

// Flat index of (b, d, y, x, c) in a row-major [B, D, H, W, C] array, in 64 bits.
inline int64_t Offset5(int d1, int d2, int d3, int d4, int b, int d, int y, int x, int c) {
  return (((int64_t{b} * d1 + d) * d2 + y) * d3 + x) * d4 + c;
}

// input [N, D, H, W, Cin], filter [KD, KH, KW, Cin, Cout], bias [Cout] or nullptr,
// output [N, OD, OH, OW, Cout].
inline void Conv3D(const Conv3DGeometry& g, const float* input, const float* filter,
                   const float* bias, float* output) {
  for (int b = 0; b < g.batches; ++b) {
    for (int od = 0; od < g.out_depth; ++od) {
      const int id0 = od * g.stride_depth - g.pad_depth;
      for (int oy = 0; oy < g.out_height; ++oy) {
        const int iy0 = oy * g.stride_height - g.pad_height;
        for (int ox = 0; ox < g.out_width; ++ox) {
          const int ix0 = ox * g.stride_width - g.pad_width;
          for (int oc = 0; oc < g.out_channels; ++oc) {
            float total = 0.f;
            for (int fd = 0; fd < g.filter_depth; ++fd) {
              const int id = id0 + g.dilation_depth * fd;
              for (int fy = 0; fy < g.filter_height; ++fy) {
                const int iy = iy0 + g.dilation_height * fy;
                for (int fx = 0; fx < g.filter_width; ++fx) {
                  const int ix = ix0 + g.dilation_width * fx;
                  // Padding cells are zeros: they add nothing.
                  if (id < 0 || id >= g.in_depth || iy < 0 || iy >= g.in_height || ix < 0 ||
                      ix >= g.in_width) {
                    continue;
                  }
                  const float* in = input + Offset5(g.in_depth, g.in_height, g.in_width,
                                                    g.in_channels, b, id, iy, ix, 0);
                  const float* w = filter + Offset5(g.filter_height, g.filter_width, g.in_channels,
                                                    g.out_channels, fd, fy, fx, 0, oc);
                  for (int ic = 0; ic < g.in_channels; ++ic) {
                    total += in[ic] * w[int64_t{ic} * g.out_channels];
                  }
                }
              }
            }
            const float bias_value = bias ? bias[oc] : 0.f;
            output[Offset5(g.out_depth, g.out_height, g.out_width, g.out_channels, b, od, oy, ox,
                           oc)] = std::min(std::max(total + bias_value, g.act_min), g.act_max);
          }
        }
      }
    }
  }
}

// input [N, D, H, W, Cin], filter [KD, KH, KW, Cout, Cin], bias [Cout] or nullptr,
// output [N, OD, OH, OW, Cout]. The pads are those of the forward convolution that maps
// the output back onto the input.
inline void Conv3DTranspose(const Conv3DGeometry& g, const float* input, const float* filter,
                            const float* bias, float* output) {
  const int64_t cells = int64_t{g.batches} * g.out_depth * g.out_height * g.out_width;
  std::fill(output, output + cells * g.out_channels, 0.f);
  for (int b = 0; b < g.batches; ++b) {
    for (int id = 0; id < g.in_depth; ++id) {
      const int od0 = id * g.stride_depth - g.pad_depth;
      for (int iy = 0; iy < g.in_height; ++iy) {
        const int oy0 = iy * g.stride_height - g.pad_height;
        for (int ix = 0; ix < g.in_width; ++ix) {
          const int ox0 = ix * g.stride_width - g.pad_width;
          for (int ic = 0; ic < g.in_channels; ++ic) {
            const float value = input[Offset5(g.in_depth, g.in_height, g.in_width, g.in_channels, b,
                                              id, iy, ix, ic)];
            for (int fd = 0; fd < g.filter_depth; ++fd) {
              const int od = od0 + g.dilation_depth * fd;
              if (od < 0 || od >= g.out_depth) continue;
              for (int fy = 0; fy < g.filter_height; ++fy) {
                const int oy = oy0 + g.dilation_height * fy;
                if (oy < 0 || oy >= g.out_height) continue;
                for (int fx = 0; fx < g.filter_width; ++fx) {
                  const int ox = ox0 + g.dilation_width * fx;
                  if (ox < 0 || ox >= g.out_width) continue;
                  float* out = output + Offset5(g.out_depth, g.out_height, g.out_width,
                                                g.out_channels, b, od, oy, ox, 0);
                  const float* w = filter + Offset5(g.filter_height, g.filter_width, g.out_channels,
                                                    g.in_channels, fd, fy, fx, 0, ic);
                  for (int oc = 0; oc < g.out_channels; ++oc) {
                    out[oc] += value * w[int64_t{oc} * g.in_channels];
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  for (int64_t i = 0; i < cells; ++i) {
    float* out = output + i * g.out_channels;
    for (int oc = 0; oc < g.out_channels; ++oc) {
      // Without a bias TFLite clamps the sum as is (no "+ 0", which would turn -0 into +0).
      const float v = bias ? out[oc] + bias[oc] : out[oc];
      out[oc] = std::min(std::max(v, g.act_min), g.act_max);
    }
  }
}

}  // namespace octet::reference
