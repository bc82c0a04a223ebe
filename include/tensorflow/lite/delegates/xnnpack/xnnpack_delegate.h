// TFLite's XNNPACK delegate API on Octet's XNNPACK delegate (octet/xnnpack_delegate.h).
// Without XNNPACK in the build, TfLiteXNNPackDelegateCreate returns NULL and says why on
// stderr.
#ifndef TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_

#include <stdint.h>

#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Quantized (signed / unsigned 8-bit) operators: Octet's delegate always takes them, so
 * these flags are accepted and change nothing. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_QS8 0x00000001
#define TFLITE_XNNPACK_DELEGATE_FLAG_QU8 0x00000002

typedef struct {
  /* Threads of XNNPACK's pool; 0 or 1 runs on the calling thread. */
  int32_t num_threads;
  /* TFLITE_XNNPACK_DELEGATE_FLAG_* bits. */
  uint32_t flags;
} TfLiteXNNPackDelegateOptions;

TFL_CAPI_EXPORT TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void);
/* NULL when XNNPACK is not available. options may be NULL (defaults). */
TFL_CAPI_EXPORT TfLiteDelegate* TfLiteXNNPackDelegateCreate(
    const TfLiteXNNPackDelegateOptions* options);
TFL_CAPI_EXPORT void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_ */
