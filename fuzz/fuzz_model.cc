// libFuzzer target: a .tflite model and its input data (layout in fuzz_input.h) through the
// path every application takes: VerifyAndBuildFromBuffer -> InterpreterBuilder ->
// AllocateTensors -> fill inputs -> Invoke. Any sanitizer report, crash, leak or timeout is a
// finding; a model the engine refuses with an error is not.
//
// To keep one execution fast, the harness (not the engine) skips models that could take long
// for legitimate reasons: more than kMaxNodes nodes, any WHILE loop (a model may loop forever
// by design), tensors totalling more than kMaxTotalBytes, and (after AllocateTensors) an
// estimated invoke cost above kMaxWork multiply-adds. Sizes computed in prepare are
// capped by refusing ResizeTensor / RequestScratchBufferInArena past the budget, which the
// kernels must then handle as an ordinary prepare failure.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "fuzz_input.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace {

constexpr size_t kMaxTotalBytes = size_t{64} << 20;   // all tensors and scratch, per model
constexpr size_t kMaxEngineBytes = size_t{96} << 20;  // Interpreter::SetMaxMemoryBytes
constexpr size_t kMaxNodes = 64;                      // over all subgraphs
constexpr double kMaxWork = 5e7;                      // ~1 s on the ASan reference kernels

struct SilentReporter : tflite::ErrorReporter {
  int Report(const char*, va_list) override { return 0; }
};

// The budget every wrapped context callback draws from; one model at a time.
struct Budget {
  size_t used = 0;
  bool Take(size_t bytes) {
    if (bytes > kMaxTotalBytes - used) return false;
    used += bytes;
    return true;
  }
};
Budget g_budget;
TfLiteStatus (*g_resize)(TfLiteContext*, TfLiteTensor*, TfLiteIntArray*) = nullptr;
TfLiteStatus (*g_scratch)(TfLiteContext*, size_t, int*) = nullptr;

size_t BytesFor(TfLiteType type, const TfLiteIntArray* dims) {
  size_t n = TfLiteTypeGetSize(type);
  if (n == 0) n = 1;
  for (int i = 0; dims != nullptr && i < dims->size; ++i) {
    const int d = dims->data[i];
    if (d <= 0) return 0;
    if (n > kMaxTotalBytes / static_cast<size_t>(d)) return kMaxTotalBytes + 1;
    n *= static_cast<size_t>(d);
  }
  return n;
}

TfLiteStatus CappedResize(TfLiteContext* context, TfLiteTensor* tensor, TfLiteIntArray* dims) {
  if (!g_budget.Take(BytesFor(tensor->type, dims))) {
    TfLiteIntArrayFree(dims);  // ResizeTensor owns it
    return kTfLiteError;
  }
  return g_resize(context, tensor, dims);
}

TfLiteStatus CappedResizeExplicit(TfLiteContext* context, TfLiteTensor* tensor, int rank,
                                  const int* shape) {
  if (rank < 0 || (rank > 0 && shape == nullptr)) return kTfLiteError;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(rank);
  for (int i = 0; i < rank; ++i) dims->data[i] = shape[i];
  return CappedResize(context, tensor, dims);
}

TfLiteStatus CappedScratch(TfLiteContext* context, size_t bytes, int* index) {
  if (!g_budget.Take(bytes)) return kTfLiteError;
  return g_scratch(context, bytes, index);
}

// Counts the model's own tensor bytes and nodes; false if over the harness's limits.
bool WithinLimits(tflite::Interpreter& interpreter) {
  size_t nodes = 0;
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    tflite::Subgraph* sg = interpreter.subgraph(static_cast<int>(s));
    nodes += sg->nodes_size();
    for (size_t n = 0; n < sg->nodes_size(); ++n) {
      const auto* nr = sg->node_and_registration(static_cast<int>(n));
      if (nr != nullptr && nr->second.builtin_code == kTfLiteBuiltinWhile) return false;
    }
    for (size_t t = 0; t < sg->tensors_size(); ++t) {
      const TfLiteTensor* tensor = sg->tensor(static_cast<int>(t));
      if (tensor->allocation_type == kTfLiteMmapRo) continue;  // already in the model bytes
      if (!g_budget.Take(BytesFor(tensor->type, tensor->dims))) return false;
    }
  }
  return nodes <= kMaxNodes;
}

double Elements(const TfLiteTensor* t) {
  double n = 1;
  for (int i = 0; t != nullptr && t->dims != nullptr && i < t->dims->size; ++i)
    n *= t->dims->data[i];
  return n;
}

