// STABLEHLO_SCATTER over models built in code (the update computation is a subgraph): the
// StableHLO spec's example (the version without batching dims, which TFLite's options cannot
// express), the expected outputs of TFLite's own kernel tests for the five computations it
// recognises, a loop in the test that applies the spec's formula to every update element in
// row-major order (skipping targets outside the input) over random shapes, options, types and
// computations, and validation of the options, shapes and update computations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "subgraph_test_util.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using format::ModelBuilder;
using format::OperatorSpec;
using namespace tflite;  // NOLINT: schema names

enum class Region { kAdd, kMul, kMax, kMin, kUpdate, kFirst, kTwoOps, kAnd, kConstArg };

struct Spec {
  TensorType type = TensorType_FLOAT32, index_type = TensorType_INT64;
  TensorType update_type = TensorType_FLOAT32, region_type = TensorType_FLOAT32;
  std::vector<int32_t> input_shape, index_shape, update_shape;
  std::vector<int64_t> update_window_dims, inserted_window_dims, scatter_dims;
  int64_t index_vector_dim = 0;
  Region region = Region::kAdd;
  int region_index = 1;
};

// main: out = SCATTER(input, indices, updates); subgraph 1: the update computation.
std::vector<uint8_t> ScatterModel(const Spec& s) {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_SCATTER);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int mul = b.AddOperatorCode(BuiltinOperator_STABLEHLO_MULTIPLY);
  const int max = b.AddOperatorCode(BuiltinOperator_STABLEHLO_MAXIMUM);
  const int min = b.AddOperatorCode(BuiltinOperator_STABLEHLO_MINIMUM);
  const int logical_and = b.AddOperatorCode(BuiltinOperator_STABLEHLO_AND);
  const int input = b.AddTensor(s.type, s.input_shape, "input");
  const int indices = b.AddTensor(s.index_type, s.index_shape, "indices");
  const int updates = b.AddTensor(s.update_type, s.update_shape, "updates");
  const int out = b.AddTensor(s.type, s.input_shape, "out");
  OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {input, indices, updates};
  op.outputs = {out};
  op.options2 = {BuiltinOptions2_StablehloScatterOptions,
                 CreateStablehloScatterOptionsDirect(b.fbb(), false, &s.update_window_dims,
                                                     &s.inserted_window_dims, &s.scatter_dims,
                                                     s.index_vector_dim, false, s.region_index)
                     .Union()};
  b.AddOperator(op);
  b.SetInputs({input, indices, updates});
  b.SetOutputs({out});

  b.AddSubgraph("update_computation");
  const int lhs = b.AddTensor(s.region_type, {}, "lhs");
  const int rhs = b.AddTensor(s.region_type, {}, "rhs");
  int result = b.AddTensor(s.region_type, {}, "result");
  switch (s.region) {
    case Region::kAdd:
    case Region::kMul:
    case Region::kMax:
    case Region::kMin: {
      const int codes[] = {add, mul, max, min};
      b.AddOperator(codes[static_cast<int>(s.region)], {lhs, rhs}, {result});
      break;
    }
    case Region::kUpdate:
      result = rhs;
      break;
    case Region::kFirst:
      result = lhs;
      break;
    case Region::kTwoOps: {
      const int sum = b.AddTensor(s.region_type, {}, "sum");
      b.AddOperator(add, {lhs, rhs}, {sum});
      b.AddOperator(mul, {sum, rhs}, {result});
      break;
    }
    case Region::kAnd:
      b.AddOperator(logical_and, {lhs, rhs}, {result});
      break;
    case Region::kConstArg: {
      const int one = b.AddConstTensor<float>(s.region_type, {}, {1.f}, "one");
      b.AddOperator(add, {lhs, one}, {result});
      break;
    }
  }
  b.SetInputs({lhs, rhs});
  b.SetOutputs({result});
  return b.Finish();
}

// The spec's example shapes and options (TFLite's kernel tests use them too).
Spec ExampleSpec(TensorType type, Region region) {
  Spec s;
  s.type = s.update_type = s.region_type = type;
  s.input_shape = {3, 4, 2};
  s.index_shape = {2, 3, 2};
  s.update_shape = {2, 3, 2, 2};
  s.update_window_dims = {2, 3};
  s.inserted_window_dims = {0};
  s.scatter_dims = {1, 0};
  s.index_vector_dim = 2;
  s.region = region;
  return s;
}

