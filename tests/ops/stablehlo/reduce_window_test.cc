// STABLEHLO_REDUCE_WINDOW over models built in code: the StableHLO spec's example, a loop in
// the test that follows the spec's definition for random shapes, windows, strides, dilations
// and paddings (negative ones crop) over several types and bodies, the bodies TFLite
// recognizes, and validation of the options, types and body subgraph.
//
// The loop: output o takes init op'd with, for every window index k in row-major order, the
// padded operand at p = o * stride + k * window_dilation, where the padded operand at p is
// input[(p - low) / base_dilation] when p - low is in [0, (d - 1) * base_dilation] and a
// multiple of base_dilation, and the init value otherwise.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "subgraph_test_util.h"

namespace octet::stablehlo_test {
namespace {

using format::ModelBuilder;
using format::OperatorSpec;
using namespace tflite;  // NOLINT: schema names

struct Spec {
  TensorType type = TensorType_FLOAT32;
  TensorType init_type = TensorType_FLOAT32;
  TensorType out_type = TensorType_FLOAT32;
  std::vector<int32_t> shape = {3, 2};
  std::vector<int32_t> init_shape = {};
  std::vector<int64_t> window_dimensions = {1, 1}, window_strides, base_dilations, window_dilations,
                       padding;
  int body_index = 1;
  std::vector<BuiltinOperator> body_ops = {BuiltinOperator_STABLEHLO_ADD};
  bool extra_input = false;
};

const std::vector<int64_t>* OrNull(const std::vector<int64_t>& v) {
  return v.empty() ? nullptr : &v;
}

// main: y = REDUCE_WINDOW(x, init) with inputs x, init; subgraph 1: the body, a chain of
// body_ops over two scalars.
std::vector<uint8_t> BuildModel(const Spec& s) {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_REDUCE_WINDOW);
  std::vector<int> body_codes;
  for (BuiltinOperator op : s.body_ops) body_codes.push_back(b.AddOperatorCode(op));
  const int x = b.AddTensor(s.type, s.shape, "x");
  const int init = b.AddTensor(s.init_type, s.init_shape, "init");
  const int y = b.AddTensor(s.out_type, {1}, "y");
  OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {x, init};
  if (s.extra_input) op.inputs.push_back(init);
  op.outputs = {y};
  op.options2 = {
      BuiltinOptions2_StablehloReduceWindowOptions,
      CreateStablehloReduceWindowOptionsDirect(
          b.fbb(), OrNull(s.window_dimensions), OrNull(s.window_strides), OrNull(s.base_dilations),
          OrNull(s.window_dilations), OrNull(s.padding), s.body_index)
          .Union()};
  b.AddOperator(op);
  b.SetInputs({x, init});
  b.SetOutputs({y});
  b.AddSubgraph("body");
  const int lhs = b.AddTensor(s.type, {}, "lhs");
  const int rhs = b.AddTensor(s.type, {}, "rhs");
  int last = lhs;
  for (int c : body_codes) {
    const int t = b.AddTensor(s.type, {}, "t");
    b.AddOperator(c, {last, rhs}, {t});
    last = t;
  }
  b.SetInputs({lhs, rhs});
  b.SetOutputs({last});
  return b.Finish();
}

// Like LoadedModel, with the TFLite forms of the bodies registered too.
struct Loaded {
  CaptureReporter reporter;
  std::vector<uint8_t> bytes;
  std::unique_ptr<FlatBufferModel> model;
  MutableOpResolver resolver;
  std::unique_ptr<Interpreter> interpreter;

