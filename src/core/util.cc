#include "tensorflow/lite/util.h"

#include <cstring>
#include <limits>

#include "core/alloc_guard.h"
#include "format/parse_options.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite {

TfLiteIntArray* ConvertVectorToTfLiteIntArray(const std::vector<int>& input) {
  return ConvertArrayToTfLiteIntArray(static_cast<int>(input.size()), input.data());
}

TfLiteIntArray* ConvertArrayToTfLiteIntArray(int rank, const int* dims) {
  if (rank < 0) return nullptr;
  // Octet's callers cannot go on without the array: out of memory throws, and the public
  // entry point that got here reports it (core/alloc_guard.h).
  TfLiteIntArray* a = octet::OrThrow(TfLiteIntArrayCreate(rank));
  if (rank > 0) std::memcpy(a->data, dims, sizeof(int) * rank);
  return a;
}

bool EqualArrayAndTfLiteIntArray(const TfLiteIntArray* a, int b_size, const int* b) {
  return TfLiteIntArrayEqualsArray(a, b_size, b) != 0;
}

std::vector<int> TfLiteIntArrayToVector(const TfLiteIntArray* a) {
  if (a == nullptr) return {};
  return std::vector<int>(a->data, a->data + a->size);
}

TfLiteStatus BytesRequired(TfLiteType type, const int* dims, size_t dims_size, size_t* bytes,
                           TfLiteContext* context) {
  const size_t element = TfLiteTypeGetSize(type);
  if (element == 0) {
    if (context)
      TF_LITE_KERNEL_LOG(context, "type %s has no fixed element size", TfLiteTypeGetName(type));
    return kTfLiteError;
  }
  // Tensors are capped well below SIZE_MAX so that byte offsets never overflow.
  constexpr size_t kMaxBytes = size_t{1} << 40;
  size_t count = 1;
  for (size_t i = 0; i < dims_size; ++i) {
    if (dims[i] < 0) {
      if (context) TF_LITE_KERNEL_LOG(context, "negative dimension %d in a tensor shape", dims[i]);
      return kTfLiteError;
    }
    if (dims[i] != 0 && count > kMaxBytes / static_cast<size_t>(dims[i])) {
      if (context) TF_LITE_KERNEL_LOG(context, "tensor shape is too large (overflows)");
      return kTfLiteError;
    }
    count *= static_cast<size_t>(dims[i]);
  }
  if (count > kMaxBytes / element) {
    if (context) TF_LITE_KERNEL_LOG(context, "tensor shape is too large (overflows)");
    return kTfLiteError;
  }
  *bytes = count * element;
  return kTfLiteOk;
}

bool IsFlexOp(const char* custom_name) {
  return custom_name != nullptr && std::strncmp(custom_name, "Flex", 4) == 0;
}

namespace {
// Never runs a kernel: Subgraph reports the op by name before calling it.
TfLiteStatus UnresolvedOpPrepare(TfLiteContext*, TfLiteNode*) { return kTfLiteUnresolvedOps; }
}  // namespace

std::string UnresolvedOpMessage(const char* name) {
  const std::string op = name ? name : "?";
  if (IsFlexOp(name)) {
    return "op '" + op + "' is a TensorFlow Select (Flex) op; Octet does not support " +
           "TensorFlow Select ops";
  }
  return "custom op '" + op + "' is not registered in the op resolver (AddCustom)";
}

TfLiteRegistration CreateUnresolvedCustomOp(const char* custom_op_name) {
  TfLiteRegistration r{};
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = custom_op_name;
  r.prepare = UnresolvedOpPrepare;
  r.version = 1;
  return r;
}

bool IsUnresolvedCustomOp(const TfLiteRegistration& registration) {
  return registration.builtin_code == kTfLiteBuiltinCustom &&
         registration.prepare == UnresolvedOpPrepare;
}

std::string GetOpNameByRegistration(const TfLiteRegistration& registration) {
  if (registration.builtin_code == kTfLiteBuiltinCustom ||
      registration.builtin_code == kTfLiteBuiltinDelegate) {
    std::string name = registration.builtin_code == kTfLiteBuiltinDelegate ? "DELEGATE" : "CUSTOM";
    if (registration.custom_name) name += std::string(" ") + registration.custom_name;
    return name;
  }
  return octet::format::BuiltinOperatorName(registration.builtin_code);
}

}  // namespace tflite
