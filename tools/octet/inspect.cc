// `octet inspect`: load, verify, build and plan a model, then describe it.
#include <cstdio>
#include <map>
#include <tuple>

#include "cli_common.h"
#include "commands.h"
#include "delegates.h"
#include "format/parse_options.h"
#include "graph_picture.h"
#include "kernels/cpu/cpu_features.h"
#include "memory/arena_planner.h"
#include "memory/memory_budget.h"
#include "octet/kernel_info.h"
#include "quant/spec_report.h"

namespace octet::cli {

static void PrintTensor(const char* role, size_t k, const TfLiteTensor& t) {
  std::printf("  %s %zu: '%s' %s %s %s\n", role, k, t.name ? t.name : "", TfLiteTypeGetName(t.type),
              ShapeString(t.dims).c_str(), QuantString(t).c_str());
}

int InspectCommand(const std::string& path, bool list_tensors, const std::string& delegate,
                   const std::string& graph_path) {
  LoadedModel m = LoadModel(path, 1);
  tflite::Interpreter& interp = *m.interpreter;
  // Spec findings come first: they explain a prepare failure when there is one.
  const auto findings = quant::CheckSpec(interp.primary_subgraph());
  for (const auto& f : findings) {
    std::printf("%s: %s\n", f.harmless ? "spec note" : "spec violation", f.message.c_str());
  }
  m.delegate = ApplyDelegate(delegate, &interp, 1, m.reporter.get());
  Check(interp.AllocateTensors(), "cannot prepare model '" + path + "'", *m.reporter);

  const ::tflite::Model* model = m.model->GetModel();
  std::printf("model: %s (schema version %u, %u subgraph(s))\n", path.c_str(), model->version(),
              model->subgraphs()->size());
  if (model->description()) std::printf("description: %s\n", model->description()->c_str());
  for (size_t k = 0; k < interp.inputs().size(); ++k) {
    PrintTensor("input ", k, *interp.tensor(interp.inputs()[k]));
  }
  for (size_t k = 0; k < interp.outputs().size(); ++k) {
    PrintTensor("output", k, *interp.tensor(interp.outputs()[k]));
  }

  // Op list: one line per distinct (op, version, kernel), with how many nodes use it.
  std::map<std::tuple<std::string, int, std::string>, int> ops;
  for (int id : interp.execution_plan()) {
    const auto& reg = interp.node_and_registration(id)->second;
    std::string name = reg.custom_name && reg.builtin_code == 32
                           ? std::string("CUSTOM ") + reg.custom_name
                           : octet::format::BuiltinOperatorName(reg.builtin_code);
    ops[{name, reg.version, GetNodeKernelName(interp.primary_subgraph(), id)}]++;
  }
  std::printf("ops (%zu nodes):\n", interp.execution_plan().size());
  for (const auto& [key, count] : ops) {
    std::printf("  %-28s v%d  x%-3d %s\n", std::get<0>(key).c_str(), std::get<1>(key), count,
                std::get<2>(key).c_str());
  }
  if (m.delegate) PrintPartitioning(interp);
  std::printf("tensors: %zu\n", interp.tensors_size());
  if (list_tensors) {
    for (size_t i = 0; i < interp.tensors_size(); ++i) {
      const TfLiteTensor& t = *interp.tensor(static_cast<int>(i));
      std::printf("  %4zu %-40s %-8s %-18s %s%s\n", i, t.name ? t.name : "",
                  TfLiteTypeGetName(t.type), ShapeString(t.dims).c_str(), QuantString(t).c_str(),
                  t.allocation_type == kTfLiteMmapRo ? " (constant)" : "");
    }
  }
  if (const PlannerStats* s = interp.primary_subgraph().planner_stats()) {
    std::printf("arena: %zu bytes (lower bound %zu bytes, %.1f%% over); persistent: %zu bytes\n",
                s->arena_bytes, s->lower_bound_bytes,
                s->lower_bound_bytes
                    ? 100.0 * (double(s->arena_bytes) / double(s->lower_bound_bytes) - 1.0)
                    : 0.0,
                s->persistent_bytes);
  }
  std::printf("kernel data: %zu bytes (packed weights and tables, kernel path %s)\n",
              interp.primary_subgraph().kernel_persistent_bytes(), cpu::IsaName(cpu::ActiveIsa()));
  std::printf("memory held: %s of a %s limit (--max-memory)\n",
              FormatByteSize(interp.memory_used_bytes()).c_str(),
              FormatByteSize(interp.max_memory_bytes()).c_str());
  if (!graph_path.empty()) {
    std::string error;
    if (!WriteGraphPicture(interp, graph_path, &error)) throw Failure(error);
    std::printf("graph: %s\n", graph_path.c_str());
  }
  return 0;
}

}  // namespace octet::cli
