// The portable float binary kernel's entry for the SIMD kernels' tails. Included by ISA
// translation units: declarations only (tests/kernels/check_isa_headers.py).
#pragma once

#include "kernels/optimized/fbinary/fbinary.h"

namespace octet::optimized {

// The portable kernel on a whole call (the SIMD kernels' tails). Defined in the portable
// translation unit, so no ISA code is compiled into it.
void FBinaryScalarTail(const FBinaryCall& call);

}  // namespace octet::optimized
