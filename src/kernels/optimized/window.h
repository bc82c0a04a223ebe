// The geometry of a 2-D sliding-window op (convolution, depthwise convolution) on an NHWC
// input, as the optimized drivers take it: plain integers, no runtime types.
#pragma once

namespace octet::optimized {

struct Window2D {
  int batches = 1;
  int in_h = 1;
  int in_w = 1;
  int in_c = 1;
  int out_h = 1;
  int out_w = 1;
  int kernel_h = 1;
  int kernel_w = 1;
  int stride_h = 1;
  int stride_w = 1;
  int dilation_h = 1;
  int dilation_w = 1;
  int pad_h = 0;  // leading padding rows
  int pad_w = 0;  // leading padding columns
};

// The outputs [*begin, *end) along one axis whose every tap lands inside [0, in): output o
// reads o * stride - pad + t * dilation for t < kernel. Outputs before *begin read leading
// padding, outputs from *end on trailing padding; an empty range has *begin == *end.
void InteriorRange(int in, int out, int kernel, int stride, int dilation, int pad, int* begin,
                   int* end);

}  // namespace octet::optimized
