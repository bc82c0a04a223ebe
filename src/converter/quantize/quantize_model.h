// Post-training quantization of a float model (seed 000's int8 spec), on the editable model.
#ifndef OCTET_CONVERTER_QUANTIZE_QUANTIZE_MODEL_H_
#define OCTET_CONVERTER_QUANTIZE_QUANTIZE_MODEL_H_

#include <map>
#include <string>
#include <vector>

#include "converter/quantize/calibrator.h"
#include "edit_schema_generated.h"

namespace octet::converter {

enum class QuantizeMode {
  kFullInt8,      // int8 weights and activations, int32 bias (needs calibration ranges)
  kInt16x8,       // int8 weights, symmetric int16 activations, int64 bias (calibrated)
  kDynamicRange,  // int8 weights of CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED, float
                  // activations
  kFloat16,       // float16 constants, DEQUANTIZE'd to float once at prepare
};
enum class QuantizeIo { kFloat, kInt8, kUInt8 };

struct QuantizeOptions {
  QuantizeMode mode = QuantizeMode::kFullInt8;
  QuantizeIo io = QuantizeIo::kFloat;
  bool fc_per_channel = false;  // FULLY_CONNECTED weights per output channel (else per tensor)
};

struct QuantizeSummary {
  std::map<std::string, int> quantized;   // op name -> how many now run quantized
  std::map<std::string, int> kept_float;  // op name -> how many stay float (and why, below)
  std::vector<std::string> notes;
};

// False (with the reason) when `model` cannot be quantized: no subgraph, or already quantized.
bool CheckQuantizable(const edit::ModelT& model, std::string* error);

// Rewrites subgraph 0 of `model` in place. `ranges` (from Calibrate) is needed for kFullInt8.
bool QuantizeModel(edit::ModelT& model, const std::map<int32_t, TensorRange>& ranges,
                   const QuantizeOptions& options, QuantizeSummary* summary, std::string* error);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_QUANTIZE_QUANTIZE_MODEL_H_
