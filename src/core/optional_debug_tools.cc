// PrintInterpreterState in the layout of TFLite's optional_debug_tools.cc (per subgraph:
// inputs/outputs, the tensor table with arena offsets, per-arena notes, nodes with their
// delegation status, the execution plan; then the memory totals), so tools that read it work.
#include "tensorflow/lite/optional_debug_tools.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "format/parse_options.h"
#include "memory/arena_planner.h"
#include "tensorflow/lite/context_util.h"

namespace tflite {
namespace {

// Prints [a,b-d,...]; consecutive runs collapse to "b-d" (two in a row: "b,c").
void PrintIntVector(const std::vector<int>& v, bool collapse_consecutives = true,
                    bool add_newline = false) {
  if (v.empty()) {
    std::printf("(null)");
  } else {
    int start = v[0], end = v[0];
    auto print_range = [&](const char* suffix) {
      if (end == start) {
        std::printf("%d%s", start, suffix);
      } else if (end == start + 1) {
        std::printf("%d,%d%s", start, end, suffix);
      } else {
        std::printf("%d-%d%s", start, end, suffix);
      }
    };
    std::printf("[");
    for (size_t i = 1; i < v.size(); ++i) {
      if (collapse_consecutives && v[i] == end + 1) {
        end = v[i];
      } else {
        print_range(",");
        start = end = v[i];
      }
    }
    print_range("]");
  }
  if (add_newline) std::printf("\n");
}

void PrintIntArray(const TfLiteIntArray* v, bool collapse_consecutives = true,
                   bool add_newline = false) {
  std::vector<int> values;
  if (v != nullptr && v->size > 0) values.assign(v->data, v->data + v->size);
  PrintIntVector(values, collapse_consecutives, add_newline);
}

template <typename Ids>
void PrintTotalBytes(const Subgraph& g, const Ids& ids) {
  size_t total = 0;
  for (const int id : ids) {
    if (const TfLiteTensor* t = g.tensor(id)) total += t->bytes;
  }
  std::printf(" -> %zuB (%.2fMB)\n", total, static_cast<float>(total) / (1 << 20));
}

const char* TensorTypeName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType:
      return "kTfLiteNoType";
    case kTfLiteFloat32:
      return "kTfLiteFloat32";
    case kTfLiteInt32:
      return "kTfLiteInt32";
    case kTfLiteUInt32:
      return "kTfLiteUInt32";
    case kTfLiteUInt8:
      return "kTfLiteUInt8";
    case kTfLiteInt8:
      return "kTfLiteInt8";
    case kTfLiteInt64:
      return "kTfLiteInt64";
    case kTfLiteUInt64:
      return "kTfLiteUInt64";
    case kTfLiteString:
      return "kTfLiteString";
    case kTfLiteBool:
      return "kTfLiteBool";
    case kTfLiteUInt16:
      return "kTfLiteUInt16";
    case kTfLiteInt16:
      return "kTfLiteInt16";
    case kTfLiteComplex64:
      return "kTfLiteComplex64";
    case kTfLiteComplex128:
      return "kTfLiteComplex128";
    case kTfLiteFloat16:
      return "kTfLiteFloat16";
    case kTfLiteBFloat16:
      return "kTfLiteBFloat16";
    case kTfLiteFloat64:
      return "kTfLiteFloat64";
    case kTfLiteResource:
      return "kTfLiteResource";
    case kTfLiteVariant:
      return "kTfLiteVariant";
    case kTfLiteInt4:
      return "kTfLiteInt4";
  }
  return "(invalid)";
}

const char* AllocTypeName(TfLiteAllocationType type) {
  switch (type) {
    case kTfLiteMemNone:
      return "kTfLiteMemNone";
    case kTfLiteMmapRo:
      return "kTfLiteMmapRo";
    case kTfLiteDynamic:
      return "kTfLiteDynamic";
    case kTfLiteArenaRw:
      return "kTfLiteArenaRw";
    case kTfLiteArenaRwPersistent:
      return "kTfLiteArenaRwPersistent";
    case kTfLitePersistentRo:
      return "kTfLitePersistentRo";
    case kTfLiteCustom:
      return "kTfLiteCustom";
    case kTfLiteVariantObject:
      return "kTfLiteVariantObject";
  }
  return "(invalid)";
}

