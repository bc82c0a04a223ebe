// Ops whose inputs are all constant are computed once, by Octet's own kernels (so the folded
// value is the one the runtime would compute), and their outputs become constants.
#include <cstring>

#include "converter/graph.h"
#include "converter/model_io.h"
#include "converter/passes/passes.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet::converter::passes {
namespace {

// Outputs larger than this stay computed at run time (a folded constant grows the file).
constexpr size_t kMaxFoldedBytes = size_t{16} << 20;

// DEQUANTIZE and DENSIFY stay: folding them would store the large form of weights the model
// chose to keep small (Octet expands them once, at prepare).
bool Foldable(edit::BuiltinOperator code) {
  return code != edit::BuiltinOperator_DEQUANTIZE && code != edit::BuiltinOperator_DENSIFY &&
         !HasSideEffects(code);
}

struct Folded {
  std::vector<int32_t> shape;
  std::vector<uint8_t> bytes;
};

// Runs op `index` of `graph` alone: a one-op model holding copies of its constant inputs.
bool Evaluate(const edit::ModelT& model, const edit::SubGraphT& graph, const edit::OperatorT& op,
              std::vector<Folded>* results) {
  edit::ModelT single;
  single.version = 3;
  single.operator_codes.push_back(
      std::make_unique<edit::OperatorCodeT>(*model.operator_codes[op.opcode_index]));
  single.buffers.push_back(std::make_unique<edit::BufferT>());
  auto sub = std::make_unique<edit::SubGraphT>();
  auto copy_tensor = [&](int32_t t, bool constant) {
    auto tensor = std::make_unique<edit::TensorT>(*graph.tensors[t]);
    tensor->buffer = 0;
    if (constant) {
      tensor->buffer = static_cast<uint32_t>(single.buffers.size());
      single.buffers.push_back(
          std::make_unique<edit::BufferT>(*model.buffers[graph.tensors[t]->buffer]));
    }
    sub->tensors.push_back(std::move(tensor));
    return static_cast<int32_t>(sub->tensors.size() - 1);
  };
  auto local = std::make_unique<edit::OperatorT>(op);
  local->opcode_index = 0;
  for (int32_t& t : local->inputs) {
    if (t >= 0) t = copy_tensor(t, true);
  }
  for (int32_t& t : local->outputs) t = copy_tensor(t, false);
  local->intermediates.clear();
  for (int32_t t : op.intermediates) local->intermediates.push_back(copy_tensor(t, false));
  sub->outputs = local->outputs;
  sub->operators.push_back(std::move(local));
  single.subgraphs.push_back(std::move(sub));

  std::vector<uint8_t> bytes;
  std::string error;
  if (!PackModel(single, &bytes, &error)) return false;
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                       bytes.size());
  if (flat == nullptr) return false;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*flat, resolver)(&interpreter) != kTfLiteOk ||
      interpreter == nullptr || interpreter->AllocateTensors() != kTfLiteOk ||
      interpreter->Invoke() != kTfLiteOk) {
    return false;
  }
  for (int index : interpreter->outputs()) {
    const TfLiteTensor* out = interpreter->tensor(index);
    if (out == nullptr || out->bytes == 0 || out->bytes > kMaxFoldedBytes ||
        (out->bytes > 0 && out->data.raw == nullptr)) {
      return false;
    }
    Folded folded;
    for (int d = 0; d < out->dims->size; ++d) folded.shape.push_back(out->dims->data[d]);
    folded.bytes.assign(out->data.raw, out->data.raw + out->bytes);
    results->push_back(std::move(folded));
  }
  return true;
}

}  // namespace

bool FoldConstants(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  for (auto& graph_ptr : model.subgraphs) {
    edit::SubGraphT& graph = *graph_ptr;
    const Usage usage(graph);
    std::vector<bool> erase(graph.operators.size(), false);
    for (size_t i = 0; i < graph.operators.size(); ++i) {
      const edit::OperatorT& op = *graph.operators[i];
      if (!Foldable(OpCodeOf(model, op)) || op.outputs.empty()) continue;
      bool all_constant = false;
      for (int32_t t : op.inputs) {
        if (t < 0) continue;
        if (!IsConstant(model, graph, t) || graph.tensors[t]->sparsity != nullptr) {
          all_constant = false;
          break;
        }
        all_constant = true;
      }
      bool writes_output = false;
      for (int32_t t : op.outputs) writes_output = writes_output || usage.is_graph_output(t);
      if (!all_constant || writes_output) continue;
      std::vector<Folded> results;
      if (!Evaluate(model, graph, op, &results) || results.size() != op.outputs.size()) continue;
      for (size_t k = 0; k < results.size(); ++k) {
        edit::TensorT& out = *graph.tensors[op.outputs[k]];
        out.shape = results[k].shape;
        out.shape_signature.clear();
        out.buffer = AddBuffer(model, std::move(results[k].bytes));
      }
      erase[i] = true;
      log.Add(OpNameOf(model, op) + " #" + std::to_string(i) + ": inputs constant, computed once");
    }
    EraseOperators(graph, erase);
  }
  return true;
}

}  // namespace octet::converter::passes
