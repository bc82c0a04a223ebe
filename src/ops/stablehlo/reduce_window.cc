// STABLEHLO_REDUCE_WINDOW: one operand [rank 1..6] and a one-element init value of its type
// (TFLite's kernel takes exactly one of each, not the spec's variadic form). The operand is
// dilated by base_dilations and padded by padding (low, high per dimension; negative values
// crop), the new elements taking the init value; then per output position the window of
// window_dimensions, stepping window_strides and spaced window_dilations, is reduced from the
// init value in row-major order, as REDUCE_WINDOW does (src/ops/window/reduce_window_kernel.h).
// The reduction is the one operator of body_subgraph_index: ADD, MUL, MAXIMUM, MINIMUM,
// LOGICAL_AND or LOGICAL_OR, or their STABLEHLO_ forms (TFLite's list; the body never runs).
// Types as TFLite: bool, int8, int16, int32, int64, uint8, float32, float64.
// Unlike TFLite: an empty dimension stays empty under base dilation, a negative padded
// dimension is refused, and the options' entries past the input rank must keep their defaults
// (1, or 0 for padding) since the parsed options do not keep the arrays' lengths.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/op_util.h"
#include "ops/scratch.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/subgraph_call.h"
#include "ops/window/reduce_window_kernel.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_REDUCE_WINDOW";
constexpr int kMaxRank = window::kReduceWindowMaxRank;
constexpr int kParamSlots = TFLITE_STABLEHLO_REDUCE_WINDOW_PARAMS_MAX_DIMENSION_COUNT;
constexpr int64_t kMaxDim = std::numeric_limits<int>::max();

enum Input { kInput, kInit };

struct OpData {
  NodeScratch scratch;  // the dilated and padded operand, when it differs from the input
  bool materialize = false;
  int rank = 0;
  int64_t in_dims[kMaxRank] = {};
  int64_t padded_dims[kMaxRank] = {};
  // Where input index i lands in the padded operand: low + i * dilation (low clamped so that
  // the sum cannot overflow; a clamped low still puts every element outside).
  int64_t low[kMaxRank] = {};
  int64_t dilation[kMaxRank] = {};
  TfLiteReduceWindowFunction body = TfLiteReduceWindowFunctionUnsupported;
  window::WindowGeometry geometry;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, 1) != kTfLiteOk) return nullptr;
  return data.release();
}

// Entries [0, rank) of a window attribute must be >= 1, the rest must keep the default 1.
TfLiteStatus CheckAttribute(TfLiteContext* context, const char* name, const int64_t* values,
                            int rank) {
  for (int i = 0; i < rank; ++i) {
    OCTET_OP_ENSURE(context, values[i] >= 1, kOp, "%s[%d] must be >= 1, got %lld", name, i,
                    static_cast<long long>(values[i]));
  }
  for (int i = rank; i < kParamSlots; ++i) {
    OCTET_OP_ENSURE(context, values[i] == 1, kOp,
                    "%s has more entries than the input rank %d (entry %d is %lld)", name, rank, i,
                    static_cast<long long>(values[i]));
  }
  return kTfLiteOk;
}

