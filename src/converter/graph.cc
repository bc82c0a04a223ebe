#include "converter/graph.h"

#include <algorithm>
#include <cstring>

namespace octet::converter {

edit::BuiltinOperator OpCodeOf(const edit::ModelT& model, const edit::OperatorT& op) {
  if (op.opcode_index >= model.operator_codes.size()) return edit::BuiltinOperator_CUSTOM;
  const edit::OperatorCodeT& code = *model.operator_codes[op.opcode_index];
  return static_cast<edit::BuiltinOperator>(
      std::max<int32_t>(code.builtin_code, code.deprecated_builtin_code));
}

std::string OpNameOf(const edit::ModelT& model, const edit::OperatorT& op) {
  const edit::BuiltinOperator code = OpCodeOf(model, op);
  if (code == edit::BuiltinOperator_CUSTOM && op.opcode_index < model.operator_codes.size()) {
    return "CUSTOM " + model.operator_codes[op.opcode_index]->custom_code;
  }
  const char* name = edit::EnumNameBuiltinOperator(code);
  return name[0] != '\0' ? name : "BUILTIN " + std::to_string(static_cast<int>(code));
}

bool HasSideEffects(edit::BuiltinOperator code) {
  switch (code) {
    case edit::BuiltinOperator_CUSTOM:
    case edit::BuiltinOperator_CALL:
    case edit::BuiltinOperator_CALL_ONCE:
    case edit::BuiltinOperator_IF:
    case edit::BuiltinOperator_WHILE:
    case edit::BuiltinOperator_VAR_HANDLE:
    case edit::BuiltinOperator_ASSIGN_VARIABLE:
    case edit::BuiltinOperator_READ_VARIABLE:
    case edit::BuiltinOperator_HASHTABLE:
    case edit::BuiltinOperator_HASHTABLE_IMPORT:
    case edit::BuiltinOperator_HASHTABLE_FIND:
    case edit::BuiltinOperator_HASHTABLE_SIZE:
    case edit::BuiltinOperator_RANDOM_UNIFORM:
    case edit::BuiltinOperator_RANDOM_STANDARD_NORMAL:
    case edit::BuiltinOperator_MULTINOMIAL:
    case edit::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR:
    case edit::BuiltinOperator_STABLEHLO_WHILE:
    case edit::BuiltinOperator_STABLEHLO_CASE:
    case edit::BuiltinOperator_STABLEHLO_COMPOSITE:
    case edit::BuiltinOperator_STABLEHLO_CUSTOM_CALL:
      return true;
    default:
      return false;
  }
}

uint32_t FindOrAddOpCode(edit::ModelT& model, edit::BuiltinOperator op, int32_t version) {
  for (size_t i = 0; i < model.operator_codes.size(); ++i) {
    const edit::OperatorCodeT& code = *model.operator_codes[i];
    const int32_t builtin = std::max<int32_t>(code.builtin_code, code.deprecated_builtin_code);
    if (builtin == op && code.version == version) return static_cast<uint32_t>(i);
  }
  auto code = std::make_unique<edit::OperatorCodeT>();
  code->builtin_code = op;
  // Readers older than the int32 field look only at the int8 one (127 = "see builtin_code").
  code->deprecated_builtin_code = static_cast<int8_t>(std::min<int32_t>(op, 127));
  code->version = version;
  model.operator_codes.push_back(std::move(code));
  return static_cast<uint32_t>(model.operator_codes.size() - 1);
}

const std::vector<uint8_t>* ConstantBytes(const edit::ModelT& model, const edit::SubGraphT& graph,
                                          int32_t tensor) {
  if (tensor < 0 || static_cast<size_t>(tensor) >= graph.tensors.size()) return nullptr;
  const edit::TensorT& t = *graph.tensors[tensor];
  if (t.is_variable || t.buffer == 0 || t.buffer >= model.buffers.size()) return nullptr;
  const std::vector<uint8_t>& data = model.buffers[t.buffer]->data;
  return data.empty() ? nullptr : &data;
}

bool IsConstant(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor) {
  return ConstantBytes(model, graph, tensor) != nullptr;
}

bool ConstantFloats(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor,
                    std::vector<float>* values) {
  const std::vector<uint8_t>* bytes = ConstantBytes(model, graph, tensor);
  if (bytes == nullptr || graph.tensors[tensor]->type != edit::TensorType_FLOAT32 ||
      graph.tensors[tensor]->sparsity != nullptr || bytes->size() % sizeof(float) != 0) {
    return false;
  }
  values->resize(bytes->size() / sizeof(float));
  std::memcpy(values->data(), bytes->data(), bytes->size());
  return true;
}

int64_t ElementCount(const std::vector<int32_t>& shape) {
  int64_t count = 1;
  for (int32_t d : shape) {
    if (d < 0) return -1;
    count *= d;
  }
  return count;
}

uint32_t AddBuffer(edit::ModelT& model, std::vector<uint8_t> bytes) {
  auto buffer = std::make_unique<edit::BufferT>();
  buffer->data = std::move(bytes);
  model.buffers.push_back(std::move(buffer));
  return static_cast<uint32_t>(model.buffers.size() - 1);
}

int32_t AddConstantTensor(edit::ModelT& model, edit::SubGraphT& graph, edit::TensorType type,
                          std::vector<int32_t> shape, std::vector<uint8_t> bytes,
                          const std::string& name) {
  auto tensor = std::make_unique<edit::TensorT>();
  tensor->type = type;
  tensor->shape = std::move(shape);
  tensor->name = name;
  tensor->buffer = AddBuffer(model, std::move(bytes));
  graph.tensors.push_back(std::move(tensor));
  return static_cast<int32_t>(graph.tensors.size() - 1);
}

std::vector<uint8_t> FloatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Usage::Usage(const edit::SubGraphT& graph)
    : producer_(graph.tensors.size(), -1),
      consumers_(graph.tensors.size()),
      graph_input_(graph.tensors.size(), false),
      graph_output_(graph.tensors.size(), false) {
  const auto valid = [&](int32_t t) { return t >= 0 && static_cast<size_t>(t) < producer_.size(); };
  for (size_t i = 0; i < graph.operators.size(); ++i) {
    const edit::OperatorT& op = *graph.operators[i];
    for (int32_t t : op.inputs) {
      if (valid(t)) consumers_[t].push_back(static_cast<int>(i));
    }
    for (int32_t t : op.outputs) {
      if (valid(t)) producer_[t] = static_cast<int>(i);
    }
  }
  for (int32_t t : graph.inputs) {
    if (valid(t)) graph_input_[t] = true;
  }
  for (int32_t t : graph.outputs) {
    if (valid(t)) graph_output_[t] = true;
  }
}

int Usage::producer(int32_t tensor) const {
  return tensor >= 0 && static_cast<size_t>(tensor) < producer_.size() ? producer_[tensor] : -1;
}

const std::vector<int>& Usage::consumers(int32_t tensor) const {
  static const std::vector<int> kNone;
  return tensor >= 0 && static_cast<size_t>(tensor) < consumers_.size() ? consumers_[tensor]
                                                                        : kNone;
}

bool Usage::is_graph_input(int32_t tensor) const {
  return tensor >= 0 && static_cast<size_t>(tensor) < graph_input_.size() && graph_input_[tensor];
}

bool Usage::is_graph_output(int32_t tensor) const {
  return tensor >= 0 && static_cast<size_t>(tensor) < graph_output_.size() && graph_output_[tensor];
}

bool Usage::only_feeds(int32_t tensor, int op_index) const {
  const std::vector<int>& readers = consumers(tensor);
  return !is_graph_output(tensor) && !readers.empty() &&
         std::all_of(readers.begin(), readers.end(), [&](int r) { return r == op_index; });
}

void ReplaceUses(edit::SubGraphT& graph, int32_t from, int32_t to) {
  for (auto& op : graph.operators) {
    std::replace(op->inputs.begin(), op->inputs.end(), from, to);
  }
  std::replace(graph.outputs.begin(), graph.outputs.end(), from, to);
}

void EraseOperators(edit::SubGraphT& graph, const std::vector<bool>& erase) {
  size_t kept = 0;
  for (size_t i = 0; i < graph.operators.size(); ++i) {
    if (i < erase.size() && erase[i]) continue;
    graph.operators[kept++] = std::move(graph.operators[i]);
  }
  graph.operators.resize(kept);
}

bool BypassOperator(edit::SubGraphT& graph, int op_index, int32_t x, int32_t y) {
  const Usage usage(graph);
  if (!usage.is_graph_output(y)) {
    ReplaceUses(graph, y, x);
  } else {
    // y must stay (it is what the caller reads): x's producer writes y directly instead.
    const int writer = usage.producer(x);
    if (writer < 0 || usage.is_graph_input(x) || usage.is_graph_output(x)) return false;
    for (int32_t& out : graph.operators[writer]->outputs) {
      if (out == x) out = y;
    }
    for (auto& op : graph.operators) {
      std::replace(op->inputs.begin(), op->inputs.end(), x, y);
    }
  }
  std::vector<bool> erase(graph.operators.size(), false);
  erase[op_index] = true;
  EraseOperators(graph, erase);
  return true;
}

bool IsQuantizedType(edit::TensorType type) {
  return type == edit::TensorType_INT8 || type == edit::TensorType_UINT8 ||
         type == edit::TensorType_INT16 || type == edit::TensorType_INT4;
}

bool SameQuantization(const edit::TensorT& a, const edit::TensorT& b) {
  const bool qa = a.quantization != nullptr && !a.quantization->scale.empty();
  const bool qb = b.quantization != nullptr && !b.quantization->scale.empty();
  if (qa != qb) return false;
  if (!qa) return true;
  return a.quantization->scale == b.quantization->scale &&
         a.quantization->zero_point == b.quantization->zero_point &&
         (a.quantization->scale.size() == 1 ||
          a.quantization->quantized_dimension == b.quantization->quantized_dimension);
}

namespace {

// Marks every tensor index that something in the model refers to.
std::vector<std::vector<bool>> ReferencedTensors(const edit::ModelT& model) {
  std::vector<std::vector<bool>> used(model.subgraphs.size());
  for (size_t g = 0; g < model.subgraphs.size(); ++g) {
    const edit::SubGraphT& graph = *model.subgraphs[g];
    std::vector<bool>& mark = used[g];
    mark.assign(graph.tensors.size(), false);
    const auto use = [&](int32_t t) {
      if (t >= 0 && static_cast<size_t>(t) < mark.size()) mark[t] = true;
    };
    for (const auto& op : graph.operators) {
      for (int32_t t : op->inputs) use(t);
      for (int32_t t : op->outputs) use(t);
      for (int32_t t : op->intermediates) use(t);
    }
    for (int32_t t : graph.inputs) use(t);
    for (int32_t t : graph.outputs) use(t);
  }
  for (const auto& signature : model.signature_defs) {
    if (signature->subgraph_index >= used.size()) continue;
    std::vector<bool>& mark = used[signature->subgraph_index];
    for (const auto* list : {&signature->inputs, &signature->outputs}) {
      for (const auto& map : *list) {
        if (map->tensor_index < mark.size()) mark[map->tensor_index] = true;
      }
    }
  }
  return used;
}

template <typename Index>
void Renumber(std::vector<Index>& indices, const std::vector<int32_t>& new_index) {
  for (Index& i : indices) {
    if (i >= 0 && static_cast<size_t>(i) < new_index.size()) i = static_cast<Index>(new_index[i]);
  }
}

}  // namespace

int CompactModel(edit::ModelT& model) {
  int removed = 0;
  const std::vector<std::vector<bool>> used = ReferencedTensors(model);
  for (size_t g = 0; g < model.subgraphs.size(); ++g) {
    edit::SubGraphT& graph = *model.subgraphs[g];
    std::vector<int32_t> new_index(graph.tensors.size(), -1);
    size_t kept = 0;
    for (size_t t = 0; t < graph.tensors.size(); ++t) {
      if (!used[g][t]) continue;
      new_index[t] = static_cast<int32_t>(kept);
      graph.tensors[kept++] = std::move(graph.tensors[t]);
    }
    removed += static_cast<int>(graph.tensors.size() - kept);
    graph.tensors.resize(kept);
    for (auto& op : graph.operators) {
      Renumber(op->inputs, new_index);
      Renumber(op->outputs, new_index);
      Renumber(op->intermediates, new_index);
    }
    Renumber(graph.inputs, new_index);
    Renumber(graph.outputs, new_index);
    for (auto& signature : model.signature_defs) {
      if (signature->subgraph_index != g) continue;
      for (auto* list : {&signature->inputs, &signature->outputs}) {
        for (auto& map : *list) {
          if (map->tensor_index < new_index.size()) {
            map->tensor_index = static_cast<uint32_t>(new_index[map->tensor_index]);
          }
        }
      }
    }
  }
  // Buffers: 0 is the empty sentinel every writer keeps; metadata and tensors hold the rest.
  std::vector<bool> buffer_used(model.buffers.size(), false);
  if (!buffer_used.empty()) buffer_used[0] = true;
  const auto use_buffer = [&](uint32_t b) {
    if (b < buffer_used.size()) buffer_used[b] = true;
  };
  for (const auto& graph : model.subgraphs) {
    for (const auto& tensor : graph->tensors) use_buffer(tensor->buffer);
  }
  for (const auto& metadata : model.metadata) use_buffer(metadata->buffer);
  for (int32_t b : model.metadata_buffer) {
    if (b >= 0) use_buffer(static_cast<uint32_t>(b));
  }
  std::vector<int32_t> new_buffer(model.buffers.size(), -1);
  size_t kept = 0;
  for (size_t b = 0; b < model.buffers.size(); ++b) {
    if (!buffer_used[b]) continue;
    new_buffer[b] = static_cast<int32_t>(kept);
    model.buffers[kept++] = std::move(model.buffers[b]);
  }
  removed += static_cast<int>(model.buffers.size() - kept);
  model.buffers.resize(kept);
  for (auto& graph : model.subgraphs) {
    for (auto& tensor : graph->tensors) {
      if (tensor->buffer < new_buffer.size())
        tensor->buffer = static_cast<uint32_t>(new_buffer[tensor->buffer]);
    }
  }
  for (auto& metadata : model.metadata) {
    if (metadata->buffer < new_buffer.size())
      metadata->buffer = static_cast<uint32_t>(new_buffer[metadata->buffer]);
  }
  Renumber(model.metadata_buffer, new_buffer);
  return removed;
}

}  // namespace octet::converter
