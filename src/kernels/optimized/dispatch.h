// Which micro-kernel each op family runs on each kernel path: the one place that maps a path
// (cpu::Isa) to code. A family's glue asks here in prepare, once.
#pragma once

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/fbinary/fbinary.h"
#include "kernels/optimized/fdw/fdw.h"
#include "kernels/optimized/fgemm/fgemm.h"
#include "kernels/optimized/fquant/fquant.h"
#include "kernels/optimized/funary/funary.h"
#include "kernels/optimized/lut/lut.h"
#include "kernels/optimized/qbinary/qbinary.h"
#include "kernels/optimized/qconvert/qconvert.h"
#include "kernels/optimized/qdw/qdw.h"
#include "kernels/optimized/qgemm/qgemm.h"
#include "kernels/optimized/resize/qresize.h"

namespace octet::optimized {

// The micro-kernel for `isa`, or nullptr for the reference path and for paths this build or
// this CPU lacks.
const QGemmKernel* QGemmKernelFor(cpu::Isa isa);
// For GEMMs of few rows (FULLY_CONNECTED on one or a few vectors), which read each weight
// once or twice per invoke: where a path has a variant with smaller weights, that one.
const QGemmKernel* QGemmFewRowsKernelFor(cpu::Isa isa);
// For convolutions whose input the caller widens to int16 once per invoke (the kernel then
// broadcasts activation pairs straight from memory): where a path has such a variant.
const QGemmKernel* QGemmWideInputKernelFor(cpu::Isa isa);
const QDwKernel* QDwKernelFor(cpu::Isa isa);
// A path's 3x3 row kernel (QDwKernel::run_row3x3), for the layers QDepthwiseRowKernelApplies
// accepts; nullptr where the path has none.
const QDwKernel* QDwRowKernelFor(cpu::Isa isa);
const QBinaryKernel* QBinaryKernelFor(cpu::Isa isa);
const QConvertKernel* QConvertKernelFor(cpu::Isa isa);
const FGemmKernel* FGemmKernelFor(cpu::Isa isa);
const FDwKernel* FDwKernelFor(cpu::Isa isa);
// The depthwise kernel for a layer of `channels` (output) channels: a path's own kernel, or
// a narrower path's where its wider vectors would be mostly padding (AVX-512 with at most
// kNarrowQDwChannels / kNarrowFDwChannels channels runs the AVX2 kernel: measured 1.5-2x
// faster there on a 48x48x8 layer, where AVX-512 computes half or more padding lanes).
const QDwKernel* QDwKernelForLayer(cpu::Isa isa, int channels);
const FDwKernel* FDwKernelForLayer(cpu::Isa isa, int channels);
constexpr int kNarrowQDwChannels = 16;
constexpr int kNarrowFDwChannels = 8;
const FQuantKernel* FQuantKernelFor(cpu::Isa isa);
const FBinaryKernel* FBinaryKernelFor(cpu::Isa isa);
// LOGISTIC/TANH: the AVX-512 path runs the AVX2 kernel (libmvec's 8-lane functions).
const FUnaryKernel* FUnaryKernelFor(cpu::Isa isa);
// 8-bit RESIZE_BILINEAR: the AVX-512 path runs the AVX2 kernel (load- and store-bound).
const QResizeKernel* QResizeKernelFor(cpu::Isa isa);
// Byte-table lookups: the AVX-512 path runs the AVX2 kernel.
const LutKernel* LutKernelFor(cpu::Isa isa);

}  // namespace octet::optimized
