// Unrolled LSTM cells -> one UNIDIRECTIONAL_SEQUENCE_LSTM. The pattern is the float cell a
// converter writes when it does not fuse a recurrent layer (Keras gate order i, f, g, o):
//
//   x_t = UNPACK(X)[t]                     (axis 1: batch-major, axis 0: time-major)
//   z   = ADD(FC(x_t, W, b1), FC(h, R, b2))           W [4H, I], R [4H, H], constant
//   i, f, g, o = SPLIT(z, last axis, 4)
//   c'  = ADD(MUL(LOGISTIC(f), c), MUL(LOGISTIC(i), TANH(g)))
//   h'  = MUL(LOGISTIC(o), TANH(c'))
//
// repeated for t = 0 .. T-1 with the same constants, starting from all-zero h and c, the h's
// gathered by a PACK (the sequence) or only the last one read (the final state). The fused
// op computes the same arithmetic with the gate sums in another order: equal within float
// rounding. Its h and c become variable tensors that, as in every TFLite LSTM, carry over from
// one invoke to the next: the first invoke after AllocateTensors / ResetVariableTensors equals
// the unrolled graph, later ones continue the sequence. So the pass runs only when named.
#include <algorithm>
#include <cstring>

#include "converter/passes/passes.h"
#include "converter/passes/pattern.h"

