// LSH_PROJECTION: projects the input (input 1, rank >= 1, any fixed-size type; its items are
// the slices along dimension 0) to bits by locality-sensitive hashing with the float seeds of
// hash (input 0, [num_hash, num_bits] float32), each item weighted by the optional weight
// (input 2, [items] float32). Output int32: SPARSE gives [num_hash] signatures (num_bits
// bits each, plus hash_index << num_bits), DENSE gives [num_hash * num_bits] bits. The keys
// are hashed with FarmHash's Fingerprint64 (kernels/reference/fingerprint.h).
#include "kernels/reference/lsh_projection.h"

#include <cstdint>

#include "ops/lookup/lookup_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::ops::lookup {
namespace {

constexpr char kOp[] = "LSH_PROJECTION";

// The optional weight: a third input that is present.
const TfLiteTensor* Weight(TfLiteContext* context, TfLiteNode* node) {
  return tflite::NumInputs(node) == 3 ? tflite::GetOptionalInputTensor(context, node, 2) : nullptr;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 3, 1));
  const auto* params = static_cast<const TfLiteLSHProjectionParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, params));
  const bool sparse = params->type == kTfLiteLshProjectionSparse;
  OCTET_OP_ENSURE(context, sparse || params->type == kTfLiteLshProjectionDense, kOp,
                  "projection type %d is not SPARSE or DENSE", static_cast<int>(params->type));
  const TfLiteTensor *hash, *input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &hash));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "hash (input 0)", hash, 2));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "hash (input 0)", hash, kTfLiteFloat32));
  TF_LITE_ENSURE_STATUS(RequireMinRank(context, kOp, "input (input 1)", input, 1));
  OCTET_OP_ENSURE(context, TfLiteTypeGetSize(input->type) > 0, kOp,
                  "input type %s is not supported (a fixed-size type is hashed by its bytes)",
                  TfLiteTypeGetName(input->type));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "output", output, kTfLiteInt32));
  const int num_hash = hash->dims->data[0];
  const int num_bits = hash->dims->data[1];
  OCTET_OP_ENSURE(context, num_bits <= 32, kOp, "hash %s has more than 32 bits per function",
                  DimsString(hash).c_str());
  if (sparse) {
    // Signatures plus function offsets must fit in 32 bits (TFLite's documented limit).
    OCTET_OP_ENSURE(context, (static_cast<uint64_t>(num_hash) << num_bits) <= (uint64_t{1} << 32),
                    kOp, "sparse projection with hash %s needs num_hash * 2^num_bits <= 2^32",
                    DimsString(hash).c_str());
  }
  if (const TfLiteTensor* weight = Weight(context, node)) {
    TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "weight (input 2)", weight, 1));
    TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "weight (input 2)", weight, kTfLiteFloat32));
    OCTET_OP_ENSURE(context, weight->dims->data[0] == input->dims->data[0], kOp,
                    "weight %s must have one entry per input item (input %s)",
                    DimsString(weight).c_str(), DimsString(input).c_str());
  }
  const int64_t outputs = sparse ? num_hash : int64_t{num_hash} * num_bits;
  OCTET_OP_ENSURE(context, outputs <= INT32_MAX, kOp, "hash %s gives too many outputs",
                  DimsString(hash).c_str());
  return ResizeOutput(context, output, {static_cast<int>(outputs)});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteLSHProjectionParams*>(node->builtin_data);
  const TfLiteTensor* hash = tflite::GetInput(context, node, 0);
  const TfLiteTensor* input = tflite::GetInput(context, node, 1);
  const TfLiteTensor* weight = Weight(context, node);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "hash", hash));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  if (weight) TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "weight", weight));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  reference::LshShape s;
  s.num_hash = hash->dims->data[0];
  s.num_bits = hash->dims->data[1];
  s.items = input->dims->data[0];
  int64_t item_elements = 1;
  for (int k = 1; k < input->dims->size; ++k) item_elements *= input->dims->data[k];
  s.item_bytes = item_elements * static_cast<int64_t>(TfLiteTypeGetSize(input->type));
  const auto* bytes = reinterpret_cast<const uint8_t*>(input->data.raw);
  const float* w = weight ? weight->data.f : nullptr;
  if (params->type == kTfLiteLshProjectionSparse) {
    reference::LshProjectionSparse(s, hash->data.f, bytes, w, output->data.i32);
  } else {
    reference::LshProjectionDense(s, hash->data.f, bytes, w, output->data.i32);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::lookup

namespace tflite::ops::builtin {

TfLiteRegistration* Register_LSH_PROJECTION() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::lookup::Prepare, octet::ops::lookup::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
