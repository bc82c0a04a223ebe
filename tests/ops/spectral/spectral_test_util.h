// Shared helpers for the spectral / complex op tests: OpModel plus error-message matching.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ops/spectral/spectral_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::spectral_test {

using octet::testing::OpModel;
using octet::testing::TensorSpec;

inline int64_t Count(const std::vector<int>& dims) {
  int64_t n = 1;
  for (int d : dims) n *= d;
  return n;
}

inline bool IsDynamic(OpModel& m, int tensor) {
  return m.tensor(tensor)->allocation_type == kTfLiteDynamic;
}

// Build (prepare) must fail with `message` in the report.
inline void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

inline void ExpectInvokeError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Invoke(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

inline std::vector<float> RandomFloats(std::mt19937* rng, int64_t n, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(*rng);
  return v;
}

}  // namespace octet::spectral_test