  explicit Loaded(std::vector<uint8_t> b) : bytes(std::move(b)) {
    ops::AddStablehloBuiltins(&resolver);
    using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
    resolver.AddBuiltin(BuiltinOperator_ADD, Register_ADD());
    resolver.AddBuiltin(BuiltinOperator_SUB, Register_SUB());
    resolver.AddBuiltin(BuiltinOperator_MUL, Register_MUL());
    resolver.AddBuiltin(BuiltinOperator_MAXIMUM, Register_MAXIMUM());
    resolver.AddBuiltin(BuiltinOperator_MINIMUM, Register_MINIMUM());
    resolver.AddBuiltin(BuiltinOperator_LOGICAL_AND, Register_LOGICAL_AND());
    resolver.AddBuiltin(BuiltinOperator_LOGICAL_OR, Register_LOGICAL_OR());
    // Octet has no STABLEHLO_OR kernel; the body is only inspected, never run, so any
    // registration carries the code.
    resolver.AddBuiltin(BuiltinOperator_STABLEHLO_OR, Register_LOGICAL_OR());
    model = FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                             bytes.size(), &reporter);
    if (model) InterpreterBuilder(*model, resolver)(&interpreter);
  }
};

template <typename T>
struct Outcome {
  TfLiteStatus status = kTfLiteError;
  std::vector<T> values;
  std::vector<int> shape;
  std::string error;
};

template <typename T>
Outcome<T> RunModel(const Spec& s, const std::vector<T>& x, T init) {
  Outcome<T> r;
  Loaded m(BuildModel(s));
  if (m.interpreter == nullptr) {
    r.error = m.reporter.text;
    return r;
  }
  r.status = m.interpreter->AllocateTensors();
  if (r.status == kTfLiteOk) {
    std::memcpy(m.interpreter->input_tensor(0)->data.raw, x.data(), x.size() * sizeof(T));
    std::memcpy(m.interpreter->input_tensor(1)->data.raw, &init, sizeof(T));
    r.status = m.interpreter->Invoke();
    const TfLiteTensor* out = m.interpreter->output_tensor(0);
    r.shape.assign(out->dims->data, out->dims->data + out->dims->size);
    const T* p = reinterpret_cast<const T*>(out->data.raw);
    if (out->bytes > 0) r.values.assign(p, p + out->bytes / sizeof(T));
  }
  r.error = m.reporter.text;
  return r;
}

TEST(StablehloReduceWindow, SpecExample) {
  Spec s;
  s.type = s.init_type = s.out_type = TensorType_INT64;
  s.shape = {3, 2};
  s.window_dimensions = {2, 1};
  s.window_strides = {4, 1};
  s.base_dilations = {2, 1};
  s.window_dilations = {3, 1};
  s.padding = {2, 1, 0, 0};
  const Outcome<int64_t> r = RunModel<int64_t>(s, {1, 2, 3, 4, 5, 6}, 0);
  ASSERT_EQ(r.status, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(r.values, (std::vector<int64_t>{0, 0, 3, 4}));
}

// The loop described at the top, for any rank.
template <typename T>
std::vector<T> Reference(const Spec& s, const std::vector<T>& x, T init,
                         const std::function<T(T, T)>& op, std::vector<int>* out_shape) {
  const int rank = static_cast<int>(s.shape.size());
  std::vector<int64_t> padded(rank), dilated(rank);
  out_shape->assign(rank, 0);
  int64_t out_count = 1, window_count = 1;
  for (int i = 0; i < rank; ++i) {
    dilated[i] = s.shape[i] == 0 ? 0 : (s.shape[i] - 1) * s.base_dilations[i] + 1;
    padded[i] = dilated[i] + s.padding[2 * i] + s.padding[2 * i + 1];
    const int64_t span = (s.window_dimensions[i] - 1) * s.window_dilations[i] + 1;
    (*out_shape)[i] = padded[i] < span ? 0 : (padded[i] - span) / s.window_strides[i] + 1;
    out_count *= (*out_shape)[i];
    window_count *= s.window_dimensions[i];
  }
  std::vector<T> out;
  for (int64_t o = 0; o < out_count; ++o) {
    std::vector<int64_t> oi(rank);
    for (int64_t rest = o, i = rank - 1; i >= 0; --i) {
      oi[i] = rest % (*out_shape)[i];
      rest /= (*out_shape)[i];
    }
    T acc = init;
    for (int64_t k = 0; k < window_count; ++k) {
      int64_t rest = k, flat = 0, stride = 1;
      bool from_input = true;
      for (int i = rank - 1; i >= 0; --i) {
        const int64_t ki = rest % s.window_dimensions[i];
        rest /= s.window_dimensions[i];
        const int64_t q =
            oi[i] * s.window_strides[i] + ki * s.window_dilations[i] - s.padding[2 * i];
        if (q < 0 || q >= dilated[i] || q % s.base_dilations[i] != 0) from_input = false;
        flat += (from_input ? q / s.base_dilations[i] : 0) * stride;
        stride *= s.shape[i];
      }
      acc = op(acc, from_input ? x[flat] : init);
    }
    out.push_back(acc);
  }
  return out;
}

// Random shapes of rank 1..4 and window attributes that keep the padded operand non-empty.
Spec RandomSpec(std::mt19937& rng, TensorType type, BuiltinOperator body) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Spec s;
  s.type = s.init_type = s.out_type = type;
  s.body_ops = {body};
  const int rank = uniform(1, 4);
  s.shape.clear();
  s.window_dimensions.clear();
  for (int i = 0; i < rank; ++i) {
    const int d = uniform(1, 5);
    const int b = uniform(1, 3);
    const int dilated = (d - 1) * b + 1;
    s.shape.push_back(d);
    s.base_dilations.push_back(b);
    const int lo = uniform(-dilated / 2, 2), hi = uniform(-(dilated + lo) / 2, 2);
    s.padding.push_back(lo);
    s.padding.push_back(hi);
    s.window_dimensions.push_back(uniform(1, 3));
    s.window_strides.push_back(uniform(1, 3));
    s.window_dilations.push_back(uniform(1, 2));
  }
  return s;
}

