// C API: signature runners (inputs and outputs addressed by name).
#include <memory>
#include <string>
#include <vector>

#include "c_api/c_api_internal.h"

using octet::c_api::HandOut;
using octet::c_api::Report;
using octet::c_api::TakeBack;

namespace {

bool CheckRunner(const TfLiteSignatureRunner* runner, const char* caller) {
  if (runner == nullptr || runner->impl == nullptr) {
    Report(nullptr, "%s: signature_runner is NULL", caller);
    return false;
  }
  return true;
}

// Name of the index-th entry of `names`, or NULL (reported) when out of range.
const char* NameAt(const TfLiteSignatureRunner* runner, const char* caller,
                   const std::vector<const char*>& names, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= names.size()) {
    Report(runner->interpreter, "%s: index %d is out of range (signature '%s' has %zu)", caller,
           static_cast<int>(index), runner->impl->signature_key().c_str(), names.size());
    return nullptr;
  }
  return names[static_cast<size_t>(index)];
}

}  // namespace

extern "C" {

int32_t TfLiteInterpreterGetSignatureCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr || interpreter->impl == nullptr) {
    Report(nullptr, "TfLiteInterpreterGetSignatureCount: interpreter is NULL");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->signature_keys().size());
}

const char* TfLiteInterpreterGetSignatureKey(const TfLiteInterpreter* interpreter,
                                             int32_t signature_index) {
  static constexpr char kCaller[] = "TfLiteInterpreterGetSignatureKey";
  if (interpreter == nullptr || interpreter->impl == nullptr) {
    Report(nullptr, "%s: interpreter is NULL", kCaller);
    return nullptr;
  }
  const std::vector<const std::string*> keys = interpreter->impl->signature_keys();
  if (signature_index < 0 || static_cast<size_t>(signature_index) >= keys.size()) {
    Report(interpreter, "%s: index %d is out of range (the model has %zu signatures)", kCaller,
           static_cast<int>(signature_index), keys.size());
    return nullptr;
  }
  return keys[static_cast<size_t>(signature_index)]->c_str();
}

TfLiteSignatureRunner* TfLiteInterpreterGetSignatureRunner(const TfLiteInterpreter* interpreter,
                                                           const char* signature_key) {
  return octet::c_api::NoThrow<TfLiteSignatureRunner*>(
      "TfLiteInterpreterGetSignatureRunner", nullptr, [&]() -> TfLiteSignatureRunner* {
        static constexpr char kCaller[] = "TfLiteInterpreterGetSignatureRunner";
        if (interpreter == nullptr || interpreter->impl == nullptr) {
          Report(nullptr, "%s: interpreter is NULL", kCaller);
          return nullptr;
        }
        tflite::SignatureRunner* impl = interpreter->impl->GetSignatureRunner(signature_key);
        if (impl == nullptr) {
          Report(interpreter, "%s: the model has no signature '%s'", kCaller,
                 signature_key != nullptr ? signature_key : "(first)");
          return nullptr;
        }
        auto runner = std::make_unique<TfLiteSignatureRunner>();
        runner->interpreter = interpreter;
        runner->impl = impl;
        return HandOut(std::move(runner));
      });
}

size_t TfLiteSignatureRunnerGetInputCount(const TfLiteSignatureRunner* signature_runner) {
  if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerGetInputCount")) return 0;
  return signature_runner->impl->input_size();
}

const char* TfLiteSignatureRunnerGetInputName(const TfLiteSignatureRunner* signature_runner,
                                              const int32_t input_index) {
  static constexpr char kCaller[] = "TfLiteSignatureRunnerGetInputName";
  if (!CheckRunner(signature_runner, kCaller)) return nullptr;
  return NameAt(signature_runner, kCaller, signature_runner->impl->input_names(), input_index);
}

TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(TfLiteSignatureRunner* signature_runner,
                                                    const char* input_name, const int* input_dims,
                                                    int32_t input_dims_size) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteSignatureRunnerResizeInputTensor", kTfLiteError, [&]() -> TfLiteStatus {
        static constexpr char kCaller[] = "TfLiteSignatureRunnerResizeInputTensor";
        if (!CheckRunner(signature_runner, kCaller)) return kTfLiteError;
        const TfLiteInterpreter* owner = signature_runner->interpreter;
        if (input_dims_size < 0 || (input_dims == nullptr && input_dims_size > 0)) {
          Report(owner, "%s: no dimensions given (dims %p, size %d)", kCaller,
                 static_cast<const void*>(input_dims), static_cast<int>(input_dims_size));
          return kTfLiteError;
        }
        const TfLiteTensor* tensor = signature_runner->impl->input_tensor(input_name);
        if (tensor == nullptr) return kTfLiteError;  // the runner reported the unknown name
        // Strict, as TFLite: only dimensions the model marks unknown (-1) may change.
        const TfLiteIntArray* signature =
            tensor->dims_signature != nullptr && tensor->dims_signature->size
                ? tensor->dims_signature
                : tensor->dims;
        bool fits = signature != nullptr && signature->size == input_dims_size;
        for (int i = 0; fits && i < input_dims_size; ++i) {
          fits = signature->data[i] == -1 || signature->data[i] == input_dims[i];
        }
        if (!fits) {
          Report(owner, "%s: input '%s' of signature '%s' can change only its -1 dimensions",
                 kCaller, input_name, signature_runner->impl->signature_key().c_str());
          return kTfLiteError;
        }
        return signature_runner->impl->ResizeInputTensor(
            input_name, std::vector<int>(input_dims, input_dims + input_dims_size));
      });
}

TfLiteStatus TfLiteSignatureRunnerAllocateTensors(TfLiteSignatureRunner* signature_runner) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteSignatureRunnerAllocateTensors", kTfLiteError, [&]() -> TfLiteStatus {
        if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerAllocateTensors"))
          return kTfLiteError;
        return signature_runner->impl->AllocateTensors();
      });
}

TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(TfLiteSignatureRunner* signature_runner,
                                                  const char* input_name) {
  if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerGetInputTensor")) return nullptr;
  return signature_runner->impl->input_tensor(input_name);
}

TfLiteStatus TfLiteSignatureRunnerInvoke(TfLiteSignatureRunner* signature_runner) {
  return octet::c_api::NoThrow<TfLiteStatus>(
      "TfLiteSignatureRunnerInvoke", kTfLiteError, [&]() -> TfLiteStatus {
        if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerInvoke")) return kTfLiteError;
        return signature_runner->impl->Invoke();
      });
}

size_t TfLiteSignatureRunnerGetOutputCount(const TfLiteSignatureRunner* signature_runner) {
  if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerGetOutputCount")) return 0;
  return signature_runner->impl->output_size();
}

const char* TfLiteSignatureRunnerGetOutputName(const TfLiteSignatureRunner* signature_runner,
                                               int32_t output_index) {
  static constexpr char kCaller[] = "TfLiteSignatureRunnerGetOutputName";
  if (!CheckRunner(signature_runner, kCaller)) return nullptr;
  return NameAt(signature_runner, kCaller, signature_runner->impl->output_names(), output_index);
}

const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name) {
  if (!CheckRunner(signature_runner, "TfLiteSignatureRunnerGetOutputTensor")) return nullptr;
  return signature_runner->impl->output_tensor(output_name);
}

void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner) {
  TakeBack(signature_runner);
}

}  // extern "C"