const std::vector<int64_t> kExampleIndices = {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9};

// Copies `v` into input `i` by bytes (float16 data is held as uint16_t here, which
// typed_input_tensor would refuse).
template <typename T>
void SetBytes(LoadedModel& m, int i, const std::vector<T>& v) {
  TfLiteTensor* t = m.interpreter->input_tensor(i);
  ASSERT_EQ(t->bytes, v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(t->data.raw, v.data(), t->bytes);
}

template <typename T>
std::vector<T> RunScatter(const Spec& s, const std::vector<T>& input,
                          const std::vector<int64_t>& indices, const std::vector<T>& updates) {
  LoadedModel m(ScatterModel(s));
  EXPECT_NE(m.interpreter, nullptr) << m.reporter.text;
  if (m.interpreter == nullptr) return {};
  EXPECT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  SetBytes(m, 0, input);
  if (s.index_type == TensorType_INT64) {
    SetBytes(m, 1, indices);
  } else {
    SetBytes(m, 1, std::vector<int32_t>(indices.begin(), indices.end()));
  }
  SetBytes(m, 2, updates);
  EXPECT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  return m.Output<T>(0);
}

TEST(StablehloScatter, SpecExample) {
  std::vector<int64_t> input(24);
  std::iota(input.begin(), input.end(), 1);
  for (TensorType index_type : {TensorType_INT64, TensorType_INT32}) {
    Spec s = ExampleSpec(TensorType_INT64, Region::kAdd);
    s.index_type = index_type;
    EXPECT_EQ(RunScatter<int64_t>(s, input, kExampleIndices, std::vector<int64_t>(24, 1)),
              (std::vector<int64_t>{1,  2,  5,  6,  7,  8,  7,  8,  10, 11, 12, 13,
                                    14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 23, 24}));
  }
}

// The expected outputs of TFLite's stablehlo_scatter_test.cc (float, updates all 2).
TEST(StablehloScatter, TfliteKernelTestOutputs) {
  std::vector<float> input(24);
  std::iota(input.begin(), input.end(), 1.f);
  const std::vector<float> updates(24, 2.f);
  const std::vector<float> min_or_update = {1, 2, 2, 2, 2, 2, 7, 8, 2,  2,  2,  2,
                                            2, 2, 2, 2, 2, 2, 2, 2, 21, 22, 23, 24};
  const std::pair<Region, std::vector<float>> cases[] = {
      {Region::kAdd,
       {1, 2, 7, 8, 9, 10, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 21, 22, 23, 24}},
      {Region::kMul, {1,  2,  12, 16, 20, 24, 7,  8,  18, 20, 22, 24,
                      26, 28, 30, 32, 34, 36, 38, 40, 21, 22, 23, 24}},
      {Region::kMax, input},
      {Region::kMin, min_or_update},
      {Region::kUpdate, min_or_update},
  };
  for (const auto& [region, want] : cases) {
    EXPECT_EQ(
        RunScatter<float>(ExampleSpec(TensorType_FLOAT32, region), input, kExampleIndices, updates),
        want)
        << static_cast<int>(region);
  }
}

// Windows of 2 into [4] from starts far outside (no overflow) and partly outside: each update
// element is applied or skipped on its own.
TEST(StablehloScatter, TargetsOutsideTheInputAreSkippedPerElement) {
  Spec s;
  s.input_shape = {4};
  s.index_shape = {3, 1};
  s.update_shape = {3, 2};
  s.update_window_dims = {1};
  s.scatter_dims = {0};
  s.index_vector_dim = 1;
  const std::vector<float> input = {0, 1, 2, 3}, updates = {10, 11, 20, 21, 30, 31};
  EXPECT_EQ(RunScatter<float>(s, input, {INT64_MAX, INT64_MIN, 2}, updates),
            (std::vector<float>{0, 1, 2 + 30, 3 + 31}));
  s.index_type = TensorType_INT32;
  EXPECT_EQ(RunScatter<float>(s, input, {-1, 3, 0}, updates),
            (std::vector<float>{0 + 11 + 30, 1 + 31, 2, 3 + 20}));
  EXPECT_EQ(RunScatter<float>(s, input, {INT32_MIN, INT32_MAX, -2}, updates), input);
}

// The spec's formula for every update element in row-major order; `combine(current, update)`.
template <typename T, typename F>
std::vector<T> ReferenceScatter(const Spec& s, std::vector<T> result,
                                const std::vector<int64_t>& indices, const std::vector<T>& updates,
                                F combine) {
  auto ravel = [](const std::vector<int64_t>& index, const std::vector<int32_t>& shape) {
    int64_t flat = 0;
    for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
    return flat;
  };
  auto contains = [](const std::vector<int64_t>& v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  const size_t update_rank = s.update_shape.size(), rank = s.input_shape.size();
  const int64_t index_rank = static_cast<int64_t>(s.index_shape.size());
  for (size_t flat = 0; flat < updates.size(); ++flat) {
    std::vector<int64_t> update_index(update_rank);
    for (int64_t rest = flat, d = static_cast<int64_t>(update_rank) - 1; d >= 0; --d) {
      update_index[d] = rest % s.update_shape[d];
      rest /= s.update_shape[d];
    }
    std::vector<int64_t> scatter_index, window_index;
    for (size_t d = 0; d < update_rank; ++d) {
      (contains(s.update_window_dims, d) ? window_index : scatter_index).push_back(update_index[d]);
    }
    std::vector<int64_t> start_index;
    if (s.index_vector_dim < index_rank) {
      for (int k = 0; k < s.index_shape[s.index_vector_dim]; ++k) {
        std::vector<int64_t> at = scatter_index;
        at.insert(at.begin() + s.index_vector_dim, k);
        start_index.push_back(indices[ravel(at, s.index_shape)]);
      }
    } else {
      start_index.push_back(indices[ravel(scatter_index, s.index_shape)]);
    }
    std::vector<int64_t> result_index(rank, 0);
    for (size_t k = 0; k < s.scatter_dims.size(); ++k)
      result_index[s.scatter_dims[k]] = start_index[k];
    bool inside = true;
    for (size_t d = 0, w = 0; d < rank; ++d) {
      if (!contains(s.inserted_window_dims, d)) result_index[d] += window_index[w++];
      inside = inside && result_index[d] >= 0 && result_index[d] < s.input_shape[d];
    }
    if (inside) {
      T& target = result[ravel(result_index, s.input_shape)];
      target = combine(target, updates[flat]);
    }
  }
  return result;
}

Spec RandomSpec(std::mt19937& rng) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Spec s;
  const int rank = uniform(1, 3);
  for (int d = 0; d < rank; ++d) s.input_shape.push_back(uniform(1, 4));
  std::vector<int> window_axes;
  for (int d = 0; d < rank; ++d) {
    if (uniform(0, 2) == 0) {
      s.inserted_window_dims.push_back(d);
    } else {
      window_axes.push_back(d);
    }
  }
  const int index_rank = uniform(0, 3);
  s.index_vector_dim = uniform(0, index_rank);
  std::vector<int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  std::shuffle(axes.begin(), axes.end(), rng);
  const int vector_length = s.index_vector_dim == index_rank ? 1 : uniform(0, rank);
  s.scatter_dims.assign(axes.begin(), axes.begin() + vector_length);
  std::vector<int32_t> batch_dims;
  for (int d = 0; d < index_rank; ++d) {
    s.index_shape.push_back(d == s.index_vector_dim ? vector_length : uniform(1, 3));
    if (d != s.index_vector_dim) batch_dims.push_back(s.index_shape.back());
  }
  const int update_rank = static_cast<int>(batch_dims.size() + window_axes.size());
  std::vector<int64_t> update_axes(update_rank);
  std::iota(update_axes.begin(), update_axes.end(), 0);
  std::shuffle(update_axes.begin(), update_axes.end(), rng);
  s.update_window_dims.assign(update_axes.begin(), update_axes.begin() + window_axes.size());
  std::sort(s.update_window_dims.begin(), s.update_window_dims.end());
  for (int u = 0, b = 0, w = 0; u < update_rank; ++u) {
    const bool window = std::count(s.update_window_dims.begin(), s.update_window_dims.end(), u) > 0;
    s.update_shape.push_back(window ? uniform(1, s.input_shape[window_axes[w++]])
                                    : batch_dims[b++]);
  }
  return s;
}

template <typename T, typename MakeValue, typename F>
void CheckRandom(std::mt19937& rng, TensorType type, Region region, MakeValue value, F combine,
                 int cases) {
  for (int n = 0; n < cases; ++n) {
    Spec s = RandomSpec(rng);
    s.type = s.update_type = s.region_type = type;
    s.index_type = n % 2 ? TensorType_INT32 : TensorType_INT64;
    s.region = region;
    int64_t input_count = 1, index_count = 1, update_count = 1;
    for (int d : s.input_shape) input_count *= d;
    for (int d : s.index_shape) index_count *= d;
    for (int d : s.update_shape) update_count *= d;
    std::vector<T> input(input_count), updates(update_count);
    for (T& v : input) v = value(rng);
    for (T& v : updates) v = value(rng);
    std::vector<int64_t> indices(index_count);
    for (auto& v : indices) v = std::uniform_int_distribution<int>(-3, 5)(rng);
    const auto want = ReferenceScatter(s, input, indices, updates, combine);
    ASSERT_EQ(RunScatter<T>(s, input, indices, updates), want)
        << "case " << n << " region " << static_cast<int>(region);
  }
}

TEST(StablehloScatter, RandomShapesMatchTheSpecFormula) {
  std::mt19937 rng(1127);
  auto real = [](std::mt19937& g) { return std::uniform_real_distribution<float>(-8, 8)(g); };
  auto byte = [](std::mt19937& g) {
    return static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(g));
  };
  auto small = [](std::mt19937& g) {
    return static_cast<int64_t>(std::uniform_int_distribution<int>(-50, 50)(g));
  };
  CheckRandom<float>(
      rng, TensorType_FLOAT32, Region::kAdd, real, [](float a, float b) { return a + b; }, 60);
  CheckRandom<float>(
      rng, TensorType_FLOAT32, Region::kMul, real, [](float a, float b) { return a * b; }, 40);
  CheckRandom<float>(
      rng, TensorType_FLOAT32, Region::kMax, real, [](float a, float b) { return std::max(a, b); },
      40);
  CheckRandom<float>(
      rng, TensorType_FLOAT32, Region::kUpdate, real, [](float, float b) { return b; }, 40);
  // int8 sums and products wrap modulo 256.
  CheckRandom<int8_t>(
      rng, TensorType_INT8, Region::kAdd, byte,
      [](int8_t a, int8_t b) { return static_cast<int8_t>(uint8_t(a) + uint8_t(b)); }, 40);
  CheckRandom<int8_t>(
      rng, TensorType_INT8, Region::kMul, byte,
      [](int8_t a, int8_t b) { return static_cast<int8_t>(uint8_t(a) * uint8_t(b)); }, 40);
  CheckRandom<int8_t>(
      rng, TensorType_INT8, Region::kMin, byte, [](int8_t a, int8_t b) { return std::min(a, b); },
      40);
  CheckRandom<int64_t>(
      rng, TensorType_INT64, Region::kAdd, small, [](int64_t a, int64_t b) { return a + b; }, 30);
  CheckRandom<int64_t>(
      rng, TensorType_INT64, Region::kMax, small,
      [](int64_t a, int64_t b) { return std::max(a, b); }, 30);
}