// A rough upper bound on one invoke's work: each output element of a pool costs its window,
// of a weighted op its weights per output channel; any node at least its inputs and outputs.
// (A valid model may ask for billions of operations; that is not a finding.)
double EstimatedWork(tflite::Interpreter& interpreter) {
  double work = 0;
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    tflite::Subgraph* sg = interpreter.subgraph(static_cast<int>(s));
    for (size_t n = 0; n < sg->nodes_size(); ++n) {
      const auto* nr = sg->node_and_registration(static_cast<int>(n));
      const TfLiteNode& node = nr->first;
      double out = 0, in = 0, per_output = 1;
      for (int i = 0; node.outputs && i < node.outputs->size; ++i) {
        if (node.outputs->data[i] >= 0) out += Elements(sg->tensor(node.outputs->data[i]));
      }
      for (int i = 0; node.inputs && i < node.inputs->size; ++i) {
        if (node.inputs->data[i] >= 0) in += Elements(sg->tensor(node.inputs->data[i]));
      }
      switch (nr->second.builtin_code) {
        case kTfLiteBuiltinAveragePool2d:
        case kTfLiteBuiltinMaxPool2d:
        case kTfLiteBuiltinL2Pool2d:
          if (const auto* p = static_cast<const TfLitePoolParams*>(node.builtin_data)) {
            per_output = static_cast<double>(p->filter_width) * p->filter_height;
          }
          break;
        case kTfLiteBuiltinConv2d:
        case kTfLiteBuiltinDepthwiseConv2d:
        case kTfLiteBuiltinFullyConnected:
        case kTfLiteBuiltinTransposeConv:
        case kTfLiteBuiltinBatchMatmul:
          if (node.inputs && node.inputs->size > 1 && node.inputs->data[1] >= 0) {
            const TfLiteTensor* w = sg->tensor(node.inputs->data[1]);
            const int last = w->dims && w->dims->size > 0 ? w->dims->data[w->dims->size - 1] : 1;
            per_output = Elements(w) / (last > 0 ? last : 1) * 1.0;
          }
          break;
        default:
          break;
      }
      work += out * per_output + in;
    }
  }
  return work;
}

void InstallBudget(tflite::Interpreter& interpreter) {
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    TfLiteContext* context = interpreter.subgraph(static_cast<int>(s))->context();
    g_resize = context->ResizeTensor;  // the same callback in every subgraph
    g_scratch = context->RequestScratchBufferInArena;
    context->ResizeTensor = CappedResize;
    context->ResizeTensorExplicit = CappedResizeExplicit;
    context->RequestScratchBufferInArena = CappedScratch;
  }
}

void FillInputs(tflite::Interpreter& interpreter, octet::fuzz::InputStream& in) {
  for (int index : interpreter.inputs()) {
    TfLiteTensor* t = interpreter.tensor(index);
    if (t == nullptr || t->data.raw == nullptr || t->bytes == 0) continue;
    if (t->type == kTfLiteFloat32) {
      const size_t n = t->bytes / sizeof(float);
      for (size_t i = 0; i < n; ++i) t->data.f[i] = octet::fuzz::FloatFromByte(in.Byte());
    } else if (t->type == kTfLiteBool) {
      for (size_t i = 0; i < t->bytes; ++i) t->data.b[i] = (in.Byte() & 1) != 0;
    } else if (t->type != kTfLiteString && t->type != kTfLiteResource &&
               t->type != kTfLiteVariant) {
      in.Fill(t->data.raw, t->bytes);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const octet::fuzz::FuzzParts parts = octet::fuzz::SplitFuzzInput(data, size);
  if (parts.model_size == 0) return 0;
  // An exact-size heap copy: aligned like a loaded file, and ASan sees any read past its end.
  const std::vector<char> model_bytes(parts.model, parts.model + parts.model_size);
  SilentReporter reporter;
  auto model = tflite::FlatBufferModel::VerifyAndBuildFromBuffer(model_bytes.data(),
                                                                 model_bytes.size(), &reporter);
  if (!model) return 0;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*model, resolver)(&interpreter) != kTfLiteOk || !interpreter) {
    return 0;
  }
  g_budget = Budget{};
  if (!WithinLimits(*interpreter)) return 0;
  InstallBudget(*interpreter);
  // The engine's own memory limit too: arenas, packed weights and heap tensors past it are
  // refused at prepare or invoke, a path the fuzzer then exercises.
  interpreter->SetMaxMemoryBytes(kMaxEngineBytes);
  if (interpreter->AllocateTensors() != kTfLiteOk) return 0;
  if (EstimatedWork(*interpreter) > kMaxWork) return 0;
  octet::fuzz::InputStream in(parts.input, parts.input_size);
  FillInputs(*interpreter, in);
  interpreter->Invoke();
  return 0;
}
