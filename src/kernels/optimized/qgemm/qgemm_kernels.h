// The quantized GEMM micro-kernel of each kernel path.
#pragma once

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/qgemm/qgemm.h"

namespace octet::optimized {

// The micro-kernel for `isa`, or nullptr for the reference path and for paths this build or
// this CPU lacks.
const QGemmKernel* QGemmKernelFor(cpu::Isa isa);

}  // namespace octet::optimized
