#include "kernels/optimized/window.h"

#include <algorithm>

namespace octet::optimized {

void InteriorRange(int in, int out, int kernel, int stride, int dilation, int pad, int* begin,
                   int* end) {
  // The last tap of output o lands at o * stride - pad + (kernel - 1) * dilation.
  const long last = static_cast<long>(in) - 1 - static_cast<long>(kernel - 1) * dilation + pad;
  *begin = std::min(out, (pad + stride - 1) / stride);
  *end = last < 0 ? *begin : static_cast<int>(std::min<long>(out, last / stride + 1));
  *end = std::max(*end, *begin);
}

}  // namespace octet::optimized
