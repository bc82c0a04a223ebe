// RFFT2D against a naive O(n^2) 2-D DFT in double over the cropped / zero-padded slice
// (exp(-2*pi*i*(u*y/H + v*x/W)), the tf.signal.rfft2d convention), plus validation and the
// static / dynamic output paths.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "spectral_test_util.h"

namespace octet::spectral_test {
namespace {

using tflite::ops::builtin::Register_RFFT2D;
using Complex = std::complex<float>;

// The first fft_w / 2 + 1 columns of the 2-D DFT of each [in_h, in_w] slice read as
// [fft_h, fft_w] (entries outside the input are zero, inputs beyond fft_length are ignored).
std::vector<std::complex<double>> NaiveRfft2d(const std::vector<float>& in,
                                              const std::vector<int>& dims, int fft_h, int fft_w) {
  const int rank = static_cast<int>(dims.size());
  const int in_h = dims[rank - 2], in_w = dims[rank - 1];
  int64_t lead = 1;  // the number of slices
  for (int i = 0; i < rank - 2; ++i) lead *= dims[i];
  const int out_w = fft_w / 2 + 1;
  const double kPi = 3.14159265358979323846;
  std::vector<std::complex<double>> out;
  for (int64_t s = 0; s < lead; ++s) {
    for (int u = 0; u < fft_h; ++u) {
      for (int v = 0; v < out_w; ++v) {
        std::complex<double> sum = 0;
        for (int y = 0; y < std::min(in_h, fft_h); ++y) {
          for (int x = 0; x < std::min(in_w, fft_w); ++x) {
            const double value = in[(s * in_h + y) * in_w + x];
            const double angle =
                -2 * kPi *
                (static_cast<double>(u) * y / fft_h + static_cast<double>(v) * x / fft_w);
            sum += value * std::complex<double>(std::cos(angle), std::sin(angle));
          }
        }
        out.push_back(sum);
      }
    }
  }
  return out;
}

std::vector<int> OutputDims(std::vector<int> dims, int fft_h, int fft_w) {
  dims[dims.size() - 2] = fft_h;
  dims[dims.size() - 1] = fft_w / 2 + 1;
  return dims;
}

// Runs RFFT2D and compares with the naive DFT: each value within 1e-5 of the largest
// magnitude in its slice (the output is rounded to float from double work).
void Check(const std::vector<int>& dims, int fft_h, int fft_w, bool const_length, uint32_t seed) {
  SCOPED_TRACE(::testing::Message()
               << "dims rank " << dims.size() << " last " << dims.end()[-2] << "x" << dims.back()
               << " fft " << fft_h << "x" << fft_w << (const_length ? " const" : " dynamic"));
  std::mt19937 rng(seed);
  const std::vector<float> data = RandomFloats(&rng, Count(dims), -2.0f, 2.0f);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, dims});
  int length = -1;
  if (const_length) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {fft_h, fft_w});
  } else {
    length = m.AddInput({kTfLiteInt32, {2}});
  }
  const int output = m.AddOutput({kTfLiteComplex64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, output), !const_length);
  if (const_length) {
    EXPECT_EQ(m.GetShape(output), OutputDims(dims, fft_h, fft_w));
  }
  m.SetInput(input, data);
  if (!const_length) m.SetInput<int32_t>(length, {fft_h, fft_w});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), OutputDims(dims, fft_h, fft_w));
  const std::vector<Complex> got = m.GetOutput<Complex>(output);
  const std::vector<std::complex<double>> want = NaiveRfft2d(data, dims, fft_h, fft_w);
  ASSERT_EQ(got.size(), want.size());
  const size_t slice = static_cast<size_t>(fft_h) * (fft_w / 2 + 1);
  for (size_t start = 0; start < want.size(); start += slice) {
    double scale = 1.0;
    for (size_t i = start; i < start + slice; ++i) scale = std::max(scale, std::abs(want[i]));
    for (size_t i = start; i < start + slice; ++i) {
      EXPECT_NEAR(got[i].real(), want[i].real(), 1e-5 * scale) << "at " << i;
      EXPECT_NEAR(got[i].imag(), want[i].imag(), 1e-5 * scale) << "at " << i;
    }
  }
}

TEST(Spectral_Rfft2d, HandWorked2x2) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {2, 2}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, 2});
  const int output = m.AddOutput({kTfLiteComplex64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {1, 2, 3, 4});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), (std::vector<int>{2, 2}));
  // Sum; column difference; row difference; both.
  EXPECT_EQ(m.GetOutput<Complex>(output),
            (std::vector<Complex>{{10, 0}, {-2, 0}, {-4, 0}, {0, 0}}));
}

