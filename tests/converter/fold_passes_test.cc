// fold-pad, fold-batchnorm and fold-constants: each rewrite removes ops and the model's
// outputs stay equal (identical where the arithmetic is unchanged, within float rounding where
// weights were rescaled); patterns that are not equivalent stay untouched.
#include <random>

#include "converter_test_util.h"
#include "format/model_builder.h"

namespace octet::testing {
namespace {

using format::ModelBuilder;

std::vector<float> Floats(size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// input [1,H,W,C] -> PAD(pads) -> VALID conv (k x k, stride) or depthwise.
Bytes PadThenConv(int h, int w, int k, int stride, std::vector<int32_t> pads, bool depthwise) {
  ModelBuilder b;
  const int pad = b.AddOperatorCode(tflite::BuiltinOperator_PAD);
  const int conv = b.AddOperatorCode(depthwise ? tflite::BuiltinOperator_DEPTHWISE_CONV_2D
                                               : tflite::BuiltinOperator_CONV_2D);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, h, w, 3}, "in");
  const int p = b.AddConstTensor(tflite::TensorType_INT32, {4, 2}, pads, "pads");
  const int ph = h + pads[2] + pads[3], pw = w + pads[4] + pads[5];
  const int padded = b.AddTensor(tflite::TensorType_FLOAT32, {1, ph, pw, 3}, "padded");
  const int outc = depthwise ? 3 : 5;
  const int weights = depthwise ? b.AddConstTensor(tflite::TensorType_FLOAT32, {1, k, k, 3},
                                                   Floats(k * k * 3, 3), "w")
                                : b.AddConstTensor(tflite::TensorType_FLOAT32, {5, k, k, 3},
                                                   Floats(5 * k * k * 3, 3), "w");
  const int bias = b.AddConstTensor(tflite::TensorType_FLOAT32, {outc}, Floats(outc, 4), "b");
  const int oh = (ph - k) / stride + 1, ow = (pw - k) / stride + 1;
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, oh, ow, outc}, "out");
  b.AddOperator(pad, {in, p}, {padded});
  b.AddOperator(conv, {padded, weights, bias}, {out},
                depthwise ? b.DepthwiseConv2DOptions(tflite::Padding_VALID, stride, stride, 1)
                          : b.Conv2DOptions(tflite::Padding_VALID, stride, stride));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Finish();
}

TEST(FoldPad, SamePaddingAmountsFoldIntoTheConvExactly) {
  // 3x3 stride 1: SAME adds 1 on each side; 3x3 stride 2 on 8: total 1, all of it after;
  // 4x4 stride 1: total 3, 1 before and 2 after.
  struct Case {
    int h, k, stride;
    std::vector<int32_t> pads;
  };
  const Case cases[] = {{6, 3, 1, {0, 0, 1, 1, 1, 1, 0, 0}},
                        {8, 3, 2, {0, 0, 0, 1, 0, 1, 0, 0}},
                        {7, 4, 1, {0, 0, 1, 2, 1, 2, 0, 0}}};
  for (const Case& c : cases) {
    for (bool depthwise : {false, true}) {
      const Bytes model = PadThenConv(c.h, c.h, c.k, c.stride, c.pads, depthwise);
      const Rewritten folded = ApplyPasses(model, {"fold-pad"});
      EXPECT_EQ(folded.ops, 1u) << "h " << c.h << " k " << c.k << " depthwise " << depthwise;
      ExpectSameOutputs(model, folded.model);
    }
  }
}

TEST(FoldPad, OtherPaddingsStay) {
  // Symmetric 1+1 for a 4x4 kernel is not what SAME does (1 before, 2 after).
  const Bytes model = PadThenConv(7, 7, 4, 1, {0, 0, 1, 1, 1, 1, 0, 0}, false);
  const Rewritten folded = ApplyPasses(model, {"fold-pad"});
  EXPECT_EQ(folded.ops, 2u);
  // Padding the channels cannot be a conv's padding.
  const Bytes channels = PadThenConv(6, 6, 3, 1, {0, 0, 1, 1, 1, 1, 0, 1}, true);
  EXPECT_EQ(ApplyPasses(channels, {"fold-pad"}).ops, 2u);
}

