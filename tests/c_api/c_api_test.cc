// The TFLite C API over Octet: error paths (NULL and bad arguments, bad model bytes, wrong
// buffer sizes), resizing, op registration through the options, delegates and signatures.
#include "tensorflow/lite/c/c_api.h"

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "format/test_models.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tensorflow/lite/kernels/register.h"

namespace {

using octet::format::ModelBuilder;
using octet::format::TensorSpec;
using octet::format::testing::AddMulModel;
using tflite::BuiltinOperator_ADD;
using tflite::TensorType_FLOAT32;

// Collects what the interpreter reports through TfLiteInterpreterOptionsSetErrorReporter.
struct Messages {
  std::string text;
  int count = 0;
  static void Callback(void* user_data, const char* format, va_list args) {
    auto* self = static_cast<Messages*>(user_data);
    char buf[1024];
    std::vsnprintf(buf, sizeof(buf), format, args);
    self->text += buf;
    self->text += "\n";
    ++self->count;
  }
};

// Options with a capturing reporter; deleted (as the API allows) once the interpreter exists.
struct Options {
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  Messages messages;
  Options() { TfLiteInterpreterOptionsSetErrorReporter(options, Messages::Callback, &messages); }
  ~Options() { TfLiteInterpreterOptionsDelete(options); }
};

// The model's bytes stay alive with the test: TfLiteModelCreate does not copy them.
struct Model {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  explicit Model(std::vector<uint8_t> b) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
  }
  ~Model() { TfLiteModelDelete(model); }
};

std::vector<float> Floats(const TfLiteTensor* t) {
  std::vector<float> v(TfLiteTensorByteSize(t) / sizeof(float));
  EXPECT_EQ(TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float)), kTfLiteOk);
  return v;
}

// y = x + x on float [1, 4] whose shape signature is [-1, 4], with signature
// "serving_default" (input "x", output "y").
std::vector<uint8_t> DoubleModelWithSignature() {
  ModelBuilder b;
  const int add = b.AddOperatorCode(BuiltinOperator_ADD);
  TensorSpec x_spec;
  x_spec.type = TensorType_FLOAT32;
  x_spec.shape = {1, 4};
  x_spec.shape_signature = std::vector<int32_t>{-1, 4};
  x_spec.name = "x_tensor";
  const int x = b.AddTensor(x_spec);
  const int y = b.AddTensor(TensorType_FLOAT32, {1, 4}, "y_tensor");
  b.AddOperator(add, {x, x}, {y}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({y});
  b.AddSignature("serving_default", {{"x", static_cast<uint32_t>(x)}},
                 {{"y", static_cast<uint32_t>(y)}});
  return b.Finish();
}

// out = TimesTwo(in), a custom op, float [1, 3].
std::vector<uint8_t> CustomOpModel() {
  ModelBuilder b;
  const int op = b.AddCustomOperatorCode("TimesTwo");
  const int in = b.AddTensor(TensorType_FLOAT32, {1, 3}, "in");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, 3}, "out");
  b.AddCustomOperator(op, {in}, {out}, {});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Finish();
}

TfLiteStatus TimesTwoPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* in = tflite::GetInput(context, node, 0);
  return context->ResizeTensor(context, tflite::GetOutput(context, node, 0),
                               TfLiteIntArrayCopy(in->dims));
}
TfLiteStatus TimesTwoEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* in = tflite::GetInput(context, node, 0);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  for (int64_t i = 0; i < tflite::NumElements(in); ++i) out->data.f[i] = 2 * in->data.f[i];
  return kTfLiteOk;
}
TfLiteRegistration Kernel(TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
                          TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*)) {
  TfLiteRegistration r{};
  r.prepare = prepare;
  r.invoke = invoke;
  return r;
}
const TfLiteRegistration kTimesTwo = Kernel(TimesTwoPrepare, TimesTwoEval);

