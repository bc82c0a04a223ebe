// C API: creating and running an interpreter.
#include <cstdarg>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "c_api/c_api_internal.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"

using octet::c_api::HandOut;
using octet::c_api::Report;
using octet::c_api::TakeBack;

namespace octet::c_api {
namespace {

// Forwards the interpreter's messages to the callback set with
// TfLiteInterpreterOptionsSetErrorReporter.
class CallbackErrorReporter final : public tflite::ErrorReporter {
 public:
  CallbackErrorReporter(TfLiteErrorCallback callback, void* user_data)
      : callback_(callback), user_data_(user_data) {}
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    callback_(user_data_, format, args);
    return 0;
  }

 private:
  TfLiteErrorCallback callback_;
  void* user_data_;
};

const tflite::ops::builtin::BuiltinOpResolver& Builtins() {
  static const tflite::ops::builtin::BuiltinOpResolver resolver;
  return resolver;
}

// What the options register (AddBuiltinOp / AddCustomOp), then the SetOpResolver callbacks,
// then (unless only selected ops are wanted) Octet's builtin kernels.
class OptionsOpResolver final : public tflite::OpResolver {
 public:
  OptionsOpResolver(const TfLiteInterpreterOptions* options, bool with_builtins)
      : builtins_(with_builtins ? &Builtins() : nullptr) {
    if (options == nullptr) return;
    added_.AddAll(options->added_ops);
    find_builtin_ = options->find_builtin_op;
    find_custom_ = options->find_custom_op;
    user_data_ = options->op_resolver_user_data;
  }

  const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const override {
    if (const TfLiteRegistration* r = added_.FindOp(op, version)) return r;
    if (find_builtin_ != nullptr) {
      if (const TfLiteRegistration* r =
              find_builtin_(user_data_, static_cast<TfLiteBuiltinOperator>(op), version)) {
        // The builder reads builtin_code to tell builtin from custom nodes: keep a copy that
        // names this op, whatever the callback's struct says.
        TfLiteRegistration& copy = builtin_copies_[{static_cast<int>(op), version}];
        copy = *r;
        copy.builtin_code = static_cast<int32_t>(op);
        copy.custom_name = nullptr;
        copy.version = version;
        return &copy;
      }
    }
    return builtins_ != nullptr ? builtins_->FindOp(op, version) : nullptr;
  }

  const TfLiteRegistration* FindOp(const char* op, int version) const override {
    if (op == nullptr) return nullptr;
    if (const TfLiteRegistration* r = added_.FindOp(op, version)) return r;
    if (find_custom_ != nullptr) {
      if (const TfLiteRegistration* r = find_custom_(user_data_, op, version)) {
        auto it = custom_copies_.try_emplace({op, version}).first;
        it->second = *r;
        it->second.builtin_code = kTfLiteBuiltinCustom;
        it->second.custom_name = it->first.first.c_str();  // map keys do not move
        it->second.version = version;
        return &it->second;
      }
    }
    return builtins_ != nullptr ? builtins_->FindOp(op, version) : nullptr;
  }

 private:
  tflite::MutableOpResolver added_;
  TfLiteFindBuiltinOp find_builtin_ = nullptr;
  TfLiteFindCustomOp find_custom_ = nullptr;
  void* user_data_ = nullptr;
  const tflite::OpResolver* builtins_;
  // Filled while the builder resolves ops (FindOp is const in the OpResolver interface).
  mutable std::map<std::pair<int, int>, TfLiteRegistration> builtin_copies_;
  mutable std::map<std::pair<std::string, int>, TfLiteRegistration> custom_copies_;
};

}  // namespace

TfLiteInterpreter* CreateInterpreter(const char* caller, const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options, bool with_builtins) {
  auto interpreter = std::make_unique<TfLiteInterpreter>();
  if (options != nullptr && options->error_callback != nullptr) {
    interpreter->own_reporter =
        std::make_unique<CallbackErrorReporter>(options->error_callback, options->error_user_data);
  }
  interpreter->reporter = interpreter->own_reporter != nullptr ? interpreter->own_reporter.get()
                                                               : tflite::DefaultErrorReporter();
  if (model == nullptr || model->impl == nullptr) {
    Report(interpreter.get(), "%s: model is NULL", caller);
    return nullptr;
  }
  interpreter->model = model->impl;
  interpreter->resolver = std::make_unique<OptionsOpResolver>(options, with_builtins);

  const tflite::FlatBufferModel& fb = *interpreter->model;
  tflite::InterpreterBuilder builder(fb.GetModel(), *interpreter->resolver, interpreter->reporter,
                                     fb.allocation());
  if (options != nullptr && options->max_memory_set) {
    builder.SetMaxMemoryBytes(options->max_memory_bytes);
  }
  if (options != nullptr) {
    // TFLite reads 0 threads as "no extra threads"; Octet's builder wants -1 or >= 1.
    const int threads = options->num_threads == 0 ? 1 : options->num_threads;
    if (builder.SetNumThreads(threads) != kTfLiteOk) return nullptr;
    for (TfLiteDelegate* delegate : options->delegates) builder.AddDelegate(delegate);
  }
  if (builder(&interpreter->impl) != kTfLiteOk || interpreter->impl == nullptr) {
    Report(interpreter.get(), "%s: the interpreter could not be built (see above)", caller);
    return nullptr;
  }
  if (options != nullptr && options->enable_cancellation &&
      interpreter->impl->EnableCancellation() != kTfLiteOk) {
    return nullptr;
  }
  return HandOut(std::move(interpreter));
}

}  // namespace octet::c_api

