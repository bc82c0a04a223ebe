// Defines XNNPACK subgraph values for TFLite tensors (float32, int8/uint8 per-tensor, int8 and
// int32 per-channel) on first use. With no external map (the per-node support check) every
// non-constant tensor is internal.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "tensorflow/lite/c/common.h"

namespace octet::xnnpack {

struct ExternalValue {
  uint32_t id;
  uint32_t flags;  // XNN_VALUE_FLAG_EXTERNAL_INPUT or _OUTPUT
};

// Constants the delegate makes up (a zero bias); they must outlive the runtime.
using OwnedBuffers = std::vector<std::unique_ptr<uint8_t[]>>;

class Builder {
 public:
  Builder(TfLiteContext* ctx, xnn_subgraph_t subgraph,
          const std::unordered_map<int, ExternalValue>* externals, OwnedBuffers* owned)
      : ctx_(ctx), subgraph_(subgraph), externals_(externals), owned_(owned) {}

  xnn_subgraph_t subgraph() const { return subgraph_; }
  bool IsDefined(int tensor) const { return ids_.count(tensor) > 0; }

  // The value of TFLite tensor `tensor`, in its own type: float32; int8/uint8 with per-tensor
  // quantization; int8/int32 with per-channel quantization (weights and bias).
  bool Tensor(int tensor, uint32_t* id);

  // A float32 constant of the delegate's making.
  bool OwnedFloatConstant(const std::vector<float>& values, const std::vector<size_t>& dims,
                          uint32_t* id);
  // A zero int32 bias quantized like `like_bias_of` expects: per-tensor scale
  // input_scale * filter_scale, or per-channel scales (copied, kept with the kernel).
  bool OwnedZeroBias(int input, int filter, int channels, uint32_t* id);

  // An internal value with the same type and quantization as tensor `like`.
  bool InternalLike(int like, const std::vector<size_t>& dims, uint32_t* id);

 private:
  uint8_t* Own(size_t bytes);

  TfLiteContext* ctx_;
  xnn_subgraph_t subgraph_;
  const std::unordered_map<int, ExternalValue>* externals_;
  OwnedBuffers* owned_;
  std::unordered_map<int, uint32_t> ids_;
};

}  // namespace octet::xnnpack