// An ADD that subtracts: shows which registration the interpreter picked.
TfLiteStatus SubtractEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* a = tflite::GetInput(context, node, 0);
  const TfLiteTensor* b = tflite::GetInput(context, node, 1);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  for (int64_t i = 0; i < tflite::NumElements(out); ++i)
    out->data.f[i] = a->data.f[i] - b->data.f[i];
  return kTfLiteOk;
}
TfLiteStatus SamePrepare(TfLiteContext* context, TfLiteNode* node) {
  return context->ResizeTensor(context, tflite::GetOutput(context, node, 0),
                               TfLiteIntArrayCopy(tflite::GetInput(context, node, 0)->dims));
}
const TfLiteRegistration kSubtractingAdd = Kernel(SamePrepare, SubtractEval);

TEST(CApi, Versions) {
  int major = -1, minor = -1, patch = -1;  // Octet's semver (PROJECT_VERSION)
  ASSERT_EQ(std::sscanf(TfLiteVersion(), "%d.%d.%d", &major, &minor, &patch), 3) << TfLiteVersion();
  EXPECT_GE(major, 0);
  EXPECT_EQ(TfLiteSchemaVersion(), 3);
}

TEST(CApi, NullArgumentsHaveDefinedResults) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(TfLiteModelCreate(nullptr, 10), nullptr);
  EXPECT_EQ(TfLiteModelCreateFromFile(nullptr), nullptr);
  TfLiteModelDelete(nullptr);
  TfLiteInterpreterOptionsDelete(nullptr);
  TfLiteInterpreterOptionsSetNumThreads(nullptr, 2);
  TfLiteInterpreterOptionsAddDelegate(nullptr, nullptr);
  TfLiteInterpreterOptionsSetErrorReporter(nullptr, nullptr, nullptr);
  TfLiteInterpreterOptionsAddCustomOp(nullptr, "x", &kTimesTwo, 1, 1);
  TfLiteInterpreterOptionsAddBuiltinOp(nullptr, kTfLiteBuiltinAdd, &kTimesTwo, 1, 1);
  TfLiteInterpreterOptionsSetOpResolver(nullptr, nullptr, nullptr, nullptr);
  EXPECT_EQ(TfLiteInterpreterCreate(nullptr, nullptr), nullptr);
  EXPECT_EQ(TfLiteInterpreterCreateWithSelectedOps(nullptr, nullptr), nullptr);
  TfLiteInterpreterDelete(nullptr);
  EXPECT_EQ(TfLiteInterpreterGetInputTensorCount(nullptr), 0);
  EXPECT_EQ(TfLiteInterpreterGetOutputTensorCount(nullptr), 0);
  EXPECT_EQ(TfLiteInterpreterGetInputTensor(nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetOutputTensor(nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetTensor(nullptr, 0), nullptr);
  const int dims[] = {1};
  EXPECT_EQ(TfLiteInterpreterResizeInputTensor(nullptr, 0, dims, 1), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterInvoke(nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterGetSignatureCount(nullptr), 0);
  EXPECT_EQ(TfLiteInterpreterGetSignatureKey(nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetSignatureRunner(nullptr, "k"), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerGetInputCount(nullptr), 0u);
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputCount(nullptr), 0u);
  EXPECT_EQ(TfLiteSignatureRunnerGetInputName(nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputName(nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerResizeInputTensor(nullptr, "x", dims, 1), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerAllocateTensors(nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerGetInputTensor(nullptr, "x"), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerInvoke(nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputTensor(nullptr, "y"), nullptr);
  TfLiteSignatureRunnerDelete(nullptr);
  EXPECT_EQ(TfLiteTensorType(nullptr), kTfLiteNoType);
  EXPECT_EQ(TfLiteTensorNumDims(nullptr), -1);
  EXPECT_EQ(TfLiteTensorDim(nullptr, 0), -1);
  EXPECT_EQ(TfLiteTensorByteSize(nullptr), 0u);
  EXPECT_EQ(TfLiteTensorData(nullptr), nullptr);
  EXPECT_EQ(TfLiteTensorName(nullptr), nullptr);
  EXPECT_EQ(TfLiteTensorQuantizationParams(nullptr).scale, 0.f);
  float f = 0;
  EXPECT_EQ(TfLiteTensorCopyFromBuffer(nullptr, &f, sizeof(f)), kTfLiteError);
  EXPECT_EQ(TfLiteTensorCopyToBuffer(nullptr, &f, sizeof(f)), kTfLiteError);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("TfLiteModelCreateFromFile: model_path is NULL"), std::string::npos) << err;
  EXPECT_NE(err.find("TfLiteInterpreterCreate: model is NULL"), std::string::npos) << err;
  EXPECT_NE(err.find("TfLiteInterpreterInvoke: interpreter is NULL"), std::string::npos) << err;
  EXPECT_NE(err.find("TfLiteTensorCopyToBuffer: tensor is NULL"), std::string::npos) << err;
}

TEST(CApi, BadModelBytesGiveNullWithAMessage) {
  const std::vector<uint8_t> garbage(256, 0xAB);
  std::vector<uint8_t> truncated = AddMulModel();
  truncated.resize(truncated.size() / 2);
  for (const std::vector<uint8_t>* bytes :
       {&garbage, static_cast<const std::vector<uint8_t>*>(&truncated)}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(TfLiteModelCreate(bytes->data(), bytes->size()), nullptr);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("are not a valid TensorFlow Lite model"), std::string::npos) << err;
  }
  testing::internal::CaptureStderr();
  EXPECT_EQ(TfLiteModelCreate(garbage.data(), 0), nullptr);
  EXPECT_EQ(TfLiteModelCreateFromFile("/nonexistent/model.tflite"), nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no model bytes"), std::string::npos) << err;
  EXPECT_NE(err.find("cannot load a model from '/nonexistent/model.tflite'"), std::string::npos)
      << err;
}

TEST(CApi, RunsAModelAndChecksBufferSizes) {
  Model m(AddMulModel());
  ASSERT_NE(m.model, nullptr);
  Options o;
  TfLiteInterpreterOptionsSetNumThreads(o.options, 2);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
  ASSERT_NE(interpreter, nullptr) << o.messages.text;
  TfLiteModelDelete(m.model);  // the interpreter keeps what it needs
  m.model = nullptr;
  ASSERT_EQ(TfLiteInterpreterGetInputTensorCount(interpreter), 1);
  ASSERT_EQ(TfLiteInterpreterGetOutputTensorCount(interpreter), 1);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  TfLiteTensor* in = TfLiteInterpreterGetInputTensor(interpreter, 0);
  ASSERT_NE(in, nullptr);
  EXPECT_STREQ(TfLiteTensorName(in), "in");
  EXPECT_EQ(TfLiteTensorType(in), kTfLiteFloat32);
  EXPECT_EQ(TfLiteTensorNumDims(in), 2);
  EXPECT_EQ(TfLiteTensorDim(in, 1), 4);
  EXPECT_EQ(TfLiteTensorByteSize(in), 16u);
  EXPECT_EQ(TfLiteTensorQuantizationParams(in).zero_point, 0);
  EXPECT_EQ(TfLiteInterpreterGetTensor(interpreter, 1), TfLiteInterpreterGetTensor(interpreter, 1));
  EXPECT_STREQ(TfLiteTensorName(TfLiteInterpreterGetTensor(interpreter, 1)), "k");

  const float x[4] = {1, -1, 2, 3};
  float out[4] = {};
  // A wrong size is refused and reported; the tensor keeps its bytes.
  testing::internal::CaptureStderr();
  EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, x, sizeof(x) - 4), kTfLiteError);
  EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, x, sizeof(x) + 4), kTfLiteError);
  EXPECT_EQ(TfLiteTensorDim(in, 2), -1);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tensor 'in' holds 16 bytes, the buffer has 12"), std::string::npos) << err;
  EXPECT_NE(err.find("dimension 2 does not exist (rank 2)"), std::string::npos) << err;

  ASSERT_EQ(TfLiteTensorCopyFromBuffer(in, x, sizeof(x)), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  const TfLiteTensor* y = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  ASSERT_NE(y, nullptr);
  testing::internal::CaptureStderr();
  EXPECT_EQ(TfLiteTensorCopyToBuffer(y, out, sizeof(out) * 2), kTfLiteError);
  err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tensor 'out' holds 16 bytes, the buffer has 32"), std::string::npos) << err;
  ASSERT_EQ(TfLiteTensorCopyToBuffer(y, out, sizeof(out)), kTfLiteOk);
  // (x + [1 2 3 4]) * x, then relu.
  EXPECT_FLOAT_EQ(out[0], 2.f);
  EXPECT_FLOAT_EQ(out[1], 0.f);
  EXPECT_FLOAT_EQ(out[2], 10.f);
  EXPECT_FLOAT_EQ(out[3], 21.f);
  EXPECT_EQ(static_cast<const void*>(TfLiteTensorData(y)), static_cast<const void*>(y->data.f));

  // Out-of-range indices are NULL, reported through the options' reporter.
  EXPECT_EQ(TfLiteInterpreterGetInputTensor(interpreter, 1), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetOutputTensor(interpreter, -1), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetTensor(interpreter, 1000), nullptr);
  EXPECT_EQ(o.messages.count, 3) << o.messages.text;
  EXPECT_NE(o.messages.text.find("TfLiteInterpreterGetInputTensor: input index 1 is out of range"),
            std::string::npos)
      << o.messages.text;
  TfLiteInterpreterDelete(interpreter);
}

TEST(CApi, ResizeThenAllocate) {
  Model m(AddMulModel());
  Options o;
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
  ASSERT_NE(interpreter, nullptr);
  const int dims[] = {2, 4};
  EXPECT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 3, dims, 2), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, nullptr, 2), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, dims, -1), kTfLiteError);
  EXPECT_EQ(o.messages.count, 3) << o.messages.text;
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, dims, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  TfLiteTensor* in = TfLiteInterpreterGetInputTensor(interpreter, 0);
  ASSERT_EQ(TfLiteTensorDim(in, 0), 2);
  ASSERT_EQ(TfLiteTensorByteSize(in), 32u);
  const float x[8] = {1, 1, 1, 1, 2, 2, 2, 2};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(in, x, sizeof(x)), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  const std::vector<float> y = Floats(TfLiteInterpreterGetOutputTensor(interpreter, 0));
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5, 6, 8, 10, 12}));
  TfLiteInterpreterDelete(interpreter);
}

