#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::OpModel;

enum class Kind { kAvg, kMax, kL2 };

TfLitePoolParams Params(TfLitePadding padding, int fh, int fw, int sh, int sw,
                        TfLiteFusedActivation act = kTfLiteActNone) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.filter_height = fh;
  p.filter_width = fw;
  p.stride_height = sh;
  p.stride_width = sw;
  p.activation = act;
  return p;
}

const TfLiteRegistration* Reg(Kind k) {
  switch (k) {
    case Kind::kAvg:
      return tflite::ops::builtin::Register_AVERAGE_POOL_2D();
    case Kind::kMax:
      return tflite::ops::builtin::Register_MAX_POOL_2D();
    case Kind::kL2:
      return tflite::ops::builtin::Register_L2_POOL_2D();
  }
  return nullptr;
}

int Code(Kind k) {
  switch (k) {
    case Kind::kAvg:
      return tflite::BuiltinOperator_AVERAGE_POOL_2D;
    case Kind::kMax:
      return tflite::BuiltinOperator_MAX_POOL_2D;
    case Kind::kL2:
      return tflite::BuiltinOperator_L2_POOL_2D;
  }
  return 0;
}

// Windows clipped to the image; averages over the cells actually inside.
std::vector<double> Naive(Kind k, const std::vector<int>& s, const std::vector<float>& in,
                          const TfLitePoolParams& p, std::vector<int>* shape) {
  auto axis = p.padding == kTfLitePaddingSame ? nn_test::SameAxis : nn_test::ValidAxis;
  const auto ay = axis(s[1], p.filter_height, p.stride_height, 1);
  const auto ax = axis(s[2], p.filter_width, p.stride_width, 1);
  *shape = {s[0], ay.out, ax.out, s[3]};
  std::vector<double> out;
  for (int b = 0; b < s[0]; ++b)
    for (int y = 0; y < ay.out; ++y)
      for (int x = 0; x < ax.out; ++x)
        for (int c = 0; c < s[3]; ++c) {
          double sum = 0, sq = 0, mx = -1e300;
          int n = 0;
          for (int i = 0; i < p.filter_height; ++i)
            for (int j = 0; j < p.filter_width; ++j) {
              const int iy = y * p.stride_height - ay.pad + i;
              const int ix = x * p.stride_width - ax.pad + j;
              if (iy < 0 || iy >= s[1] || ix < 0 || ix >= s[2]) continue;
              const double v = in[((b * s[1] + iy) * s[2] + ix) * s[3] + c];
              sum += v;
              sq += v * v;
              mx = std::max(mx, v);
              ++n;
            }
          double r = k == Kind::kAvg ? sum / n : k == Kind::kMax ? mx : std::sqrt(sq / n);
          if (p.activation == kTfLiteActRelu) r = std::max(r, 0.0);
          if (p.activation == kTfLiteActRelu6) r = std::min(std::max(r, 0.0), 6.0);
          out.push_back(r);
        }
  return out;
}

void Check(Kind k, const std::vector<int>& s, const TfLitePoolParams& p) {
  const auto in = nn_test::Random(s[0] * s[1] * s[2] * s[3], 21, -3.f, 3.f);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, s});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(Code(k), Reg(k), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<int> shape;
  const auto want = Naive(k, s, in, p, &shape);
  EXPECT_EQ(m.GetShape(output), shape);
  nn_test::ExpectAllNear(m.GetOutput<float>(output), want);
}

