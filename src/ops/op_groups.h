// Each family of builtin kernels registers itself through one function, so that the
// families can live (and grow) in their own folders. BuiltinOpResolver calls them all.
#pragma once

namespace tflite {
class MutableOpResolver;
}

namespace octet::ops {

void AddElementwiseBuiltins(tflite::MutableOpResolver* resolver);  // src/ops/elementwise/
void AddNnBuiltins(tflite::MutableOpResolver* resolver);           // src/ops/nn/
void AddShapeBuiltins(tflite::MutableOpResolver* resolver);        // src/ops/shape/
void AddControlFlowBuiltins(tflite::MutableOpResolver* resolver);  // src/ops/control/
void AddLookupBuiltins(tflite::MutableOpResolver* resolver);       // src/ops/lookup/
void AddRnnBuiltins(tflite::MutableOpResolver* resolver);          // src/ops/rnn/
void AddCustomOps(tflite::MutableOpResolver* resolver);            // src/ops/custom/
void AddIndexBuiltins(tflite::MutableOpResolver* resolver);        // src/ops/index/
void AddResourceBuiltins(tflite::MutableOpResolver* resolver);     // src/ops/resource/
void AddSpectralBuiltins(tflite::MutableOpResolver* resolver);     // src/ops/spectral/
void AddNn3dBuiltins(tflite::MutableOpResolver* resolver);         // src/ops/nn3d/
void AddRandomBuiltins(tflite::MutableOpResolver* resolver);       // src/ops/random/
void AddSparseBuiltins(tflite::MutableOpResolver* resolver);       // src/ops/sparse/
void AddWindowBuiltins(tflite::MutableOpResolver* resolver);       // src/ops/window/
void AddStablehloBuiltins(tflite::MutableOpResolver* resolver);    // src/ops/stablehlo/

// Replaces the ops that have optimized variants by their reference-pinned registrations
// (Register_X_REF), for BuiltinRefOpResolver.
void AddNnReferenceBuiltins(tflite::MutableOpResolver* resolver);           // src/ops/nn/
void AddElementwiseReferenceBuiltins(tflite::MutableOpResolver* resolver);  // src/ops/elementwise/
void AddShapeReferenceBuiltins(tflite::MutableOpResolver* resolver);        // src/ops/shape/

}  // namespace octet::ops
