#include "profile.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "cli_common.h"
#include "format/parse_options.h"
#include "octet/kernel_info.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::cli {

uint32_t OpProfiler::BeginEvent(const char*, EventType event_type, int64_t event_metadata1,
                                int64_t event_metadata2) {
  if (!enabled_ || event_type != EventType::OPERATOR_INVOKE_EVENT) return 0;
  open_.push_back({std::chrono::steady_clock::now(), {event_metadata2, event_metadata1}});
  return static_cast<uint32_t>(open_.size());
}

void OpProfiler::EndEvent(uint32_t event_handle) {
  if (event_handle == 0 || event_handle != open_.size()) return;  // events nest: last one ends
  const Open& o = open_.back();
  samples_[o.node].push_back(
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - o.start)
          .count());
  open_.pop_back();
}

namespace {

int64_t Elements(const TfLiteTensor* t) {
  if (t == nullptr || t->dims == nullptr) return 0;
  int64_t n = 1;
  for (int i = 0; i < t->dims->size; ++i) n *= t->dims->data[i];
  return n;
}

const TfLiteTensor* Input(const tflite::Subgraph& g, const TfLiteNode& n, int k) {
  return k < n.inputs->size && n.inputs->data[k] >= 0 ? g.tensor(n.inputs->data[k]) : nullptr;
}

std::string OpName(const TfLiteRegistration& reg) {
  if (reg.custom_name != nullptr) return reg.custom_name;
  return octet::format::BuiltinOperatorName(reg.builtin_code);
}

}  // namespace

double NodeMacs(const tflite::Subgraph& g, int node_index) {
  const auto* nr = g.node_and_registration(node_index);
  if (nr == nullptr || nr->first.delegate != nullptr) return 0;
  const TfLiteNode& n = nr->first;
  if (n.inputs->size < 2 || n.outputs->size < 1) return 0;
  const TfLiteTensor* out = g.tensor(n.outputs->data[0]);
  const TfLiteTensor* w = Input(g, n, 1);
  if (out == nullptr || w == nullptr || w->dims == nullptr) return 0;
  const int64_t outputs = Elements(out);
  switch (nr->second.builtin_code) {
    case kTfLiteBuiltinConv2d:  // each output: kh * kw * (input channels per group)
      return w->dims->size == 4
                 ? double(outputs) * w->dims->data[1] * w->dims->data[2] * w->dims->data[3]
                 : 0;
    case kTfLiteBuiltinDepthwiseConv2d:
      return w->dims->size == 4 ? double(outputs) * w->dims->data[1] * w->dims->data[2] : 0;
    case kTfLiteBuiltinFullyConnected:
      return w->dims->size == 2 ? double(outputs) * w->dims->data[1] : 0;
    case kTfLiteBuiltinTransposeConv: {
      // inputs: output shape, weights [O, KH, KW, I], input [N, H, W, I]
      const TfLiteTensor* x = Input(g, n, 2);
      return w->dims->size == 4
                 ? double(Elements(x)) * w->dims->data[0] * w->dims->data[1] * w->dims->data[2]
                 : 0;
    }
    case kTfLiteBuiltinBatchMatmul: {
      const TfLiteTensor* a = Input(g, n, 0);
      const bool adj_x =
          n.builtin_data && static_cast<const TfLiteBatchMatMulParams*>(n.builtin_data)->adj_x;
      if (a == nullptr || a->dims == nullptr || a->dims->size < 2) return 0;
      const int k = a->dims->data[a->dims->size - (adj_x ? 2 : 1)];
      return double(outputs) * k;
    }
    default:
      return 0;
  }
}

namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

}  // namespace

double Gmacs(double macs, double micros) {
  return macs > 0 && micros > 0 ? macs / micros * 1e-3 : 0.0;
}

ProfileSummary SummarizeProfile(const tflite::Interpreter& interp, const OpProfiler& profiler,
                                int runs) {
  const tflite::Subgraph& g = interp.primary_subgraph();
  ProfileSummary summary;
  summary.runs = runs;
  std::map<std::string, ProfileSummary::Op> ops;
  std::map<std::string, std::set<std::string>> kernels;
  for (int id : g.execution_plan()) {
    const auto it = profiler.node_samples().find({g.subgraph_index(), id});
    const double micros = it == profiler.node_samples().end() || runs <= 0
                              ? 0
                              : Median(it->second) * static_cast<double>(it->second.size()) / runs;
    const double macs = NodeMacs(g, id);
    const auto* nr = g.node_and_registration(id);
    const std::string name = OpName(nr->second);
    ProfileSummary::Op& op = ops[name];
    op.name = name;
    op.nodes++;
    op.micros += micros;
    op.macs += macs;
    kernels[name].insert(GetNodeKernelName(g, id));
    const TfLiteTensor* out =
        nr->first.outputs->size > 0 ? g.tensor(nr->first.outputs->data[0]) : nullptr;
    summary.nodes.push_back(
        {id, name, GetNodeKernelName(g, id), out ? ShapeString(out->dims) : "?", micros, macs});
    summary.total_micros += micros;
  }
  for (auto& [name, op] : ops) {
    for (const std::string& k : kernels[name]) op.kernels += (op.kernels.empty() ? "" : ", ") + k;
    summary.ops.push_back(op);
  }
  std::sort(summary.ops.begin(), summary.ops.end(),
            [](const auto& a, const auto& b) { return a.micros > b.micros; });
  std::stable_sort(summary.nodes.begin(), summary.nodes.end(),
                   [](const auto& a, const auto& b) { return a.micros > b.micros; });
  return summary;
}

void PrintProfile(const ProfileSummary& s) {
  const double total = s.total_micros;
  std::printf("profile (per invoke, medians of %d runs): %.3f ms in nodes\n", s.runs, total / 1000);
  std::printf("  %-28s %5s %9s %7s %8s  %s\n", "op", "nodes", "ms", "share", "GMAC/s", "kernel");
  for (const auto& op : s.ops) {
    std::printf("  %-28s %5d %9.3f %6.1f%% %8.1f  %s\n", op.name.c_str(), op.nodes,
                op.micros / 1000, total > 0 ? 100 * op.micros / total : 0,
                Gmacs(op.macs, op.micros), op.kernels.c_str());
  }
  std::printf("slowest nodes:\n");
  std::printf("  %5s %-24s %9s %7s %8s  %-24s %s\n", "node", "op", "ms", "share", "GMAC/s",
              "kernel", "output");
  for (size_t i = 0; i < s.nodes.size() && i < 10; ++i) {
    const auto& n = s.nodes[i];
    std::printf("  %5d %-24s %9.3f %6.1f%% %8.1f  %-24s %s\n", n.index, n.op.c_str(),
                n.micros / 1000, total > 0 ? 100 * n.micros / total : 0, Gmacs(n.macs, n.micros),
                n.kernel.c_str(), n.output_shape.c_str());
  }
}

}  // namespace octet::cli
