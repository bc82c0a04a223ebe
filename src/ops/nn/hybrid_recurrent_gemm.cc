#include "ops/nn/hybrid_recurrent_gemm.h"

#include <cstring>
#include <limits>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/threads/cpu_backend_context.h"

namespace octet::ops::nn {

const optimized::QGemmKernel* RecurrentGemmKernel() {
  const cpu::Isa isa = cpu::ActiveIsa();
  return isa == cpu::Isa::kReference ? nullptr : optimized::QGemmKernelFor(isa);
}

bool PackRecurrentGemm(TfLiteContext* context, const optimized::QGemmKernel& kernel,
                       const int8_t* const* parts, int count, int rows, int depth,
                       RecurrentGemm* out, const int32_t* const* biases, int32_t input_offset) {
  if (count <= 0 || rows <= 0 || depth <= 0) return false;
  const int64_t n64 = int64_t{count} * rows;
  if (n64 > std::numeric_limits<int>::max()) return false;
  const int n = static_cast<int>(n64);
  const size_t part_bytes = static_cast<size_t>(rows) * static_cast<size_t>(depth);
  std::vector<int8_t> stacked;
  const int8_t* weights = parts[0];
  if (count > 1) {
    stacked.resize(part_bytes * static_cast<size_t>(count));
    for (int p = 0; p < count; ++p) {
      std::memcpy(stacked.data() + p * part_bytes, parts[p], part_bytes);
    }
    weights = stacked.data();
  }
  std::vector<int32_t> stacked_bias;
  if (biases != nullptr) {
    stacked_bias.assign(static_cast<size_t>(n), 0);
    for (int p = 0; p < count; ++p) {
      if (biases[p] != nullptr) {
        std::memcpy(stacked_bias.data() + static_cast<size_t>(p) * rows, biases[p],
                    static_cast<size_t>(rows) * sizeof(int32_t));
      }
    }
  }
  // Placeholder requantization: the raw int32 sums are read, never requantized.
  std::vector<int32_t> multipliers(static_cast<size_t>(n), int32_t{1} << 30);
  std::vector<int> shifts(static_cast<size_t>(n), 0);
  optimized::QGemmWeightsDesc d;
  d.weights = reinterpret_cast<const uint8_t*>(weights);
  d.n = n;
  d.ks = 1;
  d.kc = depth;
  d.input_signed = true;
  d.input_offset = input_offset;
  d.bias = biases != nullptr ? stacked_bias.data() : nullptr;
  d.multiplier = multipliers.data();
  d.shift = shifts.data();
  void* buffer = context->AllocatePersistentBuffer(context, optimized::QGemmPackedSize(kernel, d));
  if (buffer == nullptr) return false;
  out->gemm = optimized::QGemmPack(kernel, d, buffer);
  out->n = n;
  out->depth = depth;
  return true;
}

void RunRecurrentGemm(TfLiteContext* context, const RecurrentGemm& m, const int8_t* q, int rows,
                      int32_t* dots) {
  if (rows <= 0) return;
  optimized::RunQGemmRows(m.gemm, rows, reinterpret_cast<const uint8_t*>(q),
                          static_cast<size_t>(m.depth), nullptr, GetThreadPool(context), dots);
}

}  // namespace octet::ops::nn
