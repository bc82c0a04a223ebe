// Unary math: SIN, COS, SQRT, NEG, SQUARE, FLOOR, CEIL, ROUND on float32, plus int32/int64
// NEG as TFLite defines them. ABS, EXP, LOG and RSQRT, which also have quantized forms, are in
// quantized_unary.cc.
#include <cmath>
#include <cstdint>

#include "kernels/reference/elementwise.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/unary_kernel.h"

namespace octet::ops::elementwise {
namespace {

// Named float wrappers: the std:: functions are overload sets.
float Sin(float x) { return std::sin(x); }
float Cos(float x) { return std::cos(x); }
float Sqrt(float x) { return std::sqrt(x); }
float Floor(float x) { return std::floor(x); }
float Ceil(float x) { return std::ceil(x); }

constexpr char kSin[] = "SIN";
constexpr char kCos[] = "COS";
constexpr char kSqrt[] = "SQRT";
constexpr char kNeg[] = "NEG";
constexpr char kSquare[] = "SQUARE";
constexpr char kFloor[] = "FLOOR";
constexpr char kCeil[] = "CEIL";
constexpr char kRound[] = "ROUND";

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;
namespace ref = octet::reference;
using ew::ApplyScalar;
using ew::UnaryRegistration;

TfLiteRegistration *Register_SIN() {
  return UnaryRegistration<ew::kSin, ApplyScalar<float, ew::Sin>>();
}
TfLiteRegistration *Register_COS() {
  return UnaryRegistration<ew::kCos, ApplyScalar<float, ew::Cos>>();
}
TfLiteRegistration *Register_SQRT() {
  return UnaryRegistration<ew::kSqrt, ApplyScalar<float, ew::Sqrt>>();
}
TfLiteRegistration *Register_NEG() {
  return UnaryRegistration<ew::kNeg, ApplyScalar<float, ref::Neg<float>>,
                           ApplyScalar<int32_t, ref::Neg<int32_t>>,
                           ApplyScalar<int64_t, ref::Neg<int64_t>>>();
}
TfLiteRegistration *Register_SQUARE() {
  return UnaryRegistration<ew::kSquare, ApplyScalar<float, ref::Square<float>>>();
}
TfLiteRegistration *Register_FLOOR() {
  return UnaryRegistration<ew::kFloor, ApplyScalar<float, ew::Floor>>();
}
TfLiteRegistration *Register_CEIL() {
  return UnaryRegistration<ew::kCeil, ApplyScalar<float, ew::Ceil>>();
}
TfLiteRegistration *Register_ROUND() {
  return UnaryRegistration<ew::kRound, ApplyScalar<float, ref::RoundHalfToEven>>();
}

}  // namespace tflite::ops::builtin
