// The C helper functions declared in tensorflow/lite/c/common.h.
#include <cstdlib>
#include <cstring>

#include "tensorflow/lite/c/common.h"

extern "C" {

size_t TfLiteIntArrayGetSizeInBytes(int size) {
  return sizeof(TfLiteIntArray) + sizeof(int) * static_cast<size_t>(size > 0 ? size : 0);
}

TfLiteIntArray* TfLiteIntArrayCreate(int size) {
  if (size < 0) return nullptr;
  auto* a = static_cast<TfLiteIntArray*>(std::malloc(TfLiteIntArrayGetSizeInBytes(size)));
  if (a == nullptr) return nullptr;
  a->size = size;
  return a;
}

int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == b) return 1;
  if (a == nullptr || b == nullptr) return 0;
  return TfLiteIntArrayEqualsArray(a, b->size, b->data);
}

int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size, const int b_data[]) {
  if (a == nullptr) return b_size == 0;
  if (a->size != b_size) return 0;
  for (int i = 0; i < a->size; ++i) {
    if (a->data[i] != b_data[i]) return 0;
  }
  return 1;
}

TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src) {
  if (src == nullptr) return nullptr;
  TfLiteIntArray* a = TfLiteIntArrayCreate(src->size);
  if (a != nullptr && src->size > 0) std::memcpy(a->data, src->data, sizeof(int) * src->size);
  return a;
}

void TfLiteIntArrayFree(TfLiteIntArray* a) { std::free(a); }

int TfLiteFloatArrayGetSizeInBytes(int size) {
  return static_cast<int>(sizeof(TfLiteFloatArray) + sizeof(float) * (size > 0 ? size : 0));
}

TfLiteFloatArray* TfLiteFloatArrayCreate(int size) {
  if (size < 0) return nullptr;
  auto* a = static_cast<TfLiteFloatArray*>(std::malloc(TfLiteFloatArrayGetSizeInBytes(size)));
  if (a == nullptr) return nullptr;
  a->size = size;
  return a;
}

TfLiteFloatArray* TfLiteFloatArrayCopy(const TfLiteFloatArray* src) {
  if (src == nullptr) return nullptr;
  TfLiteFloatArray* a = TfLiteFloatArrayCreate(src->size);
  if (a != nullptr && src->size > 0) std::memcpy(a->data, src->data, sizeof(float) * src->size);
  return a;
}

void TfLiteFloatArrayFree(TfLiteFloatArray* a) { std::free(a); }

const char* TfLiteTypeGetName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType:
      return "NOTYPE";
    case kTfLiteFloat32:
      return "FLOAT32";
    case kTfLiteInt32:
      return "INT32";
    case kTfLiteUInt8:
      return "UINT8";
    case kTfLiteInt64:
      return "INT64";
    case kTfLiteString:
      return "STRING";
    case kTfLiteBool:
      return "BOOL";
    case kTfLiteInt16:
      return "INT16";
    case kTfLiteComplex64:
      return "COMPLEX64";
    case kTfLiteInt8:
      return "INT8";
    case kTfLiteFloat16:
      return "FLOAT16";
    case kTfLiteFloat64:
      return "FLOAT64";
    case kTfLiteComplex128:
      return "COMPLEX128";
    case kTfLiteUInt64:
      return "UINT64";
    case kTfLiteResource:
      return "RESOURCE";
    case kTfLiteVariant:
      return "VARIANT";
    case kTfLiteUInt32:
      return "UINT32";
    case kTfLiteUInt16:
      return "UINT16";
    case kTfLiteInt4:
      return "INT4";
    case kTfLiteBFloat16:
      return "BFLOAT16";
  }
  return "UNKNOWN";
}

size_t TfLiteTypeGetSize(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteUInt32:
      return 4;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteBool:
      return 1;
    case kTfLiteInt64:
    case kTfLiteUInt64:
    case kTfLiteFloat64:
    case kTfLiteComplex64:
      return 8;
    case kTfLiteInt16:
    case kTfLiteUInt16:
    case kTfLiteFloat16:
    case kTfLiteBFloat16:
      return 2;
    case kTfLiteComplex128:
      return 16;
    default:
      return 0;
  }
}

void TfLiteQuantizationFree(TfLiteQuantization* quantization) {
  if (quantization == nullptr) return;
  if (quantization->type == kTfLiteAffineQuantization && quantization->params != nullptr) {
    auto* q = static_cast<TfLiteAffineQuantization*>(quantization->params);
    TfLiteFloatArrayFree(q->scale);
    TfLiteIntArrayFree(q->zero_point);
    std::free(q);
  } else if (quantization->type == kTfLiteMultiAxisQuantization &&
             quantization->params != nullptr) {
    auto* q = static_cast<TfLiteMultiAxisQuantization*>(quantization->params);
    TfLiteIntArrayFree(q->quantized_dimensions);
    std::free(q);
  } else if (quantization->type == kTfLiteBlockwiseQuantization) {
    std::free(quantization->params);  // plain fields only
  }
  quantization->params = nullptr;
  quantization->type = kTfLiteNoQuantization;
}

void TfLiteSparsityFree(TfLiteSparsity* sparsity) {
  if (sparsity == nullptr) return;
  TfLiteIntArrayFree(sparsity->traversal_order);
  TfLiteIntArrayFree(sparsity->block_map);
  if (sparsity->dim_metadata != nullptr) {
    for (int i = 0; i < sparsity->dim_metadata_size; ++i) {
      TfLiteIntArrayFree(sparsity->dim_metadata[i].array_segments);
      TfLiteIntArrayFree(sparsity->dim_metadata[i].array_indices);
    }
    std::free(sparsity->dim_metadata);
  }
  std::free(sparsity);
}

TfLiteDelegate TfLiteDelegateCreate(void) {
  TfLiteDelegate d;
  d.data_ = nullptr;
  d.Prepare = nullptr;
  d.CopyFromBufferHandle = nullptr;
  d.CopyToBufferHandle = nullptr;
  d.FreeBufferHandle = nullptr;
  d.flags = kTfLiteDelegateFlagsNone;
  return d;
}

}  // extern "C"
