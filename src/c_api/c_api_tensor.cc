// C API: tensor accessors. A TfLiteTensor does not know its interpreter, so misuse here is
// reported on stderr (the default reporter), not through the options' reporter.
#include <cstring>

#include "c_api/c_api_internal.h"

using octet::c_api::Report;

extern "C" {

TfLiteType TfLiteTensorType(const TfLiteTensor* tensor) {
  return tensor != nullptr ? tensor->type : kTfLiteNoType;
}

int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->dims == nullptr) return -1;
  return tensor->dims->size;
}

int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index) {
  if (tensor == nullptr || tensor->dims == nullptr || dim_index < 0 ||
      dim_index >= tensor->dims->size) {
    Report(nullptr, "TfLiteTensorDim: dimension %d does not exist (rank %d)",
           static_cast<int>(dim_index), static_cast<int>(TfLiteTensorNumDims(tensor)));
    return -1;
  }
  return tensor->dims->data[dim_index];
}

size_t TfLiteTensorByteSize(const TfLiteTensor* tensor) {
  return tensor != nullptr ? tensor->bytes : 0;
}

void* TfLiteTensorData(const TfLiteTensor* tensor) {
  return tensor != nullptr ? tensor->data.data : nullptr;
}

const char* TfLiteTensorName(const TfLiteTensor* tensor) {
  return tensor != nullptr ? tensor->name : nullptr;
}

TfLiteQuantizationParams TfLiteTensorQuantizationParams(const TfLiteTensor* tensor) {
  if (tensor == nullptr) return TfLiteQuantizationParams{0.0f, 0};
  return tensor->params;
}

TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor, const void* input_data,
                                        size_t input_data_size) {
  static constexpr char kCaller[] = "TfLiteTensorCopyFromBuffer";
  if (tensor == nullptr) {
    Report(nullptr, "%s: tensor is NULL", kCaller);
    return kTfLiteError;
  }
  if (input_data_size != tensor->bytes) {
    Report(nullptr, "%s: tensor '%s' holds %zu bytes, the buffer has %zu", kCaller,
           tensor->name != nullptr ? tensor->name : "", tensor->bytes, input_data_size);
    return kTfLiteError;
  }
  if (input_data_size == 0) return kTfLiteOk;
  if (input_data == nullptr || tensor->data.raw == nullptr) {
    Report(nullptr, "%s: %s", kCaller,
           input_data == nullptr ? "input_data is NULL"
                                 : "the tensor has no memory yet (allocate tensors first)");
    return kTfLiteError;
  }
  std::memcpy(tensor->data.raw, input_data, input_data_size);
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* output_tensor, void* output_data,
                                      size_t output_data_size) {
  static constexpr char kCaller[] = "TfLiteTensorCopyToBuffer";
  if (output_tensor == nullptr) {
    Report(nullptr, "%s: tensor is NULL", kCaller);
    return kTfLiteError;
  }
  if (output_data_size != output_tensor->bytes) {
    Report(nullptr, "%s: tensor '%s' holds %zu bytes, the buffer has %zu", kCaller,
           output_tensor->name != nullptr ? output_tensor->name : "", output_tensor->bytes,
           output_data_size);
    return kTfLiteError;
  }
  if (output_data_size == 0) return kTfLiteOk;
  if (output_data == nullptr || output_tensor->data.raw_const == nullptr) {
    Report(nullptr, "%s: %s", kCaller,
           output_data == nullptr ? "output_data is NULL"
                                  : "the tensor has no memory yet (allocate and invoke first)");
    return kTfLiteError;
  }
  std::memcpy(output_data, output_tensor->data.raw_const, output_data_size);
  return kTfLiteOk;
}

}  // extern "C"
