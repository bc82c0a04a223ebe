// VAR_HANDLE, ASSIGN_VARIABLE and READ_VARIABLE, as TFLite runs them:
//  - VAR_HANDLE (no inputs) gives the id of its (container, shared_name) variable, the same
//    id for every node naming the same variable in any subgraph, made when the node is
//    initialized; its output is a one-element resource (or int32) tensor.
//  - ASSIGN_VARIABLE (id, value; no outputs) copies the value, with its type and shape, into
//    the variable; a later assignment may change both.
//  - READ_VARIABLE (id) copies the variable into its output, which takes the variable's shape
//    (a dynamic tensor); reading a variable nothing was assigned to is an error.
// Variables belong to the interpreter and keep their values across invokes.
#include <cstring>
#include <memory>
#include <string>

#include "core/resources.h"
#include "ops/op_util.h"
#include "ops/resource/resource_ops.h"
#include "ops/resource/resources_of.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/util.h"

namespace octet::ops::resource {
namespace {

// A resource id tensor: one int32 element (resource tensors hold int32 ids).
TfLiteStatus CheckIdTensor(TfLiteContext* context, const char* op, const TfLiteTensor* id) {
  OCTET_OP_ENSURE(context, id->type == kTfLiteResource || id->type == kTfLiteInt32, op,
                  "the variable id must be a resource or int32 tensor (got %s)",
                  TfLiteTypeGetName(id->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(id) == 1, op,
                  "the variable id must have one element (got %d)",
                  static_cast<int>(tflite::NumElements(id)));
  return kTfLiteOk;
}

TfLiteStatus ReadId(TfLiteContext* context, const char* op, const TfLiteTensor* id, int* value) {
  OCTET_OP_ENSURE(context, id->data.raw != nullptr, op, "the variable id has no data");
  std::memcpy(value, id->data.raw, sizeof(int32_t));
  return kTfLiteOk;
}

// ---- VAR_HANDLE ----

constexpr char kVarHandle[] = "VAR_HANDLE";

struct HandleData {
  int id = -1;
};

void* InitHandle(TfLiteContext* context, const char* buffer, size_t) {
  auto data = std::make_unique<HandleData>();
  const auto* params = reinterpret_cast<const TfLiteVarHandleParams*>(buffer);
  Resources* variables = ResourcesOf(context);
  if (params != nullptr && variables != nullptr) {
    data->id = variables->VariableHandle(params->container ? params->container : "",
                                         params->shared_name ? params->shared_name : "");
  }
  return data.release();
}

TfLiteStatus PrepareHandle(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kVarHandle, 0, 0, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kVarHandle, node->builtin_data));
  OCTET_OP_ENSURE(context, ResourcesOf(context) != nullptr, kVarHandle,
                  "resource variables need an interpreter (this subgraph has none)");
  OCTET_OP_ENSURE(context, static_cast<HandleData*>(node->user_data)->id >= 0, kVarHandle,
                  "the node has no variable id");
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kVarHandle, 0, &output));
  OCTET_OP_ENSURE(context, output->type == kTfLiteResource || output->type == kTfLiteInt32,
                  kVarHandle, "the output must be a resource or int32 tensor (got %s)",
                  TfLiteTypeGetName(output->type));
  TfLiteIntArray* one = TfLiteIntArrayCreate(1);
  one->data[0] = 1;
  return context->ResizeTensor(context, output, one);
}

TfLiteStatus EvalHandle(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kVarHandle, "output", output));
  const int32_t id = static_cast<HandleData*>(node->user_data)->id;
  std::memcpy(output->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

// ---- ASSIGN_VARIABLE ----

constexpr char kAssign[] = "ASSIGN_VARIABLE";

TfLiteStatus PrepareAssign(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kAssign, 2, 2, 0));
  const TfLiteTensor* id;
  const TfLiteTensor* value;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kAssign, 0, &id));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kAssign, 1, &value));
  TF_LITE_ENSURE_STATUS(CheckIdTensor(context, kAssign, id));
  OCTET_OP_ENSURE(context,
                  value->type != kTfLiteResource && value->type != kTfLiteVariant &&
                      value->type != kTfLiteString,
                  kAssign, "cannot store a %s value in a variable", TfLiteTypeGetName(value->type));
  OCTET_OP_ENSURE(context, ResourcesOf(context) != nullptr, kAssign,
                  "resource variables need an interpreter (this subgraph has none)");
  return kTfLiteOk;
}

TfLiteStatus EvalAssign(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* id_tensor = tflite::GetInput(context, node, 0);
  const TfLiteTensor* value = tflite::GetInput(context, node, 1);
  int id = 0;
  TF_LITE_ENSURE_STATUS(ReadId(context, kAssign, id_tensor, &id));
  if (value->bytes > 0) TF_LITE_ENSURE_STATUS(RequireData(context, kAssign, "value", value));
  std::string error;
  OCTET_OP_ENSURE(context, ResourcesOf(context)->AssignVariable(id, *value, &error), kAssign, "%s",
                  error.c_str());
  return kTfLiteOk;
}

// ---- READ_VARIABLE ----

constexpr char kRead[] = "READ_VARIABLE";

TfLiteStatus PrepareRead(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kRead, 1, 1, 1));
  const TfLiteTensor* id;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kRead, 0, &id));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kRead, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckIdTensor(context, kRead, id));
  OCTET_OP_ENSURE(context, ResourcesOf(context) != nullptr, kRead,
                  "resource variables need an interpreter (this subgraph has none)");
  tflite::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus EvalRead(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* id_tensor = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  int id = 0;
  TF_LITE_ENSURE_STATUS(ReadId(context, kRead, id_tensor, &id));
  const ResourceVariable* variable = ResourcesOf(context)->FindVariable(id);
  OCTET_OP_ENSURE(context, variable != nullptr, kRead,
                  "variable %d is read before anything was assigned to it", id);
  OCTET_OP_ENSURE(context, variable->type == output->type, kRead,
                  "variable %d holds %s, the output is %s", id, TfLiteTypeGetName(variable->type),
                  TfLiteTypeGetName(output->type));
  TF_LITE_ENSURE_STATUS(context->ResizeTensor(
      context, output, tflite::ConvertVectorToTfLiteIntArray(variable->dims)));
  OCTET_OP_ENSURE(context, output->bytes == variable->bytes.size(), kRead,
                  "variable %d has %zu bytes for %zu output bytes", id, variable->bytes.size(),
                  output->bytes);
  if (output->bytes > 0) std::memcpy(output->data.raw, variable->bytes.data(), output->bytes);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::resource

namespace tflite::ops::builtin {

using namespace octet::ops::resource;  // NOLINT: the kernels above

TfLiteRegistration* Register_VAR_HANDLE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      InitHandle, octet::ops::FreeData<HandleData>, PrepareHandle, EvalHandle);
  return &r;
}

TfLiteRegistration* Register_ASSIGN_VARIABLE() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareAssign, EvalAssign);
  return &r;
}

TfLiteRegistration* Register_READ_VARIABLE() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareRead, EvalRead);
  return &r;
}

}  // namespace tflite::ops::builtin
