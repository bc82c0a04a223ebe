// Reading and editing helpers over the object-API model, shared by every pass: what an op is,
// who produces and who reads a tensor, constants, rewiring, and compaction after removals.
#ifndef OCTET_CONVERTER_GRAPH_H_
#define OCTET_CONVERTER_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "edit_schema_generated.h"

namespace octet::converter {

// The operator's builtin code, read as TFLite reads it (the larger of the two code fields,
// since old writers set only the deprecated int8 one). Custom ops give BuiltinOperator_CUSTOM.
edit::BuiltinOperator OpCodeOf(const edit::ModelT& model, const edit::OperatorT& op);
std::string OpNameOf(const edit::ModelT& model, const edit::OperatorT& op);
// Ops whose effect is more than their outputs (variables, tables, control flow, custom ops,
// random generators): passes neither remove nor precompute them.
bool HasSideEffects(edit::BuiltinOperator code);
// The index of an operator code for `op` at `version`, appended when the model has none.
uint32_t FindOrAddOpCode(edit::ModelT& model, edit::BuiltinOperator op, int32_t version = 1);

// The bytes of a constant tensor (its buffer holds data), or nullptr.
const std::vector<uint8_t>* ConstantBytes(const edit::ModelT& model, const edit::SubGraphT& graph,
                                          int32_t tensor);
bool IsConstant(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor);
// A float32 constant's values; false for anything else.
bool ConstantFloats(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor,
                    std::vector<float>* values);
// The number of elements of a fully known static shape, or -1.
int64_t ElementCount(const std::vector<int32_t>& shape);

// A new buffer holding `bytes`; returns its index.
uint32_t AddBuffer(edit::ModelT& model, std::vector<uint8_t> bytes);
// A new constant tensor in `graph` with its own buffer; returns its index.
int32_t AddConstantTensor(edit::ModelT& model, edit::SubGraphT& graph, edit::TensorType type,
                          std::vector<int32_t> shape, std::vector<uint8_t> bytes,
                          const std::string& name);
std::vector<uint8_t> FloatBytes(const std::vector<float>& values);

// Who writes and who reads each tensor of one subgraph. Rebuild after editing the graph.
class Usage {
 public:
  explicit Usage(const edit::SubGraphT& graph);
  int producer(int32_t tensor) const;  // operator index, or -1
  const std::vector<int>& consumers(int32_t tensor) const;
  bool is_graph_input(int32_t tensor) const;
  bool is_graph_output(int32_t tensor) const;
  // Read by exactly one op, and not a graph output: a rewrite may consume it.
  bool only_feeds(int32_t tensor, int op_index) const;

 private:
  std::vector<int> producer_;
  std::vector<std::vector<int>> consumers_;
  std::vector<bool> graph_input_, graph_output_;
};

// Every read of tensor `from` (op inputs, subgraph outputs) reads `to` instead.
void ReplaceUses(edit::SubGraphT& graph, int32_t from, int32_t to);
// Removes the operators whose flag is set, keeping the others' order.
void EraseOperators(edit::SubGraphT& graph, const std::vector<bool>& erase);

// Makes op `op_index` (input x, output y: y equals x) disappear by rewiring its readers.
// False when the rewiring is impossible (y is a graph output and x a graph input or constant).
bool BypassOperator(edit::SubGraphT& graph, int op_index, int32_t x, int32_t y);

// Same quantization (type-level scale/zero point arrays and axis) on both tensors.
bool SameQuantization(const edit::TensorT& a, const edit::TensorT& b);
bool IsQuantizedType(edit::TensorType type);

// Runs `rewrite(graph, usage)` on every subgraph until it reports no change: a rewrite that
// returns true has edited the graph, so the producers and consumers are rebuilt before the
// next call. The outer loop of every pass that rewrites one match at a time.
template <typename Rewrite>
void RewriteUntilStable(edit::ModelT& model, Rewrite rewrite) {
  for (auto& graph : model.subgraphs) {
    while (rewrite(*graph, Usage(*graph))) {
    }
  }
}

// Drops tensors no op, subgraph or signature refers to, and buffers no tensor or metadata
// refers to (buffer 0, the empty sentinel, stays), renumbering what remains. Returns how many
// tensors and buffers went.
int CompactModel(edit::ModelT& model);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_GRAPH_H_