namespace octet::converter::passes {
namespace {

// One matched cell.
struct Cell {
  int32_t x = -1;  // step input [B, I]
  int32_t h_prev = -1, c_prev = -1;
  int32_t h = -1, c = -1;    // the new states [B, H]
  int32_t w = -1, r = -1;    // input and recurrent weights
  std::vector<float> bias;   // [4H]: the two FCs' biases added
  int x_fc = -1, h_fc = -1;  // the two FULLY_CONNECTED ops
  std::set<int> ops;
};

bool IsFloat(const edit::SubGraphT& graph, int32_t t) {
  return t >= 0 && graph.tensors[t]->type == edit::TensorType_FLOAT32;
}

const std::vector<int32_t>& ShapeOf(const edit::SubGraphT& graph, int32_t t) {
  return graph.tensors[t]->shape;
}

// The single op reading `t` (not a graph output), or -1.
int SoleReader(const Usage& usage, int32_t t) {
  if (usage.is_graph_output(t) || usage.consumers(t).size() != 1) return -1;
  return usage.consumers(t)[0];
}

// The op producing `t` when it is a one-input, one-output `code` op and `t` has one reader.
int UnaryProducer(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                  int32_t t, edit::BuiltinOperator code) {
  const int p = usage.producer(t);
  if (p < 0 || SoleReader(usage, t) < 0) return -1;
  const edit::OperatorT& op = *graph.operators[p];
  if (OpCodeOf(model, op) != code || op.inputs.size() != 1 || op.outputs.size() != 1) return -1;
  return p;
}

// A plain float FULLY_CONNECTED producing `t` (read only once) with constant [rows, k]
// weights; adds its bias, if any, to *bias.
int PlainFc(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage, int32_t t,
            int rows, std::vector<float>* bias) {
  const int p = usage.producer(t);
  if (p < 0 || SoleReader(usage, t) < 0) return -1;
  const edit::OperatorT& op = *graph.operators[p];
  if (OpCodeOf(model, op) != edit::BuiltinOperator_FULLY_CONNECTED || op.inputs.size() < 2 ||
      op.inputs.size() > 3 || op.outputs.size() != 1) {
    return -1;
  }
  if (const auto* o = op.builtin_options.AsFullyConnectedOptions()) {
    if (o->fused_activation_function != edit::ActivationFunctionType_NONE || o->keep_num_dims ||
        o->weights_format != edit::FullyConnectedOptionsWeightsFormat_DEFAULT) {
      return -1;
    }
  }
  const int32_t w = op.inputs[1];
  if (!IsFloat(graph, w) || !IsConstant(model, graph, w) || ShapeOf(graph, w).size() != 2 ||
      ShapeOf(graph, w)[0] != rows) {
    return -1;
  }
  if (op.inputs.size() == 3 && op.inputs[2] >= 0) {
    std::vector<float> b;
    if (!ConstantFloats(model, graph, op.inputs[2], &b) || b.size() != bias->size()) return -1;
    for (size_t i = 0; i < b.size(); ++i) (*bias)[i] += b[i];
  }
  return p;
}

// The plain MUL that alone reads `gate_out`; sets *other to its other input.
int MulOfGate(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
              int32_t gate_out, int32_t* other) {
  const int m = SoleReader(usage, gate_out);
  if (m < 0) return -1;
  const edit::OperatorT& mul = *graph.operators[m];
  if (mul.outputs.size() != 1 ||
      BinaryProducer(model, graph, usage, mul.outputs[0], edit::BuiltinOperator_MUL) != m) {
    return -1;
  }
  *other = OtherInput(mul, gate_out);
  return *other >= 0 ? m : -1;
}

// A constant added to z: one row of `width` values, or rows that are all the same (a folded
// FC of the zero state over the batch), reduced to that row.
bool SameRows(std::vector<float>* values, int width) {
  if (values->empty() || values->size() % width != 0) return false;
  for (size_t i = width; i < values->size(); ++i) {
    if ((*values)[i] != (*values)[i % width]) return false;
  }
  values->resize(width);
  return true;
}

// Matches the cell whose gates come out of SPLIT op `split_index`.
bool MatchCell(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
               int split_index, Cell* cell) {
  const edit::OperatorT& split = *graph.operators[split_index];
  if (OpCodeOf(model, split) != edit::BuiltinOperator_SPLIT || split.inputs.size() != 2 ||
      split.outputs.size() != 4) {
    return false;
  }
  const int32_t z = split.inputs[1];
  const std::vector<int32_t>& z_shape = ShapeOf(graph, z);
  if (!IsFloat(graph, z) || z_shape.size() != 2 || z_shape[1] % 4 != 0 || z_shape[1] <= 0) {
    return false;
  }
  const auto* axis = ConstantBytes(model, graph, split.inputs[0]);
  if (axis == nullptr || axis->size() != 4 ||
      graph.tensors[split.inputs[0]]->type != edit::TensorType_INT32) {
    return false;
  }
  int32_t a;
  std::memcpy(&a, axis->data(), 4);
  if (a != 1 && a != -1) return false;
  const int hidden = z_shape[1] / 4;
  const int batch = z_shape[0];

  // z = ADD(FC(x, W), FC(h, R)), either order: the recurrent FC reads a [B, H] tensor that is
  // all-zero constant or some cell's h; the input FC reads an UNPACK output. A first step
  // whose zero state a converter folded away has z = FC(x, W) or ADD(FC(x, W), bias).
  if (SoleReader(usage, z) != split_index) return false;
  const int add = BinaryProducer(model, graph, usage, z, edit::BuiltinOperator_ADD);
  const auto reads_unpack = [&](int fc) {
    if (fc < 0) return false;
    const int32_t x = graph.operators[fc]->inputs[0];
    const int unpack = usage.producer(x);
    return unpack >= 0 &&
           OpCodeOf(model, *graph.operators[unpack]) == edit::BuiltinOperator_UNPACK &&
           ShapeOf(graph, x).size() == 2 && ShapeOf(graph, x)[0] == batch;
  };
  const auto take_input_fc = [&](int fc) {
    cell->x_fc = fc;
    cell->x = graph.operators[fc]->inputs[0];
    cell->w = graph.operators[fc]->inputs[1];
  };
  for (int side = 0; side < 2 && add >= 0 && cell->x < 0; ++side) {
    const edit::OperatorT& sum = *graph.operators[add];
    cell->bias.assign(z_shape[1], 0.0f);
    const int x_fc = PlainFc(model, graph, usage, sum.inputs[side], z_shape[1], &cell->bias);
    if (!reads_unpack(x_fc)) continue;
    const int h_fc = PlainFc(model, graph, usage, sum.inputs[1 - side], z_shape[1], &cell->bias);
    std::vector<float> folded;
    if (h_fc >= 0 &&
        ShapeOf(graph, graph.operators[h_fc]->inputs[0]) == std::vector<int32_t>{batch, hidden}) {
      take_input_fc(x_fc);
      cell->h_fc = h_fc;
      cell->h_prev = graph.operators[h_fc]->inputs[0];
      cell->r = graph.operators[h_fc]->inputs[1];
    } else if (h_fc < 0 && ConstantFloats(model, graph, sum.inputs[1 - side], &folded) &&
               SameRows(&folded, z_shape[1])) {
      for (size_t k = 0; k < folded.size(); ++k) cell->bias[k] += folded[k];
      take_input_fc(x_fc);
    }
  }
  if (add >= 0) {
    if (cell->x < 0) return false;
    cell->ops.insert(add);
  } else {
    cell->bias.assign(z_shape[1], 0.0f);
    const int x_fc = PlainFc(model, graph, usage, z, z_shape[1], &cell->bias);
    if (!reads_unpack(x_fc)) return false;
    take_input_fc(x_fc);
  }
  if ((cell->r >= 0 && ShapeOf(graph, cell->r)[1] != hidden) ||
      ShapeOf(graph, cell->w)[1] != ShapeOf(graph, cell->x)[1]) {
    return false;
  }
  cell->ops.insert(cell->x_fc);
  if (cell->h_fc >= 0) cell->ops.insert(cell->h_fc);

  // The gates: LOGISTIC, LOGISTIC, TANH, LOGISTIC, each read once; a folded first step may
  // leave the forget gate unread (its cell state is zero).
  const edit::BuiltinOperator kGateOps[4] = {
      edit::BuiltinOperator_LOGISTIC, edit::BuiltinOperator_LOGISTIC, edit::BuiltinOperator_TANH,
      edit::BuiltinOperator_LOGISTIC};
  int32_t gate[4] = {-1, -1, -1, -1};
  for (int k = 0; k < 4; ++k) {
    const int32_t part = split.outputs[k];
    if (k == 1 && !usage.is_graph_output(part) && usage.consumers(part).empty()) continue;
    const int g = SoleReader(usage, part);
    if (g < 0) return false;
    const edit::OperatorT& op = *graph.operators[g];
    if (OpCodeOf(model, op) != kGateOps[k] || op.inputs.size() != 1 || op.outputs.size() != 1) {
      return false;
    }
    gate[k] = op.outputs[0];
    cell->ops.insert(g);
  }
  // c' = ADD(MUL(f, c), MUL(i, g)), or MUL(i, g) alone when c is zero and folded away.
  int32_t c_prev = -1, g_other, o_other;
  const int ig_mul = MulOfGate(model, graph, usage, gate[0], &g_other);
  if (ig_mul < 0 || g_other != gate[2] || SoleReader(usage, gate[2]) != ig_mul) return false;
  const int32_t ig_out = graph.operators[ig_mul]->outputs[0];
  cell->ops.insert(ig_mul);
  const bool forget_read = gate[1] >= 0 && !usage.consumers(gate[1]).empty();
  int32_t c = ig_out;
  if (forget_read) {
    const int fc_mul = MulOfGate(model, graph, usage, gate[1], &c_prev);
    if (fc_mul < 0) return false;
    const int32_t fc_out = graph.operators[fc_mul]->outputs[0];
    const int c_add = SoleReader(usage, fc_out);
    if (c_add < 0 || SoleReader(usage, ig_out) != c_add) return false;
    const edit::OperatorT& c_op = *graph.operators[c_add];
    if (c_op.outputs.size() != 1 ||
        BinaryProducer(model, graph, usage, c_op.outputs[0], edit::BuiltinOperator_ADD) != c_add ||
        !IsFloat(graph, fc_out) || !IsFloat(graph, c_prev) ||
        ShapeOf(graph, c_prev) != std::vector<int32_t>{batch, hidden}) {
      return false;
    }
    c = c_op.outputs[0];
    cell->ops.insert({fc_mul, c_add});
  } else if (gate[1] >= 0 && usage.is_graph_output(gate[1])) {
    return false;
  }
  // h' = MUL(o, TANH(c')): o's MUL reads the TANH of c'.
  const int h_mul = MulOfGate(model, graph, usage, gate[3], &o_other);
  if (h_mul < 0) return false;
  const int c_tanh = UnaryProducer(model, graph, usage, o_other, edit::BuiltinOperator_TANH);
  if (c_tanh < 0 || graph.operators[c_tanh]->inputs[0] != c) return false;
  const int32_t h = graph.operators[h_mul]->outputs[0];
  for (int32_t t : {z, c, h, ig_out, o_other, gate[0], gate[2], gate[3]}) {
    if (!IsFloat(graph, t)) return false;
  }
  if (ShapeOf(graph, c) != std::vector<int32_t>{batch, hidden} ||
      ShapeOf(graph, h) != ShapeOf(graph, c)) {
    return false;
  }
  cell->c_prev = c_prev;
  cell->c = c;
  cell->h = h;
  cell->ops.insert({split_index, h_mul, c_tanh});
  return true;
}

bool AllZero(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t t) {
  std::vector<float> v;
  return ConstantFloats(model, graph, t, &v) &&
         std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; });
}

