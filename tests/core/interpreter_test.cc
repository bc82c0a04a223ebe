// The runtime core with test-local kernels (so it is tested independently of the real
// kernel families): resolver lookups, building from a FlatBuffer, zero-copy constants,
// shape propagation on resize, variables, dynamic outputs, signatures, unresolved ops.
#include "tensorflow/lite/interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstring>

#include "format/model_builder.h"
#include "memory/arena_planner.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace {

using octet::format::ModelBuilder;
using namespace tflite;

struct Capture : ErrorReporter {
  std::string text;
  int Report(const char* format, va_list args) override {
    char buf[1024];
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    text += buf;
    text += "\n";
    return n;
  }
};

// out = a + b (same shape); output shape follows input 0.
TfLiteStatus TestAddPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* a = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, a != nullptr && out != nullptr);
  return context->ResizeTensor(context, out, TfLiteIntArrayCopy(a->dims));
}
TfLiteStatus TestAddEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* a = GetInput(context, node, 0);
  const TfLiteTensor* b = GetInput(context, node, 1);
  TfLiteTensor* out = GetOutput(context, node, 0);
  const int64_t n = NumElements(a), nb = NumElements(b);
  for (int64_t i = 0; i < n; ++i) out->data.f[i] = a->data.f[i] + b->data.f[nb == 1 ? 0 : i];
  return kTfLiteOk;
}
TfLiteRegistration* TestAdd() {
  static TfLiteRegistration r = {nullptr, nullptr, TestAddPrepare, TestAddEval};
  return &r;
}

// state += x; out = state (state is a variable input).
TfLiteStatus AccumulatePrepare(TfLiteContext* context, TfLiteNode* node) {
  return context->ResizeTensor(context, GetOutput(context, node, 0),
                               TfLiteIntArrayCopy(GetInput(context, node, 0)->dims));
}
TfLiteStatus AccumulateEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* x = GetInput(context, node, 0);
  TfLiteTensor* state = GetVariableInput(context, node, 1);
  TF_LITE_ENSURE(context, state != nullptr);
  TfLiteTensor* out = GetOutput(context, node, 0);
  for (int64_t i = 0; i < NumElements(x); ++i) {
    state->data.f[i] += x->data.f[i];
    out->data.f[i] = state->data.f[i];
  }
  return kTfLiteOk;
}

// Output of length x[0] (known only at run time), filled with 1..n.
TfLiteStatus RangePrepare(TfLiteContext* context, TfLiteNode* node) {
  SetTensorToDynamic(GetOutput(context, node, 0));
  return kTfLiteOk;
}
TfLiteStatus RangeEval(TfLiteContext* context, TfLiteNode* node) {
  const int n = static_cast<int>(GetInput(context, node, 0)->data.f[0]);
  TF_LITE_ENSURE(context, n >= 0 && n < 1000);
  TfLiteTensor* out = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, out, CreateIntArray({n})));
  for (int i = 0; i < n; ++i) out->data.f[i] = static_cast<float>(i + 1);
  return kTfLiteOk;
}

// x -> ADD(x, c) -> y -> ADD(y, x) -> z, with c a constant [1,2,3,4].
std::vector<uint8_t> TwoAddModel(int add_version = 1) {
  ModelBuilder b;
  const int add = b.AddOperatorCode(BuiltinOperator_ADD, add_version);
  b.SetSubgraphName("main");
  const int x = b.AddTensor(TensorType_FLOAT32, {4}, "x");
  const int c = b.AddConstTensor(TensorType_FLOAT32, {4}, std::vector<float>{1, 2, 3, 4}, "c");
  const int y = b.AddTensor(TensorType_FLOAT32, {4}, "y");
  const int z = b.AddTensor(TensorType_FLOAT32, {4}, "z");
  b.AddOperator(add, {x, c}, {y}, b.AddOptions());
  b.AddOperator(add, {y, x}, {z}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({z});
  b.AddSignature("serving_default", {{"input", static_cast<uint32_t>(x)}},
                 {{"output", static_cast<uint32_t>(z)}});
  return b.Finish();
}

struct Built {
  Capture reporter;
  std::vector<uint8_t> bytes;
  std::unique_ptr<FlatBufferModel> model;
  std::unique_ptr<Interpreter> interpreter;
  TfLiteStatus status = kTfLiteError;
};

void Build(Built* out, std::vector<uint8_t> bytes, const OpResolver& resolver) {
  out->bytes = std::move(bytes);
  out->model = FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(out->bytes.data()),
                                                out->bytes.size(), &out->reporter);
  ASSERT_NE(out->model, nullptr) << out->reporter.text;
  out->status = InterpreterBuilder(*out->model, resolver)(&out->interpreter);
}

