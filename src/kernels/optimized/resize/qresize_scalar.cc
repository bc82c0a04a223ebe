// The portable path: both passes element by element (the driver's portable loops).
#include "kernels/optimized/resize/qresize.h"
#include "kernels/optimized/resize/qresize_bilinear.h"

namespace octet::optimized {
namespace {

void Vertical(const uint8_t* row0, const uint8_t* row1, size_t n, int32_t fy, bool is_signed,
              int32_t* v) {
  if (is_signed) {
    BlendRowsPortable(reinterpret_cast<const int8_t*>(row0), reinterpret_cast<const int8_t*>(row1),
                      n, fy, v);
  } else {
    BlendRowsPortable(row0, row1, n, fy, v);
  }
}

void Horizontal(const int32_t* v, const QResizeColumn* columns, int out_w, int depth,
                uint8_t* out) {
  BlendColumnsPortable<int32_t>(v, columns, out_w, depth, out);
}

}  // namespace

const QResizeKernel kQResizeScalar = {"qresize_scalar", &Vertical, &Horizontal};

}  // namespace octet::optimized
