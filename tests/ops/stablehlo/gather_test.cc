// STABLEHLO_GATHER against the StableHLO spec's example (the version without batching dims,
// which TFLite's options cannot express), hand-checked clamping of start indices, a loop in
// the test that applies the spec's formula element by element (result_index -> batch and
// offset index -> clamped start + offset -> operand element) over random shapes and options
// with INT32 and INT64 indices and several element types, a whole model through the loader
// (StablehloGatherOptions), and validation of every option against the shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "subgraph_test_util.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_STABLEHLO_GATHER;

struct Options {
  std::vector<int64_t> offset_dims, collapsed, start_map, slice_sizes;
  int64_t index_vector_dim = 0;
};

TfLiteStablehloGatherParams Params(const Options& o) {
  TfLiteStablehloGatherParams p{};
  auto copy = [](const std::vector<int64_t>& v, int64_t* to, int* n) {
    std::copy(v.begin(), v.end(), to);
    *n = static_cast<int>(v.size());
  };
  copy(o.offset_dims, p.offset_dims, &p.num_offset_dims);
  copy(o.collapsed, p.collapsed_slice_dims, &p.num_collapsed_slice_dims);
  copy(o.start_map, p.start_index_map, &p.num_start_index_map);
  copy(o.slice_sizes, p.slice_sizes, &p.num_slice_sizes);
  p.index_vector_dim = o.index_vector_dim;
  return p;
}

// Runs the kernel; indices are given as int64 and fed as `index_type`.
template <typename T>
std::vector<T> Gather(TfLiteType type, const std::vector<int>& operand_shape,
                      const std::vector<T>& operand, TfLiteType index_type,
                      const std::vector<int>& index_shape, const std::vector<int64_t>& indices,
                      const Options& o, std::vector<int>* result_shape) {
  OpModel m;
  const int x = m.AddInput({type, operand_shape});
  const int i = m.AddInput({index_type, index_shape});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinStablehloGather, Register_STABLEHLO_GATHER(), Params(o));
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(x, operand);
  if (index_type == kTfLiteInt64) {
    m.SetInput(i, indices);
  } else {
    m.SetInput(i, std::vector<int32_t>(indices.begin(), indices.end()));
  }
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  *result_shape = m.GetShape(out);
  return m.GetOutput<T>(out);
}

TEST(StablehloGather, SpecExample) {
  std::vector<int32_t> operand(24);
  std::iota(operand.begin(), operand.end(), 1);
  const std::vector<int64_t> indices = {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 2};
  const Options o = {{2, 3}, {0}, {1, 0}, {1, 2, 2}, 2};
  for (TfLiteType index_type : {kTfLiteInt64, kTfLiteInt32}) {
    std::vector<int> shape;
    const auto result = Gather<int32_t>(kTfLiteInt32, {3, 4, 2}, operand, index_type, {2, 3, 2},
                                        indices, o, &shape);
    EXPECT_EQ(shape, (std::vector<int>{2, 3, 2, 2}));
    EXPECT_EQ(result, (std::vector<int32_t>{1, 2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                            9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20}));
  }
}

TEST(StablehloGather, StartIndicesAreClampedSoTheSliceFits) {
  // Operand [10, 20, 30, 40, 50], slices of 2: a start s reads from clamp(s, 0, 3).
  const std::vector<float> operand = {10, 20, 30, 40, 50};
  const Options o = {{1}, {}, {0}, {2}, 1};
  std::vector<int> shape;
  const auto result = Gather<float>(kTfLiteFloat32, {5}, operand, kTfLiteInt64, {5, 1},
                                    {-7, 0, 2, 4, INT64_MAX}, o, &shape);
  EXPECT_EQ(shape, (std::vector<int>{5, 2}));
  EXPECT_EQ(result, (std::vector<float>{10, 20, 10, 20, 30, 40, 40, 50, 40, 50}));
  // INT32 extremes, a scalar index (index_vector_dim == rank 0) and a collapsed dim.
  const Options scalar = {{}, {0}, {0}, {1}, 0};
  for (int32_t s : {INT32_MIN, -1, 3, INT32_MAX}) {
    const auto one =
        Gather<float>(kTfLiteFloat32, {5}, operand, kTfLiteInt32, {}, {s}, scalar, &shape);
    EXPECT_TRUE(shape.empty());
    EXPECT_EQ(one, (std::vector<float>{s < 0 ? 10.f : s == 3 ? 40.f : 50.f})) << s;
  }
}

