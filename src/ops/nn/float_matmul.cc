#include "ops/nn/float_matmul.h"

#include <limits>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {
namespace {

// The dimensions of `t` before its last two, right-aligned to `rank` entries.
std::vector<int> BatchDims(const TfLiteTensor* t, int rank) {
  std::vector<int> dims(static_cast<size_t>(rank), 1);
  const int own = t->dims->size - 2;
  for (int i = 0; i < own; ++i) dims[static_cast<size_t>(rank - own + i)] = t->dims->data[i];
  return dims;
}

// Packs every rhs matrix into `buffer` (rhs_matrices * packed_floats floats).
void PackAll(const FloatMatMul& mm, const float* rhs, float* buffer) {
  for (int b = 0; b < mm.rhs_matrices; ++b) {
    optimized::FGemmWeightsDesc d;
    d.weights = rhs + static_cast<size_t>(b) * mm.k * mm.n;
    d.n = mm.n;
    d.kc = mm.k;
    // adj_y: rhs is [N][K], the packer's own layout; else [K][N], read down its columns.
    d.column_stride = mm.adj_y ? static_cast<size_t>(mm.k) : 1;
    d.k_stride = mm.adj_y ? 1 : static_cast<size_t>(mm.n);
    optimized::FGemmPack(*mm.kernel, d, buffer + static_cast<size_t>(b) * mm.packed_floats);
  }
}

}  // namespace

TfLiteStatus PrepareFloatMatMul(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* lhs,
                                const TfLiteTensor* rhs, const std::vector<int>& out_dims,
                                bool adj_x, bool adj_y, NodeScratch* scratch, FloatMatMul* mm) {
  mm->optimized = false;
  const cpu::Isa isa = cpu::ActiveIsa();
  const optimized::FGemmKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::FGemmKernelFor(isa);
  const int rank = static_cast<int>(out_dims.size());
  if (kernel == nullptr || adj_x || lhs->type != kTfLiteFloat32 || rhs->type != kTfLiteFloat32 ||
      tflite::NumElements(rhs) == 0) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  mm->kernel = kernel;
  mm->adj_y = adj_y;
  mm->m = out_dims[static_cast<size_t>(rank - 2)];
  mm->n = out_dims[static_cast<size_t>(rank - 1)];
  mm->k = lhs->dims->data[lhs->dims->size - 1];
  mm->out_batch.assign(out_dims.begin(), out_dims.end() - 2);
  mm->lhs_batch = BatchDims(lhs, rank - 2);
  mm->rhs_batch = BatchDims(rhs, rank - 2);
  mm->rhs_matrices = 1;
  for (int d : mm->rhs_batch) mm->rhs_matrices *= d;
  optimized::FGemmWeightsDesc shape;
  shape.n = mm->n;
  shape.kc = mm->k;
  mm->packed_floats = optimized::FGemmPackedFloats(*kernel, shape);
  const size_t total = mm->packed_floats * static_cast<size_t>(mm->rhs_matrices);
  mm->pack_at_invoke = !tflite::IsConstantTensor(rhs);
  if (mm->pack_at_invoke) {
    TF_LITE_ENSURE_OK(
        context, scratch->Prepare(context, node, {{kTfLiteFloat32, static_cast<int64_t>(total)}}));
  } else if (!mm->packing.Ensure(rhs->data.raw, kernel, [&] {
               auto* buffer = static_cast<float*>(
                   context->AllocatePersistentBuffer(context, total * sizeof(float)));
               if (buffer == nullptr) return false;
               PackAll(*mm, rhs->data.f, buffer);
               mm->packed = buffer;
               return true;
             })) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  mm->optimized = true;
  SetNodeKernelName(context, node, kernel->name);
  return kTfLiteOk;
}

bool EvalFloatMatMul(TfLiteContext* context, const FloatMatMul& mm, const NodeScratch& scratch,
                     const TfLiteTensor* lhs, const TfLiteTensor* rhs, TfLiteTensor* output) {
  if (!mm.optimized) return false;
  const float* packed = mm.packed;
  if (mm.pack_at_invoke) {
    float* buffer = scratch.Data<float>(context, 0);
    PackAll(mm, rhs->data.f, buffer);
    packed = buffer;
  }
  ThreadPool* pool = GetThreadPool(context);
  // The reference does not clamp: infinite bounds keep every value (NaN included).
  const optimized::FloatClamp none{-std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::infinity()};
  const size_t lhs_matrix = static_cast<size_t>(mm.m) * mm.k;
  const size_t out_matrix = static_cast<size_t>(mm.m) * mm.n;
  const int batch_rank = static_cast<int>(mm.out_batch.size());
  size_t out_batches = 1;
  for (int d : mm.out_batch) out_batches *= static_cast<size_t>(d);
  std::vector<int> index(static_cast<size_t>(batch_rank), 0);
  for (size_t ob = 0; ob < out_batches; ++ob) {
    // Flat batch offsets of the operands; a size-1 dimension is broadcast.
    size_t lhs_b = 0, rhs_b = 0;
    for (int d = 0; d < batch_rank; ++d) {
      const size_t i = static_cast<size_t>(d);
      lhs_b = lhs_b * mm.lhs_batch[i] + (mm.lhs_batch[i] == 1 ? 0 : index[i]);
      rhs_b = rhs_b * mm.rhs_batch[i] + (mm.rhs_batch[i] == 1 ? 0 : index[i]);
    }
    optimized::FGemmWeightsDesc shape;
    shape.n = mm.n;
    shape.kc = mm.k;
    const optimized::FGemmPacked p =
        optimized::FGemmView(*mm.kernel, shape, packed + rhs_b * mm.packed_floats);
    optimized::RunFGemmRows(p, mm.m, lhs->data.f + lhs_b * lhs_matrix, static_cast<size_t>(mm.k),
                            none, output->data.f + ob * out_matrix, pool);
    for (int d = batch_rank - 1; d >= 0; --d) {
      const size_t i = static_cast<size_t>(d);
      if (++index[i] < mm.out_batch[i]) break;
      index[i] = 0;
    }
  }
  return true;
}

}  // namespace octet::ops::nn
