// REAL, IMAG, COMPLEX_ABS against std::complex math (the definition TFLite uses), for
// complex64 and complex128, including values where a naive sqrt(re^2 + im^2) would overflow
// or underflow, and the type / arity validation.
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "spectral_test_util.h"

namespace octet::spectral_test {
namespace {

using tflite::ops::builtin::Register_COMPLEX_ABS;
using tflite::ops::builtin::Register_IMAG;
using tflite::ops::builtin::Register_REAL;

enum class Op { kReal, kImag, kAbs };

const TfLiteRegistration* RegistrationFor(Op op) {
  return op == Op::kReal   ? Register_REAL()
         : op == Op::kImag ? Register_IMAG()
                           : Register_COMPLEX_ABS();
}
int CodeFor(Op op) {
  return op == Op::kReal   ? kTfLiteBuiltinReal
         : op == Op::kImag ? kTfLiteBuiltinImag
                           : kTfLiteBuiltinComplexAbs;
}

template <typename T>
T Want(Op op, std::complex<T> z) {
  return op == Op::kReal ? z.real() : op == Op::kImag ? z.imag() : std::abs(z);
}

// Same bits, NaNs compared as NaNs.
template <typename T>
bool SameValue(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
std::vector<std::complex<T>> Samples() {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T big = std::numeric_limits<T>::max() / 2;
  const T tiny = std::numeric_limits<T>::denorm_min();
  return {{0, 0},      {-0.0, 0},    {3, 4},         {-3, 4},  {1.5, -2.25}, {big, big},
          {-big, big}, {tiny, tiny}, {1e-30, 1e-30}, {inf, 1}, {1, -inf},    {nan, 1},
          {2, nan},    {inf, nan},   {-7, 0},        {0, -7}};
}

template <typename T>
void Check(Op op, TfLiteType in_type, TfLiteType out_type, const std::vector<int>& shape) {
  std::vector<std::complex<T>> data = Samples<T>();
  data.resize(static_cast<size_t>(Count(shape)), std::complex<T>(0.5, -0.25));
  OpModel m;
  const int input = m.AddInput({in_type, shape});
  const int output = m.AddOutput({out_type, {}});
  m.SetBuiltinOp(CodeFor(op), RegistrationFor(op));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), shape);
  m.SetInput(input, data);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<T> got = m.GetOutput<T>(output);
  ASSERT_EQ(got.size(), data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    EXPECT_TRUE(SameValue(got[i], Want(op, data[i])))
        << "op " << static_cast<int>(op) << " z " << data[i] << " got " << got[i];
  }
}

TEST(Spectral_Complex, Complex64ToFloat32) {
  for (Op op : {Op::kReal, Op::kImag, Op::kAbs}) {
    Check<float>(op, kTfLiteComplex64, kTfLiteFloat32, {16});
    Check<float>(op, kTfLiteComplex64, kTfLiteFloat32, {2, 3, 4});
    Check<float>(op, kTfLiteComplex64, kTfLiteFloat32, {});
    Check<float>(op, kTfLiteComplex64, kTfLiteFloat32, {3, 0});
  }
}

TEST(Spectral_Complex, Complex128ToFloat64) {
  for (Op op : {Op::kReal, Op::kImag, Op::kAbs}) {
    Check<double>(op, kTfLiteComplex128, kTfLiteFloat64, {4, 4});
    Check<double>(op, kTfLiteComplex128, kTfLiteFloat64, {1});
  }
}

TEST(Spectral_Complex, AbsHandWorked) {
  OpModel m;
  const int input = m.AddInput({kTfLiteComplex64, {3}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinComplexAbs, Register_COMPLEX_ABS());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<std::complex<float>>(input, {{3, 4}, {-5, 12}, {2e38f, 2e38f}});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<float> got = m.GetOutput<float>(output);
  EXPECT_EQ(got[0], 5.0f);
  EXPECT_EQ(got[1], 13.0f);
  EXPECT_TRUE(std::isfinite(got[2]));  // no overflow in the squares
  EXPECT_NEAR(got[2], 2e38f * std::sqrt(2.0f), 1e32f);
}

TEST(Spectral_Complex, RejectsBadTypes) {
  struct Case {
    Op op;
    TfLiteType in, out;
    const char* message;
  };
  const Case cases[] = {
      {Op::kReal, kTfLiteFloat32, kTfLiteFloat32,
       "REAL: input must be COMPLEX64 or COMPLEX128, got FLOAT32"},
      {Op::kImag, kTfLiteInt32, kTfLiteFloat32,
       "IMAG: input must be COMPLEX64 or COMPLEX128, got INT32"},
      {Op::kAbs, kTfLiteFloat64, kTfLiteFloat64,
       "COMPLEX_ABS: input must be COMPLEX64 or COMPLEX128, got FLOAT64"},
      {Op::kReal, kTfLiteComplex64, kTfLiteFloat64,
       "REAL: output must be FLOAT32 for a COMPLEX64 input, got FLOAT64"},
      {Op::kImag, kTfLiteComplex128, kTfLiteFloat32,
       "IMAG: output must be FLOAT64 for a COMPLEX128 input, got FLOAT32"},
      {Op::kAbs, kTfLiteComplex64, kTfLiteComplex64,
       "COMPLEX_ABS: output must be FLOAT32 for a COMPLEX64 input, got COMPLEX64"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.in, {2, 2}});
    m.AddOutput({c.out, {}});
    m.SetBuiltinOp(CodeFor(c.op), RegistrationFor(c.op));
    ExpectBuildError(m, c.message);
  }
}

TEST(Spectral_Complex, RejectsWrongArity) {
  for (Op op : {Op::kReal, Op::kImag, Op::kAbs}) {
    OpModel m;
    m.AddInput({kTfLiteComplex64, {2}});
    m.AddInput({kTfLiteComplex64, {2}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(CodeFor(op), RegistrationFor(op));
    EXPECT_NE(m.Build(), kTfLiteOk);
  }
}

}  // namespace
}  // namespace octet::spectral_test