TEST(StablehloGather, EmptySlicesGiveAnEmptyResult) {
  std::vector<int> shape;
  const auto result = Gather<int8_t>(kTfLiteInt8, {3, 4}, std::vector<int8_t>(12, 1), kTfLiteInt32,
                                     {2, 1}, {1, 2}, {{1}, {0}, {0}, {1, 0}, 1}, &shape);
  EXPECT_EQ(shape, (std::vector<int>{2, 0}));
  EXPECT_TRUE(result.empty());
}

// The spec's formula, element by element.
template <typename T>
std::vector<T> ReferenceGather(const std::vector<int>& operand_shape, const std::vector<T>& operand,
                               const std::vector<int>& index_shape,
                               const std::vector<int64_t>& indices, const Options& o,
                               std::vector<int>* result_shape) {
  const int index_rank = static_cast<int>(index_shape.size());
  const int64_t ivd = o.index_vector_dim;
  std::vector<int> batch_sizes, offset_sizes;
  for (int d = 0; d < index_rank; ++d) {
    if (d != ivd) batch_sizes.push_back(index_shape[d]);
  }
  for (size_t d = 0; d < operand_shape.size(); ++d) {
    if (std::count(o.collapsed.begin(), o.collapsed.end(), int64_t(d)) == 0) {
      offset_sizes.push_back(static_cast<int>(o.slice_sizes[d]));
    }
  }
  const size_t rank = batch_sizes.size() + offset_sizes.size();
  auto is_offset = [&](size_t r) {
    return std::count(o.offset_dims.begin(), o.offset_dims.end(), int64_t(r)) > 0;
  };
  result_shape->clear();
  for (size_t r = 0, b = 0, s = 0; r < rank; ++r) {
    result_shape->push_back(is_offset(r) ? offset_sizes[s++] : batch_sizes[b++]);
  }
  auto ravel = [](const std::vector<int64_t>& index, const std::vector<int>& shape) {
    int64_t flat = 0;
    for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
    return flat;
  };
  int64_t count = 1;
  for (int d : *result_shape) count *= d;
  std::vector<T> result(count);
  for (int64_t flat = 0; flat < count; ++flat) {
    std::vector<int64_t> result_index(rank);
    for (int64_t rest = flat, r = static_cast<int64_t>(rank) - 1; r >= 0; --r) {
      result_index[r] = rest % (*result_shape)[r];
      rest /= (*result_shape)[r];
    }
    std::vector<int64_t> batch_index, offset_index;
    for (size_t r = 0; r < rank; ++r) {
      (is_offset(r) ? offset_index : batch_index).push_back(result_index[r]);
    }
    std::vector<int64_t> start_index;
    if (ivd < index_rank) {
      for (int k = 0; k < index_shape[ivd]; ++k) {
        std::vector<int64_t> at = batch_index;
        at.insert(at.begin() + ivd, k);
        start_index.push_back(indices[ravel(at, index_shape)]);
      }
    } else {
      start_index.push_back(indices[ravel(batch_index, index_shape)]);
    }
    std::vector<int64_t> operand_index(operand_shape.size(), 0);
    for (size_t k = 0; k < o.start_map.size(); ++k) {
      const int64_t d = o.start_map[k];
      operand_index[d] =
          std::min(std::max<int64_t>(start_index[k], 0), operand_shape[d] - o.slice_sizes[d]);
    }
    for (size_t d = 0, s = 0; d < operand_shape.size(); ++d) {
      if (std::count(o.collapsed.begin(), o.collapsed.end(), int64_t(d)) == 0) {
        operand_index[d] += offset_index[s++];
      }
    }
    result[flat] = operand[ravel(operand_index, operand_shape)];
  }
  return result;
}

