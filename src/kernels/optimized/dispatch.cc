#include "kernels/optimized/dispatch.h"

namespace octet::optimized {
namespace {

// The entry of `table` (scalar, avx2, avx512vnni) for `isa`, if this CPU runs it.
template <typename Kernel>
const Kernel* Pick(cpu::Isa isa, const Kernel* scalar, const Kernel* avx2,
                   const Kernel* avx512vnni) {
  if (!cpu::CpuSupports(isa)) return nullptr;
  switch (isa) {
    case cpu::Isa::kReference:
      return nullptr;
    case cpu::Isa::kScalar:
      return scalar;
    case cpu::Isa::kAvx2:
      return avx2;
    case cpu::Isa::kAvx512Vnni:
      return avx512vnni;
  }
  return nullptr;
}

}  // namespace

#if defined(OCTET_HAVE_X86_KERNELS)
const QGemmKernel* QGemmKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQGemmScalar, &kQGemmAvx2, &kQGemmAvx512Vnni);
}
const QGemmKernel* QGemmFewRowsKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQGemmScalar, &kQGemmAvx2ByteWeights, &kQGemmAvx512Vnni);
}
const QGemmKernel* QGemmWideInputKernelFor(cpu::Isa isa) {
  return Pick<QGemmKernel>(isa, nullptr, &kQGemmAvx2WideInput, nullptr);
}
const QDwKernel* QDwKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQDwScalar, &kQDwAvx2, &kQDwAvx512Vnni);
}
const QDwKernel* QDwRowKernelFor(cpu::Isa isa) {
  return Pick<QDwKernel>(isa, nullptr, nullptr, &kQDwAvx512VnniRow3x3);
}
const QBinaryKernel* QBinaryKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQBinaryScalar, &kQBinaryAvx2, &kQBinaryAvx512Vnni);
}
const QConvertKernel* QConvertKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQConvertScalar, &kQConvertAvx2, &kQConvertAvx512Vnni);
}
const FGemmKernel* FGemmKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFGemmScalar, &kFGemmAvx2, &kFGemmAvx512);
}
const FDwKernel* FDwKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFDwScalar, &kFDwAvx2, &kFDwAvx512);
}
const FQuantKernel* FQuantKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFQuantScalar, &kFQuantAvx2, &kFQuantAvx512Vnni);
}
const FBinaryKernel* FBinaryKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFBinaryScalar, &kFBinaryAvx2, &kFBinaryAvx512);
}
const QResizeKernel* QResizeKernelFor(cpu::Isa isa) {
  return Pick(isa, &kQResizeScalar, &kQResizeAvx2, &kQResizeAvx2);
}
const LutKernel* LutKernelFor(cpu::Isa isa) { return Pick(isa, &kLutScalar, &kLutAvx2, &kLutAvx2); }
#if defined(OCTET_HAVE_LIBMVEC)
const FUnaryKernel* FUnaryKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFUnaryScalar, &kFUnaryAvx2, &kFUnaryAvx2);
}
#else
const FUnaryKernel* FUnaryKernelFor(cpu::Isa isa) {
  return Pick(isa, &kFUnaryScalar, &kFUnaryScalar, &kFUnaryScalar);
}
#endif
#else
const QGemmKernel* QGemmKernelFor(cpu::Isa isa) {
  return Pick<QGemmKernel>(isa, &kQGemmScalar, nullptr, nullptr);
}
const QGemmKernel* QGemmFewRowsKernelFor(cpu::Isa isa) {
  return Pick<QGemmKernel>(isa, &kQGemmScalar, nullptr, nullptr);
}
const QGemmKernel* QGemmWideInputKernelFor(cpu::Isa) { return nullptr; }
const QDwKernel* QDwKernelFor(cpu::Isa isa) {
  return Pick<QDwKernel>(isa, &kQDwScalar, nullptr, nullptr);
}
const QDwKernel* QDwRowKernelFor(cpu::Isa) { return nullptr; }
const QBinaryKernel* QBinaryKernelFor(cpu::Isa isa) {
  return Pick<QBinaryKernel>(isa, &kQBinaryScalar, nullptr, nullptr);
}
const QConvertKernel* QConvertKernelFor(cpu::Isa isa) {
  return Pick<QConvertKernel>(isa, &kQConvertScalar, nullptr, nullptr);
}
const FGemmKernel* FGemmKernelFor(cpu::Isa isa) {
  return Pick<FGemmKernel>(isa, &kFGemmScalar, nullptr, nullptr);
}
const FDwKernel* FDwKernelFor(cpu::Isa isa) {
  return Pick<FDwKernel>(isa, &kFDwScalar, nullptr, nullptr);
}
const FQuantKernel* FQuantKernelFor(cpu::Isa isa) {
  return Pick<FQuantKernel>(isa, &kFQuantScalar, nullptr, nullptr);
}
const FBinaryKernel* FBinaryKernelFor(cpu::Isa isa) {
  return Pick<FBinaryKernel>(isa, &kFBinaryScalar, nullptr, nullptr);
}
const FUnaryKernel* FUnaryKernelFor(cpu::Isa isa) {
  return Pick<FUnaryKernel>(isa, &kFUnaryScalar, nullptr, nullptr);
}
const QResizeKernel* QResizeKernelFor(cpu::Isa isa) {
  return Pick<QResizeKernel>(isa, &kQResizeScalar, nullptr, nullptr);
}
const LutKernel* LutKernelFor(cpu::Isa isa) {
  return Pick<LutKernel>(isa, &kLutScalar, nullptr, nullptr);
}
#endif

namespace {

// `for_isa`'s kernel for a layer of `channels`: AVX2's where AVX-512's vectors would be mostly
// padding (at most `narrow` channels).
template <typename Kernel>
const Kernel* ForLayer(const Kernel* (*for_isa)(cpu::Isa), cpu::Isa isa, int channels, int narrow) {
  if (isa == cpu::Isa::kAvx512Vnni && channels <= narrow) {
    if (const Kernel* avx2 = for_isa(cpu::Isa::kAvx2)) return avx2;
  }
  return for_isa(isa);
}

}  // namespace

const QDwKernel* QDwKernelForLayer(cpu::Isa isa, int channels) {
  return ForLayer<QDwKernel>(&QDwKernelFor, isa, channels, kNarrowQDwChannels);
}

const FDwKernel* FDwKernelForLayer(cpu::Isa isa, int channels) {
  return ForLayer<FDwKernel>(&FDwKernelFor, isa, channels, kNarrowFDwChannels);
}

}  // namespace octet::optimized