bool SameConstant(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t a, int32_t b) {
  if (a == b) return true;
  const auto* x = ConstantBytes(model, graph, a);
  const auto* y = ConstantBytes(model, graph, b);
  return x != nullptr && y != nullptr && *x == *y && ShapeOf(graph, a) == ShapeOf(graph, b);
}

// A chain of cells over one UNPACK, and what reads its results.
struct Chain {
  std::vector<Cell> cells;
  int unpack = -1;
  int pack = -1;   // the PACK of every step's h, or -1
  int32_t r = -1;  // the recurrent weights (-1: a single step from zero state has none)
  bool time_major = false;
};

// Rows [k * rows, (k + 1) * rows) of a row-major [4 * rows, cols] matrix.
std::vector<float> Rows(const std::vector<float>& m, int k, int rows, int cols) {
  return std::vector<float>(m.begin() + static_cast<size_t>(k) * rows * cols,
                            m.begin() + static_cast<size_t>(k + 1) * rows * cols);
}

// A new float tensor with no data (an activation, or a variable when `variable`).
int32_t AddFloatTensor(edit::SubGraphT& graph, std::vector<int32_t> shape, std::string name,
                       bool variable) {
  auto tensor = std::make_unique<edit::TensorT>();
  tensor->type = edit::TensorType_FLOAT32;
  tensor->shape = std::move(shape);
  tensor->name = std::move(name);
  tensor->is_variable = variable;
  graph.tensors.push_back(std::move(tensor));
  return static_cast<int32_t>(graph.tensors.size() - 1);
}