template <typename T>
void CheckRandom(TensorType type, BuiltinOperator body, const std::function<T(T, T)>& op,
                 const std::function<T(std::mt19937&)>& value, int trials) {
  std::mt19937 rng(1234 + static_cast<int>(type) * 31 + static_cast<int>(body));
  for (int trial = 0; trial < trials; ++trial) {
    const Spec s = RandomSpec(rng, type, body);
    int64_t n = 1;
    for (int d : s.shape) n *= d;
    std::vector<T> x(n);
    for (T& v : x) v = value(rng);
    const T init = value(rng);
    std::vector<int> want_shape;
    const std::vector<T> want = Reference<T>(s, x, init, op, &want_shape);
    const Outcome<T> r = RunModel<T>(s, x, init);
    ASSERT_EQ(r.status, kTfLiteOk) << r.error;
    EXPECT_EQ(r.shape, want_shape) << "trial " << trial;
    EXPECT_EQ(r.values, want) << "trial " << trial;
  }
}

TEST(StablehloReduceWindow, RandomFloatMatchesTheLoop) {
  auto value = [](std::mt19937& rng) {
    return std::uniform_real_distribution<float>(-4.f, 4.f)(rng);
  };
  CheckRandom<float>(
      TensorType_FLOAT32, BuiltinOperator_STABLEHLO_ADD, [](float a, float b) { return a + b; },
      value, 25);
  CheckRandom<float>(
      TensorType_FLOAT32, BuiltinOperator_MUL, [](float a, float b) { return a * b; }, value, 15);
  CheckRandom<float>(
      TensorType_FLOAT32, BuiltinOperator_STABLEHLO_MAXIMUM,
      [](float a, float b) { return a >= b ? a : b; }, value, 15);
  CheckRandom<float>(
      TensorType_FLOAT32, BuiltinOperator_MINIMUM, [](float a, float b) { return a <= b ? a : b; },
      value, 15);
}