TEST(Resolver, VersionRangesAndCustomOps) {
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd(), 1, 3);
  EXPECT_EQ(r.FindOp(BuiltinOperator_ADD, 0), nullptr);
  for (int v = 1; v <= 3; ++v) {
    const TfLiteRegistration* reg = r.FindOp(BuiltinOperator_ADD, v);
    ASSERT_NE(reg, nullptr);
    EXPECT_EQ(reg->version, v);
    EXPECT_EQ(reg->builtin_code, kTfLiteBuiltinAdd);
    EXPECT_EQ(reg->invoke, TestAddEval);
  }
  EXPECT_EQ(r.FindOp(BuiltinOperator_ADD, 4), nullptr);
  EXPECT_EQ(r.FindOp(BuiltinOperator_MUL, 1), nullptr);
  r.AddCustom("MyOp", TestAdd(), 2);
  EXPECT_EQ(r.FindOp("MyOp", 1), nullptr);
  ASSERT_NE(r.FindOp("MyOp", 2), nullptr);
  EXPECT_STREQ(r.FindOp("MyOp", 2)->custom_name, "MyOp");
  EXPECT_EQ(r.FindOp("MyOp", 2)->builtin_code, kTfLiteBuiltinCustom);
}

TEST(Interpreter, BuildsAndRunsWithZeroCopyConstants) {
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd());
  Built b;
  Build(&b, TwoAddModel(), r);
  ASSERT_EQ(b.status, kTfLiteOk) << b.reporter.text;
  Interpreter& in = *b.interpreter;
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk) << b.reporter.text;
  ASSERT_EQ(in.inputs().size(), 1u);
  ASSERT_EQ(in.outputs().size(), 1u);
  float* x = in.typed_input_tensor<float>(0);
  for (int i = 0; i < 4; ++i) x[i] = 10.f * i;
  ASSERT_EQ(in.Invoke(), kTfLiteOk);
  const float* z = in.typed_output_tensor<float>(0);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(z[i], 2 * 10.f * i + (i + 1));
  // The constant tensor points into the model bytes: no copy was made.
  const TfLiteTensor* c = in.tensor(1);
  EXPECT_EQ(c->allocation_type, kTfLiteMmapRo);
  EXPECT_GE(c->data.raw_const, reinterpret_cast<const char*>(b.bytes.data()));
  EXPECT_LT(c->data.raw_const, reinterpret_cast<const char*>(b.bytes.data() + b.bytes.size()));
  EXPECT_STREQ(in.GetInputName(0), "x");
  ASSERT_NE(in.primary_subgraph().planner_stats(), nullptr);
  EXPECT_GE(in.primary_subgraph().planner_stats()->arena_bytes, 3 * 16u);
}

TEST(Interpreter, UnregisteredVersionIsNamed) {
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd(), 1, 2);
  Built b;
  Build(&b, TwoAddModel(/*add_version=*/5), r);
  EXPECT_NE(b.status, kTfLiteOk);
  EXPECT_EQ(b.interpreter, nullptr);
  EXPECT_NE(b.reporter.text.find("ADD version 5"), std::string::npos) << b.reporter.text;
}

TEST(Interpreter, DeprecatedAndExtendedBuiltinCodesResolve) {
  // Old writers fill only deprecated_builtin_code; new ones put codes > 126 in builtin_code
  // with deprecated_builtin_code = 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
  struct Case {
    int8_t deprecated;
    int32_t builtin;
    int expected;
  };
  for (const Case& c : {Case{BuiltinOperator_MUL, 0, kTfLiteBuiltinMul},
                        Case{BuiltinOperator_ADD, BuiltinOperator_ADD, kTfLiteBuiltinAdd},
                        Case{127, BuiltinOperator_BROADCAST_TO, kTfLiteBuiltinBroadcastTo}}) {
    ModelBuilder mb;
    const int code = mb.AddRawOperatorCode(c.deprecated, c.builtin, "", 1);
    const int x = mb.AddTensor(TensorType_FLOAT32, {2}, "x");
    const int y = mb.AddTensor(TensorType_FLOAT32, {2}, "y");
    mb.AddOperator(code, {x, x}, {y});
    mb.SetInputs({x});
    mb.SetOutputs({y});
    MutableOpResolver r;
    for (auto op : {BuiltinOperator_ADD, BuiltinOperator_MUL, BuiltinOperator_BROADCAST_TO}) {
      r.AddBuiltin(op, TestAdd());
    }
    Built b;
    Build(&b, mb.Finish(), r);
    ASSERT_EQ(b.status, kTfLiteOk) << b.reporter.text;
    EXPECT_EQ(b.interpreter->node_and_registration(0)->second.builtin_code, c.expected);
  }
}

