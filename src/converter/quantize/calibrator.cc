#include "converter/quantize/calibrator.h"

#include <algorithm>
#include <cstring>

#include "converter/graph.h"
#include "converter/model_io.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet::converter {
namespace {

// Values kept per tensor for a percentile range.
constexpr size_t kKeptPerTensor = 1 << 16;

bool ToFloats(const TfLiteTensor& t, std::vector<float>* out) {
  size_t n = t.dims == nullptr ? 0 : 1;
  for (int d = 0; t.dims != nullptr && d < t.dims->size; ++d)
    n *= static_cast<size_t>(t.dims->data[d]);
  out->resize(n);
  if (n > 0 && t.data.raw == nullptr) return false;
  float scale = 1.0f;
  int32_t zero = 0;
  if (t.quantization.type == kTfLiteAffineQuantization && t.quantization.params != nullptr) {
    const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
    if (q->scale != nullptr && q->scale->size == 1) scale = q->scale->data[0];
    if (q->zero_point != nullptr && q->zero_point->size == 1) zero = q->zero_point->data[0];
  }
  for (size_t i = 0; i < n; ++i) {
    switch (t.type) {
      case kTfLiteFloat32:
        (*out)[i] = t.data.f[i];
        break;
      case kTfLiteInt8:
        (*out)[i] = scale * (t.data.int8[i] - zero);
        break;
      case kTfLiteUInt8:
        (*out)[i] = scale * (t.data.uint8[i] - zero);
        break;
      case kTfLiteInt16:
        (*out)[i] = scale * (t.data.i16[i] - zero);
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

bool RunKeepingTensors(const edit::ModelT& model, const Sample& sample,
                       std::map<int32_t, std::vector<float>>* values, std::string* error) {
  ModelPtr copy = CloneModel(model, error);
  if (copy == nullptr) return false;
  edit::SubGraphT& graph = *copy->subgraphs.at(0);
  // Every tensor an op writes becomes a graph output, so the runtime keeps its value.
  std::vector<int32_t> outputs = graph.outputs;
  for (const auto& op : graph.operators) {
    for (int32_t t : op->outputs) {
      if (t >= 0 && std::find(outputs.begin(), outputs.end(), t) == outputs.end()) {
        outputs.push_back(t);
      }
    }
  }
  graph.outputs = outputs;
  std::vector<uint8_t> bytes;
  if (!PackModel(*copy, &bytes, error)) return false;
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                       bytes.size());
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (flat == nullptr || tflite::InterpreterBuilder(*flat, resolver)(&interpreter) != kTfLiteOk ||
      interpreter == nullptr || interpreter->AllocateTensors() != kTfLiteOk) {
    *error = "the model does not build in Octet's interpreter";
    return false;
  }
  if (sample.size() != interpreter->inputs().size()) {
    *error = "a calibration sample has " + std::to_string(sample.size()) + " input(s), the model " +
             std::to_string(interpreter->inputs().size());
    return false;
  }
  for (size_t k = 0; k < sample.size(); ++k) {
    TfLiteTensor* t = interpreter->tensor(interpreter->inputs()[k]);
    if (t->bytes != sample[k].size()) {
      *error = "a calibration sample for input " + std::to_string(k) + " has " +
               std::to_string(sample[k].size()) + " bytes, the input takes " +
               std::to_string(t->bytes);
      return false;
    }
    if (t->bytes > 0) std::memcpy(t->data.raw, sample[k].data(), t->bytes);
  }
  if (interpreter->Invoke() != kTfLiteOk) {
    *error = "the model failed to run on a calibration sample";
    return false;
  }
  values->clear();
  for (int32_t t : graph.inputs) outputs.push_back(t);
  for (int32_t t : outputs) {
    std::vector<float> v;
    if (ToFloats(*interpreter->tensor(t), &v)) (*values)[t] = std::move(v);
  }
  return true;
}

bool Calibrate(const edit::ModelT& model, const std::vector<Sample>& samples,
               const CalibrationOptions& options, std::map<int32_t, TensorRange>* ranges,
               std::string* error) {
  if (samples.empty()) {
    *error = "no calibration samples";
    return false;
  }
  const edit::SubGraphT& graph = *model.subgraphs.at(0);
  ranges->clear();
  for (const Sample& sample : samples) {
    std::map<int32_t, std::vector<float>> values;
    if (!RunKeepingTensors(model, sample, &values, error)) return false;
    for (auto& [t, v] : values) {
      if (graph.tensors[t]->type != edit::TensorType_FLOAT32 || v.empty()) continue;
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      auto found = ranges->find(t);
      if (found == ranges->end()) {
        found = ranges->emplace(t, TensorRange{*lo, *hi, {}}).first;
      } else {
        found->second.min = std::min(found->second.min, *lo);
        found->second.max = std::max(found->second.max, *hi);
      }
      if (options.method == RangeMethod::kPercentile) {
        const size_t stride = std::max<size_t>(1, v.size() * samples.size() / kKeptPerTensor);
        for (size_t i = 0; i < v.size(); i += stride) found->second.kept.push_back(v[i]);
      }
    }
  }
  if (options.method == RangeMethod::kPercentile) {
    const double tail = (100.0 - options.percentile) / 200.0;  // each side
    for (auto& [t, range] : *ranges) {
      std::vector<float>& kept = range.kept;
      if (kept.size() < 2) continue;
      std::sort(kept.begin(), kept.end());
      const size_t last = kept.size() - 1;
      range.min = kept[static_cast<size_t>(tail * last)];
      range.max = kept[last - static_cast<size_t>(tail * last)];
      kept.clear();
      kept.shrink_to_fit();
    }
  }
  return true;
}

}  // namespace octet::converter
