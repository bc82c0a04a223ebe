// FAKE_QUANT against TensorFlow's FakeQuantWithMinMaxArgs definition written out here
// (nudge the range so zero is a grid point, clamp, round half away from zero, dequantize),
// compared bit for bit, plus prepare-time validation.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "spectral_test_util.h"

namespace octet::spectral_test {
namespace {

using tflite::ops::builtin::Register_FAKE_QUANT;

// TensorFlow's definition, all in float: scale = (max - min) / (2^bits - 1); the zero point
// min/scale below 0 is rounded and clamped to the grid, giving the nudged range; the input
// is clamped to it, shifted, multiplied by 1/scale, rounded, and mapped back.
float Expected(float x, float min, float max, int num_bits) {
  const float qmax = static_cast<float>((1 << num_bits) - 1);
  const float scale = (max - min) / qmax;
  const float zero_real = 0.0f - min / scale;
  float zero = zero_real < 0.0f ? 0.0f : zero_real > qmax ? qmax : std::round(zero_real);
  const float lo = (0.0f - zero) * scale;
  const float hi = (qmax - zero) * scale;
  if (std::isnan(x)) x = lo;  // TFLite's max-then-min clamp sends NaN to the low end.
  const float c = x < lo ? lo : (x > hi ? hi : x);
  const float inv = 1.0f / scale;
  const float q = std::round((c - lo) * inv);
  const float scaled = q * scale;
  return scaled + lo;
}

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

std::vector<float> RunFakeQuant(const std::vector<float>& in, float min, float max, int num_bits,
                                const std::vector<int>& shape) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, shape});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteFakeQuantParams p{min, max, num_bits, false};
  m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), p);
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), shape);
  m.SetInput(input, in);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  return m.GetOutput<float>(output);
}

void CheckBitExact(const std::vector<float>& in, float min, float max, int num_bits) {
  const std::vector<float> got =
      RunFakeQuant(in, min, max, num_bits, {static_cast<int>(in.size())});
  ASSERT_EQ(got.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const float want = Expected(in[i], min, max, num_bits);
    EXPECT_EQ(Bits(got[i]), Bits(want))
        << "x " << in[i] << " range [" << min << ", " << max << "] bits " << num_bits << ": got "
        << got[i] << " want " << want;
  }
}