TEST(CApi, InterpreterCreationFailuresGoToTheReporter) {
  Model m(AddMulModel());
  {
    Options o;  // no ops at all
    EXPECT_EQ(TfLiteInterpreterCreateWithSelectedOps(m.model, o.options), nullptr);
    EXPECT_NE(o.messages.text.find("unsupported op: builtin ADD version 1"), std::string::npos)
        << o.messages.text;
  }
  {
    Options o;
    TfLiteInterpreterOptionsSetNumThreads(o.options, -5);
    EXPECT_EQ(TfLiteInterpreterCreate(m.model, o.options), nullptr);
    EXPECT_NE(o.messages.text.find("-5 is not a thread count"), std::string::npos)
        << o.messages.text;
  }
  {
    Options o;  // TFLite's 0 threads means "no extra threads"
    TfLiteInterpreterOptionsSetNumThreads(o.options, 0);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
    EXPECT_NE(interpreter, nullptr) << o.messages.text;
    TfLiteInterpreterDelete(interpreter);
  }
}

TEST(CApi, CustomOpsThroughTheOptions) {
  Model m(CustomOpModel());
  {
    Options o;  // unregistered: creation works (a delegate could claim it), allocation fails
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
    ASSERT_NE(interpreter, nullptr);
    EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteUnresolvedOps);
    EXPECT_NE(o.messages.text.find("TimesTwo"), std::string::npos) << o.messages.text;
    TfLiteInterpreterDelete(interpreter);
  }
  Options o;
  TfLiteInterpreterOptionsAddCustomOp(o.options, "TimesTwo", &kTimesTwo, 1, 1);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreateWithSelectedOps(m.model, o.options);
  ASSERT_NE(interpreter, nullptr) << o.messages.text;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  const float x[3] = {1, 2, -3};
  ASSERT_EQ(
      TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x, sizeof(x)),
      kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  EXPECT_EQ(Floats(TfLiteInterpreterGetOutputTensor(interpreter, 0)),
            (std::vector<float>{2, 4, -6}));
  TfLiteInterpreterDelete(interpreter);
  // Bad registrations are refused with a message, not stored.
  testing::internal::CaptureStderr();
  TfLiteInterpreterOptionsAddCustomOp(o.options, nullptr, &kTimesTwo, 1, 1);
  TfLiteInterpreterOptionsAddCustomOp(o.options, "TimesTwo", &kTimesTwo, 2, 1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("name is NULL"), std::string::npos) << err;
  EXPECT_NE(err.find("versions 2..1"), std::string::npos) << err;
}

