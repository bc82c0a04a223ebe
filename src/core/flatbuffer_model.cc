#include <string>

#include "core/alloc_guard.h"
#include "format/verifier.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite {

FlatBufferModel::FlatBufferModel(std::unique_ptr<Allocation> allocation,
                                 ErrorReporter* error_reporter)
    : allocation_(std::move(allocation)),
      error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()) {
  if (!allocation_ || !allocation_->valid()) return;
  const auto* data = static_cast<const uint8_t*>(allocation_->base());
  std::string error;
  if (!octet::format::VerifyModel(data, allocation_->bytes(), &error)) {
    error_reporter_->Report("invalid model: %s", error.c_str());
    return;
  }
  model_ = ::tflite::GetModel(data);
}

namespace {

// Runs a model-building step; running out of memory is reported and gives no model.
template <typename Build>
std::unique_ptr<FlatBufferModel> GuardBuild(ErrorReporter* reporter, Build&& build) {
  std::unique_ptr<FlatBufferModel> model;
  const TfLiteStatus status = octet::GuardStatus(reporter, "loading the model", [&] {
    model = build();
    return kTfLiteOk;
  });
  return status == kTfLiteOk ? std::move(model) : nullptr;
}

}  // namespace

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromAllocation(
    std::unique_ptr<Allocation> allocation, ErrorReporter* error_reporter) {
  if (error_reporter == nullptr) error_reporter = DefaultErrorReporter();
  return GuardBuild(error_reporter, [&]() -> std::unique_ptr<FlatBufferModel> {
    std::unique_ptr<FlatBufferModel> model(
        new FlatBufferModel(std::move(allocation), error_reporter));
    if (!model->initialized()) return nullptr;
    return model;
  });
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromFile(const char* filename,
                                                                ErrorReporter* error_reporter) {
  if (error_reporter == nullptr) error_reporter = DefaultErrorReporter();
  if (filename == nullptr) {
    error_reporter->Report("no model file name given");
    return nullptr;
  }
  return GuardBuild(error_reporter, [&] {
    return BuildFromAllocation(std::make_unique<MMAPAllocation>(filename, error_reporter),
                               error_reporter);
  });
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromBuffer(const char* caller_owned_buffer,
                                                                  size_t buffer_size,
                                                                  ErrorReporter* error_reporter) {
  if (error_reporter == nullptr) error_reporter = DefaultErrorReporter();
  return GuardBuild(error_reporter, [&] {
    return BuildFromAllocation(
        std::make_unique<MemoryAllocation>(caller_owned_buffer, buffer_size, error_reporter),
        error_reporter);
  });
}

std::string FlatBufferModel::GetMinimumRuntime() const {
  if (model_ == nullptr || model_->metadata() == nullptr || model_->buffers() == nullptr) {
    return "";
  }
  for (const auto* m : *model_->metadata()) {
    if (m->name() == nullptr || m->name()->str() != "min_runtime_version") continue;
    if (m->buffer() >= model_->buffers()->size()) return "";
    const auto* data = model_->buffers()->Get(m->buffer())->data();
    if (data == nullptr) return "";
    std::string v(reinterpret_cast<const char*>(data->data()), data->size());
    return v.substr(0, v.find('\0'));
  }
  return "";
}

}  // namespace tflite