// Long names keep their start (at_end) or their end, marked with "...".
std::string Truncate(const char* str, size_t limit, bool at_end = false) {
  if (str == nullptr) return "(nil)";
  std::string s(str);
  if (s.size() <= limit) return s;
  if (limit <= 3) return std::string(limit, '.');
  if (at_end) {
    s.resize(limit);
    s.replace(limit - 3, 3, "...");
  } else {
    s.erase(0, s.size() - limit);
    s.replace(0, 3, "...");
  }
  return s;
}

// The span of one allocation type's tensors (the "arena" TFLite reports).
class ArenaInfo {
 public:
  explicit ArenaInfo(TfLiteAllocationType type) : type_(type) {}
  void Update(size_t id, const TfLiteTensor& t) {
    if (t.allocation_type != type_ || t.data.raw == nullptr) return;
    if (t.bytes > max_bytes_) {
      max_bytes_ = t.bytes;
      max_id_ = id;
    }
    const size_t start = reinterpret_cast<size_t>(t.data.raw);
    min_start_ = std::min(min_start_, start);
    max_end_ = std::max(max_end_, start + t.bytes);
    allocs_.insert({start, t.bytes, id});
  }
  size_t start() const { return min_start_; }
  void Print() const {
    std::printf("%s Info: ", AllocTypeName(type_));
    if (max_end_ == 0) {
      std::printf("not holding any allocation.\n");
      return;
    }
    std::printf("\nTensor %zu has the max size %zu bytes (%.3f MB).\n", max_id_, max_bytes_,
                static_cast<float>(max_bytes_) / (1 << 20));
    const size_t size = max_end_ - min_start_;
    std::printf("This memory arena is estimated as[0x%zx, 0x%zx), taking %zu bytes (%.3f MB).\n",
                max_end_, min_start_, size, static_cast<float>(size) / (1 << 20));
    std::vector<size_t> trace;
    size_t last_end = 0;
    for (const Alloc& a : allocs_) {
      if (a.start >= last_end) {
        trace.push_back(a.id);
        last_end = a.start + a.bytes;
      }
    }
    std::printf(
        "One possible set of tensors that have non-overlapping memory spaces with each other, "
        "and they take up the whole arena:\nTensor ");
    for (size_t i = 0; i + 1 < trace.size(); ++i) std::printf("%zu -> ", trace[i]);
    std::printf("%zu.\n", trace.back());
  }

 private:
  struct Alloc {
    size_t start, bytes, id;
    // By start, larger first at one start, then by id.
    bool operator<(const Alloc& o) const {
      if (start != o.start) return start < o.start;
      if (bytes != o.bytes) return bytes > o.bytes;
      return id < o.id;
    }
  };
  TfLiteAllocationType type_;
  size_t max_bytes_ = 0;
  size_t max_id_ = static_cast<size_t>(-1);
  size_t min_start_ = std::numeric_limits<size_t>::max();
  size_t max_end_ = 0;
  std::set<Alloc> allocs_;
};

class DynamicInfo {
 public:
  void Update(size_t id, const TfLiteTensor& t) {
    if (t.allocation_type != kTfLiteDynamic || t.data.raw == nullptr) return;
    if (t.bytes > max_bytes_) {
      max_bytes_ = t.bytes;
      max_ids_.assign(1, static_cast<int>(id));
    } else if (t.bytes == max_bytes_) {
      max_ids_.push_back(static_cast<int>(id));
    }
    total_ += t.bytes;
    ++count_;
  }
  size_t total() const { return total_; }
  void Print() const {
    std::printf("kTfLiteDynamic Info: ");
    if (total_ == 0) {
      std::printf("not holding any allocation.\n");
      return;
    }
    std::printf("\n%zu Tensors ", max_ids_.size());
    PrintIntVector(max_ids_, /*collapse_consecutives=*/false);
    std::printf(" have the max size %zu bytes (%.3f MB).\n", max_bytes_,
                static_cast<float>(max_bytes_) / (1 << 20));
    std::printf("There are %d dynamic tensors, taking %zu bytes (%.3f MB).\n", count_, total_,
                static_cast<float>(total_) / (1 << 20));
  }

 private:
  size_t max_bytes_ = 0;
  std::vector<int> max_ids_;
  size_t total_ = 0;
  int count_ = 0;
};