TEST(Interpreter, ResizeInputPropagatesShapes) {
  ModelBuilder mb;
  const int add = mb.AddOperatorCode(BuiltinOperator_ADD);
  const int x = mb.AddTensor(TensorType_FLOAT32, {1}, "x");
  const int y = mb.AddTensor(TensorType_FLOAT32, {1}, "y");
  const int z = mb.AddTensor(TensorType_FLOAT32, {1}, "z");
  mb.AddOperator(add, {x, x}, {y});
  mb.AddOperator(add, {y, x}, {z});
  mb.SetInputs({x});
  mb.SetOutputs({z});
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd());
  Built b;
  Build(&b, mb.Finish(), r);
  Interpreter& in = *b.interpreter;
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(in.ResizeInputTensor(x, {2, 3}), kTfLiteOk);
  EXPECT_NE(in.Invoke(), kTfLiteOk);  // must allocate after a resize
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk) << b.reporter.text;
  EXPECT_EQ(in.tensor(z)->dims->size, 2);
  EXPECT_EQ(in.tensor(z)->bytes, 6 * sizeof(float));
  for (int i = 0; i < 6; ++i) in.typed_input_tensor<float>(0)[i] = float(i);
  ASSERT_EQ(in.Invoke(), kTfLiteOk);
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(in.typed_output_tensor<float>(0)[i], 3.f * i);
  EXPECT_NE(in.ResizeInputTensor(y, {2}), kTfLiteOk);  // not a graph input
  EXPECT_NE(in.ResizeInputTensor(x, {-1}), kTfLiteOk);
}

TEST(Interpreter, VariablesPersistAcrossInvokesAndReset) {
  ModelBuilder mb;
  const int acc = mb.AddCustomOperatorCode("Accumulate");
  const int x = mb.AddTensor(TensorType_FLOAT32, {2}, "x");
  octet::format::TensorSpec state_spec;
  state_spec.shape = {2};
  state_spec.name = "state";
  state_spec.is_variable = true;
  const int state = mb.AddTensor(state_spec);
  const int y = mb.AddTensor(TensorType_FLOAT32, {2}, "y");
  mb.AddCustomOperator(acc, {x, state}, {y}, {});
  mb.SetInputs({x});
  mb.SetOutputs({y});
  static TfLiteRegistration reg = {nullptr, nullptr, AccumulatePrepare, AccumulateEval};
  MutableOpResolver r;
  r.AddCustom("Accumulate", &reg);
  Built b;
  Build(&b, mb.Finish(), r);
  ASSERT_EQ(b.status, kTfLiteOk) << b.reporter.text;
  Interpreter& in = *b.interpreter;
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk) << b.reporter.text;
  EXPECT_EQ(in.tensor(state)->allocation_type, kTfLiteArenaRwPersistent);
  in.typed_input_tensor<float>(0)[0] = 1.5f;
  in.typed_input_tensor<float>(0)[1] = -2.f;
  for (int k = 1; k <= 3; ++k) {
    ASSERT_EQ(in.Invoke(), kTfLiteOk);
    EXPECT_FLOAT_EQ(in.typed_output_tensor<float>(0)[0], 1.5f * k);
    EXPECT_FLOAT_EQ(in.typed_output_tensor<float>(0)[1], -2.f * k);
  }
  ASSERT_EQ(in.ResetVariableTensors(), kTfLiteOk);
  ASSERT_EQ(in.Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(in.typed_output_tensor<float>(0)[0], 1.5f);
}

