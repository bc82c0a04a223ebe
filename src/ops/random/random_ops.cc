// RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL: shape int32 [rank] -> float32 of that shape,
// filled from the node's Philox stream four words per block: uniform as 1.m - 1 floats,
// normal as Box-Muller pairs. As in TFLite the output is sized in prepare when the shape is
// constant (dynamic otherwise), the stream is (re)seeded by prepare and advances across
// invokes, and a block's unused words are dropped. Unlike TFLite (which writes one float past
// the end for an odd element count) the last pair's second value is computed and discarded.
#include "ops/random/random_ops.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <random>
#include <vector>

#include "ops/op_util.h"

namespace octet::ops::random {

PhiloxStream SeedStream(const TfLiteRandomParams& params) {
  int64_t seed = params.seed;
  int64_t seed2 = params.seed2;
  if (seed == 0 && seed2 == 0) {
    // Shared by every node; the lock makes concurrent prepares safe.
    static std::mutex mutex;
    static std::mt19937_64 seeder{std::random_device{}()};
    std::lock_guard<std::mutex> lock(mutex);
    seed = static_cast<int64_t>(seeder());
    seed2 = static_cast<int64_t>(seeder());
  }
  return PhiloxStream(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
}

namespace {

enum class Dist { kUniform, kNormal };

template <Dist D>
constexpr const char* OpName() {
  return D == Dist::kUniform ? "RANDOM_UNIFORM" : "RANDOM_STANDARD_NORMAL";
}

// The output dims the shape tensor asks for, each >= 0 and with an int32 element count.
TfLiteStatus ShapeFromTensor(TfLiteContext* context, const char* op, const TfLiteTensor* shape,
                             std::vector<int>* dims) {
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "shape", shape));
  const int rank = shape->dims->data[0];
  dims->assign(shape->data.i32, shape->data.i32 + rank);
  int64_t elements = 1;
  for (int i = 0; i < rank; ++i) {
    OCTET_OP_ENSURE(context, (*dims)[i] >= 0, op, "shape[%d] is negative (%d)", i, (*dims)[i]);
    elements *= (*dims)[i];
    OCTET_OP_ENSURE(context, elements <= std::numeric_limits<int32_t>::max(), op,
                    "output shape is too large");
  }
  return kTfLiteOk;
}

template <Dist D>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName<D>();
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 1, 1, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, op, node->builtin_data));
  const TfLiteTensor* shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &shape));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  OCTET_OP_ENSURE(context, shape->type == kTfLiteInt32, op, "shape must be INT32, got %s",
                  TfLiteTypeGetName(shape->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(shape) == 1, op, "shape must be 1-D, got rank %d",
                  tflite::NumDimensions(shape));
  OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, op, "output must be FLOAT32, got %s",
                  TfLiteTypeGetName(output->type));
  auto* state = static_cast<RandomState*>(node->user_data);
  state->stream = SeedStream(*static_cast<const TfLiteRandomParams*>(node->builtin_data));
  if (!IsConstantOrPersistent(shape)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(ShapeFromTensor(context, op, shape, &dims));
  return ResizeOutput(context, output, dims);
}

void FillUniform(PhiloxStream* stream, float* out, int64_t n) {
  for (int64_t i = 0; i < n; i += 4) {
    const PhiloxBlock block = stream->Next();
    const int64_t take = std::min<int64_t>(4, n - i);
    for (int64_t j = 0; j < take; ++j) out[i + j] = Uint32ToUnitFloat(block[j]);
  }
}

void FillNormal(PhiloxStream* stream, float* out, int64_t n) {
  for (int64_t i = 0; i < n; i += 4) {
    const PhiloxBlock block = stream->Next();
    const int64_t take = std::min<int64_t>(4, n - i);
    for (int64_t j = 0; j < take; j += 2) {
      float pair[2];
      BoxMullerFloat(block[j], block[j + 1], &pair[0], &pair[1]);
      out[i + j] = pair[0];
      if (j + 1 < take) out[i + j + 1] = pair[1];
    }
  }
}

template <Dist D>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName<D>();
  const TfLiteTensor* shape = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) {
    std::vector<int> dims;
    TF_LITE_ENSURE_STATUS(ShapeFromTensor(context, op, shape, &dims));
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  }
  const int64_t n = tflite::NumElements(output);
  if (n == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", output));
  auto* state = static_cast<RandomState*>(node->user_data);
  if (D == Dist::kUniform) {
    FillUniform(&state->stream, output->data.f, n);
  } else {
    FillNormal(&state->stream, output->data.f, n);
  }
  return kTfLiteOk;
}

template <Dist D>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r =
      MakeRegistration(InitData<RandomState>, FreeData<RandomState>, Prepare<D>, Eval<D>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::random

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RANDOM_UNIFORM() {
  return octet::ops::random::Registration<octet::ops::random::Dist::kUniform>();
}

TfLiteRegistration* Register_RANDOM_STANDARD_NORMAL() {
  return octet::ops::random::Registration<octet::ops::random::Dist::kNormal>();
}

}  // namespace tflite::ops::builtin