struct MemoryInfo {
  ArenaInfo rw{kTfLiteArenaRw}, persistent{kTfLiteArenaRwPersistent}, mmap{kTfLiteMmapRo};
  DynamicInfo dynamic;
  explicit MemoryInfo(const Subgraph& g) {
    for (size_t i = 0; i < g.tensors_size(); ++i) {
      const TfLiteTensor& t = *g.tensor(static_cast<int>(i));
      rw.Update(i, t);
      persistent.Update(i, t);
      mmap.Update(i, t);
      dynamic.Update(i, t);
    }
  }
  int64_t Offset(const TfLiteTensor& t) const {
    if (t.data.raw == nullptr) return -1;
    const size_t at = reinterpret_cast<size_t>(t.data.raw);
    if (t.allocation_type == kTfLiteArenaRw) return static_cast<int64_t>(at - rw.start());
    if (t.allocation_type == kTfLiteArenaRwPersistent) {
      return static_cast<int64_t>(at - persistent.start());
    }
    if (t.allocation_type == kTfLiteMmapRo) return static_cast<int64_t>(at - mmap.start());
    return -1;
  }
  void Print() const {
    std::printf("\n");
    rw.Print();
    std::printf("\n");
    persistent.Print();
    std::printf("\n");
    mmap.Print();
    std::printf("\n");
    dynamic.Print();
    std::printf("\n");
  }
};

void PrintTensors(const Subgraph& g, const MemoryInfo& memory) {
  std::printf("Tensor %3s %-25s %-15s %-18s %-18s %-10s %-16s\n", "ID", "Name", "Type", "AllocType",
              "Size (Bytes/MB)", "Shape", "MemAddr-Offset");
  for (size_t i = 0; i < g.tensors_size(); ++i) {
    const TfLiteTensor& t = *g.tensor(static_cast<int>(i));
    std::printf("Tensor %3zu %-25s %-15s %-18s %-8zu / %.2f ", i,
                Truncate(t.name, 25, /*at_end=*/true).c_str(),
                Truncate(TensorTypeName(t.type), 15).c_str(),
                Truncate(AllocTypeName(t.allocation_type), 18).c_str(), t.bytes,
                static_cast<float>(t.bytes) / (1 << 20));
    PrintIntArray(t.dims, /*collapse_consecutives=*/false);
    const int64_t start = memory.Offset(t);
    const int64_t end = start == -1 ? -1 : start + static_cast<int64_t>(t.bytes);
    std::printf(" [%" PRId64 ", %" PRId64 ")\n", start, end);
  }
}

void PrintNodes(const Subgraph& g) {
  std::vector<int> replaced_by(g.nodes_size(), -1);
  bool delegated = false;
  for (size_t n = 0; n < g.nodes_size(); ++n) {
    const TfLiteNode& node = g.node_and_registration(static_cast<int>(n))->first;
    if (node.delegate == nullptr) continue;
    delegated = true;
    const auto* params = static_cast<const TfLiteDelegateParams*>(node.builtin_data);
    for (int id : TfLiteIntArrayView(params->nodes_to_replace)) {
      replaced_by[id] = static_cast<int>(n);
    }
  }
  const std::vector<int> none;
  for (size_t n = 0; n < g.nodes_size(); ++n) {
    const auto& [node, reg] = *g.node_and_registration(static_cast<int>(n));
    std::string status;
    const bool replaced = node.delegate == nullptr && replaced_by[n] >= 0;
    if (node.delegate == nullptr) {
      status = replaced ? "(delegated by node " + std::to_string(replaced_by[n]) + ")"
                        : "(not delegated)";
    }
    if (reg.custom_name != nullptr) {
      std::printf("Node %3zu Operator Custom Name %s %s\n", n, reg.custom_name, status.c_str());
    } else {
      std::printf("Node %3zu Operator Builtin Code %3d %s %s\n", n, reg.builtin_code,
                  octet::format::BuiltinOperatorName(reg.builtin_code), status.c_str());
    }
    // A replaced node's tensors are counted by its delegate node.
    auto list = [&](const char* label, const TfLiteIntArray* ids, bool collapse) {
      std::printf("  %d %s Tensors:", ids ? ids->size : 0, label);
      if (ids == nullptr) return;
      PrintIntArray(ids, collapse);
      if (replaced) {
        PrintTotalBytes(g, none);
      } else {
        PrintTotalBytes(g, TfLiteIntArrayView(ids));
      }
    };
    list("Input", node.inputs, node.delegate != nullptr);
    list("Output", node.outputs, true);
    if (node.intermediates && node.intermediates->size) {
      list("Intermediate", node.intermediates, true);
    }
    if (node.temporaries && node.temporaries->size) list("Temporary", node.temporaries, true);
  }
  std::printf("\nExecution plan as the list of %zu nodes invoked in-order: ",
              g.execution_plan().size());
  PrintIntVector(g.execution_plan(), true, true);
  if (!delegated) return;
  std::printf("Among these nodes in the execution plan:\n");
  for (int id : g.execution_plan()) {
    const auto& [node, reg] = *g.node_and_registration(id);
    if (node.delegate == nullptr) continue;
    const auto* params = static_cast<const TfLiteDelegateParams*>(node.builtin_data);
    std::printf("  Node %d is a %s node (%p), which has delegated %d nodes: ", id,
                reg.custom_name == nullptr ? "[n/a]" : reg.custom_name,
                static_cast<void*>(node.delegate), params->nodes_to_replace->size);
    PrintIntArray(params->nodes_to_replace, true, true);
  }
}

}  // namespace

