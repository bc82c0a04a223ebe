#include "cli_common.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "memory/memory_budget.h"
#include "octet/npy.h"

namespace octet::cli {

int CollectingReporter::Report(const char* format, va_list args) {
  char buf[2048];
  const int n = std::vsnprintf(buf, sizeof(buf), format, args);
  std::string msg(buf);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  if (!msg.empty()) messages_.push_back(msg);
  return n;
}

std::string CollectingReporter::Joined() const {
  std::string out;
  for (const auto& m : messages_) {
    if (!out.empty()) out += "; ";
    out += m;
  }
  return out;
}

void Check(TfLiteStatus status, const std::string& what, const CollectingReporter& reporter) {
  if (status == kTfLiteOk) return;
  const std::string details = reporter.Joined();
  throw Failure(what + (details.empty() ? "" : ": " + details));
}

namespace {
size_t g_memory_limit = 0;
bool g_memory_limit_set = false;
}  // namespace

void SetMemoryLimit(size_t bytes) {
  g_memory_limit = bytes;
  g_memory_limit_set = true;
}

std::string CheckMemoryLimitText(const std::string& text) {
  size_t bytes = 0;
  if (ParseByteSize(text, &bytes)) return "";
  return "'" + text + "' is not a size (examples: 512M, 2G, 1.5GiB, 100000, unlimited)";
}

LoadedModel LoadModel(const std::string& path, int num_threads) {
  LoadedModel m;
  m.model = tflite::FlatBufferModel::BuildFromFile(path.c_str(), m.reporter.get());
  if (!m.model) throw Failure("cannot load model '" + path + "': " + m.reporter->Joined());
  m.resolver = std::make_unique<tflite::ops::builtin::BuiltinOpResolver>();
  tflite::InterpreterBuilder builder(*m.model, *m.resolver);
  Check(builder(&m.interpreter, num_threads), "cannot build interpreter for '" + path + "'",
        *m.reporter);
  if (g_memory_limit_set) m.interpreter->SetMaxMemoryBytes(g_memory_limit);
  return m;
}

namespace {

std::string InputLabel(size_t k, const std::string& path) {
  return "input " + std::to_string(k) + " ('" + path + "')";
}

std::string ShapeString(const std::vector<int>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// Whether `array` may be fed to `t` as it is, or after resizing `t` (returned in *resize).
void CheckInputShape(const TfLiteTensor* t, const NpyArray& array, const std::string& label,
                     bool* resize) {
  *resize = false;
  if (array.type != t->type) {
    throw Failure(label + " has dtype " + TfLiteTypeGetName(array.type) + ", the model expects " +
                  TfLiteTypeGetName(t->type));
  }
  const std::vector<int> model_shape(t->dims->data, t->dims->data + t->dims->size);
  if (array.shape == model_shape) return;
  // A different shape is allowed only where the model leaves the dimension open (-1).
  bool resizable = t->dims_signature != nullptr &&
                   t->dims_signature->size == static_cast<int>(array.shape.size());
  for (int i = 0; resizable && i < t->dims_signature->size; ++i) {
    const int sig = t->dims_signature->data[i];
    resizable = sig == -1 || sig == array.shape[i];
  }
  if (resizable) {
    *resize = true;
    return;
  }
  // A scalar and a one-element vector hold the same bytes.
  const bool scalar_vs_one =
      array.shape.size() <= 1 && model_shape.size() <= 1 && array.data.size() == t->bytes;
  if (!scalar_vs_one) {
    throw Failure(label + " has shape " + ShapeString(array.shape) + ", the model expects " +
                  ShapeString(model_shape));
  }
}

}  // namespace

void FillRandom(TfLiteTensor* t, std::mt19937& rng, float float_range, bool full_bytes) {
  if (t->type == kTfLiteFloat32) {
    std::uniform_real_distribution<float> dist(-float_range, float_range);
    float* p = reinterpret_cast<float*>(t->data.raw);
    for (size_t i = 0; i < t->bytes / sizeof(float); ++i) p[i] = dist(rng);
  } else if (t->type == kTfLiteBool) {
    for (size_t i = 0; i < t->bytes; ++i) t->data.raw[i] = static_cast<char>(rng() & 1);
  } else if (full_bytes && (t->type == kTfLiteInt8 || t->type == kTfLiteUInt8)) {
    for (size_t i = 0; i < t->bytes; ++i) t->data.raw[i] = static_cast<char>(rng());
  } else {
    for (size_t i = 0; i < t->bytes; ++i) t->data.raw[i] = static_cast<char>(rng() & 0x3f);
  }
}

void FeedInputs(tflite::Interpreter& interp, const std::vector<std::string>& paths,
                CollectingReporter& reporter) {
  std::vector<NpyArray> arrays(paths.size());
  bool resized = false;
  for (size_t k = 0; k < paths.size(); ++k) {
    std::string error;
    if (!ReadNpy(paths[k], &arrays[k], &error)) throw Failure(error);
    const int index = interp.inputs().at(k);
    bool resize = false;
    CheckInputShape(interp.tensor(index), arrays[k], InputLabel(k, paths[k]), &resize);
    if (resize) {
      Check(interp.ResizeInputTensor(index, arrays[k].shape),
            "cannot resize input " + std::to_string(k), reporter);
      resized = true;
    }
  }
  // One allocation after all resizes, so no copied input is moved by a later re-plan.
  if (resized) Check(interp.AllocateTensors(), "cannot allocate tensors after resizing", reporter);
  for (size_t k = 0; k < paths.size(); ++k) {
    TfLiteTensor* t = interp.tensor(interp.inputs()[k]);
    if (arrays[k].data.size() != t->bytes) {
      throw Failure(InputLabel(k, paths[k]) + " has " + std::to_string(arrays[k].data.size()) +
                    " bytes, the model expects " + std::to_string(t->bytes));
    }
    if (t->bytes > 0) std::memcpy(t->data.raw, arrays[k].data.data(), t->bytes);
  }
}

std::string ShapeString(const TfLiteIntArray* dims) {
  return dims ? ShapeString(std::vector<int>(dims->data, dims->data + dims->size)) : "[]";
}

std::string QuantString(const TfLiteTensor& t) {
  if (t.quantization.type != kTfLiteAffineQuantization || t.quantization.params == nullptr) {
    return "";
  }
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  char buf[160];
  if (q->scale->size == 1) {
    std::snprintf(buf, sizeof(buf), "scale=%g zero_point=%d", q->scale->data[0],
                  q->zero_point->data[0]);
  } else {
    float lo = q->scale->data[0], hi = lo;
    for (int i = 1; i < q->scale->size; ++i) {
      lo = std::min(lo, q->scale->data[i]);
      hi = std::max(hi, q->scale->data[i]);
    }
    std::snprintf(buf, sizeof(buf), "per-axis(dim=%d, %d scales in [%g, %g], zero_point=%d)",
                  q->quantized_dimension, q->scale->size, lo, hi, q->zero_point->data[0]);
  }
  return buf;
}

}  // namespace octet::cli
