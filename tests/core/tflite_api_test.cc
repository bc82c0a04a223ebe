// The rest of TFLite's public C++ surface: string_util, typed_tensor's type check, owned
// delegates, GraphPartitionHelper, PrintInterpreterState, BufferedProfiler, minimal logging,
// signature tensors, the XNNPACK delegate under TFLite's names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "format/model_builder.h"
#include "seeds/float_ops_delegate.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/context_util.h"
#include "tensorflow/lite/delegates/utils.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/minimal_logging.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/optional_debug_tools.h"
#include "tensorflow/lite/profiling/profiler.h"
#include "tensorflow/lite/stderr_reporter.h"
#include "tensorflow/lite/string_util.h"

namespace {

using namespace tflite;

std::string Str(StringRef s) { return std::string(s.str, s.len); }

// TFLite's quantization kinds, as programs name them; TfLiteQuantizationFree releases each
// kind's parameters (ASan sees a leak or a double free otherwise).
static_assert(kTfLiteBlockwiseQuantization == 2 && kTfLiteMultiAxisQuantization == 3,
              "TFLite's TfLiteQuantizationType values");
TEST(CommonApi, QuantizationFreeReleasesEveryKind) {
  TfLiteQuantization affine{kTfLiteAffineQuantization, nullptr};
  auto* a = static_cast<TfLiteAffineQuantization*>(std::malloc(sizeof(TfLiteAffineQuantization)));
  a->scale = TfLiteFloatArrayCreate(2);
  a->zero_point = TfLiteIntArrayCreate(2);
  a->quantized_dimension = 0;
  affine.params = a;
  TfLiteQuantization blockwise{kTfLiteBlockwiseQuantization, nullptr};
  auto* b =
      static_cast<TfLiteBlockwiseQuantization*>(std::malloc(sizeof(TfLiteBlockwiseQuantization)));
  *b = TfLiteBlockwiseQuantization{3, -1, 32, 1};
  blockwise.params = b;
  TfLiteQuantization multi{kTfLiteMultiAxisQuantization, nullptr};
  auto* m =
      static_cast<TfLiteMultiAxisQuantization*>(std::malloc(sizeof(TfLiteMultiAxisQuantization)));
  m->scales = 4;
  m->zero_points = -1;
  m->blocksize = 16;
  m->quantized_dimensions = TfLiteIntArrayCreate(2);
  multi.params = m;
  for (TfLiteQuantization* q : {&affine, &blockwise, &multi}) {
    TfLiteQuantizationFree(q);
    EXPECT_EQ(q->type, kTfLiteNoQuantization);
    EXPECT_EQ(q->params, nullptr);
  }
}

TEST(StringUtil, RoundTripWithEmptyStringsAndJoins) {
  DynamicBuffer buf;
  ASSERT_EQ(buf.AddString("AB", 2), kTfLiteOk);
  ASSERT_EQ(buf.AddString(StringRef{"", 0}), kTfLiteOk);
  buf.AddJoinedString({{"x", 1}, {"yz", 2}}, ',');
  buf.AddJoinedString({{"a", 1}, {"b", 1}}, StringRef{"::", 2});
  char* raw = nullptr;
  const int bytes = buf.WriteToBuffer(&raw);
  ASSERT_GT(bytes, 0);
  // 4 strings: count, 5 offsets, 2 + 0 + 4 + 4 bytes.
  EXPECT_EQ(bytes, 4 * 6 + 10);
  EXPECT_EQ(GetStringCount(raw), 4);
  EXPECT_EQ(Str(GetString(raw, 0)), "AB");
  EXPECT_EQ(Str(GetString(raw, 1)), "");
  EXPECT_EQ(Str(GetString(raw, 2)), "x,yz");
  EXPECT_EQ(Str(GetString(raw, 3)), "a::b");
  std::free(raw);

  DynamicBuffer empty;
  ASSERT_EQ(empty.WriteToBuffer(&raw), 8);
  EXPECT_EQ(GetStringCount(raw), 0);
  std::free(raw);

  DynamicBuffer small(3);
  EXPECT_EQ(small.AddString("abc", 3), kTfLiteOk);
  EXPECT_EQ(small.AddString("d", 1), kTfLiteError);
}

TEST(StringUtil, WriteToTensorFillsAnInterpreterStringTensor) {
  Interpreter interp;
  ASSERT_EQ(interp.AddTensors(1), kTfLiteOk);
  ASSERT_EQ(interp.SetTensorParametersReadWrite(0, kTfLiteString, "s", {3}, TfLiteQuantization{}),
            kTfLiteOk);
  ASSERT_EQ(interp.SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(interp.SetOutputs({0}), kTfLiteOk);
  ASSERT_EQ(interp.AllocateTensors(), kTfLiteOk);
  TfLiteTensor* t = interp.tensor(0);
  DynamicBuffer buf;
  for (const char* s : {"one", "", "three"}) buf.AddString(s, std::strlen(s));
  buf.WriteToTensor(t, nullptr);  // keeps [3]
  ASSERT_EQ(t->dims->size, 1);
  EXPECT_EQ(t->dims->data[0], 3);
  EXPECT_EQ(GetStringCount(t), 3);
  EXPECT_EQ(Str(GetString(t, 2)), "three");
  EXPECT_EQ(Str(GetString(t, 1)), "");

  DynamicBuffer two;
  two.AddString("hello", 5);
  two.AddString("world", 5);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(2);
  shape->data[0] = 1;
  shape->data[1] = 2;
  two.WriteToTensor(t, shape);  // replaces the old bytes and shape
  EXPECT_EQ(t->dims->size, 2);
  EXPECT_EQ(Str(GetString(t, 1)), "world");
  DynamicBuffer one;
  one.AddString("x", 1);
  one.WriteToTensorAsVector(t);
  ASSERT_EQ(t->dims->size, 1);
  EXPECT_EQ(t->dims->data[0], 1);
  EXPECT_EQ(GetStringCount(t), 1);
  // As in TFLite, std::string stands for kTfLiteString (the bytes are the layout above).
  EXPECT_NE(interp.typed_tensor<std::string>(0), nullptr);
  EXPECT_EQ(interp.typed_tensor<float>(0), nullptr);
}

// y = ((x + x) * x - x) + (x + x) * x: nodes ADD, MUL, SUB, ADD over float [4].
struct Chain {
  std::vector<uint8_t> bytes;
  std::unique_ptr<FlatBufferModel> model;
  ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<Interpreter> interpreter;
  Chain() {
    octet::format::ModelBuilder b;
    const int add = b.AddOperatorCode(BuiltinOperator_ADD);
    const int mul = b.AddOperatorCode(BuiltinOperator_MUL);
    const int sub = b.AddOperatorCode(BuiltinOperator_SUB);
    const int x = b.AddTensor(TensorType_FLOAT32, {4}, "x");
    const int a = b.AddTensor(TensorType_FLOAT32, {4}, "a");
    const int m = b.AddTensor(TensorType_FLOAT32, {4}, "m");
    const int s = b.AddTensor(TensorType_FLOAT32, {4}, "s");
    const int y = b.AddTensor(TensorType_FLOAT32, {4}, "y");
    b.AddOperator(add, {x, x}, {a}, b.AddOptions());
    b.AddOperator(mul, {a, x}, {m}, b.MulOptions());
    b.AddOperator(sub, {m, x}, {s}, b.SubOptions());
    b.AddOperator(add, {s, m}, {y}, b.AddOptions());
    b.SetInputs({x});
    b.SetOutputs({y});
    b.AddSignature("serve", {{"in", static_cast<uint32_t>(x)}},
                   {{"out", static_cast<uint32_t>(y)}});
    bytes = b.Finish();
    model =
        FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (model) InterpreterBuilder(*model, resolver)(&interpreter);
  }
};

TEST(InterpreterApi, TypedTensorIsNullOnATypeMismatch) {
  Chain c;
  ASSERT_NE(c.interpreter, nullptr);
  Interpreter& interp = *c.interpreter;
  ASSERT_EQ(interp.AllocateTensors(), kTfLiteOk);
  EXPECT_NE(interp.typed_tensor<float>(0), nullptr);
  EXPECT_EQ(interp.typed_tensor<int32_t>(0), nullptr);
  EXPECT_EQ(interp.typed_input_tensor<int8_t>(0), nullptr);
  EXPECT_EQ(interp.typed_tensor<float>(99), nullptr);
  const Interpreter& const_interp = interp;
  EXPECT_NE(const_interp.typed_output_tensor<float>(0), nullptr);
  EXPECT_EQ(const_interp.typed_output_tensor<uint8_t>(0), nullptr);
  EXPECT_NE(const_interp.subgraph(0), nullptr);
  EXPECT_EQ(const_interp.subgraph(1), nullptr);
  interp.SetAllowFp16PrecisionForFp32(true);
  EXPECT_TRUE(interp.GetAllowFp16PrecisionForFp32());
}

TEST(InterpreterApi, TensorsBySignatureName) {
  Chain c;
  ASSERT_NE(c.interpreter, nullptr);
  Interpreter& interp = *c.interpreter;
  EXPECT_EQ(interp.GetSubgraphIndexFromSignature("serve"), 0);
  EXPECT_EQ(interp.GetSubgraphIndexFromSignature("nope"), -1);
  EXPECT_EQ(interp.input_tensor_by_signature("in", "serve"), interp.tensor(0));
  EXPECT_EQ(interp.output_tensor_by_signature("out", "serve"), interp.tensor(4));
  EXPECT_EQ(interp.input_tensor_by_signature("out", "serve"), nullptr);
  EXPECT_EQ(interp.input_tensor_by_signature("in", "other"), nullptr);
}

int g_deleted = 0;
TfLiteStatus NoOpPrepare(TfLiteContext*, TfLiteDelegate*) { return kTfLiteOk; }
void CountingDelete(TfLiteDelegate* d) {
  ++g_deleted;
  delete d;
}
struct MyDelegate : TfLiteDelegate {
  MyDelegate() : TfLiteDelegate(TfLiteDelegateCreate()) { Prepare = NoOpPrepare; }
};
struct MyDeleter {
  void operator()(MyDelegate* d) const {
    g_deleted += 10;
    delete d;
  }
};

TEST(InterpreterApi, OwnedDelegatesAreDeletedWithTheInterpreter) {
  g_deleted = 0;
  {
    Chain c;
    ASSERT_NE(c.interpreter, nullptr);
    Interpreter::TfLiteDelegatePtr d(new TfLiteDelegate(TfLiteDelegateCreate()), CountingDelete);
    d->Prepare = NoOpPrepare;
    EXPECT_EQ(c.interpreter->ModifyGraphWithDelegate(std::move(d)), kTfLiteOk);
    EXPECT_EQ(c.interpreter->ModifyGraphWithDelegate(
                  std::unique_ptr<MyDelegate, MyDeleter>(new MyDelegate)),
              kTfLiteOk);
    EXPECT_EQ(g_deleted, 0);
    ASSERT_EQ(c.interpreter->AllocateTensors(), kTfLiteOk);
    EXPECT_EQ(c.interpreter->Invoke(), kTfLiteOk);
    c.interpreter.reset();
    EXPECT_EQ(g_deleted, 11);
  }
}

// Runs GraphPartitionHelper in its Prepare (ADD and MUL supported) and records what it saw.
struct HelperProbe {
  int total = 0, supported = 0, partitions = 0;
  std::vector<int> largest, with_two;
  std::set<std::string> unsupported;
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteDelegate* delegate) {
    auto* self = static_cast<HelperProbe*>(delegate->data_);
    delegates::GraphPartitionHelper helper(
        context, [](TfLiteContext*, TfLiteNode*, TfLiteRegistration* reg, std::string* why) {
          if (reg->builtin_code == kTfLiteBuiltinAdd || reg->builtin_code == kTfLiteBuiltinMul) {
            return true;
          }
          *why = "not ADD or MUL";
          return false;
        });
    TF_LITE_ENSURE_STATUS(helper.Partition(&self->unsupported));
    self->total = helper.num_total_nodes();
    self->supported = helper.num_supported_nodes();
    self->partitions = helper.num_partitions();
    self->largest = helper.GetNodesOfFirstNLargestPartitions(1);
    self->with_two = helper.GetNodesOfFirstNLargestPartitions(10, 2);
    EXPECT_EQ(helper.GetFirstNLargestPartitions().size(), 2u);
    return kTfLiteOk;
  }
};

TEST(GraphPartitionHelper, FindsTheSupportedPartitionsLargestFirst) {
  Chain c;
  ASSERT_NE(c.interpreter, nullptr);
  HelperProbe probe;
  TfLiteDelegate d = TfLiteDelegateCreate();
  d.data_ = &probe;
  d.Prepare = HelperProbe::Prepare;
  ASSERT_EQ(c.interpreter->ModifyGraphWithDelegate(&d), kTfLiteOk);
  EXPECT_EQ(probe.total, 4);
  EXPECT_EQ(probe.supported, 3);  // ADD, MUL, ADD; SUB splits them
  EXPECT_EQ(probe.partitions, 2);
  EXPECT_EQ(probe.largest, std::vector<int>({0, 1}));
  EXPECT_EQ(probe.with_two, std::vector<int>({0, 1}));
  EXPECT_EQ(probe.unsupported, std::set<std::string>({"SUB: not ADD or MUL"}));

  delegates::GraphPartitionHelper given(c.interpreter->primary_subgraph().context(),
                                        std::vector<int>{0, 1, 3});
  ASSERT_EQ(given.Partition(nullptr), kTfLiteOk);
  EXPECT_EQ(given.num_supported_nodes(), 3);
  EXPECT_EQ(given.num_partitions(), 2);
}

// The float_ops SimpleDelegate with partition limits from its options.
class LimitedDelegate : public float_ops::Delegate {
 public:
  LimitedDelegate(int* evals, Options options) : Delegate(evals), options_(options) {}
  Options DelegateOptions() const override { return options_; }

