// The rewrite: ops with an int8 rule run on int8 tensors, the rest stay float, and QUANTIZE /
// DEQUANTIZE ops are inserted wherever a tensor crosses between the two (and at the model's
// inputs and outputs, per --io). Activation tensors produced by int8 ops are converted in
// place (same index, so calibration and per-layer comparisons line up); everything new is
// appended.
#include "converter/quantize/quantize_model.h"

#include <algorithm>
#include <cmath>

#include "converter/graph.h"
#include "converter/quantize/op_quant_rules.h"
#include "converter/quantize/weight_quant.h"
#include "quant/choose_params.h"

namespace octet::converter {
namespace {

using Ops = std::vector<std::unique_ptr<edit::OperatorT>>;

class Int8Rewriter {
 public:
  Int8Rewriter(edit::ModelT& model, const std::map<int32_t, TensorRange>& ranges,
               const QuantizeOptions& options, QuantizeSummary* summary)
      : model_(model),
        graph_(*model.subgraphs.at(0)),
        ranges_(ranges),
        options_(options),
        summary_(summary),
        int16_(options.mode == QuantizeMode::kInt16x8),
        act_type_(int16_ ? edit::TensorType_INT16 : edit::TensorType_INT8) {}

  bool Run(std::string* error);

 private:
  bool IsActivation(int32_t t) const {
    return t >= 0 && !IsConstant(model_, graph_, t) && !graph_.tensors[t]->is_variable &&
           graph_.tensors[t]->type == edit::TensorType_FLOAT32;
  }
  bool HasRange(int32_t t) const { return ranges_.count(t) > 0; }
  // int8: asymmetric over the range; 16x8: symmetric int16 (zero point 0), as the spec says.
  quant::AffineParams RangeParams(int32_t t) const {
    const TensorRange& r = ranges_.at(t);
    if (int16_) {
      return {quant::SymmetricScale(std::max(std::fabs(r.min), std::fabs(r.max)), 32767), 0};
    }
    return quant::AsymmetricParams(r.min, r.max, -128, 127);
  }
  int Version(edit::BuiltinOperator code, const edit::OperatorT& op) const {
    return int16_ ? Int16OpVersion(code) : Int8OpVersion(code, op, graph_);
  }
  bool IsAct(int32_t t) const { return graph_.tensors[t]->type == act_type_; }
  int QuantizeVersion() const { return int16_ ? 2 : 1; }  // op_version.cc: int16 output -> 2
  // A new tensor like `t` (shape, name + suffix) of `type`.
  int32_t NewTensor(int32_t t, edit::TensorType type, const std::string& suffix) {
    auto tensor = std::make_unique<edit::TensorT>();
    tensor->shape = graph_.tensors[t]->shape;
    tensor->shape_signature = graph_.tensors[t]->shape_signature;
    tensor->name = graph_.tensors[t]->name + suffix;
    tensor->type = type;
    graph_.tensors.push_back(std::move(tensor));
    return static_cast<int32_t>(graph_.tensors.size() - 1);
  }
  void Emit(edit::BuiltinOperator code, int version, int32_t in, int32_t out) {
    auto op = std::make_unique<edit::OperatorT>();
    op->opcode_index = FindOrAddOpCode(model_, code, version);
    op->inputs = {in};
    op->outputs = {out};
    ops_.push_back(std::move(op));
  }
  const edit::QuantizationParametersT& Params(int32_t t) const {
    return *graph_.tensors[t]->quantization;
  }
  bool SameParams(int32_t a, int32_t b) const {
    return Params(a).scale == Params(b).scale && Params(a).zero_point == Params(b).zero_point;
  }

  // The int8 version of activation `t` (converting with QUANTIZE when it is float).
  int32_t Int8Of(int32_t t);
  // The int8 version of `t` with exactly the parameters of `like` (requantized if needed).
  int32_t Int8With(int32_t t, int32_t like);
  // The float version of activation `t` (DEQUANTIZE when it became int8).
  int32_t FloatOf(int32_t t);

