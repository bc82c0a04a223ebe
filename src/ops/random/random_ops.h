// Registrations of the random builtins (src/ops/random/): RANDOM_UNIFORM,
// RANDOM_STANDARD_NORMAL and MULTINOMIAL, all on TF's Philox4x32-10 stream; plus the seeding
// they share.
#pragma once

#include "ops/random/philox.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace tflite {
class MutableOpResolver;
}  // namespace tflite

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RANDOM_UNIFORM();
TfLiteRegistration* Register_RANDOM_STANDARD_NORMAL();
TfLiteRegistration* Register_MULTINOMIAL();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds the builtins above with TFLite's version ranges.
void AddRandomBuiltins(tflite::MutableOpResolver* resolver);

namespace random {

// The per-node generator state, kept across invokes and reset by every prepare (as TFLite).
struct RandomState {
  PhiloxStream stream;
};

// TFLite's seeding: the (int) seeds widened to int64 (so sign-extended) are the stream's key
// and counter high half; both zero draws two fresh 64-bit seeds from the OS instead.
PhiloxStream SeedStream(const TfLiteRandomParams& params);

// Constant or persistent read-only: data that prepare may read (TFLite's
// IsConstantOrPersistentTensor).
inline bool IsConstantOrPersistent(const TfLiteTensor* t) {
  return t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo;
}

}  // namespace random
}  // namespace octet::ops