// Valid options or shapes with one entry changed to a random (often invalid) value: the model
// is either refused with a message or valid, and then the result is the spec's.
TEST(StablehloScatter, MutatedOptionsAreRefusedOrFollowTheSpec) {
  std::mt19937 rng(4242);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int accepted = 0, refused = 0;
  for (int n = 0; n < 300; ++n) {
    Spec s = RandomSpec(rng);
    std::vector<int64_t>* lists[] = {&s.update_window_dims, &s.inserted_window_dims,
                                     &s.scatter_dims};
    std::vector<int64_t>& list = *lists[uniform(0, 2)];
    switch (uniform(0, 4)) {
      case 0:
        if (!list.empty()) list[uniform(0, static_cast<int>(list.size()) - 1)] = uniform(-3, 6);
        break;
      case 1:
        list.push_back(uniform(-1, 5));
        break;
      case 2:
        if (!list.empty()) list.pop_back();
        break;
      case 3:
        if (!s.update_shape.empty()) {
          s.update_shape[uniform(0, static_cast<int>(s.update_shape.size()) - 1)] = uniform(1, 5);
        }
        break;
      default:
        s.index_vector_dim = uniform(-2, 5);
    }
    int64_t input_count = 1, index_count = 1, update_count = 1;
    for (int d : s.input_shape) input_count *= d;
    for (int d : s.index_shape) index_count *= d;
    for (int d : s.update_shape) update_count *= d;
    std::vector<float> input(input_count), updates(update_count);
    std::iota(input.begin(), input.end(), 0.f);
    std::iota(updates.begin(), updates.end(), 100.f);
    std::vector<int64_t> indices(index_count);
    for (auto& v : indices) v = uniform(-2, 5);
    LoadedModel m(ScatterModel(s));
    ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
    if (m.interpreter->AllocateTensors() != kTfLiteOk) {
      EXPECT_NE(m.reporter.text.find("STABLEHLO_SCATTER: "), std::string::npos) << m.reporter.text;
      ++refused;
      continue;
    }
    ++accepted;
    SetBytes(m, 0, input);
    SetBytes(m, 1, indices);
    SetBytes(m, 2, updates);
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    const auto want =
        ReferenceScatter(s, input, indices, updates, [](float a, float b) { return a + b; });
    ASSERT_EQ(m.Output<float>(0), want) << "case " << n;
  }
  EXPECT_GT(accepted, 20);
  EXPECT_GT(refused, 100);
}