// Random valid options for an operand shape.
struct RandomCase {
  std::vector<int> operand_shape, index_shape;
  Options options;
};

RandomCase MakeRandomCase(std::mt19937& rng) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomCase c;
  const int rank = uniform(1, 4);
  for (int d = 0; d < rank; ++d) c.operand_shape.push_back(uniform(1, 4));
  Options& o = c.options;
  for (int d = 0; d < rank; ++d) {
    const bool collapse = uniform(0, 2) == 0;
    if (collapse) o.collapsed.push_back(d);
    o.slice_sizes.push_back(collapse ? 1 : uniform(0, 9) == 0 ? 0 : uniform(1, c.operand_shape[d]));
  }
  const int index_rank = uniform(0, 3);
  o.index_vector_dim = uniform(0, index_rank);
  std::vector<int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  std::shuffle(axes.begin(), axes.end(), rng);
  const int vector_length = o.index_vector_dim == index_rank ? 1 : uniform(0, rank);
  o.start_map.assign(axes.begin(), axes.begin() + vector_length);
  for (int d = 0; d < index_rank; ++d) {
    c.index_shape.push_back(d == o.index_vector_dim ? vector_length : uniform(1, 3));
  }
  const int batch_rank = index_rank - (o.index_vector_dim < index_rank ? 1 : 0);
  const int kept = rank - static_cast<int>(o.collapsed.size());
  std::vector<int64_t> result_axes(batch_rank + kept);
  std::iota(result_axes.begin(), result_axes.end(), 0);
  std::shuffle(result_axes.begin(), result_axes.end(), rng);
  o.offset_dims.assign(result_axes.begin(), result_axes.begin() + kept);
  std::sort(o.offset_dims.begin(), o.offset_dims.end());
  return c;
}

template <typename T>
void CheckRandom(TfLiteType type, std::mt19937& rng, int cases) {
  for (int n = 0; n < cases; ++n) {
    const RandomCase c = MakeRandomCase(rng);
    int64_t operand_count = 1, index_count = 1;
    for (int d : c.operand_shape) operand_count *= d;
    for (int d : c.index_shape) index_count *= d;
    std::vector<T> operand(operand_count);
    for (auto& v : operand) v = static_cast<T>(std::uniform_int_distribution<int>(-100, 100)(rng));
    std::vector<int64_t> indices(index_count);
    for (auto& v : indices) v = std::uniform_int_distribution<int>(-2, 5)(rng);
    const TfLiteType index_type = n % 2 ? kTfLiteInt32 : kTfLiteInt64;
    std::vector<int> want_shape, got_shape;
    const auto want =
        ReferenceGather(c.operand_shape, operand, c.index_shape, indices, c.options, &want_shape);
    const auto got = Gather<T>(type, c.operand_shape, operand, index_type, c.index_shape, indices,
                               c.options, &got_shape);
    ASSERT_EQ(got_shape, want_shape) << "case " << n;
    ASSERT_EQ(got, want) << "case " << n;
  }
}

TEST(StablehloGather, RandomShapesMatchTheSpecFormula) {
  std::mt19937 rng(20261127);
  CheckRandom<float>(kTfLiteFloat32, rng, 150);
  CheckRandom<int8_t>(kTfLiteInt8, rng, 60);
  CheckRandom<uint16_t>(kTfLiteFloat16, rng, 60);  // binary16 bit patterns: copied as is
  CheckRandom<int64_t>(kTfLiteInt64, rng, 60);
  CheckRandom<double>(kTfLiteFloat64, rng, 30);
}

