#include "delegates/xnnpack/xnnpack_util.h"

#include <algorithm>

namespace octet::xnnpack {
namespace {

// A shape XNNPACK can be given once and for all: known, non-empty, at most 6-D.
bool HasUsableShape(const TfLiteTensor& t) {
  if (t.dims == nullptr || t.dims->size > XNN_MAX_TENSOR_DIMS) return false;
  for (int i = 0; i < t.dims->size; ++i) {
    if (t.dims->data[i] <= 0) return false;
  }
  return true;
}

// Per-tensor affine quantization (the only kind XNNPACK takes for activations).
bool PerTensorAffine(const TfLiteTensor& t) {
  if (t.quantization.type != kTfLiteAffineQuantization) return false;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  return q != nullptr && q->scale != nullptr && q->scale->size == 1 && q->zero_point != nullptr &&
         q->zero_point->size == 1 && q->scale->data[0] > 0.f;
}

bool NumericOf(const TfLiteTensor& t, Numeric* numeric) {
  switch (t.type) {
    case kTfLiteFloat32:
      *numeric = Numeric::kFloat;
      return true;
    case kTfLiteInt8:
      *numeric = Numeric::kInt8;
      return PerTensorAffine(t);
    case kTfLiteUInt8:
      *numeric = Numeric::kUInt8;
      return PerTensorAffine(t);
    default:
      return false;
  }
}

}  // namespace

const TfLiteTensor* TensorAt(const TfLiteContext* ctx, int index) {
  if (index < 0 || static_cast<size_t>(index) >= ctx->tensors_size) return nullptr;
  return &ctx->tensors[index];
}

int InputIndex(const TfLiteNode& node, int k) {
  return node.inputs && k < node.inputs->size ? node.inputs->data[k] : -1;
}
int OutputIndex(const TfLiteNode& node, int k) {
  return node.outputs && k < node.outputs->size ? node.outputs->data[k] : -1;
}

std::vector<int> Dims(const TfLiteTensor& t) {
  return t.dims ? std::vector<int>(t.dims->data, t.dims->data + t.dims->size) : std::vector<int>{};
}

size_t NumElements(const std::vector<int>& dims) {
  size_t n = 1;
  for (int d : dims) n *= static_cast<size_t>(d);
  return n;
}

// Constant data baked into the model.
bool IsConstant(const TfLiteTensor& t) {
  return t.allocation_type == kTfLiteMmapRo && t.data.raw != nullptr;
}

bool ActivationNumeric(const TfLiteContext* ctx, int index, Numeric* numeric) {
  const TfLiteTensor* t = TensorAt(ctx, index);
  return t != nullptr && !IsConstant(*t) && !t->is_variable &&
         t->allocation_type != kTfLiteDynamic && t->allocation_type != kTfLiteMmapRo &&
         HasUsableShape(*t) && NumericOf(*t, numeric);
}

bool IsActivation(const TfLiteContext* ctx, int index, Numeric numeric) {
  Numeric actual;
  return ActivationNumeric(ctx, index, &actual) && actual == numeric;
}

bool IsConstantOf(const TfLiteContext* ctx, int index, Numeric numeric) {
  const TfLiteTensor* t = TensorAt(ctx, index);
  if (t == nullptr || !IsConstant(*t) || t->sparsity != nullptr || !HasUsableShape(*t)) {
    return false;
  }
  switch (numeric) {
    case Numeric::kFloat:
      return t->type == kTfLiteFloat32;
    case Numeric::kInt8:
      return t->type == kTfLiteInt8 && t->quantization.type == kTfLiteAffineQuantization;
    case Numeric::kUInt8:
      return t->type == kTfLiteUInt8 && PerTensorAffine(*t);
  }
  return false;
}

bool IsFloatConstant(const TfLiteContext* ctx, int index) {
  return IsConstantOf(ctx, index, Numeric::kFloat);
}

// Reads a constant int32/int64 tensor as integers.
bool ReadConstantInts(const TfLiteContext* ctx, int index, std::vector<int64_t>* out) {
  const TfLiteTensor* t = TensorAt(ctx, index);
  if (t == nullptr || !IsConstant(*t) || t->dims == nullptr) return false;
  const size_t n = NumElements(Dims(*t));
  out->clear();
  if (t->type == kTfLiteInt32 && t->bytes >= n * sizeof(int32_t)) {
    for (size_t i = 0; i < n; ++i) out->push_back(t->data.i32[i]);
  } else if (t->type == kTfLiteInt64 && t->bytes >= n * sizeof(int64_t)) {
    for (size_t i = 0; i < n; ++i) out->push_back(t->data.i64[i]);
  } else {
    return false;
  }
  return true;
}

bool ActivationRange(TfLiteFusedActivation activation, float* lo, float* hi) {
  switch (activation) {
    case kTfLiteActNone:
      *lo = -kInf;
      *hi = kInf;
      return true;
    case kTfLiteActRelu:
      *lo = 0.f;
      *hi = kInf;
      return true;
    case kTfLiteActReluN1To1:
      *lo = -1.f;
      *hi = 1.f;
      return true;
    case kTfLiteActRelu6:
      *lo = 0.f;
      *hi = 6.f;
      return true;
    default:
      return false;  // tanh, sign bit, sigmoid: not a clamp
  }
}

bool ComputeWindow(TfLitePadding padding, int in, int kernel, int stride, int dilation, Window* w) {
  if (in <= 0 || kernel <= 0 || stride <= 0 || dilation <= 0) return false;
  const int effective = (kernel - 1) * dilation + 1;
  if (padding == kTfLitePaddingSame) {
    w->out = (in + stride - 1) / stride;
  } else if (padding == kTfLitePaddingValid) {
    w->out = (in - effective + stride) / stride;
  } else {
    return false;
  }
  if (w->out <= 0) return false;
  const int total = std::max((w->out - 1) * stride + effective - in, 0);
  w->before = static_cast<uint32_t>(total / 2);
  w->after = static_cast<uint32_t>(total - total / 2);
  return true;
}

bool BroadcastShape(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = std::max(da, db);
  }
  return true;
}

}  // namespace octet::xnnpack
