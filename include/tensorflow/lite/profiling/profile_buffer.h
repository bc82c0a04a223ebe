// One recorded profile event (what BufferedProfiler::GetProfileEvents returns).
#pragma once

#include <cstdint>
#include <string>

#include "tensorflow/lite/core/api/profiler.h"

namespace tflite {
namespace profiling {

constexpr uint32_t kInvalidEventHandle = static_cast<uint32_t>(~0) - 1;

// TFLite's struct also carries begin/end memory usage; Octet does not sample memory.
struct ProfileEvent {
  using EventType = tflite::Profiler::EventType;
  std::string tag;
  uint64_t begin_timestamp_us = 0;
  uint64_t elapsed_time = 0;  // microseconds (0 while the event is open)
  EventType event_type = EventType::DEFAULT;
  // For OPERATOR_INVOKE_EVENT: the node index and the subgraph index.
  int64_t event_metadata = 0;
  int64_t extra_event_metadata = 0;
};

}  // namespace profiling
}  // namespace tflite
