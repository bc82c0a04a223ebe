// `octet bench --profile`: a tflite::Profiler that adds up the time of each node's invokes,
// and the per-op / per-node report (time, share, GMAC/s, and the kernel each node runs).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/interpreter.h"

namespace octet::cli {

class OpProfiler : public tflite::Profiler {
 public:
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;

  // Recording is off until enabled (warm-up runs are not profiled).
  void set_enabled(bool enabled) { enabled_ = enabled; }

  // Total microseconds per (subgraph index, node index) over the recorded invokes.
  const std::map<std::pair<int64_t, int64_t>, double>& node_micros() const { return micros_; }

 private:
  struct Open {
    std::chrono::steady_clock::time_point start;
    std::pair<int64_t, int64_t> node;
  };
  bool enabled_ = false;
  std::vector<Open> open_;
  std::map<std::pair<int64_t, int64_t>, double> micros_;
};

// Multiply-accumulates of one node (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
// TRANSPOSE_CONV, BATCH_MATMUL), from its tensor shapes; 0 for other ops.
double NodeMacs(const tflite::Subgraph& subgraph, int node_index);

// Prints the per-op table and the ten slowest nodes of the primary subgraph, averaged over
// `runs` invokes.
void PrintProfile(const tflite::Interpreter& interpreter, const OpProfiler& profiler, int runs);

}  // namespace octet::cli