  bool QuantizeOp(std::unique_ptr<edit::OperatorT> op, const OpQuantRule& rule,
                  edit::BuiltinOperator code);
  bool CanQuantize(const edit::OperatorT& op, const OpQuantRule& rule, edit::BuiltinOperator code,
                   std::string* why) const;

  edit::ModelT& model_;
  edit::SubGraphT& graph_;
  const std::map<int32_t, TensorRange>& ranges_;
  const QuantizeOptions& options_;
  QuantizeSummary* summary_;
  const bool int16_;
  const edit::TensorType act_type_;  // INT8, or INT16 for 16x8
  Ops ops_;
  std::vector<bool> in_int8_;              // by original tensor: converted in place
  std::map<int32_t, int32_t> int8_copy_;   // float tensor -> its QUANTIZE'd twin
  std::map<int32_t, int32_t> float_copy_;  // int8 tensor -> its DEQUANTIZE'd twin
  std::map<std::pair<int32_t, int32_t>, int32_t> requantized_;
};

int32_t Int8Rewriter::Int8Of(int32_t t) {
  if (t < static_cast<int32_t>(in_int8_.size()) && in_int8_[t]) {
    if (graph_.tensors[t]->type == edit::TensorType_UINT8) {
      // A uint8 model input: int8 = uint8 - 128, same scale.
      auto found = int8_copy_.find(t);
      if (found != int8_copy_.end()) return found->second;
      const int32_t q = NewTensor(t, edit::TensorType_INT8, "_int8");
      SetQuantization(*graph_.tensors[q], Params(t).scale[0], Params(t).zero_point[0] - 128);
      Emit(edit::BuiltinOperator_QUANTIZE, QuantizeVersion(), t, q);
      return int8_copy_[t] = q;
    }
    return t;
  }
  auto found = int8_copy_.find(t);
  if (found != int8_copy_.end()) return found->second;
  const quant::AffineParams p = RangeParams(t);
  const int32_t q = NewTensor(t, act_type_, int16_ ? "_int16" : "_int8");
  SetQuantization(*graph_.tensors[q], p.scale, p.zero_point);
  Emit(edit::BuiltinOperator_QUANTIZE, QuantizeVersion(), t, q);
  return int8_copy_[t] = q;
}

int32_t Int8Rewriter::Int8With(int32_t t, int32_t like) {
  const int32_t q = Int8Of(t);
  if (SameParams(q, like)) return q;
  const auto key = std::make_pair(q, like);
  auto found = requantized_.find(key);
  if (found != requantized_.end()) return found->second;
  const int32_t r = NewTensor(t, act_type_, "_requantized");
  SetQuantization(*graph_.tensors[r], Params(like).scale[0], Params(like).zero_point[0]);
  Emit(edit::BuiltinOperator_QUANTIZE, QuantizeVersion(), q, r);
  return requantized_[key] = r;
}

int32_t Int8Rewriter::FloatOf(int32_t t) {
  if (t >= static_cast<int32_t>(in_int8_.size()) || !in_int8_[t]) return t;
  auto found = float_copy_.find(t);
  if (found != float_copy_.end()) return found->second;
  const int32_t f = NewTensor(t, edit::TensorType_FLOAT32, "_float");
  const edit::TensorType type = graph_.tensors[t]->type;
  Emit(edit::BuiltinOperator_DEQUANTIZE,
       type == edit::TensorType_INT16  ? 3
       : type == edit::TensorType_INT8 ? 2
                                       : 1,
       t, f);
  return float_copy_[t] = f;
}

bool Int8Rewriter::CanQuantize(const edit::OperatorT& op, const OpQuantRule& rule,
                               edit::BuiltinOperator code, std::string* why) const {
  if (op.outputs.size() != 1 || !IsActivation(op.outputs[0])) {
    *why = "its output is not a float tensor";
    return false;
  }
  if (rule.output == OutputRule::kCalibrated && !HasRange(op.outputs[0])) {
    *why = "no calibrated range for its output";
    return false;
  }
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const int32_t t = op.inputs[i];
    if (t < 0) continue;
    const bool data = static_cast<int>(i) < rule.activations;
    const bool converted = t < static_cast<int32_t>(in_int8_.size()) && in_int8_[t];
    if (converted && data) continue;  // already int8 (an earlier int8 op wrote it)
    if (static_cast<int>(i) == rule.weights) {
      std::vector<float> w;
      if (!ConstantFloats(model_, graph_, t, &w)) {
        *why = "its weights are not float constants";
        return false;
      }
    } else if (static_cast<int>(i) == rule.bias) {
      std::vector<float> b;
      if (!ConstantFloats(model_, graph_, t, &b)) {
        *why = "its bias is not a float constant";
        return false;
      }
    } else if (data) {
      if (IsActivation(t)) {
        if (!HasRange(t)) {
          *why = "no calibrated range for an input";
          return false;
        }
      } else if (graph_.tensors[t]->type != edit::TensorType_FLOAT32) {
        *why = "an input is not float";
        return false;
      }
    }
  }
  (void)code;
  return true;
}

bool Int8Rewriter::QuantizeOp(std::unique_ptr<edit::OperatorT> op, const OpQuantRule& rule,
                              edit::BuiltinOperator code) {
  const int32_t out = op->outputs[0];
  const std::vector<int32_t> original_inputs = op->inputs;
  // Output parameters first: CONCATENATION's inputs are requantized to them.
  quant::AffineParams out_params{};
  bool out_known = true;
  if (rule.output == OutputRule::kCalibrated) {
    out_params = RangeParams(out);
  } else if (rule.output == OutputRule::kFixed) {
    // int16 outputs of SOFTMAX / LOGISTIC / TANH: 1/32768 and zero point 0 (seed 000).
    out_params = int16_ ? quant::AffineParams{1.0f / 32768.0f, 0}
                        : quant::AffineParams{rule.fixed_scale, rule.fixed_zero_point};
  } else {
    out_known = false;  // from the input, below
  }
  std::vector<float> weight_scales;
  for (size_t i = 0; i < op->inputs.size(); ++i) {
    int32_t& t = op->inputs[i];
    if (t < 0) continue;
    if (static_cast<int>(i) == rule.weights) {
      const bool per_channel =
          code != edit::BuiltinOperator_FULLY_CONNECTED || options_.fc_per_channel;
      t = QuantizeWeights(model_, graph_, t, per_channel ? rule.weights_axis : -1, &weight_scales);
    } else if (static_cast<int>(i) == rule.bias) {
      continue;  // after the input's scale is known
    } else if (static_cast<int>(i) < rule.activations) {
      if (IsActivation(t) || (t < static_cast<int32_t>(in_int8_.size()) && in_int8_[t])) {
        t = Int8Of(t);
      } else {
        t = int16_ ? QuantizeConstantInt16(model_, graph_, t)
                   : QuantizeConstantAsymmetric(model_, graph_, t);
      }
    }
  }
  if (!out_known) {
    const auto& in = Params(op->inputs[0]);
    out_params = {in.scale[0], static_cast<int32_t>(in.zero_point[0])};
  }
  edit::TensorT& output = *graph_.tensors[out];
  output.type = act_type_;
  SetQuantization(output, out_params.scale, out_params.zero_point);
  if (rule.same_inputs_as_output) {
    for (int32_t& t : op->inputs) {
      if (t >= 0) t = Int8With(t, out);
    }
  }
  if (rule.bias >= 0 && static_cast<int>(op->inputs.size()) > rule.bias &&
      op->inputs[rule.bias] >= 0) {
    const float input_scale = Params(op->inputs[0]).scale[0];
    op->inputs[rule.bias] =
        QuantizeBias(model_, graph_, op->inputs[rule.bias], input_scale, weight_scales,
                     /*int64=*/int16_);
  }
  for (size_t i = 0; i < op->inputs.size(); ++i) {
    // A weight, bias or constant that could not be quantized leaves -1 where a tensor was.
    if (op->inputs[i] == -1 && original_inputs[i] != -1) return false;
  }
  in_int8_.resize(graph_.tensors.size(), false);
  in_int8_[out] = true;
  op->opcode_index = FindOrAddOpCode(model_, code, Version(code, *op));
  ops_.push_back(std::move(op));
  return true;
}

bool Int8Rewriter::Run(std::string* error) {
  const size_t original_tensors = graph_.tensors.size();
  in_int8_.assign(original_tensors, false);
  // Model inputs that the caller feeds as integers are converted in place.
  for (int32_t t : graph_.inputs) {
    if (options_.io == QuantizeIo::kFloat || !IsActivation(t)) continue;
    if (!HasRange(t)) {
      *error = "no calibrated range for input '" + graph_.tensors[t]->name + "'";
      return false;
    }
    const quant::AffineParams p = RangeParams(t);
    edit::TensorT& tensor = *graph_.tensors[t];
    if (options_.io == QuantizeIo::kInt8) {
      tensor.type = act_type_;
      SetQuantization(tensor, p.scale, p.zero_point);
    } else {
      tensor.type = edit::TensorType_UINT8;
      SetQuantization(tensor, p.scale, p.zero_point + 128);
    }
    in_int8_[t] = true;
  }
  Ops original = std::move(graph_.operators);
  for (std::unique_ptr<edit::OperatorT>& op : original) {
    const edit::BuiltinOperator code = OpCodeOf(model_, *op);
    const std::string name = OpNameOf(model_, *op);
    OpQuantRule rule;
    std::string why = "no int8 rule for it";
    if (Int8RuleFor(code, &rule) && CanQuantize(*op, rule, code, &why)) {
      ++summary_->quantized[name];
      if (!QuantizeOp(std::move(op), rule, code)) {
        *error = "could not quantize " + name;
        return false;
      }
      continue;
    }
    ++summary_->kept_float[name];
    summary_->notes.push_back(name + " stays float: " + why);
    for (int32_t& t : op->inputs) {
      if (t >= 0) t = FloatOf(t);
    }
    ops_.push_back(std::move(op));
  }
  // Model outputs: converted back (float io), left as int8, or moved to uint8.
  for (int32_t& t : graph_.outputs) {
    const bool int8 = t < static_cast<int32_t>(in_int8_.size()) && in_int8_[t] && IsAct(t);
    if (options_.io == QuantizeIo::kFloat && int8) {
      // The float output keeps the model's output name; the integer tensor gets a suffix.
      const int32_t f = FloatOf(t);
      graph_.tensors[f]->name = graph_.tensors[t]->name;
      graph_.tensors[t]->name += int16_ ? "_int16" : "_int8";
      t = f;
    } else if (options_.io != QuantizeIo::kFloat && !int8 && IsActivation(t) && HasRange(t)) {
      t = Int8Of(t);
    }
    if (options_.io == QuantizeIo::kUInt8 && graph_.tensors[t]->type == edit::TensorType_INT8) {
      const int32_t u = NewTensor(t, edit::TensorType_UINT8, "_uint8");
      SetQuantization(*graph_.tensors[u], Params(t).scale[0], Params(t).zero_point[0] + 128);
      Emit(edit::BuiltinOperator_QUANTIZE, 1, t, u);
      t = u;
    }
  }
  graph_.operators = std::move(ops_);
  return true;
}

}  // namespace

