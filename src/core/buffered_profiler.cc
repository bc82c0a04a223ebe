#include "tensorflow/lite/profiling/buffered_profiler.h"

#include <chrono>

namespace tflite {
namespace profiling {
namespace {

uint64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

BufferedProfiler::BufferedProfiler(uint32_t max_num_initial_entries,
                                   bool allow_dynamic_buffer_increase)
    : capacity_(max_num_initial_entries > 0 ? max_num_initial_entries : 1),
      growable_(allow_dynamic_buffer_increase) {
  events_.reserve(capacity_);
}

bool BufferedProfiler::ShouldRecord(EventType type) const {
  return enabled_ && type != EventType::GENERAL_RUNTIME_INSTRUMENTATION_EVENT;
}

ProfileEvent* BufferedProfiler::Slot(uint32_t handle) {
  if (handle >= next_handle_) return nullptr;
  if (growable_) return &events_[handle];
  if (next_handle_ - handle > capacity_) return nullptr;  // overwritten since
  return &events_[handle % capacity_];
}

uint32_t BufferedProfiler::BeginEvent(const char* tag, EventType event_type,
                                      int64_t event_metadata1, int64_t event_metadata2) {
  if (!ShouldRecord(event_type) || next_handle_ >= kInvalidEventHandle) {
    return kInvalidEventHandle;
  }
  ProfileEvent event;
  event.tag = tag ? tag : "";
  event.event_type = event_type;
  event.event_metadata = event_metadata1;
  event.extra_event_metadata = event_metadata2;
  event.begin_timestamp_us = NowMicros();
  const uint32_t handle = next_handle_++;
  if (growable_ || events_.size() < capacity_) {
    events_.push_back(std::move(event));
  } else {
    events_[handle % capacity_] = std::move(event);  // ring: the oldest goes
  }
  return handle;
}

void BufferedProfiler::EndEvent(uint32_t event_handle) {
  if (ProfileEvent* e = Slot(event_handle)) {
    e->elapsed_time = NowMicros() - e->begin_timestamp_us;
  }
}

void BufferedProfiler::EndEvent(uint32_t event_handle, int64_t event_metadata1,
                                int64_t event_metadata2) {
  if (ProfileEvent* e = Slot(event_handle)) {
    e->elapsed_time = NowMicros() - e->begin_timestamp_us;
    e->event_metadata = event_metadata1;
    e->extra_event_metadata = event_metadata2;
  }
}

void BufferedProfiler::AddEvent(const char* tag, EventType event_type, uint64_t metric,
                                int64_t event_metadata1, int64_t event_metadata2) {
  const uint32_t handle = BeginEvent(tag, event_type, event_metadata1, event_metadata2);
  if (ProfileEvent* e = Slot(handle)) {
    e->elapsed_time = metric;
    e->begin_timestamp_us -= metric;
  }
}

void BufferedProfiler::Reset() {
  events_.clear();
  next_handle_ = 0;
}

std::vector<const ProfileEvent*> BufferedProfiler::GetProfileEvents() {
  std::vector<const ProfileEvent*> out;
  const uint32_t first = (!growable_ && next_handle_ > capacity_)
                             ? next_handle_ - static_cast<uint32_t>(capacity_)
                             : 0;
  for (uint32_t h = first; h < next_handle_; ++h) out.push_back(Slot(h));
  return out;
}

}  // namespace profiling
}  // namespace tflite
