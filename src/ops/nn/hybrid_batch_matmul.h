// Hybrid ("dynamic range": float lhs, constant int8 rhs) BATCH_MATMUL on the quantized GEMM
// micro-kernels in raw int32 mode. Every rhs matrix is packed once in prepare (as the GEMM's
// weights: int8, no offsets, no bias) with its column sums; at invoke every lhs row is
// quantized exactly as the reference does, the GEMM gives the exact int32 dot products, and
// the reference's zero-point correction and float finish are repeated term for term, so the
// output is bit-identical to reference::HybridBatchMatMul.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/optimized/fquant/fquant.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/reference/batch_matmul_hybrid.h"
#include "ops/nn/packing_cache.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct HybridBatchMatMulKernel {
  bool optimized = false;
  reference::HybridBatchMatMulParams params;
  int m = 0, k = 0, n = 0;
  // Batch dimensions, extended to the output's rank - 2 (missing ones are 1).
  std::vector<int> out_batch, lhs_batch, rhs_batch;
  int lhs_matrices = 1, rhs_matrices = 1;
  std::vector<optimized::QGemmPacked> packed;          // one per rhs matrix
  const optimized::FQuantKernel* quantizer = nullptr;  // lhs rows, bit-exact as the reference
  const int32_t* column_sums = nullptr;                // [rhs_matrices][n], int32 as TFLite's
  // Packing cache for re-prepares: the rhs data and the kernel `packed` was made for.
  PackingCache packing;
};

// Temporaries the optimized path uses; BATCH_MATMUL reserves this many in init.
constexpr int kHybridBatchMatMulScratchCount = 5;

// Decides and, when optimized, packs the constant rhs and sizes `scratch` (else the op sizes
// its reference scratch itself). `params.channel_scales` must outlive the node. Records the
// node's kernel name. `reference_only` pins the reference (OCTET_ISA=reference, _REF).
TfLiteStatus PrepareHybridBatchMatMul(TfLiteContext* context, TfLiteNode* node,
                                      const TfLiteTensor* lhs, const TfLiteTensor* rhs,
                                      const std::vector<int>& out_dims,
                                      const reference::HybridBatchMatMulParams& params,
                                      bool reference_only, NodeScratch* scratch,
                                      HybridBatchMatMulKernel* mm);

// Runs it; false when prepare chose the reference.
bool EvalHybridBatchMatMul(TfLiteContext* context, const HybridBatchMatMulKernel& mm,
                           const NodeScratch& scratch, const TfLiteTensor* lhs,
                           TfLiteTensor* output);

}  // namespace octet::ops::nn
