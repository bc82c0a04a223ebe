// Float32 BATCH_MATMUL on the optimized GEMM kernels (fgemm): each rhs matrix is packed as
// the GEMM's weights — once in prepare when the rhs is constant (the common case: a layer's
// weights), at every invoke into a node temporary otherwise — and every output matrix is a
// dense-rows GEMM of its lhs matrix. NumPy batch broadcasting as in the reference. The lhs
// must not be transposed (adj_x): that case stays on the reference.
#pragma once

#include <vector>

#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "ops/nn/packing_cache.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct FloatMatMul {
  bool optimized = false;
  const optimized::FGemmKernel* kernel = nullptr;
  bool adj_y = false;
  int m = 0, k = 0, n = 0;
  // Batch dimensions, extended to the output's rank - 2 (missing ones are 1).
  std::vector<int> out_batch, lhs_batch, rhs_batch;
  int rhs_matrices = 1;
  size_t packed_floats = 0;       // per rhs matrix
  const float* packed = nullptr;  // rhs_matrices packed sets when packed in prepare
  bool pack_at_invoke = false;    // else `packed` holds them
  // Packing cache for re-prepares: the rhs data and the kernel `packed` was made for.
  PackingCache packing;
};

// Decides and (constant rhs) packs; sizes `scratch` (one temporary) when packing per invoke.
// Records the node's kernel name.
TfLiteStatus PrepareFloatMatMul(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* lhs,
                                const TfLiteTensor* rhs, const std::vector<int>& out_dims,
                                bool adj_x, bool adj_y, NodeScratch* scratch, FloatMatMul* mm);

// Runs it; false when prepare chose the reference.
bool EvalFloatMatMul(TfLiteContext* context, const FloatMatMul& mm, const NodeScratch& scratch,
                     const TfLiteTensor* lhs, const TfLiteTensor* rhs, TfLiteTensor* output);

}  // namespace octet::ops::nn
