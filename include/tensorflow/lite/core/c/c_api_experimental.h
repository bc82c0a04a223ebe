/* Octet: the experimental part of the TensorFlow Lite C API that Octet implements (op
 * registration through the options). Include "tensorflow/lite/c/c_api_experimental.h". */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_

#include <stdint.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers a kernel for builtin `op`, versions min_version..max_version. The registration is
 * copied; the functions it points to must stay valid while interpreters use them. Added
 * kernels take precedence over Octet's own. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsAddBuiltinOp(TfLiteInterpreterOptions* options,
                                                          TfLiteBuiltinOperator op,
                                                          const TfLiteRegistration* registration,
                                                          int32_t min_version, int32_t max_version);

/* Registers a kernel for the custom op `name`, versions min_version..max_version (the
 * registration is copied, as above; the name must outlive the options). */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options,
                                                         const char* name,
                                                         const TfLiteRegistration* registration,
                                                         int32_t min_version, int32_t max_version);

/* Resolves ops through callbacks: each returns the kernel for (op, version) or NULL. They are
 * asked after the ops added above and before Octet's builtin kernels. `op_resolver_user_data`
 * is passed back unchanged and must outlive the options and interpreters. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolver(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration* (*find_builtin_op)(void* user_data, TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* custom_op,
                                                int version),
    void* op_resolver_user_data);

/* Like TfLiteInterpreterCreate, but only the ops registered in `options` (the calls above)
 * are available: none of Octet's builtin kernels. */
TFL_CAPI_EXPORT extern TfLiteInterpreter* TfLiteInterpreterCreateWithSelectedOps(
    const TfLiteModel* model, const TfLiteInterpreterOptions* options);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_ */