// Values probing the grid of (min, max, bits): the ends, each side of them, grid points,
// midpoints (ties) and points just off them, plus random values over a wider span.
std::vector<float> Probes(float min, float max, int num_bits, std::mt19937* rng) {
  const float step = (max - min) / static_cast<float>((1 << num_bits) - 1);
  std::vector<float> v = {min,
                          max,
                          0.0f,
                          -0.0f,
                          min - step,
                          max + step,
                          min - 1e6f,
                          max + 1e6f,
                          std::nextafter(min, -1e30f),
                          std::nextafter(max, 1e30f),
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};
  for (int k = 0; k < 40; ++k) {
    const float g = min + step * static_cast<float>(k % ((1 << num_bits)));
    const float mid = g + 0.5f * step;
    v.insert(v.end(), {g, mid, std::nextafter(mid, -1e30f), std::nextafter(mid, 1e30f)});
  }
  const std::vector<float> r = RandomFloats(rng, 200, min - 2 * step, max + 2 * step);
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

TEST(Spectral_FakeQuant, HandWorkedNoNudge) {
  // [-10, 53.75] with 8 bits: step 0.25, zero point exactly 40, no nudge.
  const std::vector<float> got =
      RunFakeQuant({-10.1f, -10.0f, -9.9f, -9.875f, -9.75f, 0.1f, 0.125f, 53.75f, 53.8f}, -10.0f,
                   53.75f, 8, {9});
  // -9.875 and 0.125 are ties: rounding goes away from zero (up, in shifted units).
  EXPECT_EQ(got, (std::vector<float>{-10.0f, -10.0f, -10.0f, -9.75f, -9.75f, 0.0f, 0.25f, 53.75f,
                                     53.75f}));
}

TEST(Spectral_FakeQuant, HandWorkedNudges) {
  // [-0.1, 63.65]: step 0.25, zero point 0.4 rounds to 0, so the range nudges up to
  // [0, 63.75].
  EXPECT_EQ(RunFakeQuant({-0.1f, 0.0f, 0.1f, 0.125f, 63.65f, 63.8f}, -0.1f, 63.65f, 8, {6}),
            (std::vector<float>{0.0f, 0.0f, 0.0f, 0.25f, 63.75f, 63.75f}));
  // [1, 3] excludes zero: the zero point clamps to 0 and the range becomes [0, 2].
  const std::vector<float> got = RunFakeQuant({-1.0f, 0.0f, 0.5f, 3.0f}, 1.0f, 3.0f, 2, {2, 2});
  EXPECT_EQ(got[0], 0.0f);
  EXPECT_EQ(got[1], 0.0f);
  EXPECT_EQ(got[3], Expected(3.0f, 1.0f, 3.0f, 2));
  EXPECT_NEAR(got[3], 2.0f, 1e-6f);
  // [-3, -1] likewise ends at zero: [-2, 0].
  EXPECT_EQ(RunFakeQuant({-5.0f, 5.0f}, -3.0f, -1.0f, 2, {2})[1], 0.0f);
}

TEST(Spectral_FakeQuant, BitExactAcrossBitsAndRanges) {
  std::mt19937 rng(7);
  const float ranges[][2] = {{-1.0f, 1.0f},   {0.0f, 1.0f},      {-1.0f, 0.0f},   {-0.1f, 63.65f},
                             {-6.0f, 6.0f},   {-0.3f, 0.7f},     {0.5f, 2.0f},    {-9.0f, -2.0f},
                             {-1e-3f, 3e-3f}, {-12345.6f, 7.5f}, {-1e30f, 1e30f}, {-3.3f, 1e-7f}};
  for (int bits = 2; bits <= 16; ++bits) {
    for (const auto& r : ranges) {
      SCOPED_TRACE(bits);
      CheckBitExact(Probes(r[0], r[1], bits, &rng), r[0], r[1], bits);
    }
  }
}

TEST(Spectral_FakeQuant, NanAndInfinities) {
  // NaN lands on the nudged min; infinities clamp to the ends.
  const std::vector<float> got =
      RunFakeQuant({std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()},
                   -10.0f, 53.75f, 8, {3});
  EXPECT_EQ(got, (std::vector<float>{-10.0f, 53.75f, -10.0f}));
}

TEST(Spectral_FakeQuant, ShapesPreserved) {
  EXPECT_TRUE(RunFakeQuant({}, -1.0f, 1.0f, 8, {0, 3}).empty());
  EXPECT_EQ(RunFakeQuant({0.3f}, -1.0f, 1.0f, 8, {}).size(), 1u);
  EXPECT_EQ(RunFakeQuant(std::vector<float>(24, 0.5f), -1.0f, 1.0f, 8, {2, 3, 4}).size(), 24u);
}

void ExpectParamsRejected(float min, float max, int num_bits, bool narrow,
                          const std::string& message) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {4}});
  m.AddOutput({kTfLiteFloat32, {}});
  TfLiteFakeQuantParams p{min, max, num_bits, narrow};
  m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), p);
  ExpectBuildError(m, message);
}

TEST(Spectral_FakeQuant, RejectsBadParams) {
  ExpectParamsRejected(-1, 1, 8, true, "FAKE_QUANT: narrow_range is not supported");
  ExpectParamsRejected(-1, 1, 1, false, "FAKE_QUANT: num_bits must be in [2, 16], got 1");
  ExpectParamsRejected(-1, 1, 0, false, "num_bits must be in [2, 16], got 0");
  ExpectParamsRejected(-1, 1, 17, false, "num_bits must be in [2, 16], got 17");
  ExpectParamsRejected(-1, 1, 31, false, "num_bits must be in [2, 16], got 31");
  ExpectParamsRejected(2, 1, 8, false, "min must be smaller than max, got [2, 1]");
  ExpectParamsRejected(1, 1, 8, false, "min must be smaller than max");
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ExpectParamsRejected(-inf, 1, 8, false, "min and max must be finite");
  ExpectParamsRejected(-1, inf, 8, false, "min and max must be finite");
  ExpectParamsRejected(nan, 1, 8, false, "min and max must be finite");
  ExpectParamsRejected(-3e38f, 3e38f, 8, false, "is too wide");
}

TEST(Spectral_FakeQuant, RejectsBadTensors) {
  TfLiteFakeQuantParams p{-1, 1, 8, false};
  {
    OpModel m;
    m.AddInput({kTfLiteInt8, {4}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), p);
    ExpectBuildError(m, "FAKE_QUANT: input must be FLOAT32, got INT8");
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {4}});
    m.AddOutput({kTfLiteFloat64, {}});
    m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), p);
    ExpectBuildError(m, "FAKE_QUANT: output must be FLOAT32, got FLOAT64");
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {4}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT());  // no options
    ExpectBuildError(m, "FAKE_QUANT: builtin options are missing");
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {4}});
    m.AddInput({kTfLiteFloat32, {4}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), p);
    ExpectBuildError(m, "FAKE_QUANT");
  }
}

}  // namespace
}  // namespace octet::spectral_test
