#include "ops/nn/hybrid_batch_matmul.h"

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fquant/fquant_driver.h"
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

// Flat index of the operand matrix that output batch `flat` reads (size-1 dims broadcast).
int64_t OperandMatrix(const std::vector<int>& out_batch, const std::vector<int>& operand,
                      int64_t flat) {
  int64_t index = 0, stride = 1;
  for (size_t d = out_batch.size(); d-- > 0;) {
    const int64_t i = flat % out_batch[d];
    flat /= out_batch[d];
    if (operand[d] != 1) index += i * stride;
    stride *= operand[d];
  }
  return index;
}

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }

// Packs every rhs matrix (int8, no offsets, no bias; placeholder requantization) and their
// column sums into persistent memory; false if out of memory.
bool PackAll(TfLiteContext* context, const optimized::QGemmKernel& kernel, const int8_t* rhs,
             HybridBatchMatMulKernel* mm) {
  const std::vector<int32_t> multipliers(static_cast<size_t>(mm->n), int32_t{1} << 30);
  const std::vector<int> shifts(static_cast<size_t>(mm->n), 0);
  optimized::QGemmWeightsDesc d;
  d.n = mm->n;
  d.kc = mm->k;
  d.input_signed = true;
  d.multiplier = multipliers.data();
  d.shift = shifts.data();
  // adj_y: rhs is [N][K], the packer's own layout; else [K][N], read down its columns.
  d.column_stride = mm->params.adj_y ? static_cast<size_t>(mm->k) : 1;
  d.k_stride = mm->params.adj_y ? 1 : static_cast<size_t>(mm->n);
  const size_t matrix_bytes = RoundUp(optimized::QGemmPackedSize(kernel, d), 64);
  const size_t matrices = static_cast<size_t>(mm->rhs_matrices);
  const size_t sums = matrices * static_cast<size_t>(mm->n);
  auto* buffer = static_cast<uint8_t*>(
      context->AllocatePersistentBuffer(context, matrices * matrix_bytes + sums * sizeof(int32_t)));
  if (buffer == nullptr) return false;
  mm->packed.clear();
  auto* column_sums = reinterpret_cast<int32_t*>(buffer + matrices * matrix_bytes);
  const size_t matrix = static_cast<size_t>(mm->k) * mm->n;
  for (size_t r = 0; r < matrices; ++r) {
    const int8_t* w = rhs + r * matrix;
    d.weights = reinterpret_cast<const uint8_t*>(w);
    mm->packed.push_back(optimized::QGemmPack(kernel, d, buffer + r * matrix_bytes));
    for (int j = 0; j < mm->n; ++j) {
      int64_t sum = 0;
      for (int k = 0; k < mm->k; ++k) sum += w[j * d.column_stride + k * d.k_stride];
      column_sums[r * mm->n + j] = static_cast<int32_t>(sum);
    }
  }
  mm->column_sums = column_sums;
  return true;
}

}  // namespace

TfLiteStatus PrepareHybridBatchMatMul(TfLiteContext* context, TfLiteNode* node,
                                      const TfLiteTensor* lhs, const TfLiteTensor* rhs,
                                      const std::vector<int>& out_dims,
                                      const reference::HybridBatchMatMulParams& params,
                                      bool reference_only, NodeScratch* scratch,
                                      HybridBatchMatMulKernel* mm) {
  mm->optimized = false;
  mm->params = params;
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::QGemmKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::QGemmKernelFor(isa);
  const int rank = static_cast<int>(out_dims.size());
  mm->m = out_dims[static_cast<size_t>(rank - 2)];
  mm->n = out_dims[static_cast<size_t>(rank - 1)];
  mm->k =
      params.adj_y ? rhs->dims->data[rhs->dims->size - 1] : rhs->dims->data[rhs->dims->size - 2];
  if (kernel == nullptr || !tflite::IsConstantTensor(rhs) || tflite::NumElements(lhs) == 0 ||
      tflite::NumElements(rhs) == 0) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  mm->out_batch.assign(out_dims.begin(), out_dims.end() - 2);
  mm->lhs_batch = BatchDims(lhs, rank - 2);
  mm->rhs_batch = BatchDims(rhs, rank - 2);
  mm->lhs_matrices = 1;
  mm->rhs_matrices = 1;
  for (int d : mm->lhs_batch) mm->lhs_matrices *= d;
  for (int d : mm->rhs_batch) mm->rhs_matrices *= d;
  if (!mm->packing.Ensure(rhs->data.raw, kernel,
                          [&] { return PackAll(context, *kernel, rhs->data.int8, mm); })) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  mm->optimized = true;
  mm->quantizer = optimized::FQuantKernelFor(isa);
  if (mm->quantizer == nullptr) mm->quantizer = &optimized::kFQuantScalar;
  const int64_t rows = static_cast<int64_t>(mm->lhs_matrices) * mm->m;
  TF_LITE_ENSURE_OK(context,
                    scratch->Prepare(context, node,
                                     {{kTfLiteFloat32, params.adj_x ? mm->k : 1},
                                      {kTfLiteInt8, rows * mm->k},
                                      {kTfLiteFloat32, rows},
                                      {kTfLiteInt32, rows},
                                      {kTfLiteInt32, static_cast<int64_t>(mm->m) * mm->n}}));
  SetNodeKernelName(context, node, kernel->name);
  return kTfLiteOk;
}

