/* The TensorFlow Lite C API (declared in core/c/c_api.h, as TFLite lays it out). */
#ifndef TENSORFLOW_LITE_C_C_API_H_
#define TENSORFLOW_LITE_C_C_API_H_

#include "tensorflow/lite/core/c/c_api.h"

#endif /* TENSORFLOW_LITE_C_C_API_H_ */