void PrintInterpreterState(const Interpreter* interpreter) {
  const size_t num_subgraphs = interpreter->subgraphs_size();
  std::printf("Interpreter has %zu subgraphs.\n\n", num_subgraphs);
  std::vector<size_t> arena(num_subgraphs), persistent(num_subgraphs), dynamic(num_subgraphs);
  for (size_t i = 0; i < num_subgraphs; ++i) {
    const Subgraph& g = *interpreter->subgraph(static_cast<int>(i));
    std::printf("-----------Subgraph-%zu has %zu tensors and %zu nodes------------\n", i,
                g.tensors_size(), g.nodes_size());
    std::printf("%zu Inputs: ", g.inputs().size());
    PrintIntVector(g.inputs());
    PrintTotalBytes(g, g.inputs());
    std::printf("%zu Outputs: ", g.outputs().size());
    PrintIntVector(g.outputs());
    PrintTotalBytes(g, g.outputs());
    std::printf("\n");
    const MemoryInfo memory(g);
    PrintTensors(g, memory);
    memory.Print();
    PrintNodes(g);
    std::printf("--------------Subgraph-%zu dump has completed--------------\n\n", i);
    if (const octet::PlannerStats* stats = g.planner_stats()) {
      arena[i] = stats->arena_bytes;
      persistent[i] = stats->persistent_bytes;
    }
    dynamic[i] = memory.dynamic.total();
  }
  std::printf("--------------Memory Arena Status Start--------------\n");
  size_t total_arena = 0, total_dynamic = 0;
  for (size_t i = 0; i < num_subgraphs; ++i) {
    total_arena += arena[i] + persistent[i];
    total_dynamic += dynamic[i];
  }
  const size_t total = total_arena + total_dynamic;
  auto mb = [](size_t bytes) { return static_cast<float>(bytes) / (1 << 20); };
  std::printf("Total memory usage: %zu bytes (%.3f MB)\n", total, mb(total));
  std::printf("- Total arena memory usage: %zu bytes (%.3f MB)\n", total_arena, mb(total_arena));
  std::printf("- Total dynamic memory usage: %zu bytes (%.3f MB)\n", total_dynamic,
              mb(total_dynamic));
  std::putchar('\n');
  auto row = [&](size_t i, const char* what, size_t bytes) {
    if (bytes == 0) return;
    std::printf("Subgraph#%-3zu %-18s %10zu (%.2f%%)\n", i, what, bytes,
                static_cast<float>(bytes * 100) / total);
  };
  for (size_t i = 0; i < num_subgraphs; ++i) {
    row(i, "Arena (Normal)", arena[i]);
    row(i, "Arena (Persistent)", persistent[i]);
    row(i, "Dyanmic Tensors", dynamic[i]);  // TFLite's spelling, kept for parsers
  }
  std::printf("--------------Memory Arena Status End--------------\n\n");
}

}  // namespace tflite
