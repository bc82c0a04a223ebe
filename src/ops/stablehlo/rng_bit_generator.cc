// STABLEHLO_RNG_BIT_GENERATOR: a uint64 [n] initial_state gives output_state (uint64 [n]) and
// output (int32, int64, uint32 or uint64, its declared shape) filled with random bits by
// counter-based generators (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"):
// - THREEFRY: Threefry2x32-20, n = 2; key = state words 0 and 1, counter = words 2 and 3.
// - PHILOX and DEFAULT: Philox4x32-10, n = 2 or 3; key = words 0 and 1, counter = words 2, 3
//   and then 4, 5 (n = 3) or the key again (n = 2).
// "Words" are the state's bytes read as uint32 in memory order, as TFLite reads them (on a
// little-endian host word 2k is the low half of state[k]). Each block of the generator fills
// the next 2 or 4 uint32 words of the output's bytes (a partial last block is cut), and then
// counter words 0 and 1 advance as one 64-bit number (the higher words never change). The
// output state is the input state with words 0..3 replaced by the key and the advanced counter.
// Validation is done in prepare (TFLite checks the state size at invoke).
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ops/op_util.h"
#include "ops/random/philox.h"
#include "ops/stablehlo/stablehlo_ops.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_RNG_BIT_GENERATOR";

enum Output { kOutputState, kOutput };

// Threefry2x32 with 20 rounds: the key schedule k0, k1, k0 ^ k1 ^ 0x1BD11BDA is injected
// before the first round and after every fourth, with the injection count added to word 1.
std::array<uint32_t, 2> Threefry2x32_20(std::array<uint32_t, 2> x, uint32_t k0, uint32_t k1) {
  constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ 0x1BD11BDAu};
  x[0] += ks[0];
  x[1] += ks[1];
  for (int round = 0; round < 20; ++round) {
    const int r = kRotations[round % 8];
    x[0] += x[1];
    x[1] = (x[1] << r) | (x[1] >> (32 - r));
    x[1] ^= x[0];
    if (round % 4 == 3) {
      const uint32_t s = static_cast<uint32_t>(round / 4 + 1);
      x[0] += ks[s % 3];
      x[1] += ks[(s + 1) % 3] + s;
    }
  }
  return x;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 2));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteTensor* state;
  TfLiteTensor *output_state, *output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &state));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, kOutputState, &output_state));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, kOutput, &output));
  OCTET_OP_ENSURE(context, state->type == kTfLiteUInt64, kOp,
                  "initial_state must be UINT64, got %s", TfLiteTypeGetName(state->type));
  OCTET_OP_ENSURE(context, state->dims->size == 1, kOp, "initial_state must be 1-D, has rank %d",
                  state->dims->size);
  const int n = state->dims->data[0];
  const auto algorithm =
      static_cast<const TfLiteStablehloRngBitGeneratorParams*>(node->builtin_data)->algorithm;
  switch (algorithm) {
    case kTfLiteRngAlgorithmThreefry:
      OCTET_OP_ENSURE(context, n == 2, kOp, "THREEFRY needs an initial_state of 2 values, got %d",
                      n);
      break;
    case kTfLiteRngAlgorithmPhilox:
    case kTfLiteRngAlgorithmDefault:
      OCTET_OP_ENSURE(context, n == 2 || n == 3, kOp,
                      "PHILOX needs an initial_state of 2 or 3 values, got %d", n);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: unknown algorithm %d", kOp, static_cast<int>(algorithm));
      return kTfLiteError;
  }
  OCTET_OP_ENSURE(context, output_state->type == kTfLiteUInt64, kOp,
                  "output_state must be UINT64, got %s", TfLiteTypeGetName(output_state->type));
  OCTET_OP_ENSURE(context, TfLiteIntArrayEqual(output_state->dims, state->dims), kOp,
                  "output_state must have the shape of initial_state [%d]", n);
  OCTET_OP_ENSURE(context,
                  output->type == kTfLiteInt32 || output->type == kTfLiteInt64 ||
                      output->type == kTfLiteUInt32 || output->type == kTfLiteUInt64,
                  kOp, "output must be INT32, INT64, UINT32 or UINT64, got %s",
                  TfLiteTypeGetName(output->type));
  for (int i = 0; i < output->dims->size; ++i) {
    OCTET_OP_ENSURE(context, output->dims->data[i] >= 0, kOp,
                    "output dimension %d is %d: the output needs a static shape", i,
                    output->dims->data[i]);
  }
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, output_state,
                                     std::vector<int>(state->dims->data, state->dims->data + 1)));
  // The output keeps its declared shape.
  return ResizeOutput(
      context, output,
      std::vector<int>(output->dims->data, output->dims->data + output->dims->size));
}

// Writes blocks of `block(counter)` into the `count` uint32 words at `out`, advancing counter words
// 0 and 1 as one 64-bit number after each block.
template <size_t N, typename Block>
void Fill(char* out, int64_t count, std::array<uint32_t, N>* counter, Block block) {
  for (int64_t i = 0; i < count; i += N) {
    const std::array<uint32_t, N> words = block(*counter);
    const int64_t take = count - i < static_cast<int64_t>(N) ? count - i : N;
    std::memcpy(out + i * sizeof(uint32_t), words.data(), take * sizeof(uint32_t));
    if (++(*counter)[0] == 0) ++(*counter)[1];
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* state = tflite::GetInput(context, node, 0);
  TfLiteTensor* output_state = tflite::GetOutput(context, node, kOutputState);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "initial_state", state));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output_state", output_state));
  const int n = state->dims->data[0];
  uint32_t w[6] = {};
  std::memcpy(w, state->data.raw_const, n * sizeof(uint64_t));  // prepare bounds n by 3

  // The output's bytes as uint32 words (one per 32-bit element, two per 64-bit one).
  const int64_t words = static_cast<int64_t>(output->bytes / sizeof(uint32_t));
  if (words > 0) TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  char* out = output->data.raw;
  uint32_t counter_lo, counter_hi;
  const auto algorithm =
      static_cast<const TfLiteStablehloRngBitGeneratorParams*>(node->builtin_data)->algorithm;
  if (algorithm == kTfLiteRngAlgorithmThreefry) {
    std::array<uint32_t, 2> counter = {w[2], w[3]};
    Fill(out, words, &counter,
         [&](const std::array<uint32_t, 2>& c) { return Threefry2x32_20(c, w[0], w[1]); });
    counter_lo = counter[0];
    counter_hi = counter[1];
  } else {
    std::array<uint32_t, 4> counter = {w[2], w[3], w[n == 3 ? 4 : 0], w[n == 3 ? 5 : 1]};
    const random::PhiloxKey key = {w[0], w[1]};
    Fill(out, words, &counter,
         [&](const std::array<uint32_t, 4>& c) { return random::Philox4x32_10(c, key); });
    counter_lo = counter[0];
    counter_hi = counter[1];
  }
  w[2] = counter_lo;
  w[3] = counter_hi;
  std::memcpy(output_state->data.raw, w, n * sizeof(uint64_t));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_RNG_BIT_GENERATOR() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