 private:
  Options options_;
};

TEST(SimpleDelegate, OptionsLimitThePartitionsAndResultsMatch) {
  std::vector<float> want;
  for (int max_partitions : {0, 1}) {
    for (int min_nodes : {0, 2, 3}) {
      Chain c;
      ASSERT_NE(c.interpreter, nullptr);
      int evals = 0;
      SimpleDelegateInterface::Options options;
      options.max_delegated_partitions = max_partitions;
      options.min_nodes_per_partition = min_nodes;
      ASSERT_EQ(c.interpreter->ModifyGraphWithDelegate(TfLiteDelegateFactory::Create(
                    std::make_unique<LimitedDelegate>(&evals, options))),
                kTfLiteOk);
      ASSERT_EQ(c.interpreter->AllocateTensors(), kTfLiteOk);
      for (int i = 0; i < 4; ++i) c.interpreter->typed_input_tensor<float>(0)[i] = 0.5f * i - 1;
      ASSERT_EQ(c.interpreter->Invoke(), kTfLiteOk);
      // Partitions {ADD, MUL} and {ADD}: each taken one adds a delegate node.
      const int taken = min_nodes == 3 ? 0 : (max_partitions == 1 || min_nodes == 2) ? 1 : 2;
      EXPECT_EQ(c.interpreter->nodes_size(), 4u + taken) << max_partitions << " " << min_nodes;
      EXPECT_EQ(evals, taken);
      const float* y = c.interpreter->typed_output_tensor<float>(0);
      if (want.empty()) want.assign(y, y + 4);
      for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], want[i]);
    }
  }
}

