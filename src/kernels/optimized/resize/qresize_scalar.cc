// The portable path: both passes element by element.
#include "kernels/optimized/resize/qresize.h"

namespace octet::optimized {
namespace {

void Vertical(const uint8_t* row0, const uint8_t* row1, size_t n, int32_t fy, bool is_signed,
              int32_t* v) {
  const int32_t gy = 1024 - fy;
  if (is_signed) {
    const auto* a = reinterpret_cast<const int8_t*>(row0);
    const auto* b = reinterpret_cast<const int8_t*>(row1);
    for (size_t i = 0; i < n; ++i) v[i] = a[i] * gy + b[i] * fy;
  } else {
    for (size_t i = 0; i < n; ++i) v[i] = row0[i] * gy + row1[i] * fy;
  }
}

void Horizontal(const int32_t* v, const QResizeColumn* columns, int out_w, int depth,
                uint8_t* out) {
  for (int x = 0; x < out_w; ++x, out += depth) {
    const QResizeColumn& col = columns[x];
    const int32_t gx = 1024 - col.fx;
    for (int c = 0; c < depth; ++c) {
      const int32_t sum = v[col.x0 + c] * gx + v[col.x1 + c] * col.fx;
      const int32_t round = sum > 0 ? (1 << 19) : -(1 << 19);
      out[c] = static_cast<uint8_t>((sum + round) / (1 << 20));
    }
  }
}

}  // namespace

const QResizeKernel kQResizeScalar = {"qresize_scalar", &Vertical, &Horizontal};

}  // namespace octet::optimized