TEST(Nn_Pool2D, HandWorkedSameCountsOnlyInBoundsCells) {
  // 3x3 image, 2x2 window, stride 2, SAME: the edge windows hold 2 or 1 cells.
  for (Kind k : {Kind::kAvg, Kind::kMax}) {
    OpModel m;
    const int input = m.AddInput({kTfLiteFloat32, {1, 3, 3, 1}});
    const int output = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(Code(k), Reg(k), Params(kTfLitePaddingSame, 2, 2, 2, 2));
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<float>(input, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(output), (std::vector<int>{1, 2, 2, 1}));
    if (k == Kind::kAvg) {
      EXPECT_EQ(m.GetOutput<float>(output), (std::vector<float>{3.f, 4.5f, 7.5f, 9.f}));
    } else {
      EXPECT_EQ(m.GetOutput<float>(output), (std::vector<float>{5.f, 6.f, 8.f, 9.f}));
    }
  }
}

TEST(Nn_Pool2D, L2HandWorked) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 2, 2, 1}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_L2_POOL_2D, tflite::ops::builtin::Register_L2_POOL_2D(),
                 Params(kTfLitePaddingValid, 2, 2, 1, 1));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {1, 3, 3, 5});  // sqrt((1 + 9 + 9 + 25) / 4) = sqrt(11)
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_FLOAT_EQ(m.GetOutput<float>(output)[0], std::sqrt(11.f));
}

TEST(Nn_Pool2D, AllKindsAgainstNaive) {
  for (Kind k : {Kind::kAvg, Kind::kMax, Kind::kL2}) {
    Check(k, {2, 7, 6, 3}, Params(kTfLitePaddingValid, 3, 2, 2, 1));
    Check(k, {1, 7, 6, 2}, Params(kTfLitePaddingSame, 3, 3, 2, 2));
    Check(k, {1, 5, 8, 2}, Params(kTfLitePaddingSame, 2, 4, 1, 3, kTfLiteActRelu));
    Check(k, {1, 4, 4, 1}, Params(kTfLitePaddingSame, 5, 5, 1, 1, kTfLiteActRelu6));
  }
}

std::string BuildError(Kind k, std::vector<int> shape, TfLitePoolParams p,
                       TfLiteType type = kTfLiteFloat32) {
  OpModel m;
  if (type == kTfLiteInt8) {
    m.AddInput({type, shape, {0.5f}, {0}});
    m.AddOutput({type, {}, {0.5f}, {0}});
  } else {
    m.AddInput({type, shape});
    m.AddOutput({type, {}});
  }
  m.SetBuiltinOp(Code(k), Reg(k), p);
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

TEST(Nn_Pool2D, Rejections) {
  EXPECT_NE(BuildError(Kind::kAvg, {1, 4, 4, 1}, Params(kTfLitePaddingValid, 2, 2, 0, 1))
                .find("AVERAGE_POOL_2D: stride_height must be > 0, got 0"),
            std::string::npos);
  EXPECT_NE(BuildError(Kind::kMax, {1, 4, 4, 1}, Params(kTfLitePaddingValid, 2, 0, 1, 1))
                .find("MAX_POOL_2D: filter width must be > 0, got 0"),
            std::string::npos);
  EXPECT_NE(BuildError(Kind::kL2, {1, 4, 4, 1}, Params(kTfLitePaddingValid, 5, 2, 1, 1))
                .find("L2_POOL_2D: output height must be > 0"),
            std::string::npos);
  EXPECT_NE(BuildError(Kind::kAvg, {4, 4, 1}, Params(kTfLitePaddingValid, 2, 2, 1, 1))
                .find("AVERAGE_POOL_2D: input must have 4 dimensions, got 3"),
            std::string::npos);
  EXPECT_NE(
      BuildError(Kind::kMax, {1, 4, 4, 1}, Params(kTfLitePaddingValid, 2, 2, 1, 1), kTfLiteInt32)
          .find("MAX_POOL_2D: input type INT32 is not supported"),
      std::string::npos);
  EXPECT_NE(BuildError(Kind::kAvg, {1, 4, 4, 1},
                       Params(kTfLitePaddingValid, 2, 2, 1, 1, kTfLiteActSigmoid))
                .find("AVERAGE_POOL_2D: unsupported fused activation"),
            std::string::npos);
}

}  // namespace
}  // namespace octet