TEST(CApi, AddedBuiltinOpsTakePrecedence) {
  Model m(AddMulModel());
  Options o;
  TfLiteInterpreterOptionsAddBuiltinOp(o.options, kTfLiteBuiltinAdd, &kSubtractingAdd, 1, 1);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
  ASSERT_NE(interpreter, nullptr) << o.messages.text;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  const float x[4] = {10, 10, 10, 10};
  ASSERT_EQ(
      TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x, sizeof(x)),
      kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  // (x - [1 2 3 4]) * x
  EXPECT_EQ(Floats(TfLiteInterpreterGetOutputTensor(interpreter, 0)),
            (std::vector<float>{90, 80, 70, 60}));
  TfLiteInterpreterDelete(interpreter);
}

// SetOpResolver callbacks: builtins from Octet's resolver, the custom op from the test.
struct ResolverCalls {
  tflite::ops::builtin::BuiltinOpResolver builtins;
  int builtin_calls = 0, custom_calls = 0;
  static const TfLiteRegistration* FindBuiltin(void* user_data, TfLiteBuiltinOperator op,
                                               int version) {
    auto* self = static_cast<ResolverCalls*>(user_data);
    ++self->builtin_calls;
    const TfLiteRegistration* r =
        self->builtins.FindOp(static_cast<tflite::BuiltinOperator>(op), version);
    if (r == nullptr) return nullptr;
    static TfLiteRegistration copy;
    copy = *r;
    copy.builtin_code = 12345;  // the interpreter must not trust this field
    return &copy;
  }
  static const TfLiteRegistration* FindCustom(void* user_data, const char* op, int version) {
    ++static_cast<ResolverCalls*>(user_data)->custom_calls;
    return std::string(op) == "TimesTwo" && version == 1 ? &kTimesTwo : nullptr;
  }
};

