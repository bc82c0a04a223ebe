// Shared helpers for the index / selection op tests: OpModel plus error-message matching.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/index/index_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::index_test {

using octet::testing::OpModel;
using octet::testing::TensorSpec;

inline int64_t Count(const std::vector<int>& dims) {
  int64_t n = 1;
  for (int d : dims) n *= d;
  return n;
}

// Multi-index of flat position `flat` in row-major `dims`.
inline std::vector<int> Unravel(int64_t flat, const std::vector<int>& dims) {
  std::vector<int> idx(dims.size());
  for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
    idx[i] = static_cast<int>(flat % dims[i]);
    flat /= dims[i];
  }
  return idx;
}

inline int64_t Ravel(const std::vector<int>& idx, const std::vector<int>& dims) {
  int64_t flat = 0;
  for (size_t i = 0; i < dims.size(); ++i) flat = flat * dims[i] + idx[i];
  return flat;
}

inline bool IsDynamic(OpModel& m, int tensor) {
  return m.tensor(tensor)->allocation_type == kTfLiteDynamic;
}

// Builds (prepare) must fail with `message` in the report.
inline void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

inline void ExpectInvokeError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Invoke(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

}  // namespace octet::index_test