// The reduction the body subgraph computes, as TFLite recognizes it: its single operator's
// builtin code.
TfLiteStatus FindBody(TfLiteContext* context, int index, TfLiteReduceWindowFunction* body) {
  tflite::Subgraph* g = FindSubgraph(context, kOp, "body_subgraph_index", index);
  if (g == nullptr) return kTfLiteError;
  const std::vector<int>& plan = g->execution_plan();
  OCTET_OP_ENSURE(context, plan.size() == 1, kOp,
                  "the body subgraph %d must hold exactly one operator, it has %zu", index,
                  plan.size());
  const auto* nr = g->node_and_registration(plan[0]);
  OCTET_OP_ENSURE(context, nr != nullptr, kOp, "the body subgraph %d has no operator %d", index,
                  plan[0]);
  switch (nr->second.builtin_code) {
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinStablehloAdd:
      *body = TfLiteReduceWindowFunctionAdd;
      return kTfLiteOk;
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinStablehloMultiply:
      *body = TfLiteReduceWindowFunctionMul;
      return kTfLiteOk;
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinStablehloMaximum:
      *body = TfLiteReduceWindowFunctionMax;
      return kTfLiteOk;
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinStablehloMinimum:
      *body = TfLiteReduceWindowFunctionMin;
      return kTfLiteOk;
    case kTfLiteBuiltinLogicalAnd:
    case kTfLiteBuiltinStablehloAnd:
      *body = TfLiteReduceWindowFunctionAll;
      return kTfLiteOk;
    case kTfLiteBuiltinLogicalOr:
    case kTfLiteBuiltinStablehloOr:
      *body = TfLiteReduceWindowFunctionAny;
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context,
                         "%s: the body subgraph %d computes builtin %d, not a supported "
                         "reduction (ADD, MUL, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR or "
                         "their STABLEHLO_ forms)",
                         kOp, index, nr->second.builtin_code);
      return kTfLiteError;
  }
}

// The padded operand's dims: (d - 1) * dilation + 1 (0 for d = 0) + low + high, each in
// [0, INT_MAX]; and how many elements it has (which also fits an int).
TfLiteStatus ComputePadding(TfLiteContext* context, const TfLiteStablehloReduceWindowParams& p,
                            OpData* data, int64_t* elements) {
  bool any_padding = false;
  *elements = 1;
  for (int i = 0; i < data->rank; ++i) {
    const int64_t d = data->in_dims[i], b = p.base_dilations[i];
    const int64_t lo = p.padding[2 * i], hi = p.padding[2 * i + 1];
    int64_t size = 0;
    const bool overflow = __builtin_mul_overflow(d > 0 ? d - 1 : 0, b, &size) ||
                          __builtin_add_overflow(size, d > 0 ? 1 : 0, &size) || size > kMaxDim ||
                          __builtin_add_overflow(size, lo, &size) ||
                          __builtin_add_overflow(size, hi, &size);
    OCTET_OP_ENSURE(context, !overflow && size >= 0 && size <= kMaxDim, kOp,
                    "dimension %d: (%lld - 1) * base_dilation %lld + 1 + padding %lld + %lld is "
                    "not a valid size (0 to %lld)",
                    i, static_cast<long long>(d), static_cast<long long>(b),
                    static_cast<long long>(lo), static_cast<long long>(hi),
                    static_cast<long long>(kMaxDim));
    any_padding = any_padding || lo != 0 || hi != 0;
    data->padded_dims[i] = size;
    // |low| beyond 2^32 already puts every element outside [0, size): clamping keeps that and
    // keeps low + i * dilation (i * dilation <= INT_MAX) far from overflow.
    constexpr int64_t kClamp = int64_t{1} << 32;
    data->low[i] = std::clamp(lo, -kClamp, kClamp);
    data->dilation[i] = b;
    const bool elements_overflow = __builtin_mul_overflow(*elements, size, elements);
    OCTET_OP_ENSURE(context, !elements_overflow && *elements <= kMaxDim, kOp,
                    "the dilated and padded operand has more than %lld elements",
                    static_cast<long long>(kMaxDim));
  }
  // TFLite fails on a padding that leaves nothing to reduce; so do we, but in prepare.
  OCTET_OP_ENSURE(context, !any_padding || *elements > 0, kOp,
                  "the padding leaves an empty operand");
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  auto* data = static_cast<OpData*>(node->user_data);
  OCTET_OP_ENSURE(context, data != nullptr, kOp, "no node state (init failed)");
  const TfLiteTensor *input, *init;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kInit, &init));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, window::ReduceWindowTypeSupported(input->type), kOp,
                  "input type %s is not supported", TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, init->type == input->type, kOp, "init value must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(init->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(init) == 1, kOp,
                  "init value must have one element, has %lld",
                  static_cast<long long>(tflite::NumElements(init)));
  const int rank = input->dims->size;
  OCTET_OP_ENSURE(context, rank >= 1 && rank <= kMaxRank, kOp,
                  "input rank must be in [1, %d], got %d", kMaxRank, rank);

  const auto& p = *static_cast<const TfLiteStablehloReduceWindowParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, "window_dimensions", p.window_dimensions, rank));
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, "window_strides", p.window_strides, rank));
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, "base_dilations", p.base_dilations, rank));
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, "window_dilations", p.window_dilations, rank));
  for (int i = 2 * rank; i < 2 * kParamSlots; ++i) {
    OCTET_OP_ENSURE(context, p.padding[i] == 0, kOp,
                    "padding has more entries than twice the input rank %d (entry %d is %lld)",
                    rank, i, static_cast<long long>(p.padding[i]));
  }
  TF_LITE_ENSURE_STATUS(FindBody(context, p.body_subgraph_index, &data->body));

  data->rank = rank;
  for (int i = 0; i < rank; ++i) data->in_dims[i] = input->dims->data[i];
  int64_t padded_elements = 0;
  TF_LITE_ENSURE_STATUS(ComputePadding(context, p, data, &padded_elements));
  const bool dilated =
      std::any_of(p.base_dilations, p.base_dilations + rank, [](int64_t b) { return b != 1; });
  const bool padded =
      std::any_of(p.padding, p.padding + 2 * rank, [](int64_t v) { return v != 0; });
  data->materialize = (dilated || padded) && padded_elements > 0;
  if (data->materialize) {
    TF_LITE_ENSURE_STATUS(data->scratch.Prepare(context, node, {{input->type, padded_elements}}));
  } else {
    TF_LITE_ENSURE_STATUS(data->scratch.Prepare(context, node, {}));
  }
  window::ComputeWindowGeometry(rank, data->padded_dims, p.window_dimensions, p.window_strides,
                                p.window_dilations, &data->geometry);
  const int* out = data->geometry.out_dims;
  return ResizeOutput(context, output, std::vector<int>(out, out + rank));
}

