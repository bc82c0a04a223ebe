// Planning and checking the linear form of 8-bit ADD/SUB (QBinaryLinear in qbinary.h). For
// portable code only: per-ISA kernels include qbinary.h, which holds no inline code.
#pragma once

#include <cstdint>

#include "kernels/optimized/qbinary/qbinary.h"

namespace octet::optimized {

// Fills params->linear for ADD/SUB when the linear form exists with a useful window (it
// stays unusable for MUL, positive shifts, or scales that would overflow 32 bits).
void PlanQBinaryLinear(QBinaryParams* params);

// Whether the linear form's floor is exact for A (not within the window of an integer).
inline bool QBinaryLinearExactAt(const QBinaryLinear& l, int32_t a) {
  const uint32_t mask = (uint32_t{1} << l.frac_bits) - 1;
  const uint32_t shifted = (static_cast<uint32_t>(a) + static_cast<uint32_t>(l.window)) & mask;
  return shifted > 2 * static_cast<uint32_t>(l.window);
}

}  // namespace octet::optimized
