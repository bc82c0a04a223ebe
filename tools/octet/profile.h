// `octet bench --profile`: a tflite::Profiler that records the time of each node's invokes,
// and the per-op / per-node report (time, share, GMAC/s, and the kernel each node runs).
// Times are medians: on a shared machine a few invokes take 100x longer, which would
// dominate means.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
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

  // Microseconds of each recorded invoke per (subgraph index, node index).
  const std::map<std::pair<int64_t, int64_t>, std::vector<double>>& node_samples() const {
    return samples_;
  }

 private:
  struct Open {
    std::chrono::steady_clock::time_point start;
    std::pair<int64_t, int64_t> node;
  };
  bool enabled_ = false;
  std::vector<Open> open_;
  std::map<std::pair<int64_t, int64_t>, std::vector<double>> samples_;
};

// Multiply-accumulates of one node (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
// TRANSPOSE_CONV, BATCH_MATMUL), from its tensor shapes; 0 for other ops.
double NodeMacs(const tflite::Subgraph& subgraph, int node_index);

// A profile per invoke: op types and nodes, each sorted by time (slowest first). A node's
// time is the median of its invokes, times its invokes per model invoke (a node inside a
// WHILE body runs several times per invoke).
struct ProfileSummary {
  struct Op {
    std::string name;
    int nodes = 0;
    double micros = 0, macs = 0;
    std::string kernels;  // the kernels its nodes run, comma-separated
  };
  struct Node {
    int index = 0;
    std::string op, kernel, output_shape;
    double micros = 0, macs = 0;
  };
  int runs = 0;
  double total_micros = 0;
  std::vector<Op> ops;
  std::vector<Node> nodes;
};

// GMAC/s of `macs` multiply-accumulates in `micros` microseconds (0 when either is 0).
double Gmacs(double macs, double micros);

ProfileSummary SummarizeProfile(const tflite::Interpreter& interp, const OpProfiler& profiler,
                                int runs);
void PrintProfile(const ProfileSummary& summary);

}  // namespace octet::cli