TEST(CApi, SetOpResolverCallbacks) {
  ResolverCalls calls;
  for (const std::vector<uint8_t>& bytes : {DoubleModelWithSignature(), CustomOpModel()}) {
    Model m(bytes);
    Options o;
    TfLiteInterpreterOptionsSetOpResolver(o.options, ResolverCalls::FindBuiltin,
                                          ResolverCalls::FindCustom, &calls);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreateWithSelectedOps(m.model, o.options);
    ASSERT_NE(interpreter, nullptr) << o.messages.text;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << o.messages.text;
    std::vector<float> x(TfLiteTensorByteSize(TfLiteInterpreterGetInputTensor(interpreter, 0)) /
                         sizeof(float));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i + 1);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x.data(),
                                         x.size() * sizeof(float)),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
    const std::vector<float> y = Floats(TfLiteInterpreterGetOutputTensor(interpreter, 0));
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(y[i], 2 * x[i]);  // both double x
    TfLiteInterpreterDelete(interpreter);
  }
  EXPECT_EQ(calls.builtin_calls, 1);
  EXPECT_EQ(calls.custom_calls, 1);
}

TEST(CApi, SignatureRunner) {
  Model m(DoubleModelWithSignature());
  Options o;
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
  ASSERT_NE(interpreter, nullptr);
  ASSERT_EQ(TfLiteInterpreterGetSignatureCount(interpreter), 1);
  EXPECT_STREQ(TfLiteInterpreterGetSignatureKey(interpreter, 0), "serving_default");
  EXPECT_EQ(TfLiteInterpreterGetSignatureKey(interpreter, 1), nullptr);
  EXPECT_EQ(TfLiteInterpreterGetSignatureRunner(interpreter, "nope"), nullptr);
  EXPECT_NE(o.messages.text.find("the model has no signature 'nope'"), std::string::npos)
      << o.messages.text;

  TfLiteSignatureRunner* runner = TfLiteInterpreterGetSignatureRunner(interpreter, nullptr);
  ASSERT_NE(runner, nullptr);  // no key: the first signature
  TfLiteSignatureRunnerDelete(runner);
  runner = TfLiteInterpreterGetSignatureRunner(interpreter, "serving_default");
  ASSERT_NE(runner, nullptr);
  ASSERT_EQ(TfLiteSignatureRunnerGetInputCount(runner), 1u);
  ASSERT_EQ(TfLiteSignatureRunnerGetOutputCount(runner), 1u);
  EXPECT_STREQ(TfLiteSignatureRunnerGetInputName(runner, 0), "x");
  EXPECT_STREQ(TfLiteSignatureRunnerGetOutputName(runner, 0), "y");
  EXPECT_EQ(TfLiteSignatureRunnerGetInputName(runner, 1), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputName(runner, -1), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerGetInputTensor(runner, "missing"), nullptr);
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputTensor(runner, "missing"), nullptr);

  // Strict resize: only the -1 dimension of the shape signature may change.
  const int bad[] = {3, 5};
  const int good[] = {3, 4};
  const int before = o.messages.count;
  EXPECT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, "x", bad, 2), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, "x", good, 1), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, "missing", good, 2), kTfLiteError);
  EXPECT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, "x", nullptr, 2), kTfLiteError);
  EXPECT_EQ(o.messages.count, before + 4) << o.messages.text;
  EXPECT_NE(o.messages.text.find("can change only its -1 dimensions"), std::string::npos)
      << o.messages.text;
  ASSERT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, "x", good, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteSignatureRunnerAllocateTensors(runner), kTfLiteOk);

  TfLiteTensor* x = TfLiteSignatureRunnerGetInputTensor(runner, "x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(TfLiteTensorByteSize(x), 12 * sizeof(float));
  std::vector<float> values(12);
  for (int i = 0; i < 12; ++i) values[i] = static_cast<float>(i);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(x, values.data(), values.size() * sizeof(float)), kTfLiteOk);
  ASSERT_EQ(TfLiteSignatureRunnerInvoke(runner), kTfLiteOk);
  const TfLiteTensor* y = TfLiteSignatureRunnerGetOutputTensor(runner, "y");
  ASSERT_NE(y, nullptr);
  const std::vector<float> out = Floats(y);
  ASSERT_EQ(out.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(out[i], 2.f * i);
  TfLiteSignatureRunnerDelete(runner);
  TfLiteInterpreterDelete(interpreter);
}

