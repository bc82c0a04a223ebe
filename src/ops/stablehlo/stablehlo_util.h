// Helpers shared by the StableHLO kernels of this folder.
#pragma once

#include <string>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::stablehlo {

// "[2, 3]" for error messages.
inline std::string DimsString(const TfLiteIntArray* dims) {
  std::string s = "[";
  for (int i = 0; dims != nullptr && i < dims->size; ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(dims->data[i]);
  }
  return s + "]";
}

}  // namespace octet::ops::stablehlo
