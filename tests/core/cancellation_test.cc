// Cancelling an Invoke: Interpreter::Cancel() from another thread and a cancellation
// function, both stopping a WHILE loop that would never end with kTfLiteCancelled.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/forever_model.h"

namespace {

using namespace tflite;

struct Loop {
  std::vector<uint8_t> bytes = octet::test::CountToLimitModel();
  std::unique_ptr<FlatBufferModel> model;
  ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<Interpreter> interpreter;
  Loop() {
    model =
        FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (model) InterpreterBuilder(*model, resolver)(&interpreter);
    if (interpreter) interpreter->AllocateTensors();
  }
  TfLiteStatus Run(float limit) {
    interpreter->typed_input_tensor<float>(0)[0] = 0.f;
    interpreter->typed_input_tensor<float>(1)[0] = limit;
    return interpreter->Invoke();
  }
};

constexpr float kForever = std::numeric_limits<float>::infinity();

TEST(Cancellation, TheLoopModelCounts) {
  Loop loop;
  ASSERT_NE(loop.interpreter, nullptr);
  ASSERT_EQ(loop.Run(10.f), kTfLiteOk);
  EXPECT_EQ(loop.interpreter->typed_output_tensor<float>(0)[0], 10.f);
}

TEST(Cancellation, CancelNeedsEnableCancellation) {
  Loop loop;
  ASSERT_NE(loop.interpreter, nullptr);
  EXPECT_EQ(loop.interpreter->Cancel(), kTfLiteError);
  EXPECT_EQ(loop.interpreter->EnableCancellation(), kTfLiteOk);
  EXPECT_EQ(loop.interpreter->Cancel(), kTfLiteOk);
}

TEST(Cancellation, CancelFromAnotherThreadStopsAnEndlessWhile) {
  Loop loop;
  ASSERT_NE(loop.interpreter, nullptr);
  Interpreter& interp = *loop.interpreter;
  ASSERT_EQ(interp.EnableCancellation(), kTfLiteOk);
  // A cancel before Invoke starts does not count, so keep cancelling until it has stopped.
  std::atomic<bool> done{false};
  std::thread canceller([&] {
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      interp.Cancel();
    }
  });
  const auto start = std::chrono::steady_clock::now();
  const TfLiteStatus status = loop.Run(kForever);
  done = true;
  canceller.join();
  EXPECT_EQ(status, kTfLiteCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  // Cancelled earlier, the interpreter still runs the next Invoke to the end.
  ASSERT_EQ(loop.Run(5.f), kTfLiteOk);
  EXPECT_EQ(interp.typed_output_tensor<float>(0)[0], 5.f);
}

TEST(Cancellation, ACancelBeforeInvokeDoesNotStopIt) {
  Loop loop;
  ASSERT_NE(loop.interpreter, nullptr);
  ASSERT_EQ(loop.interpreter->EnableCancellation(), kTfLiteOk);
  ASSERT_EQ(loop.interpreter->Cancel(), kTfLiteOk);
  EXPECT_EQ(loop.Run(3.f), kTfLiteOk);
}

bool AfterManyChecks(void* data) { return ++*static_cast<int*>(data) > 1000; }

TEST(Cancellation, CancellationFunctionIsAskedInsideTheLoop) {
  Loop loop;
  ASSERT_NE(loop.interpreter, nullptr);
  Interpreter& interp = *loop.interpreter;
  int checks = 0;
  interp.SetCancellationFunction(&checks, AfterManyChecks);
  EXPECT_EQ(loop.Run(kForever), kTfLiteCancelled);
  EXPECT_GT(checks, 1000);  // asked in the cond and body subgraphs of each iteration
  interp.SetCancellationFunction(nullptr, nullptr);
  ASSERT_EQ(loop.Run(7.f), kTfLiteOk);
  EXPECT_EQ(interp.typed_output_tensor<float>(0)[0], 7.f);
}

}  // namespace