TEST(Interpreter, DynamicOutputPreparesLaterNodesAtInvoke) {
  ModelBuilder mb;
  const int range = mb.AddCustomOperatorCode("Range");
  const int add = mb.AddOperatorCode(BuiltinOperator_ADD);
  const int n = mb.AddTensor(TensorType_FLOAT32, {1}, "n");
  const int seq = mb.AddTensor(TensorType_FLOAT32, {0}, "seq");
  const int twice = mb.AddTensor(TensorType_FLOAT32, {0}, "twice");
  mb.AddCustomOperator(range, {n}, {seq}, {});
  mb.AddOperator(add, {seq, seq}, {twice});
  mb.SetInputs({n});
  mb.SetOutputs({twice});
  static TfLiteRegistration reg = {nullptr, nullptr, RangePrepare, RangeEval};
  MutableOpResolver r;
  r.AddCustom("Range", &reg);
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd());
  Built b;
  Build(&b, mb.Finish(), r);
  Interpreter& in = *b.interpreter;
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk) << b.reporter.text;
  EXPECT_TRUE(in.primary_subgraph().HasDynamicTensors());
  for (int count : {3, 7, 2}) {
    in.typed_input_tensor<float>(0)[0] = float(count);
    ASSERT_EQ(in.Invoke(), kTfLiteOk) << b.reporter.text;
    const TfLiteTensor* out = in.tensor(twice);
    ASSERT_EQ(out->dims->data[0], count);
    for (int i = 0; i < count; ++i) EXPECT_FLOAT_EQ(out->data.f[i], 2.f * (i + 1));
  }
}

TEST(Interpreter, SignatureRunnerByKey) {
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd());
  Built b;
  Build(&b, TwoAddModel(), r);
  Interpreter& in = *b.interpreter;
  ASSERT_EQ(in.signature_keys().size(), 1u);
  EXPECT_EQ(*in.signature_keys()[0], "serving_default");
  EXPECT_EQ(in.GetSignatureRunner("nope"), nullptr);
  SignatureRunner* runner = in.GetSignatureRunner("serving_default");
  ASSERT_NE(runner, nullptr);
  ASSERT_EQ(runner->AllocateTensors(), kTfLiteOk);
  TfLiteTensor* input = runner->input_tensor("input");
  ASSERT_NE(input, nullptr);
  for (int i = 0; i < 4; ++i) input->data.f[i] = 1.f;
  ASSERT_EQ(runner->Invoke(), kTfLiteOk);
  const TfLiteTensor* output = runner->output_tensor("output");
  ASSERT_NE(output, nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(output->data.f[i], 2.f + (i + 1));
  EXPECT_EQ(runner->input_tensor("missing"), nullptr);
}

TEST(Interpreter, UnresolvedCustomAndFlexOpsFailAtAllocateWithTheirNames) {
  for (const char* name : {"fake-op-double", "FlexAbs"}) {
    ModelBuilder mb;
    const int op = mb.AddCustomOperatorCode(name);
    const int x = mb.AddTensor(TensorType_FLOAT32, {1}, "x");
    const int y = mb.AddTensor(TensorType_FLOAT32, {1}, "y");
    mb.AddCustomOperator(op, {x}, {y}, {});
    mb.SetInputs({x});
    mb.SetOutputs({y});
    MutableOpResolver r;
    Built b;
    Build(&b, mb.Finish(), r);
    ASSERT_EQ(b.status, kTfLiteOk) << b.reporter.text;  // a delegate could still claim it
    EXPECT_NE(b.interpreter->AllocateTensors(), kTfLiteOk);
    EXPECT_NE(b.reporter.text.find(name), std::string::npos) << b.reporter.text;
    if (std::string(name) == "FlexAbs") {
      EXPECT_NE(b.reporter.text.find("TensorFlow Select"), std::string::npos) << b.reporter.text;
    }
  }
}

