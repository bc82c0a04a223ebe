// STABLEHLO_PAD: input [rank 1..8] and a one-element padding value of its type give, per
// dimension, edge_padding_low values before, interior_padding values between each pair of
// elements and edge_padding_high values after (StablehloPadOptions). Negative edge padding
// crops: elements that land before 0 or past the end are dropped. Output dims are
// d + (d - 1) * interior + low + high. Any fixed-size type, as TFLite (the kernel copies
// bytes). Unlike TFLite, a negative output dim is refused (StableHLO does not allow it;
// TFLite silently gives an empty tensor) and an output with a zero dim keeps its other dims.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/op_util.h"
#include "ops/stablehlo/stablehlo_ops.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_PAD";
constexpr int kMaxRank = TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT;

// Where the input lands in the output, per dimension: input index i goes to output index
// low + i * step; only i in [first, last) land inside the output.
struct Geometry {
  int rank = 0;
  int64_t out_dims[kMaxRank] = {};
  int64_t low[kMaxRank] = {};
  int64_t step[kMaxRank] = {};
  int64_t first[kMaxRank] = {};
  int64_t last[kMaxRank] = {};
};

TfLiteStatus ComputeGeometry(TfLiteContext* context, const TfLiteStablehloPadParams& p,
                             const TfLiteIntArray* dims, Geometry* g) {
  g->rank = dims->size;
  for (int i = 0; i < g->rank; ++i) {
    const int64_t d = dims->data[i], low = p.edge_padding_low[i], high = p.edge_padding_high[i];
    const int64_t interior = p.interior_padding[i];
    OCTET_OP_ENSURE(context, interior >= 0, kOp, "interior_padding[%d] must be >= 0, got %lld", i,
                    static_cast<long long>(interior));
    // d + (d - 1) * interior + low + high, every step checked.
    int64_t size = 0;
    const bool overflow = __builtin_mul_overflow(d > 0 ? d - 1 : 0, interior, &size) ||
                          __builtin_add_overflow(size, d, &size) ||
                          __builtin_add_overflow(size, low, &size) ||
                          __builtin_add_overflow(size, high, &size);
    OCTET_OP_ENSURE(context, !overflow && size >= 0 && size <= std::numeric_limits<int>::max(), kOp,
                    "dimension %d: %lld + (%lld - 1) * %lld + %lld + %lld is not a valid size "
                    "(0 to %d)",
                    i, static_cast<long long>(d), static_cast<long long>(d),
                    static_cast<long long>(interior), static_cast<long long>(low),
                    static_cast<long long>(high), std::numeric_limits<int>::max());
    g->out_dims[i] = size;
    g->low[i] = low;
    g->step[i] = interior + 1;  // cannot overflow: (d - 1) * interior fitted, or d <= 1
    // first: the least i with low + i * step >= 0, i.e. ceil(-low / step), formed without
    // negating low (which may be INT64_MIN).
    g->first[i] = low >= 0 ? 0 : std::min<int64_t>(d, (-(low + 1)) / g->step[i] + 1);
    // last: one past the greatest i with i * step <= size - 1 - low.
    int64_t room = 0;
    if (__builtin_sub_overflow(size - 1, low, &room)) {
      g->last[i] = d;  // only a very negative low overflows: every element fits below the end
    } else {
      g->last[i] = room < 0 ? 0 : std::min<int64_t>(d, room / g->step[i] + 1);
    }
    if (g->last[i] < g->first[i]) g->last[i] = g->first[i];
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteTensor *input, *value;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &value));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, TfLiteTypeGetSize(input->type) > 0, kOp, "type %s is not supported",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, value->type == input->type, kOp, "padding value must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(value->type));
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(value) == 1, kOp,
                  "padding value must have one element, got %lld",
                  static_cast<long long>(tflite::NumElements(value)));
  const int rank = input->dims->size;
  OCTET_OP_ENSURE(context, rank >= 1 && rank <= kMaxRank, kOp,
                  "input rank must be in [1, %d], got %d", kMaxRank, rank);
  auto* g = static_cast<Geometry*>(node->user_data);
  TF_LITE_ENSURE_STATUS(ComputeGeometry(
      context, *static_cast<const TfLiteStablehloPadParams*>(node->builtin_data), input->dims, g));
  std::vector<int> out_dims(rank);
  for (int i = 0; i < rank; ++i) out_dims[i] = static_cast<int>(g->out_dims[i]);
  return ResizeOutput(context, output, out_dims);
}

// Copies the input elements that land inside the output to where they land.
void Scatter(const Geometry& g, const char* in, size_t elem, const TfLiteIntArray* in_dims,
             char* out) {
  const int rank = g.rank;
  int64_t in_strides[kMaxRank], out_strides[kMaxRank];
  int64_t in_s = 1, out_s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_strides[d] = in_s;
    out_strides[d] = out_s;
    in_s *= in_dims->data[d];
    out_s *= g.out_dims[d];
  }
  for (int d = 0; d < rank; ++d) {
    if (g.first[d] >= g.last[d]) return;
  }
  int64_t idx[kMaxRank];
  for (int d = 0; d < rank; ++d) idx[d] = g.first[d];
  const int inner = rank - 1;
  const int64_t run = g.last[inner] - g.first[inner];
  for (;;) {
    int64_t in_off = 0, out_off = 0;
    for (int d = 0; d < inner; ++d) {
      in_off += idx[d] * in_strides[d];
      out_off += (g.low[d] + idx[d] * g.step[d]) * out_strides[d];
    }
    const int64_t i0 = g.first[inner];
    in_off += i0;
    out_off += g.low[inner] + i0 * g.step[inner];
    if (g.step[inner] == 1) {
      std::memcpy(out + out_off * elem, in + in_off * elem, run * elem);
    } else {
      for (int64_t k = 0; k < run; ++k) {
        std::memcpy(out + (out_off + k * g.step[inner]) * elem, in + (in_off + k) * elem, elem);
      }
    }
    int d = inner - 1;  // odometer over the outer dimensions
    for (; d >= 0; --d) {
      if (++idx[d] < g.last[d]) break;
      idx[d] = g.first[d];
    }
    if (d < 0) return;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* value = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int64_t n = tflite::NumElements(output);
  if (n == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "padding value", value));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const auto& g = *static_cast<const Geometry*>(node->user_data);
  const size_t elem = TfLiteTypeGetSize(input->type);
  // Fill with the padding value, doubling the filled prefix.
  char* out = output->data.raw;
  std::memcpy(out, value->data.raw_const, elem);
  for (size_t done = elem, total = static_cast<size_t>(n) * elem; done < total;) {
    const size_t chunk = std::min(done, total - done);
    std::memcpy(out + done, out, chunk);
    done += chunk;
  }
  if (tflite::NumElements(input) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  Scatter(g, input->data.raw_const, elem, input->dims, out);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_PAD() {
  using Geometry = octet::ops::stablehlo::Geometry;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<Geometry>, octet::ops::FreeData<Geometry>,
                                   octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