TEST(StablehloReduceWindow, RandomIntegersMatchTheLoop) {
  // int32 ADD and MUL wrap (two's complement) rather than overflow.
  auto wide = [](std::mt19937& rng) {
    return static_cast<int32_t>(std::uniform_int_distribution<int64_t>(INT32_MIN, INT32_MAX)(rng));
  };
  CheckRandom<int32_t>(
      TensorType_INT32, BuiltinOperator_ADD,
      [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      },
      wide, 15);
  CheckRandom<int32_t>(
      TensorType_INT32, BuiltinOperator_STABLEHLO_MULTIPLY,
      [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      },
      wide, 15);
  auto small = [](std::mt19937& rng) {
    return static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  };
  CheckRandom<int8_t>(
      TensorType_INT8, BuiltinOperator_MAXIMUM, [](int8_t a, int8_t b) { return a >= b ? a : b; },
      small, 10);
  CheckRandom<int8_t>(
      TensorType_INT8, BuiltinOperator_STABLEHLO_MINIMUM,
      [](int8_t a, int8_t b) { return a <= b ? a : b; }, small, 10);
  auto i64 = [](std::mt19937& rng) {
    return static_cast<int64_t>(std::uniform_int_distribution<int>(-1000, 1000)(rng));
  };
  CheckRandom<int64_t>(
      TensorType_INT64, BuiltinOperator_STABLEHLO_ADD, [](int64_t a, int64_t b) { return a + b; },
      i64, 10);
  auto u8 = [](std::mt19937& rng) {
    return static_cast<uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng));
  };
  CheckRandom<uint8_t>(
      TensorType_UINT8, BuiltinOperator_MAXIMUM,
      [](uint8_t a, uint8_t b) { return a >= b ? a : b; }, u8, 10);
  auto i16 = [](std::mt19937& rng) {
    return static_cast<int16_t>(std::uniform_int_distribution<int>(-300, 300)(rng));
  };
  CheckRandom<int16_t>(
      TensorType_INT16, BuiltinOperator_MINIMUM,
      [](int16_t a, int16_t b) { return a <= b ? a : b; }, i16, 10);
  auto f64 = [](std::mt19937& rng) {
    return std::uniform_real_distribution<double>(-2.0, 2.0)(rng);
  };
  CheckRandom<double>(
      TensorType_FLOAT64, BuiltinOperator_STABLEHLO_ADD, [](double a, double b) { return a + b; },
      f64, 10);
}

TEST(StablehloReduceWindow, RandomBoolMatchesTheLoop) {
  // BOOL elements are bytes holding 0 or 1 (uint8_t here: std::vector<bool> packs bits).
  auto value = [](std::mt19937& rng) {
    return static_cast<uint8_t>(std::uniform_int_distribution<int>(0, 3)(rng) != 0);
  };
  auto all = [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a && b); };
  auto any = [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a || b); };
  CheckRandom<uint8_t>(TensorType_BOOL, BuiltinOperator_LOGICAL_AND, all, value, 15);
  CheckRandom<uint8_t>(TensorType_BOOL, BuiltinOperator_STABLEHLO_AND, all, value, 10);
  auto rare = [](std::mt19937& rng) {
    return static_cast<uint8_t>(std::uniform_int_distribution<int>(0, 3)(rng) == 0);
  };
  CheckRandom<uint8_t>(TensorType_BOOL, BuiltinOperator_LOGICAL_OR, any, rare, 15);
  CheckRandom<uint8_t>(TensorType_BOOL, BuiltinOperator_STABLEHLO_OR, any, rare, 10);
}