// A delegate that claims nothing; Prepare's result decides whether creation succeeds.
struct TestDelegate {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  int prepared = 0;
  TfLiteStatus result = kTfLiteOk;
  TestDelegate() {
    delegate.data_ = this;
    delegate.Prepare = [](TfLiteContext*, TfLiteDelegate* d) {
      auto* self = static_cast<TestDelegate*>(d->data_);
      ++self->prepared;
      return self->result;
    };
  }
};

TEST(CApi, DelegatesFromTheOptions) {
  Model m(AddMulModel());
  TestDelegate ok, failing;
  failing.result = kTfLiteError;
  {
    Options o;
    TfLiteInterpreterOptionsAddDelegate(o.options, &ok.delegate);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
    ASSERT_NE(interpreter, nullptr) << o.messages.text;
    EXPECT_EQ(ok.prepared, 1);
    EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
    TfLiteInterpreterDelete(interpreter);
  }
  Options o;
  TfLiteInterpreterOptionsAddDelegate(o.options, &failing.delegate);
  EXPECT_EQ(TfLiteInterpreterCreate(m.model, o.options), nullptr);
  EXPECT_EQ(failing.prepared, 1);
  EXPECT_NE(o.messages.text.find("could not be built"), std::string::npos) << o.messages.text;
}

// in -> CancelHere -> mid -> CountRuns -> out, float [1, 3], both doubling their input.
std::vector<uint8_t> TwoCustomOpModel() {
  ModelBuilder b;
  const int first = b.AddCustomOperatorCode("CancelHere");
  const int second = b.AddCustomOperatorCode("CountRuns");
  const int in = b.AddTensor(TensorType_FLOAT32, {1, 3}, "in");
  const int mid = b.AddTensor(TensorType_FLOAT32, {1, 3}, "mid");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, 3}, "out");
  b.AddCustomOperator(first, {in}, {mid}, {});
  b.AddCustomOperator(second, {mid}, {out}, {});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Finish();
}