bool CheckQuantizable(const edit::ModelT& model, std::string* error) {
  if (model.subgraphs.empty()) {
    *error = "the model has no subgraph";
    return false;
  }
  const edit::SubGraphT& graph = *model.subgraphs[0];
  for (int32_t t = 0; t < static_cast<int32_t>(graph.tensors.size()); ++t) {
    const auto& tensor = graph.tensors[t];
    // Quantized constants alone (a dynamic-range model) are dequantized first, by the caller.
    if (IsQuantizedType(tensor->type) && tensor->quantization != nullptr &&
        !tensor->quantization->scale.empty() && !IsConstant(model, graph, t)) {
      *error = "the model is already quantized (tensor '" + tensor->name + "' is " +
               edit::EnumNameTensorType(tensor->type) + " with a scale)";
      return false;
    }
  }
  return true;
}

bool QuantizeModel(edit::ModelT& model, const std::map<int32_t, TensorRange>& ranges,
                   const QuantizeOptions& options, QuantizeSummary* summary, std::string* error) {
  if (!CheckQuantizable(model, error)) return false;
  if (DequantizeConstants(model) > 0) {
    summary->notes.push_back("int8 weights of the input model dequantized, then quantized afresh");
  }
  if (options.mode == QuantizeMode::kInt16x8 && options.io == QuantizeIo::kUInt8) {
    *error = "--io uint8 goes with full-int8; 16x8 models take int16 or float inputs";
    return false;
  }
  if (options.mode == QuantizeMode::kFullInt8 || options.mode == QuantizeMode::kInt16x8) {
    Int8Rewriter rewriter(model, ranges, options, summary);
    if (!rewriter.Run(error)) return false;
  } else {
    edit::SubGraphT& graph = *model.subgraphs[0];
    Ops original = std::move(graph.operators);
    Ops ops;
    std::map<int32_t, int32_t> dequantized;  // fp16 mode: float constant -> DEQUANTIZE output
    for (std::unique_ptr<edit::OperatorT>& op : original) {
      const edit::BuiltinOperator code = OpCodeOf(model, *op);
      const std::string name = OpNameOf(model, *op);
      if (options.mode == QuantizeMode::kDynamicRange) {
        OpQuantRule rule;
        std::vector<float> w;
        const bool weighted = (code == edit::BuiltinOperator_CONV_2D ||
                               code == edit::BuiltinOperator_DEPTHWISE_CONV_2D ||
                               code == edit::BuiltinOperator_FULLY_CONNECTED) &&
                              Int8RuleFor(code, &rule) && op->inputs.size() > 1 &&
                              ConstantFloats(model, graph, op->inputs[1], &w);
        if (weighted) {
          const bool per_channel =
              code != edit::BuiltinOperator_FULLY_CONNECTED || options.fc_per_channel;
          std::vector<float> scales;
          op->inputs[1] = QuantizeWeights(model, graph, op->inputs[1],
                                          per_channel ? rule.weights_axis : -1, &scales);
          // TFLite's versions for hybrid ops (op_version.cc).
          const int version = code == edit::BuiltinOperator_CONV_2D             ? 5
                              : code == edit::BuiltinOperator_DEPTHWISE_CONV_2D ? 6
                              : per_channel                                     ? 12
                                                                                : 3;
          op->opcode_index = FindOrAddOpCode(model, code, version);
          ++summary->quantized[name];
        } else {
          ++summary->kept_float[name];
        }
      } else {  // float16: every float constant input read through one DEQUANTIZE
        bool changed = false;
        for (int32_t& t : op->inputs) {
          std::vector<float> v;
          if (t < 0 || !ConstantFloats(model, graph, t, &v)) continue;
          auto found = dequantized.find(t);
          if (found == dequantized.end()) {
            const int32_t half = Float16Constant(model, graph, t);
            auto out = std::make_unique<edit::TensorT>();
            out->shape = graph.tensors[t]->shape;
            out->name = graph.tensors[t]->name;
            out->type = edit::TensorType_FLOAT32;
            graph.tensors.push_back(std::move(out));
            const int32_t f = static_cast<int32_t>(graph.tensors.size() - 1);
            auto deq = std::make_unique<edit::OperatorT>();
            deq->opcode_index = FindOrAddOpCode(model, edit::BuiltinOperator_DEQUANTIZE, 3);
            deq->inputs = {half};
            deq->outputs = {f};
            ops.push_back(std::move(deq));
            found = dequantized.emplace(t, f).first;
          }
          t = found->second;
          changed = true;
        }
        ++(changed ? summary->quantized : summary->kept_float)[name];
      }
      ops.push_back(std::move(op));
    }
    graph.operators = std::move(ops);
  }
  CompactModel(model);
  return true;
}

}  // namespace octet::converter