// The float16 bit pattern of an integer of magnitude at most 1024 (all exact in float16).
uint16_t HalfOf(int v) {
  if (v == 0) return 0;
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  const int m = v < 0 ? -v : v;
  int e = 0;
  while ((m >> (e + 1)) != 0) ++e;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | ((m << (10 - e)) & 0x3ff));
}

TEST(StablehloScatter, Float16IsCombinedAsFloat) {
  Spec s = ExampleSpec(TensorType_FLOAT16, Region::kAdd);
  std::vector<int> input_int(24), updates_int(24);
  std::vector<uint16_t> input(24), updates(24);
  for (int i = 0; i < 24; ++i) {
    // No zeros: a product with a zero may be -0, which the int loop cannot express.
    input_int[i] = i < 12 ? i - 12 : i - 11;
    updates_int[i] = (i % 4 < 2) ? i % 4 - 2 : i % 4 - 1;
    input[i] = HalfOf(input_int[i]);
    updates[i] = HalfOf(updates_int[i]);
  }
  // Expected: the same scatter on ints (every result is a small integer, exact in float16).
  const std::pair<Region, int (*)(int, int)> regions[] = {
      {Region::kAdd, [](int a, int b) { return a + b; }},
      {Region::kMul, [](int a, int b) { return a * b; }},
      {Region::kMax, [](int a, int b) { return std::max(a, b); }},
      {Region::kMin, [](int a, int b) { return std::min(a, b); }},
  };
  for (const auto& [region, fn] : regions) {
    s.region = region;
    const auto want_int = ReferenceScatter(s, input_int, kExampleIndices, updates_int, fn);
    std::vector<uint16_t> want(24);
    for (int i = 0; i < 24; ++i) want[i] = HalfOf(want_int[i]);
    EXPECT_EQ(RunScatter<uint16_t>(s, input, kExampleIndices, updates), want)
        << static_cast<int>(region);
  }
  // A sum that float16 cannot hold is rounded to nearest even: 1024 + 1025 = 2049 lies halfway
  // between 2048 (0x6800) and 2050 (0x6801) and gives 2048.
  Spec one;
  one.type = one.update_type = one.region_type = TensorType_FLOAT16;
  one.input_shape = {2};
  one.index_shape = {1};
  one.update_shape = {1};
  one.inserted_window_dims = {0};
  one.scatter_dims = {0};
  one.index_vector_dim = 1;
  EXPECT_EQ(RunScatter<uint16_t>(one, {HalfOf(1024), HalfOf(3)}, {0}, {HalfOf(1025)}),
            (std::vector<uint16_t>{0x6800, HalfOf(3)}));
  EXPECT_EQ(RunScatter<uint16_t>(one, {HalfOf(1024), HalfOf(3)}, {1}, {HalfOf(1025)}),
            (std::vector<uint16_t>{HalfOf(1024), HalfOf(1028)}));
}

