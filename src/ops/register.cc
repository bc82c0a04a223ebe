// The builtin resolver: every kernel family registers its ops with their versions.
#include "tensorflow/lite/kernels/register.h"

#include "ops/op_groups.h"
#include "tensorflow/lite/kernels/register_ref.h"

namespace tflite {
namespace ops {
namespace builtin {

BuiltinOpResolver::BuiltinOpResolver() {
  octet::ops::AddElementwiseBuiltins(this);
  octet::ops::AddNnBuiltins(this);
  octet::ops::AddShapeBuiltins(this);
  octet::ops::AddControlFlowBuiltins(this);
  octet::ops::AddLookupBuiltins(this);
  octet::ops::AddRnnBuiltins(this);
  octet::ops::AddCustomOps(this);
  octet::ops::AddIndexBuiltins(this);
  octet::ops::AddResourceBuiltins(this);
  octet::ops::AddSpectralBuiltins(this);
  octet::ops::AddNn3dBuiltins(this);
  octet::ops::AddRandomBuiltins(this);
  octet::ops::AddSparseBuiltins(this);
  octet::ops::AddWindowBuiltins(this);
  octet::ops::AddStablehloBuiltins(this);
}

BuiltinRefOpResolver::BuiltinRefOpResolver() {
  octet::ops::AddNnReferenceBuiltins(this);
  octet::ops::AddElementwiseReferenceBuiltins(this);
  octet::ops::AddShapeReferenceBuiltins(this);
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
