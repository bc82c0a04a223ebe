#include "image_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <numeric>
#include <vector>

#include "cli_common.h"

#if defined(OCTET_HAVE_STB)
#include <stb_image.h>
#include <stb_image_resize.h>
#endif

namespace octet::cli {
namespace {

struct Geometry {
  int height, width, channels;
};

// The model's one image input: [1, H, W, C] with C = 1 or 3, float32, uint8 or int8.
Geometry ImageInputOf(const tflite::Interpreter& interp) {
  if (interp.inputs().size() != 1) {
    throw Failure("--image feeds a model with one input; this one has " +
                  std::to_string(interp.inputs().size()));
  }
  const TfLiteTensor& t = *interp.tensor(interp.inputs()[0]);
  const bool shape_ok = t.dims->size == 4 && t.dims->data[0] == 1 && t.dims->data[1] > 0 &&
                        t.dims->data[2] > 0 && (t.dims->data[3] == 1 || t.dims->data[3] == 3);
  const bool type_ok = t.type == kTfLiteFloat32 || t.type == kTfLiteUInt8 || t.type == kTfLiteInt8;
  if (!shape_ok || !type_ok) {
    throw Failure(
        "--image needs an input of shape [1, H, W, 1 or 3] and type float32, uint8 or "
        "int8; the model's is " +
        ShapeString(t.dims) + " " + TfLiteTypeGetName(t.type));
  }
  return {t.dims->data[1], t.dims->data[2], t.dims->data[3]};
}

// Per-tensor scale and zero point of a quantized tensor (the first entry when per-axis).
void QuantOf(const TfLiteTensor& t, float* scale, int32_t* zero_point) {
  *scale = t.params.scale;
  *zero_point = t.params.zero_point;
  if (*scale == 0.f && t.quantization.type == kTfLiteAffineQuantization) {
    const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
    if (q && q->scale && q->scale->size > 0) *scale = q->scale->data[0];
    if (q && q->zero_point && q->zero_point->size > 0) *zero_point = q->zero_point->data[0];
  }
}

std::vector<std::string> ReadLabels(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw Failure("cannot read the labels file '" + path + "'");
  std::vector<std::string> labels;
  std::string line;
  while (std::getline(file, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    labels.push_back(line);
  }
  return labels;
}

}  // namespace

#if defined(OCTET_HAVE_STB)

bool ImageInputSupported() { return true; }

void FeedImage(tflite::Interpreter& interp, const ImageOptions& options) {
  const Geometry g = ImageInputOf(interp);
  int width = 0, height = 0, file_channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load(options.path.c_str(), &width, &height, &file_channels, g.channels),
      stbi_image_free);
  if (!pixels) {
    const char* reason = stbi_failure_reason();
    throw Failure("cannot read the image '" + options.path + "': " + (reason ? reason : "?"));
  }
  std::vector<uint8_t> resized(static_cast<size_t>(g.height) * g.width * g.channels);
  if (width == g.width && height == g.height) {
    std::copy(pixels.get(), pixels.get() + resized.size(), resized.begin());
  } else if (!stbir_resize_uint8(pixels.get(), width, height, 0, resized.data(), g.width, g.height,
                                 0, g.channels)) {
    throw Failure("cannot resize the image '" + options.path + "'");
  }
  const bool normalize = !std::isnan(options.mean) || !std::isnan(options.std);
  const double mean = std::isnan(options.mean) ? 127.5 : options.mean;
  const double stddev = std::isnan(options.std) ? 127.5 : options.std;
  if (stddev == 0) throw Failure("--std must not be 0");
  TfLiteTensor& t = *interp.tensor(interp.inputs()[0]);
  std::string how;
  if (t.type == kTfLiteFloat32) {
    float* out = reinterpret_cast<float*>(t.data.raw);
    for (size_t i = 0; i < resized.size(); ++i) {
      out[i] = static_cast<float>((resized[i] - mean) / stddev);
    }
    char text[96];
    std::snprintf(text, sizeof text, "(pixel - %g) / %g", mean, stddev);
    how = text;
  } else {
    const int qmin = t.type == kTfLiteInt8 ? -128 : 0;
    const int qmax = t.type == kTfLiteInt8 ? 127 : 255;
    float scale = 0;
    int32_t zero_point = 0;
    QuantOf(t, &scale, &zero_point);
    if (normalize && !(scale > 0)) throw Failure("the input has no positive scale to quantize to");
    for (size_t i = 0; i < resized.size(); ++i) {
      int q = resized[i] + qmin;  // the input's codes are the pixel levels
      if (normalize) {
        // round(real / scale) + zero point, as QUANTIZE rounds; clamped before rounding so
        // that a tiny scale or std cannot overflow the conversion.
        const double steps = std::min<double>(
            qmax - zero_point,
            std::max<double>(qmin - zero_point, (resized[i] - mean) / stddev / scale));
        q = static_cast<int>(std::lround(steps)) + zero_point;
      }
      if (t.type == kTfLiteInt8) {
        t.data.int8[i] = static_cast<int8_t>(q);
      } else {
        t.data.uint8[i] = static_cast<uint8_t>(q);
      }
    }
    char text[128];
    if (normalize) {
      std::snprintf(text, sizeof text, "(pixel - %g) / %g quantized (scale %g, zero point %d)",
                    mean, stddev, scale, zero_point);
    } else {
      std::snprintf(text, sizeof text, "pixel levels as codes (pixel%s)", qmin < 0 ? " - 128" : "");
    }
    how = text;
  }
  std::printf("image: %s %dx%d -> %s %s, %s\n", options.path.c_str(), width, height,
              ShapeString(t.dims).c_str(), TfLiteTypeGetName(t.type), how.c_str());
}

#else

bool ImageInputSupported() { return false; }

void FeedImage(tflite::Interpreter& interp, const ImageOptions& options) {
  ImageInputOf(interp);
  throw Failure("cannot read the image '" + options.path +
                "': this octet was built without stb_image (Debian: libstb-dev; then rebuild)");
}

#endif

void PrintTopClasses(const tflite::Interpreter& interp, const ImageOptions& options) {
  const TfLiteTensor& t = *interp.tensor(interp.outputs()[0]);
  int classes = 1;
  for (int i = 0; i < t.dims->size; ++i) classes *= t.dims->data[i];
  int non_unit = 0;
  for (int i = 0; i < t.dims->size; ++i) non_unit += t.dims->data[i] > 1;
  if (non_unit > 1 || classes < 1) {
    throw Failure("output 0 is " + ShapeString(t.dims) + ", not a vector of class scores");
  }
  std::vector<float> scores(static_cast<size_t>(classes));
  float scale = 1;
  int32_t zero_point = 0;
  if (t.type == kTfLiteUInt8 || t.type == kTfLiteInt8) QuantOf(t, &scale, &zero_point);
  for (int i = 0; i < classes; ++i) {
    switch (t.type) {
      case kTfLiteFloat32:
        scores[i] = t.data.f[i];
        break;
      case kTfLiteUInt8:
        scores[i] = scale * static_cast<float>(t.data.uint8[i] - zero_point);
        break;
      case kTfLiteInt8:
        scores[i] = scale * static_cast<float>(t.data.int8[i] - zero_point);
        break;
      default:
        throw Failure(std::string("output 0 is ") + TfLiteTypeGetName(t.type) +
                      ", not float32, uint8 or int8 scores");
    }
  }
  std::vector<std::string> labels;
  if (!options.labels.empty()) {
    labels = ReadLabels(options.labels);
    if (static_cast<int>(labels.size()) != classes) {
      std::printf("note: %zu labels for %d classes\n", labels.size(), classes);
    }
  }
  std::vector<int> order(static_cast<size_t>(classes));
  std::iota(order.begin(), order.end(), 0);
  const int top = std::min(options.top, classes);
  // Highest score first; equal scores in class order.
  std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](int a, int b) {
    return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
  });
  std::printf("top %d of %d (output 0 '%s'):\n", top, classes, t.name ? t.name : "");
  for (int r = 0; r < top; ++r) {
    const int c = order[r];
    std::printf("  %2d. %.6f  %5d  %s\n", r + 1, scores[c], c,
                c < static_cast<int>(labels.size()) ? labels[c].c_str() : "");
  }
}

}  // namespace octet::cli