// Hostile model parts: each case breaks one thing in the spec example.
TEST(StablehloScatter, RejectsBadModels) {
  struct Case {
    Spec spec;
    const char* message;
  };
  auto with = [](auto change) {
    Spec s = ExampleSpec(TensorType_FLOAT32, Region::kAdd);
    change(s);
    return s;
  };
  const std::vector<Case> cases = {
      {with([](Spec& s) { s.region = Region::kTwoOps; }), "(subgraph 1) has 2 ops"},
      {with([](Spec& s) { s.region = Region::kAnd; }), "runs builtin op"},
      {with([](Spec& s) { s.region = Region::kFirst; }),
       "has no op, so it must return its second argument"},
      {with([](Spec& s) { s.region = Region::kConstArg; }),
       "must apply its op to its two arguments"},
      {with([](Spec& s) { s.region_index = 0; }), "is the calling subgraph itself"},
      {with([](Spec& s) { s.region_index = 5; }), "5 does not name a subgraph"},
      {with([](Spec& s) { s.region_type = TensorType_INT32; }),
       "must take and return FLOAT32 values"},
      {with([](Spec& s) { s.index_type = TensorType_FLOAT32; }),
       "scatter indices must be INT32 or INT64, got FLOAT32"},
      {with([](Spec& s) { s.update_type = TensorType_INT32; }),
       "updates must be FLOAT32, got INT32"},
      {with([](Spec& s) { s.type = s.update_type = s.region_type = TensorType_BOOL; }),
       "input type BOOL is not supported"},
      {with([](Spec& s) {
         s.update_window_dims = {2, 4};
       }),
       "update_window_dims[1] = 4 is out of range [0, 4)"},
      {with([](Spec& s) {
         s.update_window_dims = {3, 2};
       }),
       "update_window_dims must be sorted"},
      {with([](Spec& s) {
         s.update_window_dims = {3};
         s.inserted_window_dims = {0, 0};
       }),
       "inserted_window_dims lists dimension 0 twice"},
      {with([](Spec& s) { s.inserted_window_dims = {-1}; }),
       "inserted_window_dims[0] = -1 is out of range [0, 3)"},
      {with([](Spec& s) {
         s.scatter_dims = {1, 3};
       }),
       "scatter_dims_to_operand_dims[1] = 3 is out of range [0, 3)"},
      {with([](Spec& s) {
         s.scatter_dims = {1, 1};
       }),
       "scatter_dims_to_operand_dims lists dimension 1 twice"},
      {with([](Spec& s) { s.scatter_dims = {1}; }),
       "scatter_dims_to_operand_dims has 1 entries but the index vectors have 2 elements"},
      {with([](Spec& s) { s.index_vector_dim = 5; }), "index_vector_dim 5 is out of range [0, 3]"},
      {with([](Spec& s) { s.index_vector_dim = -2; }), "index_vector_dim -2 is out of range"},
      {with([](Spec& s) { s.update_window_dims = {2}; }),
       "update_window_dims (1) and inserted_window_dims (1) must together"},
      {with([](Spec& s) {
         s.update_shape = {2, 3, 2, 2, 1};
       }),
       "updates have rank 5 but"},
      {with([](Spec& s) {
         s.update_shape = {2, 4, 2, 2};
       }),
       "updates dimension 1 is 4 but the matching indices dimension is 3"},
      {with([](Spec& s) {
         s.update_shape = {2, 3, 5, 2};
       }),
       "updates dimension 2 (a window of 5) is larger than input dimension 1 (4)"},
      {with([](Spec& s) { s.update_window_dims.assign(9, 0); }),
       "StablehloScatterOptions.update_window_dims"},
  };
  for (const Case& c : cases) {
    LoadedModel m(ScatterModel(c.spec));
    const bool failed = m.interpreter == nullptr || m.interpreter->AllocateTensors() != kTfLiteOk;
    EXPECT_TRUE(failed) << c.message;
    EXPECT_NE(m.reporter.text.find(c.message), std::string::npos)
        << c.message << " vs " << m.reporter.text;
  }
}

TEST(StablehloScatter, RejectsHostileCountsAndMissingOptions) {
  for (bool params : {true, false}) {
    octet::testing::OpModel m;
    m.AddInput({kTfLiteFloat32, {3}});
    m.AddInput({kTfLiteInt32, {1}});
    m.AddInput({kTfLiteFloat32, {1}});
    m.AddOutput({kTfLiteFloat32, {}});
    TfLiteStablehloScatterParams p{};
    p.num_update_window_dims = 1000;
    if (params) {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloScatter,
                     tflite::ops::builtin::Register_STABLEHLO_SCATTER(), p);
    } else {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloScatter,
                     tflite::ops::builtin::Register_STABLEHLO_SCATTER());
    }
    EXPECT_NE(m.Build(), kTfLiteOk);
    const char* want = params ? "update_window_dims has 1000 entries (0 to 8 allowed)"
                              : "STABLEHLO_SCATTER: builtin options are missing";
    EXPECT_NE(m.error().find(want), std::string::npos) << m.error();
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
