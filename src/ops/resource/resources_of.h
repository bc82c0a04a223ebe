// The interpreter's resource store as a resource kernel sees it (through its subgraph).
#pragma once

#include "core/resources.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::resource {

inline Resources* ResourcesOf(TfLiteContext* context) {
  return static_cast<tflite::Subgraph*>(context->impl_)->resources();
}

}  // namespace octet::ops::resource
