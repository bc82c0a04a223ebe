#include "kernels/optimized/qgemm/qgemm_kernels.h"

namespace octet::optimized {

const QGemmKernel* QGemmKernelFor(cpu::Isa isa) {
  if (!cpu::CpuSupports(isa)) return nullptr;
  switch (isa) {
    case cpu::Isa::kReference:
      return nullptr;
    case cpu::Isa::kScalar:
      return &kQGemmScalar;
#if defined(OCTET_HAVE_X86_KERNELS)
    case cpu::Isa::kAvx2:
      return &kQGemmAvx2;
    case cpu::Isa::kAvx512Vnni:
      return &kQGemmAvx512Vnni;
#endif
    default:
      return nullptr;
  }
}

}  // namespace octet::optimized
