// The builtin resolver with every kernel pinned to its reference implementation, as TFLite's
// BuiltinRefOpResolver: for tests and for checking an optimized result against the reference.
#pragma once

#include "tensorflow/lite/kernels/register.h"

namespace tflite {
namespace ops {
namespace builtin {

class BuiltinRefOpResolver : public BuiltinOpResolver {
 public:
  BuiltinRefOpResolver();
};

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
