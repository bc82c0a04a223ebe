/* Octet: the TensorFlow Lite C API. Declarations (names, argument types, const-ness) are
 * TFLite's, so bindings written for libtensorflowlite_c (Go, Rust, C#, ...) link against
 * liboctet unchanged. Include "tensorflow/lite/c/c_api.h", as with TFLite.
 *
 *   TfLiteModel* model = TfLiteModelCreateFromFile("model.tflite");
 *   TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
 *   TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
 *   TfLiteInterpreterAllocateTensors(interpreter);
 *   TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in, in_bytes);
 *   TfLiteInterpreterInvoke(interpreter);
 *   TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), out, out_bytes);
 *   TfLiteInterpreterDelete(interpreter);
 *   TfLiteInterpreterOptionsDelete(options);
 *   TfLiteModelDelete(model);
 *
 * Errors: functions return NULL or a TfLiteStatus other than kTfLiteOk, and say why through
 * the error reporter of the interpreter's options (stderr by default; models and tensors have
 * no options, so their functions write to stderr). NULL arguments are answered with NULL,
 * kTfLiteError, 0 or -1 (see each function), never dereferenced. */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_H_
#define TENSORFLOW_LITE_CORE_C_C_API_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handles. TfLiteTensor and TfLiteDelegate are the structs of common.h. */
typedef struct TfLiteModel TfLiteModel;
typedef struct TfLiteInterpreterOptions TfLiteInterpreterOptions;
typedef struct TfLiteInterpreter TfLiteInterpreter;
typedef struct TfLiteSignatureRunner TfLiteSignatureRunner;

/* --- versions ------------------------------------------------------------------ */

/* The runtime's version (Octet's, semver), a static string. */
TFL_CAPI_EXPORT extern const char* TfLiteVersion(void);

/* The .tflite schema version the runtime reads (3). */
TFL_CAPI_EXPORT int TfLiteSchemaVersion(void);

/* --- models -------------------------------------------------------------------- */

/* Verifies and wraps `model_data` without copying it: the bytes must stay valid and unchanged
 * while the model or any interpreter made from it is alive. NULL if they are not a valid
 * model (the reason goes to stderr). */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size);

/* Maps and verifies a .tflite file; NULL (reason on stderr) if it cannot be used. */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateFromFile(const char* model_path);

/* Releases the model; interpreters made from it keep what they need. NULL is ignored. */
TFL_CAPI_EXPORT extern void TfLiteModelDelete(TfLiteModel* model);

/* --- interpreter options ----------------------------------------------------------- */

TFL_CAPI_EXPORT extern TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void);

TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options);

/* Threads the kernels may use; -1 (the default) lets the runtime choose. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options,
                                                                  int32_t num_threads);

/* Applies `delegate` (caller-owned, must outlive the interpreter) when an interpreter is
 * created; if it fails, creation fails. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                                                TfLiteDelegate* delegate);

/* Routes the interpreter's error messages to `reporter` (printf-style format and arguments);
 * `user_data` is passed back unchanged and must outlive the interpreter. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetErrorReporter(
    TfLiteInterpreterOptions* options,
    void (*reporter)(void* user_data, const char* format, va_list args), void* user_data);

/* Lets TfLiteInterpreterCancel stop an interpreter made with these options (off by
 * default, when TfLiteInterpreterCancel returns kTfLiteError). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsEnableCancellation(
    TfLiteInterpreterOptions* options, bool enable);

/* Octet extension (TFLite has no equivalent): the most memory an interpreter made with these
 * options may hold in its tensor arenas, kernel buffers and heap tensors (see
 * tflite::Interpreter::SetMaxMemoryBytes). A model that needs more fails
 * TfLiteInterpreterAllocateTensors with an error naming the request. SIZE_MAX: unlimited;
 * by default $OCTET_MAX_MEMORY or half of the physical memory. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetMaxMemoryBytes(
    TfLiteInterpreterOptions* options, size_t max_bytes);

/* --- interpreter --------------------------------------------------------------------- */

/* Builds an interpreter for `model` with every builtin op (plus the ops the options add).
 * `optional_options` may be NULL; the model and the options may be deleted right after.
 * Tensors must be allocated (TfLiteInterpreterAllocateTensors) before use. NULL on failure. */
TFL_CAPI_EXPORT extern TfLiteInterpreter* TfLiteInterpreterCreate(
    const TfLiteModel* model, const TfLiteInterpreterOptions* optional_options);

TFL_CAPI_EXPORT extern void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter);

TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetInputTensorCount(
    const TfLiteInterpreter* interpreter);

/* The input_index-th input; NULL if the index is out of range. */
TFL_CAPI_EXPORT extern TfLiteTensor* TfLiteInterpreterGetInputTensor(
    const TfLiteInterpreter* interpreter, int32_t input_index);