// Valid options with one entry changed to a random (often invalid) value: prepare either
// refuses them with a message or they are valid and the result is the spec's.
TEST(StablehloGather, MutatedOptionsAreRefusedOrFollowTheSpec) {
  std::mt19937 rng(77);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int accepted = 0, refused = 0;
  for (int n = 0; n < 400; ++n) {
    RandomCase c = MakeRandomCase(rng);
    Options& o = c.options;
    std::vector<int64_t>* lists[] = {&o.offset_dims, &o.collapsed, &o.start_map, &o.slice_sizes};
    std::vector<int64_t>& list = *lists[uniform(0, 3)];
    switch (uniform(0, 3)) {
      case 0:
        if (!list.empty()) list[uniform(0, static_cast<int>(list.size()) - 1)] = uniform(-3, 6);
        break;
      case 1:
        list.push_back(uniform(-1, 5));
        break;
      case 2:
        if (!list.empty()) list.pop_back();
        break;
      default:
        o.index_vector_dim = uniform(-2, 5);
    }
    int64_t operand_count = 1, index_count = 1;
    for (int d : c.operand_shape) operand_count *= d;
    for (int d : c.index_shape) index_count *= d;
    std::vector<float> operand(operand_count);
    std::iota(operand.begin(), operand.end(), 0.f);
    std::vector<int64_t> indices(index_count);
    for (auto& v : indices) v = uniform(-2, 5);
    OpModel m;
    const int x = m.AddInput({kTfLiteFloat32, c.operand_shape});
    const int i = m.AddInput({kTfLiteInt64, c.index_shape});
    const int out = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinStablehloGather, Register_STABLEHLO_GATHER(), Params(o));
    if (m.Build() != kTfLiteOk) {
      EXPECT_NE(m.error().find("STABLEHLO_GATHER: "), std::string::npos) << m.error();
      ++refused;
      continue;
    }
    ++accepted;
    m.SetInput(x, operand);
    m.SetInput(i, indices);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    std::vector<int> want_shape;
    const auto want =
        ReferenceGather(c.operand_shape, operand, c.index_shape, indices, o, &want_shape);
    ASSERT_EQ(m.GetShape(out), want_shape) << "case " << n;
    ASSERT_EQ(m.GetOutput<float>(out), want) << "case " << n;
  }
  EXPECT_GT(accepted, 20);
  EXPECT_GT(refused, 100);
}

TEST(StablehloGather, WholeModelThroughTheLoader) {
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(tflite::BuiltinOperator_STABLEHLO_GATHER, 1);
  const int operand = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4, 2}, "operand");
  const int indices = b.AddTensor(tflite::TensorType_INT32, {2, 3, 2}, "indices");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3, 2, 2}, "out");
  format::OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {operand, indices};
  op.outputs = {out};
  const std::vector<int64_t> offset_dims = {2, 3}, collapsed = {0}, start_map = {1, 0},
                             slice_sizes = {1, 2, 2};
  op.options2 = {tflite::BuiltinOptions2_StablehloGatherOptions,
                 tflite::CreateStablehloGatherOptionsDirect(b.fbb(), &offset_dims, &collapsed,
                                                            &start_map, 2, &slice_sizes, false)
                     .Union()};
  b.AddOperator(op);
  b.SetInputs({operand, indices});
  b.SetOutputs({out});
  LoadedModel m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  std::vector<float> x(24);
  std::iota(x.begin(), x.end(), 1.f);
  m.SetInput(0, x);
  m.SetInput<int32_t>(1, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 2});
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(m.OutputShape(0), (std::vector<int>{2, 3, 2, 2}));
  EXPECT_EQ(m.Output<float>(0),
            (std::vector<float>{1, 2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20}));
}

