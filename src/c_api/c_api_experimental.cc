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
  octet::c_api::NoThrow("TfLiteInterpreterOptionsAddBuiltinOp", 0, [&]() -> int {
    if (!CheckRegistration(options, registration, min_version, max_version,
                           "TfLiteInterpreterOptionsAddBuiltinOp")) {
      return 0;
    }
    options->added_ops.AddBuiltin(static_cast<tflite::BuiltinOperator>(op), registration,
                                  min_version, max_version);
    return 0;
  });
}

void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options, const char* name,
                                         const TfLiteRegistration* registration,
                                         int32_t min_version, int32_t max_version) {
  octet::c_api::NoThrow("TfLiteInterpreterOptionsAddCustomOp", 0, [&]() -> int {
    static constexpr char kCaller[] = "TfLiteInterpreterOptionsAddCustomOp";
    if (!CheckRegistration(options, registration, min_version, max_version, kCaller)) return 0;
    if (name == nullptr) {
      Report(nullptr, "%s: name is NULL", kCaller);
      return 0;
    }
    options->added_ops.AddCustom(name, registration, min_version, max_version);
    return 0;
  });
}

void TfLiteInterpreterOptionsSetOpResolver(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration* (*find_builtin_op)(void* user_data, TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* custom_op,
                                                int version),
    void* op_resolver_user_data) {
  octet::c_api::NoThrow("TfLiteInterpreterOptionsSetOpResolver", 0, [&]() -> int {
    if (options == nullptr) {
      Report(nullptr, "TfLiteInterpreterOptionsSetOpResolver: options is NULL");
      return 0;
    }
    options->find_builtin_op = find_builtin_op;
    options->find_custom_op = find_custom_op;
    options->op_resolver_user_data = op_resolver_user_data;
    return 0;
  });
}

TfLiteInterpreter* TfLiteInterpreterCreateWithSelectedOps(const TfLiteModel* model,
                                                          const TfLiteInterpreterOptions* options) {
  return octet::c_api::NoThrow<TfLiteInterpreter*>(
      "TfLiteInterpreterCreateWithSelectedOps", nullptr, [&]() -> TfLiteInterpreter* {
        if (options == nullptr) {
          Report(nullptr, "TfLiteInterpreterCreateWithSelectedOps: options is NULL");
          return nullptr;
        }
        return octet::c_api::CreateInterpreter("TfLiteInterpreterCreateWithSelectedOps", model,
                                               options,
                                               /*with_builtins=*/false);
      });
}

}  // extern "C"
