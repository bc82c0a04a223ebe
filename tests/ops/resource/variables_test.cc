// Resource variables through whole models, as converters emit them: a CALL_ONCE init
// subgraph assigns the initial value, the main subgraph reads, updates and assigns back. The
// truth is arithmetic: a counter counts invokes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/model_builder.h"
#include "resource_test_util.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet {
namespace {

using namespace tflite;  // NOLINT: BuiltinOperator_*, TensorType_*
using format::ModelBuilder;

using Loaded = resource_test::LoadedModel;

// Subgraph 0: out = READ(v); ASSIGN(v, out + step). Subgraph 1 (CALL_ONCE): ASSIGN(v, start).
// `name` names the variable in each subgraph's own VAR_HANDLE.
std::vector<uint8_t> CounterModel(float start, const std::string& init_name = "counter") {
  ModelBuilder b;
  const int call_once = b.AddOperatorCode(BuiltinOperator_CALL_ONCE);
  const int var_handle = b.AddOperatorCode(BuiltinOperator_VAR_HANDLE);
  const int read = b.AddOperatorCode(BuiltinOperator_READ_VARIABLE);
  const int assign = b.AddOperatorCode(BuiltinOperator_ASSIGN_VARIABLE);
  const int add = b.AddOperatorCode(BuiltinOperator_ADD);
  const int step = b.AddTensor(TensorType_FLOAT32, {2}, "step");
  const int handle = b.AddTensor(TensorType_RESOURCE, {}, "handle");
  const int value = b.AddTensor(TensorType_FLOAT32, {2}, "value");
  const int next = b.AddTensor(TensorType_FLOAT32, {2}, "next");
  b.AddOperator(call_once, {}, {}, b.CallOnceOptions(1));
  b.AddOperator(var_handle, {}, {handle}, b.VarHandleOptions("", "counter"));
  b.AddOperator(read, {handle}, {value});
  b.AddOperator(add, {value, step}, {next}, b.AddOptions());
  b.AddOperator(assign, {handle, next}, {});
  b.SetInputs({step});
  b.SetOutputs({value});
  b.AddSubgraph("init");
  const int init_handle = b.AddTensor(TensorType_RESOURCE, {}, "init_handle");
  const int initial =
      b.AddConstTensor(TensorType_FLOAT32, {2}, std::vector<float>{start, -start}, "initial");
  b.AddOperator(var_handle, {}, {init_handle}, b.VarHandleOptions("", init_name));
  b.AddOperator(assign, {init_handle, initial}, {});
  return b.Finish();
}

TEST(ResourceVariables, CounterKeepsItsValueAcrossInvokes) {
  Loaded m(CounterModel(10.f));
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  float* step = m.interpreter->typed_input_tensor<float>(0);
  for (int k = 0; k < 4; ++k) {
    step[0] = 1.f;
    step[1] = 0.5f;
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    const TfLiteTensor* out = m.interpreter->output_tensor(0);
    ASSERT_EQ(out->dims->size, 1);
    ASSERT_EQ(out->dims->data[0], 2);
    EXPECT_EQ(out->data.f[0], 10.f + k) << "invoke " << k;
    EXPECT_EQ(out->data.f[1], -10.f + 0.5f * k) << "invoke " << k;
  }
}

TEST(ResourceVariables, EachInterpreterHasItsOwnVariables) {
  Loaded a(CounterModel(1.f));
  Loaded b(CounterModel(100.f));
  ASSERT_EQ(a.interpreter->AllocateTensors(), kTfLiteOk) << a.reporter.text;
  ASSERT_EQ(b.interpreter->AllocateTensors(), kTfLiteOk) << b.reporter.text;
  for (Loaded* m : {&a, &b}) {
    float* step = m->interpreter->typed_input_tensor<float>(0);
    step[0] = step[1] = 2.f;
  }
  ASSERT_EQ(a.interpreter->Invoke(), kTfLiteOk);
  ASSERT_EQ(a.interpreter->Invoke(), kTfLiteOk);
  ASSERT_EQ(b.interpreter->Invoke(), kTfLiteOk);
  EXPECT_EQ(a.interpreter->output_tensor(0)->data.f[0], 3.f);
  EXPECT_EQ(b.interpreter->output_tensor(0)->data.f[0], 100.f);
}

TEST(ResourceVariables, ReadingAVariableNothingWasAssignedToIsAnError) {
  // The init subgraph assigns a differently named variable: "counter" stays unassigned.
  Loaded m(CounterModel(1.f, "other"));
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(m.interpreter->Invoke(), kTfLiteError);
  EXPECT_NE(m.reporter.text.find("READ_VARIABLE: variable 0 is read before anything was "
                                 "assigned to it"),
            std::string::npos)
      << m.reporter.text;
}

TEST(ResourceVariables, ReadChecksTheVariablesType) {
  ModelBuilder b;
  const int var_handle = b.AddOperatorCode(BuiltinOperator_VAR_HANDLE);
  const int read = b.AddOperatorCode(BuiltinOperator_READ_VARIABLE);
  const int assign = b.AddOperatorCode(BuiltinOperator_ASSIGN_VARIABLE);
  const int x = b.AddTensor(TensorType_INT32, {3}, "x");
  const int handle = b.AddTensor(TensorType_RESOURCE, {}, "handle");
  const int y = b.AddTensor(TensorType_FLOAT32, {3}, "y");
  b.AddOperator(var_handle, {}, {handle}, b.VarHandleOptions("c", "v"));
  b.AddOperator(assign, {handle, x}, {});
  b.AddOperator(read, {handle}, {y});
  b.SetInputs({x});
  b.SetOutputs({y});
  Loaded m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(m.interpreter->Invoke(), kTfLiteError);
  EXPECT_NE(m.reporter.text.find("READ_VARIABLE: variable 0 holds INT32, the output is FLOAT32"),
            std::string::npos)
      << m.reporter.text;
}

TEST(ResourceVariables, AssignmentsMayChangeTheShapeAndHandlesAreSharedByName) {
  // Two VAR_HANDLEs of one name give one variable; a third name another one. Assign x
  // (shape set by the caller) through the first handle, read through the second.
  ModelBuilder b;
  const int var_handle = b.AddOperatorCode(BuiltinOperator_VAR_HANDLE);
  const int read = b.AddOperatorCode(BuiltinOperator_READ_VARIABLE);
  const int assign = b.AddOperatorCode(BuiltinOperator_ASSIGN_VARIABLE);
  const int x = b.AddTensor(TensorType_INT32, {2}, "x");
  const int h1 = b.AddTensor(TensorType_RESOURCE, {}, "h1");
  const int h2 = b.AddTensor(TensorType_RESOURCE, {}, "h2");
  const int h3 = b.AddTensor(TensorType_RESOURCE, {}, "h3");
  const int y = b.AddTensor(TensorType_INT32, {2}, "y");
  b.AddOperator(var_handle, {}, {h1}, b.VarHandleOptions("", "a"));
  b.AddOperator(var_handle, {}, {h3}, b.VarHandleOptions("", "b"));
  b.AddOperator(var_handle, {}, {h2}, b.VarHandleOptions("", "a"));
  b.AddOperator(assign, {h1, x}, {});
  b.AddOperator(read, {h2}, {y});
  b.SetInputs({x});
  b.SetOutputs({y, h2, h3});
  Loaded m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  for (int n : {2, 5}) {
    ASSERT_EQ(m.interpreter->ResizeInputTensor(0, {n}), kTfLiteOk);
    ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
    int32_t* x_data = m.interpreter->typed_input_tensor<int32_t>(0);
    for (int i = 0; i < n; ++i) x_data[i] = 7 * i - n;
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    const TfLiteTensor* out = m.interpreter->output_tensor(0);
    ASSERT_EQ(out->dims->size, 1);
    ASSERT_EQ(out->dims->data[0], n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(out->data.i32[i], 7 * i - n);
  }
  // Ids: "a" -> 0 (first made), "b" -> 1.
  EXPECT_EQ(m.interpreter->output_tensor(1)->data.i32[0], 0);
  EXPECT_EQ(m.interpreter->output_tensor(2)->data.i32[0], 1);
}

TEST(ResourceVariables, PrepareRejectsBadArity) {
  ModelBuilder b;
  const int assign = b.AddOperatorCode(BuiltinOperator_ASSIGN_VARIABLE);
  const int x = b.AddTensor(TensorType_INT32, {2}, "x");
  const int id = b.AddTensor(TensorType_INT32, {2}, "id");  // two elements: not an id
  b.AddOperator(assign, {id, x}, {});
  b.SetInputs({id, x});
  b.SetOutputs({x});
  Loaded m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  EXPECT_EQ(m.interpreter->AllocateTensors(), kTfLiteError);
  EXPECT_NE(m.reporter.text.find("ASSIGN_VARIABLE: the variable id must have one element (got 2)"),
            std::string::npos)
      << m.reporter.text;
}

}  // namespace
}  // namespace octet
