// Calibration: the float model run on sample inputs with every intermediate tensor kept, and
// the range each activation tensor takes.
#ifndef OCTET_CONVERTER_QUANTIZE_CALIBRATOR_H_
#define OCTET_CONVERTER_QUANTIZE_CALIBRATOR_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "edit_schema_generated.h"

namespace octet::converter {

using Sample = std::vector<std::vector<uint8_t>>;  // one byte array per model input

// Every non-constant tensor of subgraph 0 after one run, as float (quantized tensors
// dequantized with their own parameters), by tensor index.
bool RunKeepingTensors(const edit::ModelT& model, const Sample& sample,
                       std::map<int32_t, std::vector<float>>* values, std::string* error);

struct TensorRange {
  float min = 0, max = 0;
  std::vector<float> kept;  // a strided subset of the values seen, for percentile ranges
};

enum class RangeMethod { kMinMax, kPercentile };

struct CalibrationOptions {
  RangeMethod method = RangeMethod::kMinMax;
  double percentile = 99.99;  // kPercentile: the range covers this share of the values
};

// Ranges of every float activation tensor of subgraph 0 over all samples.
bool Calibrate(const edit::ModelT& model, const std::vector<Sample>& samples,
               const CalibrationOptions& options, std::map<int32_t, TensorRange>* ranges,
               std::string* error);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_QUANTIZE_CALIBRATOR_H_