// weighted op -> MUL(scale) -> ADD(shift) [-> RELU fused in the ADD].
enum class Weighted { kConv, kDepthwise, kFullyConnected };
Bytes WeightedThenAffine(Weighted kind, bool with_bias, bool scalar_scale, bool sub) {
  ModelBuilder b;
  const int channels = kind == Weighted::kDepthwise ? 3 : 4;
  int op_code = 0;
  std::vector<int32_t> in_shape, out_shape;
  int weights = 0;
  tflite::BuiltinOperator code = tflite::BuiltinOperator_CONV_2D;  // every case sets it
  switch (kind) {
    case Weighted::kConv:
      code = tflite::BuiltinOperator_CONV_2D;
      in_shape = {1, 5, 5, 3};
      out_shape = {1, 5, 5, 4};
      weights = b.AddConstTensor(tflite::TensorType_FLOAT32, {4, 3, 3, 3}, Floats(108, 5), "w");
      break;
    case Weighted::kDepthwise:
      code = tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
      in_shape = {1, 5, 5, 3};
      out_shape = {1, 5, 5, 3};
      weights = b.AddConstTensor(tflite::TensorType_FLOAT32, {1, 3, 3, 3}, Floats(27, 5), "w");
      break;
    case Weighted::kFullyConnected:
      code = tflite::BuiltinOperator_FULLY_CONNECTED;
      in_shape = {2, 6};
      out_shape = {2, 4};
      weights = b.AddConstTensor(tflite::TensorType_FLOAT32, {4, 6}, Floats(24, 5), "w");
      break;
  }
  op_code = b.AddOperatorCode(code);
  const int mul = b.AddOperatorCode(tflite::BuiltinOperator_MUL);
  const int add =
      b.AddOperatorCode(sub ? tflite::BuiltinOperator_SUB : tflite::BuiltinOperator_ADD);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, in_shape, "in");
  std::vector<int32_t> inputs = {in, weights};
  if (with_bias) {
    inputs.push_back(
        b.AddConstTensor(tflite::TensorType_FLOAT32, {channels}, Floats(channels, 6), "b"));
  }
  const int raw = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "raw");
  const int scaled = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "scaled");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "out");
  const int scale =
      scalar_scale ? b.AddConstTensor(tflite::TensorType_FLOAT32, {}, Floats(1, 7, 0.5f, 2.f), "s")
                   : b.AddConstTensor(tflite::TensorType_FLOAT32, {1, channels},
                                      Floats(channels, 7, 0.5f, 2.f), "s");
  const int shift =
      b.AddConstTensor(tflite::TensorType_FLOAT32, {channels}, Floats(channels, 8), "t");
  switch (kind) {
    case Weighted::kConv:
      b.AddOperator(op_code, inputs, {raw}, b.Conv2DOptions(tflite::Padding_SAME, 1, 1));
      break;
    case Weighted::kDepthwise:
      b.AddOperator(op_code, inputs, {raw},
                    b.DepthwiseConv2DOptions(tflite::Padding_SAME, 1, 1, 1));
      break;
    case Weighted::kFullyConnected:
      b.AddOperator(op_code, inputs, {raw}, b.FullyConnectedOptions());
      break;
  }
  b.AddOperator(mul, {scale, raw}, {scaled}, b.MulOptions());
  b.AddOperator(add, {scaled, shift}, {out},
                sub ? b.SubOptions(tflite::ActivationFunctionType_RELU)
                    : b.AddOptions(tflite::ActivationFunctionType_RELU));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Finish();
}

TEST(FoldBatchNorm, ScaleAndShiftFoldIntoEachWeightedOp) {
  for (Weighted kind : {Weighted::kConv, Weighted::kDepthwise, Weighted::kFullyConnected}) {
    for (bool with_bias : {true, false}) {
      for (bool scalar : {true, false}) {
        for (bool sub : {false, true}) {
          SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " bias "
                                            << with_bias << " scalar " << scalar << " sub " << sub);
          const Bytes model = WeightedThenAffine(kind, with_bias, scalar, sub);
          const Rewritten folded = ApplyPasses(model, {"fold-batchnorm"});
          EXPECT_EQ(folded.ops, 1u);
          ExpectCloseOutputs(model, folded.model, 1e-5f);
        }
      }
    }
  }
}

TEST(FoldBatchNorm, ShiftMinusTheResultIsNotABias) {
  // c - conv(x) negates the weights; the pass folds only conv(x) - c.
  ModelBuilder b;
  const int fc = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED);
  const int sub = b.AddOperatorCode(tflite::BuiltinOperator_SUB);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3}, "in");
  const int w = b.AddConstTensor(tflite::TensorType_FLOAT32, {2, 3}, Floats(6, 1), "w");
  const int raw = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2}, "raw");
  const int c = b.AddConstTensor(tflite::TensorType_FLOAT32, {2}, Floats(2, 2), "c");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2}, "out");
  b.AddOperator(fc, {in, w, -1}, {raw}, b.FullyConnectedOptions());
  b.AddOperator(sub, {c, raw}, {out}, b.SubOptions());
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  EXPECT_EQ(ApplyPasses(model, {"fold-batchnorm"}).ops, 2u);
}

TEST(FoldConstants, ConstantSubgraphIsComputedOnceWithTheRuntimesKernels) {
  // out = in + (c1 * c2 + c3): the bracket folds to one constant.
  ModelBuilder b;
  const int mul = b.AddOperatorCode(tflite::BuiltinOperator_MUL);
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "in");
  const int c1 = b.AddConstTensor(tflite::TensorType_FLOAT32, {2, 3}, Floats(6, 1), "c1");
  const int c2 = b.AddConstTensor(tflite::TensorType_FLOAT32, {3}, Floats(3, 2), "c2");
  const int c3 = b.AddConstTensor(tflite::TensorType_FLOAT32, {1}, Floats(1, 3), "c3");
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "t1");
  const int t2 = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "t2");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "out");
  b.AddOperator(mul, {c1, c2}, {t1}, b.MulOptions());
  b.AddOperator(add, {t1, c3}, {t2}, b.AddOptions());
  b.AddOperator(add, {in, t2}, {out}, b.AddOptions());
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const Rewritten folded = ApplyPasses(model, {"fold-constants"});
  EXPECT_EQ(folded.ops, 1u);
  ExpectSameOutputs(model, folded.model);
}

}  // namespace
}  // namespace octet::testing
