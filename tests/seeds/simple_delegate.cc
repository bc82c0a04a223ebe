// A SimpleDelegate (float_ops_delegate.h) applied through TfLiteDelegateFactory, checked
// against the plain run, on a graph built with the Interpreter API:
//   a = relu(x + y); m = a * x; s = m - y; o = s + m; out = o * o
// ADD/MUL are claimed, SUB is not: two partitions {a, m} and {o, out}.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "float_ops_delegate.h"
// The core/ paths newer TFLite code includes.
#include "tensorflow/lite/core/interpreter.h"
#include "tensorflow/lite/core/kernels/register.h"

namespace {

template <typename Params>
void* NewParams(TfLiteFusedActivation act) {
  auto* p = static_cast<Params*>(std::calloc(1, sizeof(Params)));
  p->activation = act;
  return p;
}

std::unique_ptr<tflite::Interpreter> Build(const tflite::OpResolver& resolver) {
  auto interp = std::make_unique<tflite::Interpreter>();
  interp->AddTensors(7);  // x y a m s o out
  const char* names[] = {"x", "y", "a", "m", "s", "o", "out"};
  for (int i = 0; i < 7; ++i) {
    interp->SetTensorParametersReadWrite(i, kTfLiteFloat32, names[i], {2, 4},
                                         TfLiteQuantizationParams{});
  }
  interp->SetInputs({0, 1});
  interp->SetOutputs({6});
  const TfLiteRegistration* add = resolver.FindOp(tflite::BuiltinOperator_ADD, 1);
  const TfLiteRegistration* mul = resolver.FindOp(tflite::BuiltinOperator_MUL, 1);
  const TfLiteRegistration* sub = resolver.FindOp(tflite::BuiltinOperator_SUB, 1);
  interp->AddNodeWithParameters({0, 1}, {2}, nullptr, 0, NewParams<TfLiteAddParams>(kTfLiteActRelu),
                                add);
  interp->AddNodeWithParameters({2, 0}, {3}, nullptr, 0, NewParams<TfLiteMulParams>(kTfLiteActNone),
                                mul);
  interp->AddNodeWithParameters({3, 1}, {4}, nullptr, 0, NewParams<TfLiteSubParams>(kTfLiteActNone),
                                sub);
  interp->AddNodeWithParameters({4, 3}, {5}, nullptr, 0, NewParams<TfLiteAddParams>(kTfLiteActNone),
                                add);
  interp->AddNodeWithParameters({5, 5}, {6}, nullptr, 0, NewParams<TfLiteMulParams>(kTfLiteActNone),
                                mul);
  return interp;
}

bool Run(tflite::Interpreter* interp, std::vector<float>* out) {
  if (interp->AllocateTensors() != kTfLiteOk) return false;
  for (int i = 0; i < 8; ++i) {
    interp->typed_input_tensor<float>(0)[i] = 0.37f * i - 1.1f;
    interp->typed_input_tensor<float>(1)[i] = 0.5f - 0.21f * i;
  }
  if (interp->Invoke() != kTfLiteOk) return false;
  const float* y = interp->typed_output_tensor<float>(0);
  out->assign(y, y + 8);
  return true;
}

}  // namespace

int main() {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::vector<float> want, got, got_raw;
  auto plain = Build(resolver);
  if (!Run(plain.get(), &want)) return 1;

  // Owned by the interpreter: the factory's unique_ptr.
  int evals = 0;
  auto delegated = Build(resolver);
  if (delegated->ModifyGraphWithDelegate(tflite::TfLiteDelegateFactory::Create(
          std::make_unique<float_ops::Delegate>(&evals))) != kTfLiteOk) {
    std::printf("ModifyGraphWithDelegate failed\n");
    return 1;
  }
  if (!Run(delegated.get(), &got)) return 1;
  std::printf("delegated plan: %zu nodes (from 5), kernel evals: %d\n",
              delegated->execution_plan().size(), evals);

  // Owned by the caller: CreateSimpleDelegate / DeleteSimpleDelegate.
  int raw_evals = 0;
  TfLiteDelegate* raw = tflite::TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<float_ops::Delegate>(&raw_evals));
  {
    auto interp = Build(resolver);
    if (interp->ModifyGraphWithDelegate(raw) != kTfLiteOk || !Run(interp.get(), &got_raw)) {
      return 1;
    }
  }
  tflite::TfLiteDelegateFactory::DeleteSimpleDelegate(raw);

  // The partitions compute the same float operations in the same order: same bits.
  const bool same = std::memcmp(want.data(), got.data(), sizeof(float) * 8) == 0 &&
                    std::memcmp(want.data(), got_raw.data(), sizeof(float) * 8) == 0;
  const bool delegated_ok = delegated->execution_plan().size() == 3 && evals == 2 && raw_evals == 2;
  std::printf("out[7] = %f\n", want[7]);
  std::printf("%s\n", same && delegated_ok ? "simple delegate: outputs identical"
                                           : "simple delegate: MISMATCH");
  return same && delegated_ok ? 0 : 1;
}