/* Gives an input a new shape (copied); reallocate before using tensors again. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterResizeInputTensor(
    TfLiteInterpreter* interpreter, int32_t input_index, const int* input_dims,
    int32_t input_dims_size);

/* Plans and allocates every tensor for the current input shapes. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterAllocateTensors(
    TfLiteInterpreter* interpreter);

/* Runs the model once on the current inputs. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter);

TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetOutputTensorCount(
    const TfLiteInterpreter* interpreter);

/* The output_index-th output; NULL if the index is out of range. */
TFL_CAPI_EXPORT extern const TfLiteTensor* TfLiteInterpreterGetOutputTensor(
    const TfLiteInterpreter* interpreter, int32_t output_index);

/* Any tensor of the primary subgraph by its index; NULL if out of range. */
TFL_CAPI_EXPORT TfLiteTensor* TfLiteInterpreterGetTensor(const TfLiteInterpreter* interpreter,
                                                         int index);

/* Stops the TfLiteInterpreterInvoke (or signature runner invoke) in flight, from any thread:
 * it returns kTfLiteCancelled before its next node. Invokes that start later are not
 * affected. kTfLiteError if cancellation was not enabled in the options. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterCancel(const TfLiteInterpreter* interpreter);

/* --- signatures ------------------------------------------------------------------------ */

TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetSignatureCount(
    const TfLiteInterpreter* interpreter);

/* Key of the signature_index-th signature (lives as long as the interpreter); NULL if out of
 * range. */
TFL_CAPI_EXPORT extern const char* TfLiteInterpreterGetSignatureKey(
    const TfLiteInterpreter* interpreter, int32_t signature_index);

/* A runner for the signature with this key (NULL: the first signature); NULL if there is none.
 * Delete it with TfLiteSignatureRunnerDelete before the interpreter. */
TFL_CAPI_EXPORT extern TfLiteSignatureRunner* TfLiteInterpreterGetSignatureRunner(
    const TfLiteInterpreter* interpreter, const char* signature_key);

TFL_CAPI_EXPORT extern size_t TfLiteSignatureRunnerGetInputCount(
    const TfLiteSignatureRunner* signature_runner);

TFL_CAPI_EXPORT extern const char* TfLiteSignatureRunnerGetInputName(
    const TfLiteSignatureRunner* signature_runner, const int32_t input_index);

/* Resizes a named input. As in TFLite only the dimensions that are -1 in the tensor's shape
 * signature may change. Allocate again before use. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(
    TfLiteSignatureRunner* signature_runner, const char* input_name, const int* input_dims,
    int32_t input_dims_size);

TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerAllocateTensors(
    TfLiteSignatureRunner* signature_runner);

/* The named input; NULL if the signature has no such input. */
TFL_CAPI_EXPORT extern TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(
    TfLiteSignatureRunner* signature_runner, const char* input_name);

TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerInvoke(
    TfLiteSignatureRunner* signature_runner);

TFL_CAPI_EXPORT extern size_t TfLiteSignatureRunnerGetOutputCount(
    const TfLiteSignatureRunner* signature_runner);

TFL_CAPI_EXPORT extern const char* TfLiteSignatureRunnerGetOutputName(
    const TfLiteSignatureRunner* signature_runner, int32_t output_index);

/* The named output; NULL if the signature has no such output. */
TFL_CAPI_EXPORT extern const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name);

TFL_CAPI_EXPORT extern void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner);

/* --- tensors ------------------------------------------------------------------------------ */

TFL_CAPI_EXPORT extern TfLiteType TfLiteTensorType(const TfLiteTensor* tensor);

/* Rank, or -1 if the tensor has no shape. */
TFL_CAPI_EXPORT extern int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor);

/* Extent of dimension dim_index (0 <= dim_index < rank); -1 if out of range. */
TFL_CAPI_EXPORT extern int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index);

TFL_CAPI_EXPORT extern size_t TfLiteTensorByteSize(const TfLiteTensor* tensor);

/* The tensor's bytes; NULL before allocation. */
TFL_CAPI_EXPORT extern void* TfLiteTensorData(const TfLiteTensor* tensor);

TFL_CAPI_EXPORT extern const char* TfLiteTensorName(const TfLiteTensor* tensor);

/* Per-tensor scale and zero point (real = scale * (q - zero_point)); {0, 0} if none. */
TFL_CAPI_EXPORT extern TfLiteQuantizationParams TfLiteTensorQuantizationParams(
    const TfLiteTensor* tensor);

/* Copies exactly TfLiteTensorByteSize(tensor) bytes in; another size is an error. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor,
                                                               const void* input_data,
                                                               size_t input_data_size);

/* Copies exactly TfLiteTensorByteSize(tensor) bytes out; another size is an error. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* output_tensor,
                                                             void* output_data,
                                                             size_t output_data_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_H_ */