// Fills `padded` with the init value and scatters the input into it: input index i lands
// at low + i * dilation per dimension, when that is inside the padded dims.
void DilateAndPad(const OpData& d, const char* input, int64_t input_elements, const char* init,
                  size_t element_size, char* padded) {
  int64_t padded_elements = 1, strides[kMaxRank] = {};
  for (int i = d.rank - 1; i >= 0; --i) {
    strides[i] = padded_elements;
    padded_elements *= d.padded_dims[i];
  }
  for (int64_t k = 0; k < padded_elements; ++k) {
    std::memcpy(padded + k * element_size, init, element_size);
  }
  int64_t index[kMaxRank] = {};
  for (int64_t k = 0; k < input_elements; ++k) {
    int64_t offset = 0;
    bool inside = true;
    for (int i = 0; i < d.rank && inside; ++i) {
      const int64_t at = d.low[i] + index[i] * d.dilation[i];
      inside = at >= 0 && at < d.padded_dims[i];
      if (inside) offset += at * strides[i];
    }
    if (inside) {
      std::memcpy(padded + offset * element_size, input + k * element_size, element_size);
    }
    for (int i = d.rank - 1; i >= 0; --i) {  // odometer over the input
      if (++index[i] < d.in_dims[i]) break;
      index[i] = 0;
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* init = tflite::GetInput(context, node, kInit);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "init value", init));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const void* operand = input->data.raw_const;
  if (data.materialize) {
    char* padded = data.scratch.Data<char>(context, 0);
    OCTET_OP_ENSURE(context, padded != nullptr, kOp, "the padded operand has no memory");
    // init holds exactly one element, so its byte size is the element size.
    DilateAndPad(data, input->data.raw_const, tflite::NumElements(input), init->data.raw_const,
                 init->bytes, padded);
    operand = padded;
  }
  window::ReduceWindow(input->type, data.geometry, data.body, operand, init->data.raw_const,
                       output->data.raw);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_REDUCE_WINDOW() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::stablehlo::Init, octet::ops::FreeData<octet::ops::stablehlo::OpData>,
      octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