namespace {

// The interpreter's input/output positions are checked before use; these report misuse.
bool CheckInterpreter(const TfLiteInterpreter* interpreter, const char* caller) {
  if (interpreter == nullptr || interpreter->impl == nullptr) {
    Report(nullptr, "%s: interpreter is NULL", caller);
    return false;
  }
  return true;
}

bool CheckIndex(const TfLiteInterpreter* interpreter, const char* caller, const char* what,
                int32_t index, size_t count) {
  if (index < 0 || static_cast<size_t>(index) >= count) {
    Report(interpreter, "%s: %s index %d is out of range (the model has %zu)", caller, what,
           static_cast<int>(index), count);
    return false;
  }
  return true;
}

}  // namespace

extern "C" {

TfLiteInterpreter* TfLiteInterpreterCreate(const TfLiteModel* model,
                                           const TfLiteInterpreterOptions* optional_options) {
  return octet::c_api::NoThrow<TfLiteInterpreter*>(
      "TfLiteInterpreterCreate", nullptr, [&]() -> TfLiteInterpreter* {
        return octet::c_api::CreateInterpreter("TfLiteInterpreterCreate", model, optional_options,
                                               /*with_builtins=*/true);
      });
}

void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter) { TakeBack(interpreter); }

int32_t TfLiteInterpreterGetInputTensorCount(const TfLiteInterpreter* interpreter) {
  if (!CheckInterpreter(interpreter, "TfLiteInterpreterGetInputTensorCount")) return 0;
  return static_cast<int32_t>(interpreter->impl->inputs().size());
}

TfLiteTensor* TfLiteInterpreterGetInputTensor(const TfLiteInterpreter* interpreter,
                                              int32_t input_index) {
  static constexpr char kCaller[] = "TfLiteInterpreterGetInputTensor";
  if (!CheckInterpreter(interpreter, kCaller)) return nullptr;
  const std::vector<int>& inputs = interpreter->impl->inputs();
  if (!CheckIndex(interpreter, kCaller, "input", input_index, inputs.size())) return nullptr;
  return interpreter->impl->tensor(inputs[static_cast<size_t>(input_index)]);
}

TfLiteStatus TfLiteInterpreterResizeInputTensor(TfLiteInterpreter* interpreter, int32_t input_index,
                                                const int* input_dims, int32_t input_dims_size) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteInterpreterResizeInputTensor", kTfLiteError, [&]() -> TfLiteStatus {
        static constexpr char kCaller[] = "TfLiteInterpreterResizeInputTensor";
        if (!CheckInterpreter(interpreter, kCaller)) return kTfLiteError;
        const std::vector<int>& inputs = interpreter->impl->inputs();
        if (!CheckIndex(interpreter, kCaller, "input", input_index, inputs.size()))
          return kTfLiteError;
        if (input_dims_size < 0 || (input_dims == nullptr && input_dims_size > 0)) {
          Report(interpreter, "%s: no dimensions given (dims %p, size %d)", kCaller,
                 static_cast<const void*>(input_dims), static_cast<int>(input_dims_size));
          return kTfLiteError;
        }
        std::vector<int> dims(input_dims, input_dims + input_dims_size);
        return interpreter->impl->ResizeInputTensor(inputs[static_cast<size_t>(input_index)], dims);
      });
}

TfLiteStatus TfLiteInterpreterAllocateTensors(TfLiteInterpreter* interpreter) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteInterpreterAllocateTensors", kTfLiteError, [&]() -> TfLiteStatus {
        if (!CheckInterpreter(interpreter, "TfLiteInterpreterAllocateTensors")) return kTfLiteError;
        return interpreter->impl->AllocateTensors();
      });
}

TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteInterpreterInvoke", kTfLiteError, [&]() -> TfLiteStatus {
        if (!CheckInterpreter(interpreter, "TfLiteInterpreterInvoke")) return kTfLiteError;
        return interpreter->impl->Invoke();
      });
}

int32_t TfLiteInterpreterGetOutputTensorCount(const TfLiteInterpreter* interpreter) {
  if (!CheckInterpreter(interpreter, "TfLiteInterpreterGetOutputTensorCount")) return 0;
  return static_cast<int32_t>(interpreter->impl->outputs().size());
}

const TfLiteTensor* TfLiteInterpreterGetOutputTensor(const TfLiteInterpreter* interpreter,
                                                     int32_t output_index) {
  static constexpr char kCaller[] = "TfLiteInterpreterGetOutputTensor";
  if (!CheckInterpreter(interpreter, kCaller)) return nullptr;
  const std::vector<int>& outputs = interpreter->impl->outputs();
  if (!CheckIndex(interpreter, kCaller, "output", output_index, outputs.size())) return nullptr;
  return interpreter->impl->tensor(outputs[static_cast<size_t>(output_index)]);
}

TfLiteTensor* TfLiteInterpreterGetTensor(const TfLiteInterpreter* interpreter, int index) {
  static constexpr char kCaller[] = "TfLiteInterpreterGetTensor";
  if (!CheckInterpreter(interpreter, kCaller)) return nullptr;
  if (!CheckIndex(interpreter, kCaller, "tensor", index, interpreter->impl->tensors_size())) {
    return nullptr;
  }
  return interpreter->impl->tensor(index);
}

TfLiteStatus TfLiteInterpreterCancel(const TfLiteInterpreter* interpreter) {
  if (!CheckInterpreter(interpreter, "TfLiteInterpreterCancel")) return kTfLiteError;
  return interpreter->impl->Cancel();  // reports when cancellation is not enabled
}

}  // extern "C"