TEST(DebugTools, PrintInterpreterStateUsesTfLitesLayout) {
  Chain c;
  ASSERT_NE(c.interpreter, nullptr);
  ASSERT_EQ(c.interpreter->AllocateTensors(), kTfLiteOk);
  testing::internal::CaptureStdout();
  PrintInterpreterState(c.interpreter.get());
  const std::string out = testing::internal::GetCapturedStdout();
  for (const char* line : {
           "Interpreter has 1 subgraphs.\n\n",
           "-----------Subgraph-0 has 5 tensors and 4 nodes------------\n",
           "1 Inputs: [0] -> 16B (0.00MB)\n",
           "1 Outputs: [4] -> 16B (0.00MB)\n",
           "Tensor  ID Name                      Type            AllocType          Size "
           "(Bytes/MB)    Shape      MemAddr-Offset  \n",
           "Tensor   1 a                         kTfLiteFloat32  kTfLiteArenaRw     16       / "
           "0.00 [4] [",
           "kTfLiteArenaRw Info: \nTensor ",
           "kTfLiteDynamic Info: not holding any allocation.\n",
           "Node   0 Operator Builtin Code   0 ADD (not delegated)\n",
           "  2 Input Tensors:[0,0] -> 32B (0.00MB)\n",
           "  1 Output Tensors:[1] -> 16B (0.00MB)\n",
           "Node   2 Operator Builtin Code  41 SUB (not delegated)\n",
           "Execution plan as the list of 4 nodes invoked in-order: [0-3]\n",
           "--------------Subgraph-0 dump has completed--------------\n\n",
           "--------------Memory Arena Status Start--------------\n",
           "- Total arena memory usage: ",
           "--------------Memory Arena Status End--------------\n",
       }) {
    EXPECT_NE(out.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << out;
  }
}

TEST(Profiling, BufferedProfilerRecordsOneEventPerNode) {
  Chain c;
  ASSERT_NE(c.interpreter, nullptr);
  Interpreter& interp = *c.interpreter;
  profiling::Profiler profiler(16);
  interp.SetProfiler(&profiler);
  ASSERT_EQ(interp.AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(interp.Invoke(), kTfLiteOk);  // not started: nothing recorded
  EXPECT_TRUE(profiler.GetProfileEvents().empty());
  profiler.StartProfiling();
  ASSERT_EQ(interp.Invoke(), kTfLiteOk);
  profiler.StopProfiling();
  const auto events = profiler.GetProfileEvents();
  ASSERT_EQ(events.size(), 4u);
  const char* ops[] = {"ADD", "MUL", "SUB", "ADD"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(events[i]->tag, ops[i]);
    EXPECT_EQ(events[i]->event_type, Profiler::EventType::OPERATOR_INVOKE_EVENT);
    EXPECT_EQ(events[i]->event_metadata, i);
    EXPECT_EQ(events[i]->extra_event_metadata, 0);  // subgraph 0
  }
  // A full fixed buffer keeps the newest events.
  profiling::BufferedProfiler small(3);
  interp.SetProfiler(&small);
  small.StartProfiling();
  ASSERT_EQ(interp.Invoke(), kTfLiteOk);
  const auto kept = small.GetProfileEvents();
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0]->event_metadata, 1);
  EXPECT_EQ(kept[2]->event_metadata, 3);
  small.Reset();
  EXPECT_TRUE(small.GetProfileEvents().empty());
  interp.SetProfiler(static_cast<Profiler*>(nullptr));
}