std::vector<uint8_t> Int32Bytes(const std::vector<int32_t>& v) {
  std::vector<uint8_t> bytes(v.size() * 4);
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

// Whether the cells starting at `first` form a whole chain the fused op can replace.
bool BuildChain(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                const std::vector<Cell>& cells, size_t first, Chain* chain) {
  const Cell& start = cells[first];
  // The first step starts from zero state, given as zero constants or folded away (-1).
  if ((start.h_prev >= 0 && !AllZero(model, graph, start.h_prev)) ||
      (start.c_prev >= 0 && !AllZero(model, graph, start.c_prev))) {
    return false;
  }
  chain->unpack = usage.producer(start.x);
  const edit::OperatorT& unpack = *graph.operators[chain->unpack];
  const auto* uo = unpack.builtin_options.AsUnpackOptions();
  const int axis = uo != nullptr ? uo->axis : 0;
  const std::vector<int32_t>& in_shape = ShapeOf(graph, unpack.inputs[0]);
  const int steps = static_cast<int>(unpack.outputs.size());
  if (in_shape.size() != 3 || (axis != 0 && axis != 1) || in_shape[axis] != steps ||
      in_shape[1 - axis] != ShapeOf(graph, start.h)[0] ||
      in_shape[2] != ShapeOf(graph, start.w)[1]) {
    return false;
  }
  chain->time_major = axis == 0;
  // Follow h and c from cell to cell.
  chain->cells = {start};
  while (static_cast<int>(chain->cells.size()) < steps) {
    const Cell& last = chain->cells.back();
    auto next = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) {
      return c.h_prev == last.h && c.c_prev == last.c;
    });
    if (next == cells.end()) return false;
    chain->cells.push_back(*next);
  }
  for (int t = 0; t < steps; ++t) {
    const Cell& c = chain->cells[t];
    if (c.r >= 0 && chain->r < 0) chain->r = c.r;
    if (c.x != unpack.outputs[t] || usage.producer(c.x) != chain->unpack ||
        !SameConstant(model, graph, c.w, start.w) ||
        (c.r >= 0 && !SameConstant(model, graph, c.r, chain->r)) || c.bias != start.bias) {
      return false;
    }
  }
  // Who reads each h and c besides the next cell: at most one PACK of every h in order;
  // the last h may also be read anywhere; the last c nowhere (the fused op keeps it inside).
  for (int t = 0; t < steps; ++t) {
    const Cell& c = chain->cells[t];
    const bool last = t == steps - 1;
    for (int reader : usage.consumers(c.c)) {
      if (!c.ops.count(reader) && (last || !chain->cells[t + 1].ops.count(reader))) return false;
    }
    if (usage.is_graph_output(c.c) || (!last && usage.is_graph_output(c.h))) return false;
    for (int reader : usage.consumers(c.h)) {
      if (!last && chain->cells[t + 1].ops.count(reader)) continue;
      const edit::OperatorT& op = *graph.operators[reader];
      if (OpCodeOf(model, op) == edit::BuiltinOperator_PACK) {
        if (chain->pack >= 0 && chain->pack != reader) return false;
        chain->pack = reader;
        continue;
      }
      if (!last) return false;
    }
  }
  if (chain->pack >= 0) {
    const edit::OperatorT& pack = *graph.operators[chain->pack];
    const auto* po = pack.builtin_options.AsPackOptions();
    if (static_cast<int>(pack.inputs.size()) != steps || (po != nullptr ? po->axis : 0) != axis ||
        pack.outputs.size() != 1 || !IsFloat(graph, pack.outputs[0])) {
      return false;
    }
    for (int t = 0; t < steps; ++t) {
      if (pack.inputs[t] != chain->cells[t].h) return false;
    }
  }
  // Every step input goes only to its cell.
  for (int32_t x : unpack.outputs) {
    if (SoleReader(usage, x) < 0) return false;
  }
  return IsFloat(graph, unpack.inputs[0]);
}

