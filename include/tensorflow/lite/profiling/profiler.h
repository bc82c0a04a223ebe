// tflite::profiling::Profiler: in Octet profiling is always compiled in, so it is the
// buffered profiler (TFLite picks it with TFLITE_PROFILING_ENABLED).
#pragma once

#include "tensorflow/lite/profiling/buffered_profiler.h"

namespace tflite {
namespace profiling {
using Profiler = BufferedProfiler;
}  // namespace profiling
}  // namespace tflite

#define SCOPED_TAGGED_OPERATOR_PROFILE TFLITE_SCOPED_TAGGED_OPERATOR_PROFILE
#define SCOPED_OPERATOR_PROFILE(profiler, node_index) \
  TFLITE_SCOPED_TAGGED_OPERATOR_PROFILE((profiler), "OpInvoke", (node_index))
