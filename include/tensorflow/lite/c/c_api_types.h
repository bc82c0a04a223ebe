/* TFLite splits the C types over several headers; Octet keeps them in common.h. This header
 * adds the export marker the C API declarations carry. */
#ifndef TENSORFLOW_LITE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_C_C_API_TYPES_H_

#include "tensorflow/lite/c/common.h"

/* Marks a function of the C API as exported from liboctet.so (the version script
 * cmake/octet.map decides what is exported; this keeps -fvisibility=hidden builds working). */
#ifndef TFL_CAPI_EXPORT
#if defined(_WIN32)
#define TFL_CAPI_EXPORT
#else
#define TFL_CAPI_EXPORT __attribute__((visibility("default")))
#endif
#endif

#endif /* TENSORFLOW_LITE_C_C_API_TYPES_H_ */