// LiteRT's blockwise-quantized INT4 weights (fp16 scales per block, in another tensor) would
// read as wrong affine numbers: the builder refuses the tensor by name. The model is written
// with the schema's own builders (ModelBuilder has no blockwise details).
TEST(Interpreter, BlockwiseQuantizedTensorsAreRefusedByName) {
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<uint8_t> weight_bytes(4 * 64 / 2, 0x11);
  const std::vector<uint16_t> scale_values(8, 0x3c00);  // fp16 1.0
  const auto scale_bytes = reinterpret_cast<const uint8_t*>(scale_values.data());
  std::vector<flatbuffers::Offset<Buffer>> buffers = {
      CreateBuffer(fbb), CreateBufferDirect(fbb, &weight_bytes),
      CreateBuffer(fbb, fbb.CreateVector(scale_bytes, 2 * scale_values.size()))};
  const auto blockwise = CreateBlockwiseQuantization(fbb, /*scales=*/2, /*zero_points=*/-1,
                                                     /*block_size=*/32);
  const auto quant = CreateQuantizationParameters(
      fbb, 0, 0, 0, 0, QuantizationDetails_BlockwiseQuantization, blockwise.Union());
  const std::vector<int32_t> x_shape = {1, 64}, w_shape = {4, 64}, s_shape = {4, 2},
                             y_shape = {1, 4};
  std::vector<flatbuffers::Offset<Tensor>> tensors = {
      CreateTensorDirect(fbb, &x_shape, TensorType_FLOAT32, 0, "x"),
      CreateTensorDirect(fbb, &w_shape, TensorType_INT4, 1, "blockwise_weights", quant),
      CreateTensorDirect(fbb, &s_shape, TensorType_FLOAT16, 2, "scales"),
      CreateTensorDirect(fbb, &y_shape, TensorType_FLOAT32, 0, "y")};
  const std::vector<int32_t> op_inputs = {0, 1, -1}, op_outputs = {3}, inputs = {0}, outputs = {3};
  std::vector<flatbuffers::Offset<Operator>> ops = {
      CreateOperatorDirect(fbb, 0, &op_inputs, &op_outputs, BuiltinOptions_FullyConnectedOptions,
                           CreateFullyConnectedOptions(fbb).Union())};
  std::vector<flatbuffers::Offset<SubGraph>> subgraphs = {
      CreateSubGraphDirect(fbb, &tensors, &inputs, &outputs, &ops)};
  std::vector<flatbuffers::Offset<OperatorCode>> codes = {CreateOperatorCode(
      fbb, BuiltinOperator_FULLY_CONNECTED, 0, 1, BuiltinOperator_FULLY_CONNECTED)};
  fbb.Finish(CreateModelDirect(fbb, 3, &codes, &subgraphs, "blockwise", &buffers),
             ModelIdentifier());
  Built b;
  Build(&b, std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()),
        tflite::ops::builtin::BuiltinOpResolver());
  EXPECT_NE(b.status, kTfLiteOk);
  EXPECT_NE(b.reporter.text.find("'blockwise_weights' uses blockwise quantization (block size 32)"),
            std::string::npos)
      << b.reporter.text;
}

TEST(Interpreter, ProgrammaticGraphWithoutAllocateIsRefused) {
  Capture reporter;
  Interpreter in(&reporter);
  ASSERT_EQ(in.AddTensors(2), kTfLiteOk);
  in.SetTensorParametersReadWrite(0, kTfLiteFloat32, "a", {2}, TfLiteQuantizationParams{});
  in.SetTensorParametersReadWrite(1, kTfLiteFloat32, "b", {2}, TfLiteQuantizationParams{});
  in.SetInputs({0});
  in.SetOutputs({1});
  EXPECT_NE(in.AddNodeWithParameters({0, 7}, {1}, nullptr, 0, nullptr, TestAdd()), kTfLiteOk);
  EXPECT_NE(reporter.text.find("tensor 7"), std::string::npos) << reporter.text;
  ASSERT_EQ(in.AddNodeWithParameters({0, 0}, {1}, nullptr, 0, nullptr, TestAdd()), kTfLiteOk);
  EXPECT_NE(in.Invoke(), kTfLiteOk);
  ASSERT_EQ(in.AllocateTensors(), kTfLiteOk);
  in.typed_input_tensor<float>(0)[0] = 2.f;
  in.typed_input_tensor<float>(0)[1] = 3.f;
  ASSERT_EQ(in.Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(in.typed_output_tensor<float>(0)[1], 6.f);
}

}  // namespace