TEST(MinimalLogging, SeverityFilterAndFormat) {
  using logging_internal::MinimalLogger;
  const LogSeverity old = MinimalLogger::SetMinimumLogSeverity(TFLITE_LOG_WARNING);
  testing::internal::CaptureStderr();
  TFLITE_LOG_PROD(TFLITE_LOG_INFO, "quiet %d", 1);
  TFLITE_LOG_PROD(TFLITE_LOG_ERROR, "boom %d", 3);
  for (int i = 0; i < 3; ++i) TFLITE_LOG_PROD_ONCE(TFLITE_LOG_WARNING, "once");
  const std::string err = testing::internal::GetCapturedStderr();
  MinimalLogger::SetMinimumLogSeverity(old);
  EXPECT_EQ(err, "ERROR: boom 3\nWARNING: once\n");
}

TEST(ContextUtil, IntArrayViewIterates) {
  TfLiteIntArray* a = ConvertVectorToTfLiteIntArray({3, 1, 4});
  int sum = 0;
  for (int v : TfLiteIntArrayView(a)) sum += v;
  EXPECT_EQ(sum, 8);
  EXPECT_EQ(TfLiteIntArrayView(a).size(), 3u);
  EXPECT_EQ(TfLiteIntArrayView(a)[2], 4);
  TfLiteIntArrayFree(a);
  EXPECT_NE(dynamic_cast<StderrReporter*>(DefaultErrorReporter()), nullptr);
}