TEST(StablehloGather, RejectsBadInputsAndOptions) {
  struct Case {
    TfLiteType type = kTfLiteFloat32, index_type = kTfLiteInt32, out_type = kTfLiteFloat32;
    std::vector<int> operand_shape = {3, 4, 2}, index_shape = {2, 3, 2};
    Options o = {{2, 3}, {0}, {1, 0}, {1, 2, 2}, 2};
    bool params = true;
    int num_offset_dims = -1;  // >= 0: a hostile count
    const char* message = "";
  };
  std::vector<Case> cases(24);
  cases[0].index_type = kTfLiteFloat32;
  cases[0].message = "start indices must be INT32 or INT64, got FLOAT32";
  cases[1].type = cases[1].out_type = kTfLiteBool;
  cases[1].message = "operand type BOOL is not supported";
  cases[2].out_type = kTfLiteInt32;
  cases[2].message = "output must be FLOAT32, got INT32";
  cases[3].o.slice_sizes = {1, 2};
  cases[3].message = "slice_sizes has 2 entries but the operand has rank 3";
  cases[4].o.collapsed = {};
  cases[4].message = "offset_dims (2) and collapsed_slice_dims (0) must together have an entry";
  cases[5].o.collapsed = {-1};
  cases[5].message = "collapsed_slice_dims[0] = -1 is out of range [0, 3)";
  cases[6].o.collapsed = {3};
  cases[6].message = "collapsed_slice_dims[0] = 3 is out of range [0, 3)";
  cases[7].o.offset_dims = {2};
  cases[7].o.collapsed = {0, 0};
  cases[7].message = "collapsed_slice_dims lists dimension 0 twice";
  cases[8].o.offset_dims = {3};
  cases[8].o.collapsed = {1, 0};
  cases[8].o.slice_sizes = {1, 1, 2};
  cases[8].message = "collapsed_slice_dims must be sorted";
  cases[9].o.start_map = {1, 1};
  cases[9].message = "start_index_map lists dimension 1 twice";
  cases[10].o.start_map = {1, 5};
  cases[10].message = "start_index_map[1] = 5 is out of range [0, 3)";
  cases[11].o.start_map = {1};
  cases[11].message = "start_index_map has 1 entries but the index vectors have 2 elements";
  cases[12].o.slice_sizes = {1, 5, 2};
  cases[12].message = "slice_sizes[1] = 5 is out of range [0, 4]";
  cases[13].o.slice_sizes = {1, -1, 2};
  cases[13].message = "slice_sizes[1] = -1 is out of range [0, 4]";
  cases[14].o.slice_sizes = {0, 2, 2};
  cases[14].message = "slice_sizes[0] must be 1 as dimension 0 is collapsed, got 0";
  cases[15].o.slice_sizes = {2, 2, 2};
  cases[15].message = "slice_sizes[0] must be 1 as dimension 0 is collapsed, got 2";
  cases[16].o.index_vector_dim = -1;
  cases[16].message = "index_vector_dim -1 is out of range [0, 3] for indices of rank 3";
  cases[17].o.index_vector_dim = 4;
  cases[17].message = "index_vector_dim 4 is out of range [0, 3]";
  cases[18].o.index_vector_dim = 3;  // vectors of 1 element, but start_index_map has 2
  cases[18].message = "start_index_map has 2 entries but the index vectors have 1 elements";
  cases[19].o.offset_dims = {2, 4};
  cases[19].message = "offset_dims[1] = 4 is out of range [0, 4)";
  cases[20].o.offset_dims = {3, 2};
  cases[20].message = "offset_dims must be sorted";
  cases[21].params = false;
  cases[21].message = "STABLEHLO_GATHER: builtin options are missing";
  cases[22].num_offset_dims = 1000;
  cases[22].message = "an option list has 1000 entries (0 to 8 allowed)";
  cases[23].operand_shape = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  cases[23].message = "operand rank must be at most 8, got 9";
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.operand_shape});
    m.AddInput({c.index_type, c.index_shape});
    m.AddOutput({c.out_type, {}});
    if (c.params) {
      TfLiteStablehloGatherParams p = Params(c.o);
      if (c.num_offset_dims >= 0) p.num_offset_dims = c.num_offset_dims;
      m.SetBuiltinOp(kTfLiteBuiltinStablehloGather, Register_STABLEHLO_GATHER(), p);
    } else {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloGather, Register_STABLEHLO_GATHER());
    }
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << c.message << " vs " << m.error();
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