TEST(Spectral_Rfft2d, HandWorkedImaginaryParts) {
  // One row [0, 1, 0, 0]: X[v] = exp(-2*pi*i*v/4) = 1, -i, -1 for v = 0, 1, 2.
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 4}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {1, 4});
  const int output = m.AddOutput({kTfLiteComplex64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {0, 1, 0, 0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<Complex> got = m.GetOutput<Complex>(output);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_NEAR(got[0].real(), 1, 1e-7);
  EXPECT_NEAR(got[0].imag(), 0, 1e-7);
  EXPECT_NEAR(got[1].real(), 0, 1e-7);
  EXPECT_NEAR(got[1].imag(), -1, 1e-7);
  EXPECT_NEAR(got[2].real(), -1, 1e-7);
  EXPECT_NEAR(got[2].imag(), 0, 1e-7);
}

TEST(Spectral_Rfft2d, ExactSizes) {
  Check({4, 4}, 4, 4, true, 1);
  Check({8, 16}, 8, 16, true, 2);
  Check({32, 8}, 32, 8, true, 3);
  Check({2, 64}, 2, 64, true, 4);
  Check({16, 2}, 16, 2, true, 5);
}

TEST(Spectral_Rfft2d, CropAndPad) {
  Check({5, 7}, 4, 4, true, 11);    // crop both
  Check({3, 3}, 8, 8, true, 12);    // pad both
  Check({10, 3}, 8, 16, true, 13);  // crop rows, pad columns
  Check({3, 20}, 16, 8, true, 14);  // pad rows, crop columns
  Check({1, 1}, 4, 8, true, 15);    // a single value spreads everywhere
  Check({6, 9}, 1, 1, true, 16);    // only the top-left value survives
  Check({4, 4}, 1, 8, true, 17);    // length-1 dimension
  Check({4, 4}, 8, 1, true, 18);
}

TEST(Spectral_Rfft2d, BatchDims) {
  Check({3, 4, 8}, 4, 8, true, 21);
  Check({2, 3, 5, 6}, 8, 4, true, 22);
  Check({2, 1, 2, 7, 9}, 4, 16, true, 23);
}

TEST(Spectral_Rfft2d, RandomShapes) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> dim(1, 12), log2(0, 5), batch(0, 2);
  for (int trial = 0; trial < 25; ++trial) {
    std::vector<int> dims;
    for (int b = batch(rng); b > 0; --b) dims.push_back(dim(rng) % 3 + 1);
    dims.push_back(dim(rng));
    dims.push_back(dim(rng));
    Check(dims, 1 << log2(rng), 1 << log2(rng), trial % 2 == 0, 100 + trial);
  }
}

TEST(Spectral_Rfft2d, DynamicFftLength) {
  Check({3, 5}, 4, 8, false, 31);
  Check({2, 6, 6}, 8, 2, false, 32);
}

TEST(Spectral_Rfft2d, EmptyInputs) {
  // No slices: empty output. Empty slices: zero-padded, so all-zero output.
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {0, 3, 3}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {4, 4});
    const int output = m.AddOutput({kTfLiteComplex64, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(output), (std::vector<int>{0, 4, 3}));
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {2, 0, 3}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, 4});
    const int output = m.AddOutput({kTfLiteComplex64, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(output), (std::vector<int>{2, 2, 3}));
    EXPECT_EQ(m.GetOutput<Complex>(output), std::vector<Complex>(12));
  }
}

struct BadCase {
  TfLiteType input_type;
  std::vector<int> input_dims;
  TfLiteType length_type;
  std::vector<int> length_dims;
  std::vector<int32_t> length;
  TfLiteType output_type;
  const char* message;
};

TEST(Spectral_Rfft2d, PrepareRejects) {
  const BadCase cases[] = {
      {kTfLiteInt32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {4, 4},
       kTfLiteComplex64,
       "RFFT2D: input must be FLOAT32, got INT32"},
      {kTfLiteFloat32,
       {8},
       kTfLiteInt32,
       {2},
       {4, 4},
       kTfLiteComplex64,
       "RFFT2D: input must have rank >= 2, got 1"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt64,
       {2},
       {4, 4},
       kTfLiteComplex64,
       "RFFT2D: fft_length must be INT32, got INT64"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {3},
       {4, 4, 4},
       kTfLiteComplex64,
       "RFFT2D: fft_length must have shape [2]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {1, 2},
       {4, 4},
       kTfLiteComplex64,
       "RFFT2D: fft_length must have shape [2]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {4, 4},
       kTfLiteFloat32,
       "RFFT2D: output must be COMPLEX64, got FLOAT32"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {3, 4},
       kTfLiteComplex64,
       "RFFT2D: fft_length must be powers of two, got [3, 4]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {4, 6},
       kTfLiteComplex64,
       "fft_length must be powers of two, got [4, 6]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {0, 4},
       kTfLiteComplex64,
       "fft_length must be powers of two, got [0, 4]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {4, -4},
       kTfLiteComplex64,
       "fft_length must be powers of two, got [4, -4]"},
      {kTfLiteFloat32,
       {4, 4},
       kTfLiteInt32,
       {2},
       {4, INT32_MIN},
       kTfLiteComplex64,
       "fft_length must be powers of two"},
      {kTfLiteFloat32,
       {2, 4, 4},
       kTfLiteInt32,
       {2},
       {1 << 30, 1 << 20},
       kTfLiteComplex64,
       "RFFT2D: output for fft_length [1073741824, 1048576] is too large"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.message);
    OpModel m;
    m.AddInput({c.input_type, c.input_dims});
    if (c.length_type == kTfLiteInt32) {
      m.AddConstInput<int32_t>({c.length_type, c.length_dims}, c.length);
    } else {
      std::vector<int64_t> wide(c.length.begin(), c.length.end());
      m.AddConstInput<int64_t>({c.length_type, c.length_dims}, wide);
    }
    m.AddOutput({c.output_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
    ExpectBuildError(m, c.message);
  }
}

TEST(Spectral_Rfft2d, DynamicLengthRejectedAtInvoke) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {4, 4}});
  const int length = m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteComplex64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(length, {4, 12});
  ExpectInvokeError(m, "RFFT2D: fft_length must be powers of two, got [4, 12]");
}

TEST(Spectral_Rfft2d, ArityChecked) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {4, 4}});
  m.AddOutput({kTfLiteComplex64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRfft2d, Register_RFFT2D());
  ExpectBuildError(m, "RFFT2D");
}

}  // namespace
}  // namespace octet::spectral_test
