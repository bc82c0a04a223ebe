// Quantized REDUCE_PROD (int8/int16, TFLite's version 2) against outputs of TFLite 2.12
// itself (its WASM build run on the same models), exact math for the single-element case,
// and the prepare refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_REDUCE_PROD;

struct Q {
  float scale;
  int zero_point;
};

template <typename T>
struct ProdRun {
  TfLiteStatus build = kTfLiteError, invoke = kTfLiteError;
  std::vector<T> values;
  std::vector<int> shape;
  std::string error;
};

// quantized = false leaves both tensors without quantization (TFLite's raw product).
template <typename T>
ProdRun<T> RunProd(TfLiteType type, const std::vector<int>& dims, const std::vector<T>& in,
                   const std::vector<int32_t>& axes, bool keep_dims, Q qi, Q qo,
                   bool quantized = true) {
  ProdRun<T> r;
  OpModel m;
  const int ii =
      quantized ? m.AddInput({type, dims, {qi.scale}, {qi.zero_point}}) : m.AddInput({type, dims});
  m.AddConstInput<int32_t>({kTfLiteInt32, {static_cast<int>(axes.size())}}, axes);
  const int io =
      quantized ? m.AddOutput({type, {}, {qo.scale}, {qo.zero_point}}) : m.AddOutput({type, {}});
  TfLiteReducerParams p{};
  p.keep_dims = keep_dims;
  m.SetBuiltinOp(kTfLiteBuiltinReduceProd, Register_REDUCE_PROD(), p);
  r.build = m.Build();
  if (r.build == kTfLiteOk) {
    m.SetInput(ii, in);
    r.invoke = m.Invoke();
    if (r.invoke == kTfLiteOk) {
      r.values = m.GetOutput<T>(io);
      r.shape = m.GetShape(io);
    }
  }
  r.error = m.error();
  return r;
}

template <typename T>
void ExpectProd(const ProdRun<T>& r, const std::vector<T>& want, const std::vector<int>& shape) {
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, want);
  EXPECT_EQ(r.shape, shape);
}

TEST(Shape_ReduceProdQuantized, GoldenInt8LastAxis) {
  const std::vector<int8_t> in = {14, 2,  -11, -7, -5, 4,  -9, 4,  -8, -4, -4,  -10,
                                  14, 16, -6,  -2, 4,  -7, 17, 17, 16, 18, -11, 0};
  ExpectProd<int8_t>(RunProd<int8_t>(kTfLiteInt8, {4, 6}, in, {1}, false, {0.1f, 3}, {0.1f, -2}),
                     {-2, -3, -3, 14}, {4});
}

TEST(Shape_ReduceProdQuantized, GoldenInt8OuterAndInnerAxesKeepDims) {
  const std::vector<int8_t> in = {-10, -10, -8, -11, -7,  -10, -13, -12, -9,  -12, -11, -7,
                                  -12, -8,  -7, -13, -10, -10, -13, -11, -11, -12, -9,  -7};
  ExpectProd<int8_t>(
      RunProd<int8_t>(kTfLiteInt8, {2, 3, 4}, in, {0, 2}, true, {0.5f, -10}, {0.05f, 5}), {5, 5, 6},
      {1, 3, 1});
}

TEST(Shape_ReduceProdQuantized, GoldenInt8AllAxesSaturates) {
  const std::vector<int8_t> in = {61, 49, -64, 40, 31, 33, 5, -32, 84, -53, 64, -115};
  ExpectProd<int8_t>(
      RunProd<int8_t>(kTfLiteInt8, {3, 4}, in, {0, 1}, false, {0.02f, -128}, {1e-6f, 7}), {-128},
      {});
}

TEST(Shape_ReduceProdQuantized, GoldenInt16FirstAxis) {
  const std::vector<int16_t> in = {301, -287, -341, 127, -370, -30, 214, -281,
                                   31,  225,  -144, 202, 327,  -27, 3};
  ExpectProd<int16_t>(
      RunProd<int16_t>(kTfLiteInt16, {3, 5}, in, {0}, false, {0.01f, 0}, {0.001f, 0}),
      {1300, -12407, 31332, -106, -250}, {5});
}

TEST(Shape_ReduceProdQuantized, GoldenInt16KeepDims) {
  const std::vector<int16_t> in = {911,   1403, 2357, -2496, -1746, -1731,
                                   -1287, 1763, 214,  1218,  -195,  -2670};
  ExpectProd<int16_t>(
      RunProd<int16_t>(kTfLiteInt16, {2, 2, 3}, in, {2}, true, {0.001f, 0}, {0.0005f, 0}),
      {6025, -15087, -971, 1268}, {2, 2, 1});
}

TEST(Shape_ReduceProdQuantized, GoldenInt16Saturates) {
  const std::vector<int16_t> in = {-30889, 8789,   822,   21696, -31721, 10918, -28396, -28832,
                                   -8020,  -20903, 25186, 12339, 6492,   5346,  -4091,  13005};
  ExpectProd<int16_t>(RunProd<int16_t>(kTfLiteInt16, {2, 8}, in, {-1}, false, {0.3f, 0}, {0.5f, 0}),
                      {-32768, -32768}, {2});
}

TEST(Shape_ReduceProdQuantized, GoldenInt8WithoutQuantizationWraps) {
  const std::vector<int8_t> in = {113, 120, -85, 89, 14, 44, 35, -32};
  ExpectProd<int8_t>(RunProd<int8_t>(kTfLiteInt8, {2, 4}, in, {1}, false, {}, {}, false), {104, 0},
                     {2});
}

// One element per output: (x - zp_in) * s_in / s_out + zp_out, rounded. Here s_in / s_out
// = 2, so exact. (TFLite's optimized kernel reads out of bounds when every reduced axis
// has extent 1; Octet computes the product of the single element.)
TEST(Shape_ReduceProdQuantized, SingleElementIsRequantizedInput) {
  const std::vector<int8_t> in = {11, 27, -95, 60, -40};
  ExpectProd<int8_t>(RunProd<int8_t>(kTfLiteInt8, {5, 1}, in, {1}, false, {0.2f, 1}, {0.1f, 0}),
                     {20, 52, -128, 118, -82}, {5});
}

TEST(Shape_ReduceProdQuantized, ErrorUInt8) {
  const auto r = RunProd<uint8_t>(kTfLiteUInt8, {2}, {1, 2}, {0}, false, {0.5f, 0}, {0.5f, 0});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("REDUCE_PROD: unsupported element type UINT8"), std::string::npos)
      << r.error;
}

TEST(Shape_ReduceProdQuantized, ErrorInt16ZeroPoint) {
  const auto r = RunProd<int16_t>(kTfLiteInt16, {2}, {1, 2}, {0}, false, {0.5f, 3}, {0.5f, 0});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("REDUCE_PROD: int16 input and output zero points must be 0"),
            std::string::npos)
      << r.error;
}

TEST(Shape_ReduceProdQuantized, ErrorRescaleOutOfRange) {
  // 1000 / 1e-6^(1/2) = 1e6 needs a left shift of 20; the 64-bit requantization takes <= 7.
  const auto r = RunProd<int8_t>(kTfLiteInt8, {2}, {1, 2}, {0}, false, {1000.0f, 0}, {1e-6f, 0});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("REDUCE_PROD: output"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("scale too large"), std::string::npos) << r.error;
}

TEST(Shape_ReduceProdQuantized, ErrorBadScale) {
  const auto r = RunProd<int8_t>(kTfLiteInt8, {2}, {1, 2}, {0}, false, {0.0f, 0}, {0.5f, 0});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("REDUCE_PROD: input"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace octet::shape_test