TEST(StablehloReduceWindow, MaxPoolWithoutPaddingOrDilation) {
  // 2x2 windows, stride 2 over a 4x4 input: the classic max pool, by hand.
  Spec s;
  s.shape = {4, 4};
  s.window_dimensions = {2, 2};
  s.window_strides = {2, 2};
  s.body_ops = {BuiltinOperator_MAXIMUM};
  const std::vector<float> x = {1, 5, 2, 0, 3, 4, 8, 1, -1, -2, 0, 7, -3, -4, 6, 2};
  const Outcome<float> r = RunModel<float>(s, x, -std::numeric_limits<float>::infinity());
  ASSERT_EQ(r.status, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(r.values, (std::vector<float>{5, 8, -1, 7}));
}

TEST(StablehloReduceWindow, WindowLargerThanTheOperandGivesAnEmptyOutput) {
  Spec s;
  s.shape = {2, 3};
  s.window_dimensions = {3, 1};
  const Outcome<float> r = RunModel<float>(s, {1, 2, 3, 4, 5, 6}, 0.f);
  ASSERT_EQ(r.status, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, (std::vector<int>{0, 3}));
  EXPECT_TRUE(r.values.empty());
}

TEST(StablehloReduceWindow, RejectsBadOptionsTypesAndBodies) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<std::pair<Spec, const char*>> cases;
  auto add = [&](const char* message, const std::function<void(Spec&)>& change) {
    Spec s;
    change(s);
    cases.emplace_back(s, message);
  };
  add("window_dimensions[1] must be >= 1, got 0", [](Spec& s) { s.window_dimensions = {1, 0}; });
  add("window_strides[0] must be >= 1, got -1", [](Spec& s) { s.window_strides = {-1, 1}; });
  add("base_dilations[1] must be >= 1, got 0", [](Spec& s) { s.base_dilations = {1, 0}; });
  add("window_dilations[0] must be >= 1, got -3", [](Spec& s) { s.window_dilations = {-3, 1}; });
  add("window_dimensions has more entries than the input rank 2 (entry 2 is 2)", [](Spec& s) {
    s.window_dimensions = {1, 1, 2};
  });
  add("padding has more entries than twice the input rank 2 (entry 4 is 1)",
      [](Spec& s) { s.padding = {0, 0, 0, 0, 1, 0}; });
  add("dimension 1: (2 - 1) * base_dilation 1 + 1 + padding -2 + -1 is not a valid size",
      [](Spec& s) {
        s.padding = {0, 0, -2, -1};
      });
  add("dimension 0:", [&](Spec& s) { s.padding = {kMax, 1, 0, 0}; });
  add("dimension 0:", [&](Spec& s) { s.base_dilations = {kMax / 2, 1}; });
  add("is not a valid size (0 to 2147483647)", [](Spec& s) {
    s.base_dilations = {int64_t{1} << 31, 1};
  });
  add("the dilated and padded operand has more than 2147483647 elements", [](Spec& s) {
    s.padding = {0, 1 << 20, 0, 1 << 20};
  });
  add("the padding leaves an empty operand", [](Spec& s) { s.padding = {-3, 0, 0, 0}; });
  add("body_subgraph_index 5 does not name a subgraph", [](Spec& s) { s.body_index = 5; });
  add("body_subgraph_index -1 does not name a subgraph", [](Spec& s) { s.body_index = -1; });
  add("body_subgraph_index 0 is the calling subgraph itself", [](Spec& s) { s.body_index = 0; });
  add("the body subgraph 1 must hold exactly one operator, it has 2", [](Spec& s) {
    s.body_ops = {BuiltinOperator_ADD, BuiltinOperator_ADD};
  });
  add("the body subgraph 1 must hold exactly one operator, it has 0",
      [](Spec& s) { s.body_ops = {}; });
  add("the body subgraph 1 computes builtin 41, not a supported reduction",
      [](Spec& s) { s.body_ops = {BuiltinOperator_SUB}; });
  add("init value must be FLOAT32, got INT32", [](Spec& s) { s.init_type = TensorType_INT32; });
  add("output must be FLOAT32, got FLOAT16", [](Spec& s) { s.out_type = TensorType_FLOAT16; });
  add("input type COMPLEX64 is not supported", [](Spec& s) {
    s.type = s.init_type = s.out_type = TensorType_COMPLEX64;
    s.body_ops = {BuiltinOperator_STABLEHLO_ADD};
  });
  add("init value must have one element, has 2", [](Spec& s) { s.init_shape = {2}; });
  add("input rank must be in [1, 6], got 7", [](Spec& s) {
    s.shape = {1, 1, 1, 1, 1, 1, 1};
    s.window_dimensions = {};
  });
  add("input rank must be in [1, 6], got 0", [](Spec& s) {
    s.shape = {};
    s.window_dimensions = {};
  });
  add("expected 2 inputs, got 3", [](Spec& s) { s.extra_input = true; });
  for (const auto& [spec, message] : cases) {
    Loaded m(BuildModel(spec));
    std::string error = m.reporter.text;
    if (m.interpreter != nullptr) {
      EXPECT_NE(m.interpreter->AllocateTensors(), kTfLiteOk) << message;
      error = m.reporter.text;
    }
    EXPECT_NE(error.find(message), std::string::npos) << message << " vs " << error;
    EXPECT_NE(error.find("STABLEHLO_REDUCE_WINDOW"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
