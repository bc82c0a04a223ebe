#include "kernels/optimized/window.h"

#include <algorithm>

#include "kernels/optimized/pad_image.h"

namespace octet::optimized {

void InteriorRange(int in, int out, int kernel, int stride, int dilation, int pad, int* begin,
                   int* end) {
  // The last tap of output o lands at o * stride - pad + (kernel - 1) * dilation.
  const long last = static_cast<long>(in) - 1 - static_cast<long>(kernel - 1) * dilation + pad;
  *begin = std::min(out, (pad + stride - 1) / stride);
  *end = last < 0 ? *begin : static_cast<int>(std::min<long>(out, last / stride + 1));
  *end = std::max(*end, *begin);
}

Window2D PaddedWindow(const Window2D& s) {
  Window2D p = s;
  p.in_h = (s.out_h - 1) * s.stride_h + (s.kernel_h - 1) * s.dilation_h + 1;
  p.in_w = (s.out_w - 1) * s.stride_w + (s.kernel_w - 1) * s.dilation_w + 1;
  p.pad_h = p.pad_w = 0;
  return p;
}

int64_t BorderPixels(const Window2D& s) {
  if (s.out_h <= 0 || s.out_w <= 0) return 0;
  int oy_lo, oy_hi, ox_lo, ox_hi;
  InteriorRange(s.in_h, s.out_h, s.kernel_h, s.stride_h, s.dilation_h, s.pad_h, &oy_lo, &oy_hi);
  InteriorRange(s.in_w, s.out_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_w, &ox_lo, &ox_hi);
  return static_cast<int64_t>(s.out_h) * s.out_w -
         static_cast<int64_t>(oy_hi - oy_lo) * (ox_hi - ox_lo);
}

size_t PaddedImageElements(const Window2D& s) {
  if (s.batches <= 0 || s.out_h <= 0 || s.out_w <= 0) return 0;
  const Window2D p = PaddedWindow(s);
  return static_cast<size_t>(s.batches) * static_cast<size_t>(p.in_h) *
         static_cast<size_t>(p.in_w) * static_cast<size_t>(s.in_c);
}

bool PaddedCopyPays(const Window2D& s, bool border_gathers) {
  if (s.batches <= 0 || s.out_h <= 0 || s.out_w <= 0) return false;
  const int64_t pixels = static_cast<int64_t>(s.out_h) * s.out_w;
  const int64_t border = BorderPixels(s);
  if (border == 0) return false;
  return border * 4 >= pixels || (border_gathers && border * 16 >= pixels);
}

}  // namespace octet::optimized
