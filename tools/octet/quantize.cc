// `octet quantize`: post-training quantization of a float model (src/converter/quantize/),
// calibrated on .npy files or pictures, written, loaded back by Octet, and compared with the
// float model: per-output error, top-1 agreement and a per-layer SQNR table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "cli_common.h"
#include "commands.h"
#include "converter/graph.h"
#include "converter/model_io.h"
#include "converter/quantize/calibrator.h"
#include "converter/quantize/quantize_model.h"
#include "converter/quantize/weight_quant.h"
#include "image_input.h"
#include "octet/npy.h"

namespace octet::cli {
namespace {

namespace fs = std::filesystem;
using converter::Sample;

bool IsPicture(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".bmp" || ext == ".gif" ||
         ext == ".tga";
}

// The files a --calibration / --eval argument names: itself, or a directory's .npy and
// picture files in name order.
std::vector<fs::path> Expand(const std::vector<std::string>& args) {
  std::vector<fs::path> files;
  for (const std::string& arg : args) {
    if (fs::is_directory(arg)) {
      std::vector<fs::path> inside;
      for (const auto& entry : fs::directory_iterator(arg)) {
        if (entry.path().extension() == ".npy" || IsPicture(entry.path())) {
          inside.push_back(entry.path());
        }
      }
      std::sort(inside.begin(), inside.end());
      files.insert(files.end(), inside.begin(), inside.end());
    } else {
      files.emplace_back(arg);
    }
  }
  return files;
}

// Samples for a single-input float model: an .npy of the input's shape is one sample, one
// with a leading batch of N (input batch 1) is N samples; a picture is one sample, converted
// as `octet run --image` does.
std::vector<Sample> LoadSamples(const std::vector<std::string>& args, const QuantizeCliOptions& o,
                                tflite::Interpreter& interp) {
  std::vector<Sample> samples;
  if (interp.inputs().size() != 1) {
    throw Failure("calibration files feed single-input models; this one has " +
                  std::to_string(interp.inputs().size()) + " inputs (use --random)");
  }
  TfLiteTensor* input = interp.tensor(interp.inputs()[0]);
  if (input->type != kTfLiteFloat32) throw Failure("the model's input is not float32");
  std::vector<int> shape(input->dims->data, input->dims->data + input->dims->size);
  for (const fs::path& file : Expand(args)) {
    if (IsPicture(file)) {
      ImageOptions image;
      image.path = file.string();
      image.mean = o.mean;
      image.std = o.std;
      FeedImage(interp, image);
      samples.push_back({std::vector<uint8_t>(input->data.raw, input->data.raw + input->bytes)});
      continue;
    }
    NpyArray array;
    std::string error;
    if (!ReadNpy(file.string(), &array, &error)) throw Failure(file.string() + ": " + error);
    if (array.type != kTfLiteFloat32) throw Failure(file.string() + ": not float32");
    if (array.shape == shape) {
      samples.push_back({array.data});
    } else if (!shape.empty() && shape[0] == 1 && array.shape.size() == shape.size() &&
               std::equal(shape.begin() + 1, shape.end(), array.shape.begin() + 1)) {
      const size_t one = input->bytes;
      for (int n = 0; n < array.shape[0]; ++n) {
        samples.push_back({std::vector<uint8_t>(array.data.begin() + n * one,
                                                array.data.begin() + (n + 1) * one)});
      }
    } else {
      throw Failure(file.string() + ": shape does not match the model's input " +
                    ShapeString(input->dims) + " (or [N, ...] of it)");
    }
  }
  return samples;
}

// Seeded random samples, uniform in [lo, hi], for every float input.
std::vector<Sample> RandomSamples(int count, tflite::Interpreter& interp, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<Sample> samples;
  for (int n = 0; n < count; ++n) {
    Sample sample;
    for (int index : interp.inputs()) {
      const TfLiteTensor* t = interp.tensor(index);
      if (t->type != kTfLiteFloat32) throw Failure("--random feeds float inputs only");
      std::vector<float> v(t->bytes / 4);
      for (float& x : v) x = dist(rng);
      std::vector<uint8_t> bytes(t->bytes);
      std::memcpy(bytes.data(), v.data(), t->bytes);
      sample.push_back(std::move(bytes));
    }
    samples.push_back(std::move(sample));
  }
  return samples;
}

// A quantized model's inputs take what the float model took, converted per --io.
Sample ConvertSample(const Sample& sample, const tflite::Interpreter& quantized) {
  Sample out;
  for (size_t k = 0; k < sample.size(); ++k) {
    const TfLiteTensor* t = quantized.tensor(quantized.inputs()[k]);
    if (t->type == kTfLiteFloat32) {
      out.push_back(sample[k]);
      continue;
    }
    const float scale = t->params.scale;
    const int zero = t->params.zero_point;
    const bool wide = t->type == kTfLiteInt16;
    const int lo = t->type == kTfLiteUInt8 ? 0 : wide ? -32768 : -128;
    const int hi = t->type == kTfLiteUInt8 ? 255 : wide ? 32767 : 127;
    const size_t n = sample[k].size() / 4;
    std::vector<uint8_t> bytes(n * (wide ? 2 : 1));
    for (size_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, &sample[k][4 * i], 4);
      const int q = static_cast<int>(std::clamp<double>(std::round(v / scale) + zero, lo, hi));
      if (wide) {
        const int16_t q16 = static_cast<int16_t>(q);
        std::memcpy(&bytes[2 * i], &q16, 2);
      } else {
        bytes[i] = static_cast<uint8_t>(q);
      }
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

std::map<std::string, std::vector<float>> ByName(const edit::ModelT& model,
                                                 const std::map<int32_t, std::vector<float>>& v) {
  std::map<std::string, std::vector<float>> named;
  for (const auto& [t, values] : v) named[model.subgraphs[0]->tensors[t]->name] = values;
  return named;
}

int ArgMax(const std::vector<float>& v) {
  return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

int QuantizeCommand(const QuantizeCliOptions& o) {
  std::string error;
  converter::ModelPtr model = converter::ReadModelFile(o.model, &error);
  if (model == nullptr || !converter::CheckQuantizable(*model, &error)) throw Failure(error);
  // A dynamic-range model: its int8 weights become float again, calibration runs on that.
  if (const int n = converter::DequantizeConstants(*model)) {
    std::printf("input model: %d int8 constant(s) dequantized to float first\n", n);
  }
  LoadedModel reference = LoadModel(o.model, 1);
  Check(reference.interpreter->AllocateTensors(), "cannot prepare " + o.model, *reference.reporter);

  converter::QuantizeOptions options;
  options.mode = o.mode == "full-int8"       ? converter::QuantizeMode::kFullInt8
                 : o.mode == "int16x8"       ? converter::QuantizeMode::kInt16x8
                 : o.mode == "dynamic-range" ? converter::QuantizeMode::kDynamicRange
                                             : converter::QuantizeMode::kFloat16;
  options.io = o.io == "int8" || o.io == "int16" ? converter::QuantizeIo::kInt8
               : o.io == "uint8"                 ? converter::QuantizeIo::kUInt8
                                                 : converter::QuantizeIo::kFloat;
  options.fc_per_channel = o.fc_per_channel;

  std::vector<Sample> calibration = o.calibration.empty()
                                        ? RandomSamples(o.random, *reference.interpreter, 1)
                                        : LoadSamples(o.calibration, o, *reference.interpreter);
  if (calibration.empty())
    throw Failure("no calibration samples (give --calibration or --random N)");
  std::map<int32_t, converter::TensorRange> ranges;
  if (options.mode == converter::QuantizeMode::kFullInt8 ||
      options.mode == converter::QuantizeMode::kInt16x8) {
    converter::CalibrationOptions calibrate;
    if (o.range == "percentile") {
      calibrate.method = converter::RangeMethod::kPercentile;
      calibrate.percentile = o.percentile;
    }
    if (!converter::Calibrate(*model, calibration, calibrate, &ranges, &error))
      throw Failure(error);
    std::printf("calibration: %zu sample(s), %zu tensor ranges (%s)\n", calibration.size(),
                ranges.size(), o.range == "percentile" ? "percentile" : "min/max");
  }
  const converter::ModelPtr float_model = converter::CloneModel(*model, &error);
  converter::QuantizeSummary summary;
  if (!converter::QuantizeModel(*model, ranges, options, &summary, &error)) throw Failure(error);
  std::vector<uint8_t> bytes;
  if (!converter::PackModel(*model, &bytes, &error) ||
      !converter::WriteFile(o.output, bytes, &error)) {
    throw Failure(error);
  }
  for (const auto& [name, count] : summary.quantized) {
    std::printf("quantized: %-24s x%d\n", name.c_str(), count);
  }
  for (const auto& [name, count] : summary.kept_float) {
    std::printf("float:     %-24s x%d\n", name.c_str(), count);
  }
  if (o.verbose) {
    for (const std::string& note : summary.notes) std::printf("  %s\n", note.c_str());
  }
  std::printf("wrote %s (%zu bytes, float model %zu bytes)\n", o.output.c_str(), bytes.size(),
              static_cast<size_t>(fs::file_size(o.model)));

  // Accuracy: the written file, as a user would load it, against the float model.
  LoadedModel quantized = LoadModel(o.output, 1);
  Check(quantized.interpreter->AllocateTensors(), "the quantized model does not prepare",
        *quantized.reporter);
  const std::vector<Sample> eval =
      o.eval.empty() ? calibration : LoadSamples(o.eval, o, *reference.interpreter);
  const size_t outputs = reference.interpreter->outputs().size();
  std::vector<double> max_error(outputs, 0), sum_error(outputs, 0), sum_range(outputs, 0);
  std::vector<size_t> counted(outputs, 0);
  int top1_same = 0, top1_total = 0;
  std::map<std::string, std::pair<double, double>> layer;  // name -> (signal, noise)
  for (const Sample& sample : eval) {
    std::map<int32_t, std::vector<float>> fv, qv;
    if (!converter::RunKeepingTensors(*float_model, sample, &fv, &error) ||
        !converter::RunKeepingTensors(*model, ConvertSample(sample, *quantized.interpreter), &qv,
                                      &error)) {
      throw Failure(error);
    }
    const auto fn = ByName(*float_model, fv), qn = ByName(*model, qv);
    for (size_t k = 0; k < outputs; ++k) {
      const int32_t fo = float_model->subgraphs[0]->outputs[k];
      const int32_t qo = model->subgraphs[0]->outputs[k];
      const std::vector<float>& a = fv.at(fo);
      const std::vector<float>& b = qv.at(qo);
      if (a.size() != b.size()) throw Failure("output sizes differ");
      for (size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs(static_cast<double>(a[i]) - b[i]);
        max_error[k] = std::max(max_error[k], d);
        sum_error[k] += d;
      }
      counted[k] += a.size();
      if (k == 0 && a.size() > 1) {
        ++top1_total;
        top1_same += ArgMax(a) == ArgMax(b);
      }
    }
    for (const auto& [name, a] : fn) {
      const auto found = qn.find(name);
      if (found == qn.end() || found->second.size() != a.size()) continue;
      auto& [signal, noise] = layer[name];
      for (size_t i = 0; i < a.size(); ++i) {
        signal += static_cast<double>(a[i]) * a[i];
        noise += (static_cast<double>(a[i]) - found->second[i]) * (a[i] - found->second[i]);
      }
    }
  }
  std::printf("accuracy on %zu %s sample(s):\n", eval.size(),
              o.eval.empty() ? "calibration" : "eval");
  for (size_t k = 0; k < outputs; ++k) {
    std::printf("  output %zu: max |error| %.6g, mean |error| %.6g\n", k, max_error[k],
                counted[k] ? sum_error[k] / counted[k] : 0.0);
  }
  if (top1_total > 0) {
    std::printf("  top-1 agreement with the float model: %d/%d (%.1f%%)\n", top1_same, top1_total,
                100.0 * top1_same / top1_total);
  }
  std::vector<std::pair<double, std::string>> sqnr;
  for (const auto& [name, sn] : layer) {
    const double db = sn.second > 0 ? 10 * std::log10(sn.first / sn.second) : INFINITY;
    sqnr.emplace_back(db, name);
  }
  std::sort(sqnr.begin(), sqnr.end());
  std::printf("per-layer SQNR (dB, lowest first; float vs dequantized int8):\n");
  for (size_t i = 0; i < sqnr.size() && i < static_cast<size_t>(o.layers); ++i) {
    std::printf("  %8.2f  %s\n", sqnr[i].first, sqnr[i].second.c_str());
  }
  return 0;
}

}  // namespace octet::cli