// Replaces the chain: UNPACK, cells and PACK go; one UNIDIRECTIONAL_SEQUENCE_LSTM (and a
// STRIDED_SLICE for the last h when something reads it) comes in at the UNPACK's place.
void ReplaceChain(edit::ModelT& model, edit::SubGraphT& graph, const Usage& usage,
                  const Chain& chain) {
  const Cell& first = chain.cells.front();
  const Cell& last = chain.cells.back();
  const int32_t x_seq = graph.operators[chain.unpack]->inputs[0];
  const int steps = static_cast<int>(chain.cells.size());
  const int batch = ShapeOf(graph, first.h)[0];
  const int hidden = ShapeOf(graph, first.h)[1];
  const int input_size = ShapeOf(graph, first.w)[1];
  std::vector<float> w, r;
  ConstantFloats(model, graph, first.w, &w);
  if (chain.r >= 0) {
    ConstantFloats(model, graph, chain.r, &r);
  } else {
    r.assign(static_cast<size_t>(4) * hidden * hidden, 0.0f);  // multiplies the zero state only
  }
  const std::string name =
      graph.tensors[last.h]->name.empty() ? "lstm" : graph.tensors[last.h]->name;
  static const char* const kGate[4] = {"input", "forget", "cell", "output"};
  std::vector<int32_t> inputs(24, -1);
  inputs[0] = x_seq;
  for (int k = 0; k < 4; ++k) {
    inputs[1 + k] = AddConstantTensor(model, graph, edit::TensorType_FLOAT32, {hidden, input_size},
                                      FloatBytes(Rows(w, k, hidden, input_size)),
                                      name + "/input_to_" + kGate[k] + "_weights");
    inputs[5 + k] = AddConstantTensor(model, graph, edit::TensorType_FLOAT32, {hidden, hidden},
                                      FloatBytes(Rows(r, k, hidden, hidden)),
                                      name + "/recurrent_to_" + kGate[k] + "_weights");
    inputs[12 + k] = AddConstantTensor(model, graph, edit::TensorType_FLOAT32, {hidden},
                                       FloatBytes(Rows(first.bias, k, hidden, 1)),
                                       name + "/" + kGate[k] + "_gate_bias");
  }
  inputs[18] = AddFloatTensor(graph, {batch, hidden}, name + "/output_state", true);
  inputs[19] = AddFloatTensor(graph, {batch, hidden}, name + "/cell_state", true);
  // The sequence output: the PACK's tensor, or a new one.
  int32_t sequence;
  if (chain.pack >= 0) {
    sequence = graph.operators[chain.pack]->outputs[0];
  } else {
    sequence = AddFloatTensor(graph,
                              chain.time_major ? std::vector<int32_t>{steps, batch, hidden}
                                               : std::vector<int32_t>{batch, steps, hidden},
                              name + "/sequence", false);
  }
  auto lstm = std::make_unique<edit::OperatorT>();
  lstm->opcode_index = FindOrAddOpCode(model, edit::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM);
  lstm->inputs = inputs;
  lstm->outputs = {sequence};
  edit::UnidirectionalSequenceLSTMOptionsT options;
  options.fused_activation_function = edit::ActivationFunctionType_TANH;
  options.time_major = chain.time_major;
  lstm->builtin_options.Set(std::move(options));

  // The last h, when read outside the chain, becomes a slice of the sequence.
  std::unique_ptr<edit::OperatorT> slice;
  bool last_h_read = usage.is_graph_output(last.h);
  for (int reader : usage.consumers(last.h)) last_h_read = last_h_read || reader != chain.pack;
  if (last_h_read) {
    const int t_axis = chain.time_major ? 0 : 1;
    std::vector<int32_t> begin(3, 0), end(3, 0);
    begin[t_axis] = steps - 1;
    end[t_axis] = steps;
    slice = std::make_unique<edit::OperatorT>();
    slice->opcode_index = FindOrAddOpCode(model, edit::BuiltinOperator_STRIDED_SLICE);
    slice->inputs = {sequence,
                     AddConstantTensor(model, graph, edit::TensorType_INT32, {3}, Int32Bytes(begin),
                                       name + "/begin"),
                     AddConstantTensor(model, graph, edit::TensorType_INT32, {3}, Int32Bytes(end),
                                       name + "/end"),
                     AddConstantTensor(model, graph, edit::TensorType_INT32, {3},
                                       Int32Bytes({1, 1, 1}), name + "/strides")};
    slice->outputs = {last.h};
    edit::StridedSliceOptionsT so;
    so.begin_mask = so.end_mask = 7 & ~(1 << t_axis);
    so.shrink_axis_mask = 1 << t_axis;
    slice->builtin_options.Set(std::move(so));
  }

  std::vector<bool> erase(graph.operators.size(), false);
  for (const Cell& c : chain.cells) {
    for (int op : c.ops) erase[op] = true;
  }
  if (chain.pack >= 0) erase[chain.pack] = true;
  // The fused op takes the UNPACK's slot (its input is ready there; every reader of the
  // chain's results came after the UNPACK), the slice right after it.
  graph.operators[chain.unpack] = std::move(lstm);
  if (slice) {
    graph.operators.insert(graph.operators.begin() + chain.unpack + 1, std::move(slice));
    erase.insert(erase.begin() + chain.unpack + 1, false);
  }
  EraseOperators(graph, erase);
}

}  // namespace

bool FuseLstmCells(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    std::vector<Cell> cells;
    for (size_t i = 0; i < graph.operators.size(); ++i) {
      Cell cell;
      if (MatchCell(model, graph, usage, static_cast<int>(i), &cell)) cells.push_back(cell);
    }
    for (size_t i = 0; i < cells.size(); ++i) {
      Chain chain;
      if (!BuildChain(model, graph, usage, cells, i, &chain)) continue;
      size_t ops = chain.pack >= 0 ? 2 : 1;
      for (const Cell& c : chain.cells) ops += c.ops.size();
      log.Add(std::to_string(chain.cells.size()) + " LSTM cells (" + std::to_string(ops) +
              " ops from UNPACK #" + std::to_string(chain.unpack) +
              ") -> UNIDIRECTIONAL_SEQUENCE_LSTM" + (chain.time_major ? " (time-major)" : ""));
      ReplaceChain(model, graph, usage, chain);
      return true;
    }
    return false;
  });
  return true;
}

}  // namespace octet::converter::passes
