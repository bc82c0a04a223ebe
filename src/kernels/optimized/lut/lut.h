// An 8-bit to 8-bit table lookup over contiguous bytes (the byte tables of lut/byte_table.h:
// 8-bit activations, requantizing QUANTIZE and CONCATENATION), one implementation per
// kernel path. Lookups are exact on every path. Plain aggregates only (see qgemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

struct LutKernel {
  const char* name;
  // out[i] = table[in[i]] for i < n; in and out may be the same array.
  void (*apply)(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t n);
};

extern const LutKernel kLutScalar;
extern const LutKernel kLutAvx2;

}  // namespace octet::optimized