TEST(XnnpackTfLiteNames, CreateRunsOrSaysWhyNot) {
  TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
  options.num_threads = 2;
  TfLiteDelegate* d = TfLiteXNNPackDelegateCreate(&options);
  if (d == nullptr) {
    TfLiteXNNPackDelegateDelete(nullptr);
    GTEST_SKIP() << "this build has no XNNPACK delegate";
  }
  Chain plain, delegated;
  ASSERT_NE(plain.interpreter, nullptr);
  ASSERT_EQ(delegated.interpreter->ModifyGraphWithDelegate(d), kTfLiteOk);
  for (Chain* c : {&plain, &delegated}) {
    ASSERT_EQ(c->interpreter->AllocateTensors(), kTfLiteOk);
    for (int i = 0; i < 4; ++i) c->interpreter->typed_input_tensor<float>(0)[i] = i - 1.5f;
    ASSERT_EQ(c->interpreter->Invoke(), kTfLiteOk);
  }
  for (int i = 0; i < 4; ++i) {
    EXPECT_FLOAT_EQ(delegated.interpreter->typed_output_tensor<float>(0)[i],
                    plain.interpreter->typed_output_tensor<float>(0)[i]);
  }
  delegated.interpreter.reset();
  TfLiteXNNPackDelegateDelete(d);
}

}  // namespace