// The first node cancels the invoke it runs in (as another thread would); the second counts.
struct CancelState {
  TfLiteInterpreter* interpreter = nullptr;
  bool cancel_in_first_node = true;
  TfLiteStatus cancel_status = kTfLiteOk;
  int second_node_runs = 0;
};
CancelState g_cancel;

TfLiteStatus CancelHereEval(TfLiteContext* context, TfLiteNode* node) {
  if (g_cancel.cancel_in_first_node) {
    g_cancel.cancel_status = TfLiteInterpreterCancel(g_cancel.interpreter);
  }
  return TimesTwoEval(context, node);
}
TfLiteStatus CountRunsEval(TfLiteContext* context, TfLiteNode* node) {
  ++g_cancel.second_node_runs;
  return TimesTwoEval(context, node);
}

// Octet's TfLiteInterpreterOptionsSetMaxMemoryBytes: past the limit, allocation fails with
// the reason sent to the options' reporter; NULL options are reported, not dereferenced.
TEST(CApi, MaxMemoryBytes) {
  Model m(CustomOpModel());
  const TfLiteRegistration times_two = Kernel(TimesTwoPrepare, TimesTwoEval);
  for (const size_t limit : {size_t{8}, size_t{1} << 20}) {
    Options o;
    TfLiteInterpreterOptionsAddCustomOp(o.options, "TimesTwo", &times_two, 1, 1);
    TfLiteInterpreterOptionsSetMaxMemoryBytes(o.options, limit);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
    ASSERT_NE(interpreter, nullptr) << o.messages.text;
    const TfLiteStatus status = TfLiteInterpreterAllocateTensors(interpreter);
    if (limit == 8) {
      EXPECT_EQ(status, kTfLiteError);
      EXPECT_NE(o.messages.text.find("memory limit of 8 B"), std::string::npos)
          << o.messages.text;
    } else {
      EXPECT_EQ(status, kTfLiteOk) << o.messages.text;
    }
    TfLiteInterpreterDelete(interpreter);
  }
  TfLiteInterpreterOptionsSetMaxMemoryBytes(nullptr, 1);  // reported on stderr
}

TEST(CApi, Cancellation) {
  Model m(TwoCustomOpModel());
  const TfLiteRegistration cancel_here = Kernel(TimesTwoPrepare, CancelHereEval);
  const TfLiteRegistration count_runs = Kernel(TimesTwoPrepare, CountRunsEval);
  for (const bool enable : {false, true}) {
    Options o;
    TfLiteInterpreterOptionsAddCustomOp(o.options, "CancelHere", &cancel_here, 1, 1);
    TfLiteInterpreterOptionsAddCustomOp(o.options, "CountRuns", &count_runs, 1, 1);
    if (enable) {
      ASSERT_EQ(TfLiteInterpreterOptionsEnableCancellation(o.options, true), kTfLiteOk);
    }
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, o.options);
    ASSERT_NE(interpreter, nullptr) << o.messages.text;
    g_cancel = CancelState{};
    g_cancel.interpreter = interpreter;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
    if (!enable) {
      EXPECT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
      EXPECT_EQ(g_cancel.cancel_status, kTfLiteError);
      EXPECT_EQ(g_cancel.second_node_runs, 1);
      EXPECT_NE(o.messages.text.find("cancellation is not enabled"), std::string::npos)
          << o.messages.text;
    } else {
      EXPECT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteCancelled);
      EXPECT_EQ(g_cancel.cancel_status, kTfLiteOk);
      EXPECT_EQ(g_cancel.second_node_runs, 0);
      // A cancel that comes before an invoke starts does not stop it.
      g_cancel.cancel_in_first_node = false;
      EXPECT_EQ(TfLiteInterpreterCancel(interpreter), kTfLiteOk);
      EXPECT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
      EXPECT_EQ(g_cancel.second_node_runs, 1);
    }
    TfLiteInterpreterDelete(interpreter);
  }
  testing::internal::CaptureStderr();
  EXPECT_EQ(TfLiteInterpreterOptionsEnableCancellation(nullptr, true), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterCancel(nullptr), kTfLiteError);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("TfLiteInterpreterCancel: interpreter is NULL"), std::string::npos) << err;
}

}  // namespace
