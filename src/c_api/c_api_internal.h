// The structs behind the C API's opaque handles, and what the C API files share.
#ifndef OCTET_C_API_C_API_INTERNAL_H_
#define OCTET_C_API_C_API_INTERNAL_H_

#include <cstdarg>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"

struct TfLiteModel {
  // Shared with every interpreter made from the model: constant tensors point into it, and
  // TFLite lets the caller delete the model right after creating an interpreter.
  std::shared_ptr<const tflite::FlatBufferModel> impl;
};

using TfLiteErrorCallback = void (*)(void* user_data, const char* format, va_list args);
using TfLiteFindBuiltinOp = const TfLiteRegistration* (*)(void* user_data, TfLiteBuiltinOperator op,
                                                          int version);
using TfLiteFindCustomOp = const TfLiteRegistration* (*)(void* user_data, const char* custom_op,
                                                         int version);

struct TfLiteInterpreterOptions {
  int32_t num_threads = -1;
  std::vector<TfLiteDelegate*> delegates;
  TfLiteErrorCallback error_callback = nullptr;
  void* error_user_data = nullptr;
  tflite::MutableOpResolver added_ops;
  TfLiteFindBuiltinOp find_builtin_op = nullptr;
  TfLiteFindCustomOp find_custom_op = nullptr;
  void* op_resolver_user_data = nullptr;
  bool enable_cancellation = false;
  size_t max_memory_bytes = 0;  // applies when max_memory_set
  bool max_memory_set = false;
};

struct TfLiteInterpreter {
  // Declared in destruction-safe order: the interpreter goes first, then what it points to.
  std::shared_ptr<const tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::ErrorReporter> own_reporter;  // null: the default (stderr)
  tflite::ErrorReporter* reporter = nullptr;
  std::unique_ptr<tflite::OpResolver> resolver;
  std::unique_ptr<tflite::Interpreter> impl;
};

struct TfLiteSignatureRunner {
  const TfLiteInterpreter* interpreter = nullptr;
  tflite::SignatureRunner* impl = nullptr;  // owned by the interpreter
};

namespace octet::c_api {

// The C API hands its objects to the caller as raw pointers, which come back to the matching
// Delete function; these two are the only places ownership crosses that boundary.
template <class T>
T* HandOut(std::unique_ptr<T> object) {
  return object.release();
}
template <class T>
std::unique_ptr<T> TakeBack(T* object) {
  return std::unique_ptr<T>(object);
}

// Sends a message to the interpreter's reporter (stderr when interpreter is null).
void Report(const TfLiteInterpreter* interpreter, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// A C function's body: no exception may cross into C. Running out of memory (or any other
// exception) is reported on stderr, naming `caller`, and the function returns `failed`.
template <typename Result, typename Body>
Result NoThrow(const char* caller, Result failed, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    try {
      Report(nullptr, "%s: out of memory", caller);
    } catch (...) {
    }
  } catch (const std::exception& e) {
    try {
      Report(nullptr, "%s: %s", caller, e.what());
    } catch (...) {
    }
  }
  return failed;
}

// Builds an interpreter; with_builtins false leaves only the ops the options register.
TfLiteInterpreter* CreateInterpreter(const char* caller, const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options, bool with_builtins);

}  // namespace octet::c_api

#endif  // OCTET_C_API_C_API_INTERNAL_H_
