// C API (experimental part): op registration through the options.
#include "c_api/c_api_internal.h"

using octet::c_api::Report;

namespace {

bool CheckRegistration(const TfLiteInterpreterOptions* options,
                       const TfLiteRegistration* registration, int32_t min_version,
                       int32_t max_version, const char* caller) {
  if (options == nullptr || registration == nullptr) {
    Report(nullptr, "%s: %s is NULL", caller, options == nullptr ? "options" : "registration");
    return false;
  }
  if (min_version < 1 || max_version < min_version) {
    Report(nullptr, "%s: versions %d..%d are not a range of versions >= 1", caller,
           static_cast<int>(min_version), static_cast<int>(max_version));
    return false;
  }
  return true;
}

}  // namespace

extern "C" {

void TfLiteInterpreterOptionsAddBuiltinOp(TfLiteInterpreterOptions* options,
                                          TfLiteBuiltinOperator op,
                                          const TfLiteRegistration* registration,
                                          int32_t min_version, int32_t max_version) {
  if (!CheckRegistration(options, registration, min_version, max_version,
                         "TfLiteInterpreterOptionsAddBuiltinOp")) {
    return;
  }
  options->added_ops.AddBuiltin(static_cast<tflite::BuiltinOperator>(op), registration, min_version,
                                max_version);
}

void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options, const char* name,
                                         const TfLiteRegistration* registration,
                                         int32_t min_version, int32_t max_version) {
  static constexpr char kCaller[] = "TfLiteInterpreterOptionsAddCustomOp";
  if (!CheckRegistration(options, registration, min_version, max_version, kCaller)) return;
  if (name == nullptr) {
    Report(nullptr, "%s: name is NULL", kCaller);
    return;
  }
  options->added_ops.AddCustom(name, registration, min_version, max_version);
}

void TfLiteInterpreterOptionsSetOpResolver(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration* (*find_builtin_op)(void* user_data, TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* custom_op,
                                                int version),
    void* op_resolver_user_data) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterOptionsSetOpResolver: options is NULL");
    return;
  }
  options->find_builtin_op = find_builtin_op;
  options->find_custom_op = find_custom_op;
  options->op_resolver_user_data = op_resolver_user_data;
}

TfLiteInterpreter* TfLiteInterpreterCreateWithSelectedOps(const TfLiteModel* model,
                                                          const TfLiteInterpreterOptions* options) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterCreateWithSelectedOps: options is NULL");
    return nullptr;
  }
  return octet::c_api::CreateInterpreter("TfLiteInterpreterCreateWithSelectedOps", model, options,
                                         /*with_builtins=*/false);
}

}  // extern "C"
