/* The experimental TensorFlow Lite C API (declared in core/c/c_api_experimental.h). */
#ifndef TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_

#include "tensorflow/lite/core/c/c_api_experimental.h"

#endif /* TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_ */
