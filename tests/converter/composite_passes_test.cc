// hard-swish and gelu: the composite patterns converters emit become one fused op, in each
// operand order, and the result stays within float rounding of the composite; near misses
// (another constant, an intermediate read elsewhere) stay.
#include <random>

#include "converter/graph.h"
#include "converter_test_util.h"
#include "format/model_builder.h"

namespace octet::testing {
namespace {

using format::ModelBuilder;
using tflite::BuiltinOperator;

// A float graph built op by op over [2, 8] tensors.
class Chain {
 public:
  Chain() { x_ = b_.AddTensor(tflite::TensorType_FLOAT32, {2, 8}, "x"); }
  int x() const { return x_; }
  int Scalar(float v) {
    return b_.AddConstTensor(tflite::TensorType_FLOAT32, {}, std::vector<float>{v});
  }
  int Op(BuiltinOperator code, std::vector<int32_t> inputs) {
    const int out = b_.AddTensor(tflite::TensorType_FLOAT32, {2, 8});
    format::BuiltOptions options;
    if (code == tflite::BuiltinOperator_ADD) options = b_.AddOptions();
    if (code == tflite::BuiltinOperator_MUL) options = b_.MulOptions();
    if (code == tflite::BuiltinOperator_DIV) options = b_.DivOptions();
    b_.AddOperator(b_.AddOperatorCode(code), std::move(inputs), {out}, options);
    return out;
  }
  Bytes Finish(std::vector<int32_t> outputs) {
    b_.SetInputs({x_});
    b_.SetOutputs(std::move(outputs));
    return b_.Finish();
  }

 private:
  ModelBuilder b_;
  int x_;
};

bool HasOp(const Bytes& model, tflite::BuiltinOperator code) {
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(model, &error);
  for (const auto& g : m->subgraphs) {
    for (const auto& op : g->operators) {
      if (converter::OpCodeOf(*m, *op) == static_cast<octet::edit::BuiltinOperator>(code)) {
        return true;
      }
    }
  }
  return false;
}

TEST(HardSwishPass, EveryEmittedOrderBecomesOneOp) {
  for (int form = 0; form < 4; ++form) {
    Chain c;
    const int r = c.Op(tflite::BuiltinOperator_RELU6,
                       {c.Op(tflite::BuiltinOperator_ADD, {c.x(), c.Scalar(3.f)})});
    int y;
    if (form == 0) {  // (x * r) * 1/6
      y = c.Op(tflite::BuiltinOperator_MUL,
               {c.Op(tflite::BuiltinOperator_MUL, {c.x(), r}), c.Scalar(1.f / 6.f)});
    } else if (form == 1) {  // (r * x) / 6
      y = c.Op(tflite::BuiltinOperator_DIV,
               {c.Op(tflite::BuiltinOperator_MUL, {r, c.x()}), c.Scalar(6.f)});
    } else if (form == 2) {  // x * (r * 1/6)
      y = c.Op(tflite::BuiltinOperator_MUL,
               {c.x(), c.Op(tflite::BuiltinOperator_MUL, {c.Scalar(1.f / 6.f), r})});
    } else {  // (r / 6) * x
      y = c.Op(tflite::BuiltinOperator_MUL,
               {c.Op(tflite::BuiltinOperator_DIV, {r, c.Scalar(6.f)}), c.x()});
    }
    const Bytes model = c.Finish({y});
    const Rewritten fused = ApplyPasses(model, {"hard-swish"});
    EXPECT_EQ(fused.ops, 1u) << "form " << form;
    EXPECT_TRUE(HasOp(fused.model, tflite::BuiltinOperator_HARD_SWISH)) << "form " << form;
    ExpectCloseOutputs(model, fused.model, 1e-6f);
  }
}

TEST(HardSwishPass, NearMissesStay) {
  {  // x + 2 is not hard swish
    Chain c;
    const int r = c.Op(tflite::BuiltinOperator_RELU6,
                       {c.Op(tflite::BuiltinOperator_ADD, {c.x(), c.Scalar(2.f)})});
    const int y = c.Op(tflite::BuiltinOperator_MUL,
                       {c.Op(tflite::BuiltinOperator_MUL, {c.x(), r}), c.Scalar(1.f / 6.f)});
    EXPECT_EQ(ApplyPasses(c.Finish({y}), {"hard-swish"}).ops, 4u);
  }
  {  // the relu6 result is also an output: the ops must stay
    Chain c;
    const int r = c.Op(tflite::BuiltinOperator_RELU6,
                       {c.Op(tflite::BuiltinOperator_ADD, {c.x(), c.Scalar(3.f)})});
    const int y = c.Op(tflite::BuiltinOperator_MUL,
                       {c.Op(tflite::BuiltinOperator_MUL, {c.x(), r}), c.Scalar(1.f / 6.f)});
    EXPECT_EQ(ApplyPasses(c.Finish({y, r}), {"hard-swish"}).ops, 4u);
  }
}

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), x^3 as POW or as products.
Bytes GeluGraph(bool pow_cube, bool half_first, float cubic = 0.044715f) {
  Chain c;
  const int x = c.x();
  const int cube =
      pow_cube ? c.Op(tflite::BuiltinOperator_POW, {x, c.Scalar(3.f)})
               : c.Op(tflite::BuiltinOperator_MUL, {x, c.Op(tflite::BuiltinOperator_MUL, {x, x})});
  const int inner = c.Op(tflite::BuiltinOperator_ADD,
                         {x, c.Op(tflite::BuiltinOperator_MUL, {c.Scalar(cubic), cube})});
  const int t = c.Op(tflite::BuiltinOperator_TANH,
                     {c.Op(tflite::BuiltinOperator_MUL, {inner, c.Scalar(0.7978845608f)})});
  const int s = c.Op(tflite::BuiltinOperator_ADD, {c.Scalar(1.f), t});
  int y;
  if (half_first) {  // (0.5 x) * s
    y = c.Op(tflite::BuiltinOperator_MUL,
             {c.Op(tflite::BuiltinOperator_MUL, {x, c.Scalar(0.5f)}), s});
  } else {  // (x * s) * 0.5
    y = c.Op(tflite::BuiltinOperator_MUL,
             {c.Op(tflite::BuiltinOperator_MUL, {s, x}), c.Scalar(0.5f)});
  }
  return c.Finish({y});
}

TEST(GeluPass, TanhFormBecomesApproximateGelu) {
  for (bool pow_cube : {true, false}) {
    for (bool half_first : {true, false}) {
      const Bytes model = GeluGraph(pow_cube, half_first);
      const Rewritten fused = ApplyPasses(model, {"gelu"});
      EXPECT_EQ(fused.ops, 1u) << "pow " << pow_cube << " half first " << half_first;
      EXPECT_TRUE(HasOp(fused.model, tflite::BuiltinOperator_GELU));
      ExpectCloseOutputs(model, fused.model, 1e-5f);
    }
  }
}

TEST(GeluPass, AnotherCubicCoefficientStays) {
  const Bytes model = GeluGraph(true, true, 0.05f);
  const Rewritten fused = ApplyPasses(model, {"gelu"});
  EXPECT_FALSE(HasOp(fused.model, tflite::BuiltinOperator_GELU));
  EXPECT_EQ(fused.ops, CountOps(model));
}

}  // namespace
}  // namespace octet::testing
