// TFLite's profiling interface: the interpreter reports each node's invoke as an
// OPERATOR_INVOKE_EVENT (tag = op name, metadata1 = node index, metadata2 = subgraph index)
// to the profiler set with Interpreter::SetProfiler. Same declarations as TFLite's, so
// profilers written for TFLite compile unchanged.
#pragma once

#include <cstdint>

namespace tflite {

class Profiler {
 public:
  // Bit flags, so a profiler can filter the kinds it records with a mask.
  enum class EventType {
    DEFAULT = 1,
    OPERATOR_INVOKE_EVENT = 1 << 1,
    DELEGATE_OPERATOR_INVOKE_EVENT = 1 << 2,
    DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT = 1 << 3,
    GENERAL_RUNTIME_INSTRUMENTATION_EVENT = 1 << 4,
    TELEMETRY_EVENT = 1 << 5,
    TELEMETRY_REPORT_SETTINGS = 1 << 6,
    TELEMETRY_DELEGATE_EVENT = 1 << 7,
    TELEMETRY_DELEGATE_REPORT_SETTINGS = 1 << 8,
  };

  virtual ~Profiler() {}

  // Starts an event; the returned handle ends it. For OPERATOR_INVOKE_EVENT the metadata are
  // the node index and the subgraph index.
  virtual uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                              int64_t event_metadata2) = 0;
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata) {
    return BeginEvent(tag, event_type, event_metadata, /*event_metadata2=*/0);
  }

  // Ends an event, optionally replacing its metadata (discarded unless overridden).
  virtual void EndEvent(uint32_t event_handle, int64_t event_metadata1, int64_t event_metadata2) {
    EndEvent(event_handle);
  }
  virtual void EndEvent(uint32_t event_handle) = 0;

  // Adds a finished event; for invoke events `metric` is the elapsed time in microseconds.
  void AddEvent(const char* tag, EventType event_type, uint64_t elapsed_time,
                int64_t event_metadata) {
    AddEvent(tag, event_type, elapsed_time, event_metadata, /*event_metadata2=*/0);
  }
  virtual void AddEvent(const char* tag, EventType event_type, uint64_t metric,
                        int64_t event_metadata1, int64_t event_metadata2) {}

  virtual void AddEventWithData(const char* tag, EventType event_type, const void* data) {}

 protected:
  friend class ScopedProfile;
};

// An event from construction to destruction; `profiler` may be null (nothing recorded).
class ScopedProfile {
 public:
  ScopedProfile(Profiler* profiler, const char* tag,
                Profiler::EventType event_type = Profiler::EventType::DEFAULT,
                int64_t event_metadata = 0)
      : profiler_(profiler), event_handle_(0) {
    if (profiler_) event_handle_ = profiler_->BeginEvent(tag, event_type, event_metadata);
  }
  ~ScopedProfile() {
    if (profiler_) profiler_->EndEvent(event_handle_);
  }

 protected:
  Profiler* profiler_;
  uint32_t event_handle_;
};

class ScopedOperatorProfile : public ScopedProfile {
 public:
  ScopedOperatorProfile(Profiler* profiler, const char* tag, int node_index)
      : ScopedProfile(profiler, tag, Profiler::EventType::OPERATOR_INVOKE_EVENT,
                      static_cast<uint32_t>(node_index)) {}
};

class ScopedDelegateOperatorProfile : public ScopedProfile {
 public:
  ScopedDelegateOperatorProfile(Profiler* profiler, const char* tag, int node_index)
      : ScopedProfile(profiler, tag, Profiler::EventType::DELEGATE_OPERATOR_INVOKE_EVENT,
                      static_cast<uint32_t>(node_index)) {}
};

// An event whose metadata (delegate and interpreter status) are set before it ends.
class ScopedRuntimeInstrumentationProfile {
 public:
  ScopedRuntimeInstrumentationProfile(Profiler* profiler, const char* tag) : profiler_(profiler) {
    if (profiler_) {
      event_handle_ = profiler_->BeginEvent(
          tag, Profiler::EventType::GENERAL_RUNTIME_INSTRUMENTATION_EVENT, -1);
    }
  }
  void set_runtime_status(int64_t delegate_status, int64_t interpreter_status) {
    delegate_status_ = delegate_status;
    interpreter_status_ = interpreter_status;
  }
  ~ScopedRuntimeInstrumentationProfile() {
    if (profiler_) profiler_->EndEvent(event_handle_, delegate_status_, interpreter_status_);
  }

 private:
  Profiler* profiler_ = nullptr;
  uint32_t event_handle_ = 0;
  int64_t delegate_status_ = 0;
  int64_t interpreter_status_ = 0;
};

}  // namespace tflite

#define TFLITE_VARNAME_UNIQ_IMPL(name, ctr) name##ctr
#define TFLITE_VARNAME_UNIQ(name, ctr) TFLITE_VARNAME_UNIQ_IMPL(name, ctr)

#define TFLITE_SCOPED_TAGGED_DEFAULT_PROFILE(profiler, tag) \
  tflite::ScopedProfile TFLITE_VARNAME_UNIQ(_profile_, __COUNTER__)((profiler), (tag))

#define TFLITE_SCOPED_TAGGED_OPERATOR_PROFILE(profiler, tag, node_index)                       \
  tflite::ScopedOperatorProfile TFLITE_VARNAME_UNIQ(_profile_, __COUNTER__)((profiler), (tag), \
                                                                            (node_index))

#define TFLITE_SCOPED_DELEGATE_OPERATOR_PROFILE(profiler, tag, node_index)           \
  tflite::ScopedDelegateOperatorProfile TFLITE_VARNAME_UNIQ(_profile_, __COUNTER__)( \
      (profiler), (tag), (node_index))

#define TFLITE_ADD_RUNTIME_INSTRUMENTATION_EVENT(profiler, tag, event_metadata1, event_metadata2) \
  do {                                                                                            \
    if (profiler) {                                                                               \
      const auto handle = profiler->BeginEvent(                                                   \
          tag, tflite::Profiler::EventType::GENERAL_RUNTIME_INSTRUMENTATION_EVENT,                \
          event_metadata1, event_metadata2);                                                      \
      profiler->EndEvent(handle);                                                                 \
    }                                                                                             \
  } while (false);
