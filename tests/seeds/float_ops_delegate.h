// A delegate written the way TFLite's delegate guide does it, on SimpleDelegateInterface:
// it claims float32 ADD and MUL nodes whose operands have the same shape (fused activation
// NONE, RELU or RELU6) and computes each partition itself; tensors that live only inside a
// partition are kept in the kernel's own buffers (the runtime does not allocate them).
#pragma once

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <vector>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/context_util.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"

namespace float_ops {

inline int64_t Elements(const TfLiteTensor& t) {
  int64_t n = 1;
  for (int i = 0; i < t.dims->size; ++i) n *= t.dims->data[i];
  return n;
}

inline bool SameShape(const TfLiteTensor& a, const TfLiteTensor& b) {
  if (a.dims->size != b.dims->size) return false;
  return std::equal(a.dims->data, a.dims->data + a.dims->size, b.dims->data);
}

class Kernel : public tflite::SimpleDelegateKernelInterface {
 public:
  explicit Kernel(int* evals) : evals_(evals) {}

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    for (int id : tflite::TfLiteIntArrayView(params->nodes_to_replace)) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      if (context->GetNodeAndRegistration(context, id, &node, &reg) != kTfLiteOk) {
        return kTfLiteError;
      }
      Op op;
      op.mul = reg->builtin_code == kTfLiteBuiltinMul;
      op.a = node->inputs->data[0];
      op.b = node->inputs->data[1];
      op.out = node->outputs->data[0];
      const TfLiteFusedActivation act =
          op.mul ? static_cast<const TfLiteMulParams*>(node->builtin_data)->activation
                 : static_cast<const TfLiteAddParams*>(node->builtin_data)->activation;
      if (act == kTfLiteActRelu) op.lo = 0.f;
      if (act == kTfLiteActRelu6) op.lo = 0.f, op.hi = 6.f;
      ops_.push_back(op);
    }
    for (int t : tflite::TfLiteIntArrayView(params->output_tensors)) outputs_.push_back(t);
    return kTfLiteOk;
  }

  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*) override {
    // A result no one outside reads gets a buffer of its own.
    for (const Op& op : ops_) {
      if (std::find(outputs_.begin(), outputs_.end(), op.out) == outputs_.end()) {
        scratch_[op.out].resize(Elements(context->tensors[op.out]));
      }
    }
    return kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    ++*evals_;
    for (const Op& op : ops_) {
      const float* a = Data(context, op.a);
      const float* b = Data(context, op.b);
      float* out = Data(context, op.out);
      const int64_t n = Elements(context->tensors[op.out]);
      for (int64_t i = 0; i < n; ++i) {
        const float v = op.mul ? a[i] * b[i] : a[i] + b[i];
        out[i] = std::min(std::max(v, op.lo), op.hi);
      }
    }
    return kTfLiteOk;
  }

 private:
  struct Op {
    bool mul = false;
    int a = 0, b = 0, out = 0;
    float lo = -std::numeric_limits<float>::infinity();
    float hi = std::numeric_limits<float>::infinity();
  };
  float* Data(TfLiteContext* context, int tensor) {
    auto it = scratch_.find(tensor);
    return it != scratch_.end() ? it->second.data() : context->tensors[tensor].data.f;
  }
  int* evals_;
  std::vector<Op> ops_;
  std::vector<int> outputs_;
  std::map<int, std::vector<float>> scratch_;
};

class Delegate : public tflite::SimpleDelegateInterface {
 public:
  explicit Delegate(int* evals) : evals_(evals) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* reg, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    if (reg->builtin_code != kTfLiteBuiltinAdd && reg->builtin_code != kTfLiteBuiltinMul) {
      return false;
    }
    if (node->inputs->size != 2 || node->builtin_data == nullptr) return false;
    const TfLiteTensor& a = context->tensors[node->inputs->data[0]];
    const TfLiteTensor& b = context->tensors[node->inputs->data[1]];
    if (a.type != kTfLiteFloat32 || b.type != kTfLiteFloat32 || !SameShape(a, b)) return false;
    const TfLiteFusedActivation act =
        reg->builtin_code == kTfLiteBuiltinMul
            ? static_cast<const TfLiteMulParams*>(node->builtin_data)->activation
            : static_cast<const TfLiteAddParams*>(node->builtin_data)->activation;
    return act == kTfLiteActNone || act == kTfLiteActRelu || act == kTfLiteActRelu6;
  }
  TfLiteStatus Initialize(TfLiteContext*) override { return kTfLiteOk; }
  const char* Name() const override { return "FloatOpsDelegate"; }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
    return std::make_unique<Kernel>(evals_);
  }
  tflite::SimpleDelegateInterface::Options DelegateOptions() const override { return {}; }

 private:
  int* evals_;
};

}  // namespace float_ops