namespace {

// The seed's sin graph built by hand, with SIN (as a custom op here) offered to a delegate:
// Preview reports the two delegated subsets without changing the plan; Replace then
// installs one delegate node per subset, whose kernel receives the TfLiteDelegateParams.
TEST(Delegate, PreviewThenReplaceOnTheSeedGraph) {
  ModelBuilder mb;
  const int sin = mb.AddCustomOperatorCode("TestSin");
  const int add = mb.AddOperatorCode(BuiltinOperator_ADD);
  const int x = mb.AddTensor(TensorType_FLOAT32, {1}, "x");
  const int two = mb.AddConstTensor(TensorType_FLOAT32, {1}, std::vector<float>{2.f}, "two");
  const int s1 = mb.AddTensor(TensorType_FLOAT32, {1}, "s1");
  const int a1 = mb.AddTensor(TensorType_FLOAT32, {1}, "a1");
  const int m = mb.AddTensor(TensorType_FLOAT32, {1}, "m");
  const int s2 = mb.AddTensor(TensorType_FLOAT32, {1}, "s2");
  const int y = mb.AddTensor(TensorType_FLOAT32, {1}, "y");
  mb.AddCustomOperator(sin, {x}, {s1}, {});
  mb.AddOperator(add, {s1, x}, {a1});
  mb.AddOperator(add, {x, two}, {m});  // stands in for MUL: x + 2
  mb.AddCustomOperator(sin, {m}, {s2}, {});
  mb.AddOperator(add, {a1, s2}, {y});
  mb.SetInputs({x});
  mb.SetOutputs({y});
  MutableOpResolver r;
  r.AddBuiltin(BuiltinOperator_ADD, TestAdd());
  static TfLiteRegistration unused_sin = {nullptr, nullptr, nullptr, nullptr};
  r.AddCustom("TestSin", &unused_sin);  // must never run: the delegate takes both nodes
  Built b;
  Build(&b, mb.Finish(), r);
  ASSERT_EQ(b.status, kTfLiteOk) << b.reporter.text;

  struct State {
    int previewed = 0, inits = 0;
    std::vector<std::vector<int>> nodes, inputs, outputs;
  };
  static State state;
  state = State{};
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  delegate.Prepare = [](TfLiteContext* context, TfLiteDelegate* d) -> TfLiteStatus {
    TfLiteIntArray* sins = CreateIntArray({0, 3});
    TfLiteDelegateParams* params = nullptr;
    int count = 0;
    TF_LITE_ENSURE_STATUS(context->PreviewDelegatePartitioning(context, sins, &params, &count));
    state.previewed = count;
    TfLiteRegistration kernel{};
    kernel.init = [](TfLiteContext*, const char* buffer, size_t) -> void* {
      const auto* p = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
      auto vec = [](const TfLiteIntArray* a) {
        return std::vector<int>(a->data, a->data + a->size);
      };
      state.nodes.push_back(vec(p->nodes_to_replace));
      state.inputs.push_back(vec(p->input_tensors));
      state.outputs.push_back(vec(p->output_tensors));
      ++state.inits;
      return nullptr;
    };
    kernel.invoke = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
      const TfLiteTensor* in = GetInput(context, node, 0);
      GetOutput(context, node, 0)->data.f[0] = std::sin(in->data.f[0]);
      return kTfLiteOk;
    };
    kernel.custom_name = "TestSinDelegate";
    const TfLiteStatus s = context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, sins, d);
    TfLiteIntArrayFree(sins);
    return s;
  };
  ASSERT_EQ(b.interpreter->ModifyGraphWithDelegate(&delegate), kTfLiteOk) << b.reporter.text;
  EXPECT_EQ(state.previewed, 2);
  ASSERT_EQ(state.inits, 2);
  EXPECT_EQ(state.nodes, (std::vector<std::vector<int>>{{0}, {3}}));
  EXPECT_EQ(state.inputs, (std::vector<std::vector<int>>{{x}, {m}}));
  EXPECT_EQ(state.outputs, (std::vector<std::vector<int>>{{s1}, {s2}}));
  // Plan: [delegate(SIN1)], ADD1, ADD(m), [delegate(SIN2)], ADD2.
  const auto& plan = b.interpreter->execution_plan();
  ASSERT_EQ(plan.size(), 5u);
  EXPECT_EQ(b.interpreter->node_and_registration(plan[0])->second.builtin_code,
            kTfLiteBuiltinDelegate);
  EXPECT_EQ(b.interpreter->node_and_registration(plan[3])->second.builtin_code,
            kTfLiteBuiltinDelegate);
  ASSERT_EQ(b.interpreter->AllocateTensors(), kTfLiteOk) << b.reporter.text;
  b.interpreter->typed_input_tensor<float>(0)[0] = 0.5f;
  ASSERT_EQ(b.interpreter->Invoke(), kTfLiteOk) << b.reporter.text;
  EXPECT_NEAR(b.interpreter->typed_output_tensor<float>(0)[0],
              std::sin(0.5f) + 0.5f + std::sin(2.5f), 1e-6);
}

}  // namespace
