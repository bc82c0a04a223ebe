// C API: versions, models and interpreter options.
#include <cstdarg>
#include <memory>

#include "c_api/c_api_internal.h"

#ifndef OCTET_VERSION
#error "OCTET_VERSION must be defined (cmake/shared_library.cmake sets it from PROJECT_VERSION)"
#endif

using octet::c_api::HandOut;
using octet::c_api::Report;
using octet::c_api::TakeBack;

namespace octet::c_api {

void Report(const TfLiteInterpreter* interpreter, const char* format, ...) {
  tflite::ErrorReporter* reporter = interpreter != nullptr && interpreter->reporter != nullptr
                                        ? interpreter->reporter
                                        : tflite::DefaultErrorReporter();
  va_list args;
  va_start(args, format);
  reporter->Report(format, args);
  va_end(args);
}

}  // namespace octet::c_api

extern "C" {

const char* TfLiteVersion(void) { return OCTET_VERSION; }

// The .tflite schema version Octet reads, as TFLite's TFLITE_SCHEMA_VERSION.
int TfLiteSchemaVersion(void) { return 3; }

TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size) {
  return octet::c_api::NoThrow<TfLiteModel*>("TfLiteModelCreate", nullptr, [&]() -> TfLiteModel* {
    if (model_data == nullptr || model_size == 0) {
      Report(nullptr, "TfLiteModelCreate: no model bytes (data %p, size %zu)", model_data,
             model_size);
      return nullptr;
    }
    std::unique_ptr<tflite::FlatBufferModel> impl = tflite::FlatBufferModel::BuildFromBuffer(
        static_cast<const char*>(model_data), model_size, tflite::DefaultErrorReporter());
    if (impl == nullptr) {
      Report(nullptr, "TfLiteModelCreate: the %zu bytes are not a valid TensorFlow Lite model",
             model_size);
      return nullptr;
    }
    auto model = std::make_unique<TfLiteModel>();
    model->impl = std::move(impl);
    return HandOut(std::move(model));
  });
}

TfLiteModel* TfLiteModelCreateFromFile(const char* model_path) {
  return octet::c_api::NoThrow<TfLiteModel*>(
      "TfLiteModelCreateFromFile", nullptr, [&]() -> TfLiteModel* {
        if (model_path == nullptr) {
          Report(nullptr, "TfLiteModelCreateFromFile: model_path is NULL");
          return nullptr;
        }
        std::unique_ptr<tflite::FlatBufferModel> impl =
            tflite::FlatBufferModel::BuildFromFile(model_path, tflite::DefaultErrorReporter());
        if (impl == nullptr) {
          Report(nullptr, "TfLiteModelCreateFromFile: cannot load a model from '%s'", model_path);
          return nullptr;
        }
        auto model = std::make_unique<TfLiteModel>();
        model->impl = std::move(impl);
        return HandOut(std::move(model));
      });
}

void TfLiteModelDelete(TfLiteModel* model) { TakeBack(model); }

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void) {
  return octet::c_api::NoThrow<TfLiteInterpreterOptions*>(
      "TfLiteInterpreterOptionsCreate", nullptr, [&]() -> TfLiteInterpreterOptions* {
        return HandOut(std::make_unique<TfLiteInterpreterOptions>());
      });
}

void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options) { TakeBack(options); }

void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options, int32_t num_threads) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterOptionsSetNumThreads: options is NULL");
    return;
  }
  options->num_threads = num_threads;
}

void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                         TfLiteDelegate* delegate) {
  octet::c_api::NoThrow("TfLiteInterpreterOptionsAddDelegate", 0, [&]() -> int {
    if (options == nullptr || delegate == nullptr) {
      Report(nullptr, "TfLiteInterpreterOptionsAddDelegate: %s is NULL",
             options == nullptr ? "options" : "delegate");
      return 0;
    }
    options->delegates.push_back(delegate);
    return 0;
  });
}

void TfLiteInterpreterOptionsSetErrorReporter(TfLiteInterpreterOptions* options,
                                              void (*reporter)(void* user_data, const char* format,
                                                               va_list args),
                                              void* user_data) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterOptionsSetErrorReporter: options is NULL");
    return;
  }
  options->error_callback = reporter;  // NULL restores the default (stderr)
  options->error_user_data = user_data;
}

TfLiteStatus TfLiteInterpreterOptionsEnableCancellation(TfLiteInterpreterOptions* options,
                                                        bool enable) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterOptionsEnableCancellation: options is NULL");
    return kTfLiteError;
  }
  options->enable_cancellation = enable;
  return kTfLiteOk;
}

void TfLiteInterpreterOptionsSetMaxMemoryBytes(TfLiteInterpreterOptions* options,
                                               size_t max_bytes) {
  if (options == nullptr) {
    Report(nullptr, "TfLiteInterpreterOptionsSetMaxMemoryBytes: options is NULL");
    return;
  }
  options->max_memory_bytes = max_bytes;
  options->max_memory_set = true;
}

}  // extern "C"
