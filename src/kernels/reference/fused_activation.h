// The fused activations TFLite's float recurrent kernels apply to a vector
// (tensor_utils::ApplyActivationToVector), shared by SVDF and the RNN cells.
#pragma once

#include <algorithm>
#include <cmath>

namespace octet::reference {

enum class FusedActivation { kNone, kRelu, kReluN1To1, kRelu6, kTanh, kSignBit, kSigmoid };

inline float ApplyFusedActivation(FusedActivation act, float x) {
  switch (act) {
    case FusedActivation::kNone:
      return x;
    case FusedActivation::kRelu:
      return std::max(0.f, x);
    case FusedActivation::kReluN1To1:
      return std::min(1.f, std::max(-1.f, x));
    case FusedActivation::kRelu6:
      return std::min(6.f, std::max(0.f, x));
    case FusedActivation::kTanh:
      return std::tanh(x);
    case FusedActivation::kSignBit:
      return std::signbit(x) ? 1.f : 0.f;
    case FusedActivation::kSigmoid:
      return 1.f / (1.f + std::exp(-x));
  }
  return x;
}

}  // namespace octet::reference
