// A tflite::Profiler that records events into a buffer between StartProfiling and
// StopProfiling (label_image / benchmark_model style). With a fixed buffer the oldest events
// are overwritten once it is full.
//
//   tflite::profiling::BufferedProfiler profiler(1024);
//   interpreter->SetProfiler(&profiler);
//   profiler.StartProfiling();
//   interpreter->Invoke();
//   profiler.StopProfiling();
//   for (const ProfileEvent* e : profiler.GetProfileEvents()) ... e->tag, e->elapsed_time
#pragma once

#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/profiling/profile_buffer.h"

namespace tflite {
namespace profiling {

class BufferedProfiler : public tflite::Profiler {
 public:
  BufferedProfiler(uint32_t max_num_initial_entries, bool allow_dynamic_buffer_increase);
  explicit BufferedProfiler(uint32_t max_num_entries)
      : BufferedProfiler(max_num_entries, /*allow_dynamic_buffer_increase=*/false) {}

  // Runtime instrumentation events (whole-invoke markers) are not recorded, as in TFLite.
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;
  void EndEvent(uint32_t event_handle, int64_t event_metadata1, int64_t event_metadata2) override;
  void AddEvent(const char* tag, EventType event_type, uint64_t metric, int64_t event_metadata1,
                int64_t event_metadata2) override;

  void StartProfiling() { enabled_ = true; }
  void StopProfiling() { enabled_ = false; }
  void Reset();
  // Oldest first; valid until the next event, Reset or destruction.
  std::vector<const ProfileEvent*> GetProfileEvents();

 private:
  bool ShouldRecord(EventType type) const;
  // The slot of event number `handle`, or null if it was overwritten or never existed.
  ProfileEvent* Slot(uint32_t handle);

  std::vector<ProfileEvent> events_;
  size_t capacity_;
  bool growable_;
  bool enabled_ = false;
  uint32_t next_handle_ = 0;  // events begun since the last Reset
};

}  // namespace profiling
}  // namespace tflite
