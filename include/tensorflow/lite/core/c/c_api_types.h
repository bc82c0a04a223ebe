/* TFLite's canonical location of the C API types; Octet keeps them in c/c_api_types.h. */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_

#include "tensorflow/lite/c/c_api_types.h"

#endif /* TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_ */