bool EvalHybridBatchMatMul(TfLiteContext* context, const HybridBatchMatMulKernel& mm,
                           const NodeScratch& scratch, const TfLiteTensor* lhs,
                           TfLiteTensor* output) {
  if (!mm.optimized) return false;
  ThreadPool* pool = GetThreadPool(context);
  const reference::HybridBatchMatMulParams& p = mm.params;
  const size_t depth = static_cast<size_t>(mm.k);
  auto* row = scratch.Data<float>(context, 0);
  auto* q = scratch.Data<int8_t>(context, 1);
  auto* scales = scratch.Data<float>(context, 2);
  auto* zero_points = scratch.Data<int32_t>(context, 3);
  auto* raw = scratch.Data<int32_t>(context, 4);
  // Every lhs row quantized once, as the reference quantizes it.
  const int64_t rows = static_cast<int64_t>(mm.lhs_matrices) * mm.m;
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = lhs->data.f + r * depth;
    if (p.adj_x) {
      // Row i of matrix b is column i of the stored [K, M] matrix.
      const int64_t b = r / mm.m, i = r % mm.m;
      const float* a = lhs->data.f + b * mm.m * static_cast<int64_t>(depth);
      for (size_t k = 0; k < depth; ++k) row[k] = a[k * mm.m + i];
      in = row;
    }
    scales[r] = 1.f;
    zero_points[r] = 0;
    if (p.asymmetric) {
      optimized::FQuantAsymmetric(*mm.quantizer, in, depth, q + r * depth, &scales[r],
                                  &zero_points[r]);
    } else {
      optimized::FQuantSymmetric(*mm.quantizer, in, depth, q + r * depth, &scales[r]);
    }
    if (p.channel_scales == nullptr) scales[r] *= p.weights_scale;
  }
  int64_t out_batches = 1;
  for (int d : mm.out_batch) out_batches *= d;
  const size_t n = static_cast<size_t>(mm.n);
  for (int64_t ob = 0; ob < out_batches; ++ob) {
    const int64_t lb = OperandMatrix(mm.out_batch, mm.lhs_batch, ob);
    const int64_t rb = OperandMatrix(mm.out_batch, mm.rhs_batch, ob);
    const int64_t first_row = lb * mm.m;
    optimized::RunQGemmRows(mm.packed[static_cast<size_t>(rb)], mm.m,
                            reinterpret_cast<const uint8_t*>(q + first_row * depth), depth, nullptr,
                            pool, raw);
    // The reference's correction and finish, term for term.
    const int32_t* sums = mm.column_sums + rb * mm.n;
    float* out = output->data.f + ob * mm.m * static_cast<int64_t>(n);
    for (int i = 0; i < mm.m; ++i) {
      const float scale = scales[first_row + i];
      const int32_t zero_point = zero_points[first_row + i];
      for (size_t j = 0; j < n; ++j) {
        const int32_t total =
            reference::HybridZeroPointCorrected(raw[i * n + j], sums[j], zero_point);
        out[i * n + j] =
            reference::HybridMatMulOutput(scale, p.channel_scales, static_cast<int>(j), total);
      }
    }
  }
  return true;
}

}  // namespace octet::ops::nn
