// int16 EXP, LOG and RSQRT, run on every int16 input for a few scale choices and checked two
// ways:
//  - against TFLite's arithmetic written out here step by step: the table of
//    detail::LUTPopulateInt16<float> (tensorflow/lite/kernels/internal/common.h) with the
//    transforms of tensorflow/lite/kernels/exp.cc (std::exp) and elementwise.cc (LOG: log, x <= 0
//    giving (-32768 - zp) * scale; RSQRT: 1 / sqrt, x <= 0 giving 32767 * scale), read through
//    LUTLookup(int16_t), so a wrong table entry or interpolation shows;
//  - against the real function in double, within what a 512-segment linear interpolation can
//    miss by, wherever the result is representable.
// TFLite 2.12 (the WASM build behind other goldens) has no int16 kernel for any of the three
// (EXP/LOG v2 and RSQRT v3 are refused at load). The goldens below come instead from TFLite's
// own table code: LUTPopulate<int16_t> and LUTLookup taken unchanged from common.h (tflite-micro
// commit 90b983c2), compiled with g++ on x86-64 and called with exp.cc's and elementwise.cc's
// transforms, on 256 inputs each.
// Then prepare's checks and RSQRT's invoke-time refusal of negative inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"
#include "util/golden_hex.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;

enum class Fn { kExp, kLog, kRsqrt };

struct OpCase {
  Fn fn;
  const TfLiteRegistration *reg;
  int code;
};

OpCase Case(Fn fn) {
  switch (fn) {
    case Fn::kExp:
      return {fn, builtin::Register_EXP(), kTfLiteBuiltinExp};
    case Fn::kLog:
      return {fn, builtin::Register_LOG(), kTfLiteBuiltinLog};
    case Fn::kRsqrt:
      break;
  }
  return {fn, builtin::Register_RSQRT(), kTfLiteBuiltinRsqrt};
}

// The transform TFLite hands its table builder, in float (zero points are 0).
std::function<float(float)> TfliteTransform(Fn fn, float output_scale) {
  switch (fn) {
    case Fn::kExp:
      return [](float x) { return std::exp(x); };
    case Fn::kLog: {
      const float lowest = -32768 * output_scale;
      return [lowest](float x) { return x <= 0.0f ? lowest : std::log(x); };
    }
    case Fn::kRsqrt:
      break;
  }
  const float highest = 32767 * output_scale;
  return [highest](float x) { return x <= 0.0f ? highest : 1.0f / std::sqrt(x); };
}

// float -> int16 as TFLite's table builder ends: clamp, then convert. A NaN gets through the
// clamp there and its conversion is undefined; x86 (and WASM) give 0.
int16_t ToTableEntry(float v) {
  if (v != v) return 0;
  if (v < -32768.0f) return -32768;
  if (v > 32767.0f) return 32767;
  return static_cast<int16_t>(v);
}

// LUTPopulateInt16<float> with both zero points 0, every operation in float as there.
std::vector<int16_t> TfliteTable(float si, float so, const std::function<float(float)> &f) {
  const float in_lo = si * -32768.0f, in_hi = si * 32767.0f;
  const float out_lo = so * -32768.0f, out_hi = so * 32767.0f;
  const float step = (in_hi - in_lo) / 512;
  const float half = step / 2;
  const float inv = 65536.0f / (out_hi - out_lo);
  std::vector<int16_t> table(513);
  for (int i = 0; i < 512; ++i) {
    const float left = std::round(f(in_lo + i * step) * inv);
    const float right = f(in_lo + (i + 1) * step) * inv;
    const float midpoint_by_line = std::round((right + left) / 2);
    const float midpoint_true = std::round(f(in_lo + i * step + half) * inv);
    table[i] = ToTableEntry(left - std::round((midpoint_by_line - midpoint_true) / 2));
  }
  table[512] = ToTableEntry(std::round(f(in_hi) * inv));
  return table;
}

// LUTLookup(int16_t): segment (q + 32768) / 128, position (q + 32768) % 128; the slope is
// kept in int16 and the interpolated step rounded half up.
int16_t TfliteLookup(const std::vector<int16_t> &table, int16_t q) {
  const int segment = (q + 32768) / 128, position = (q + 32768) % 128;
  const int16_t slope = static_cast<int16_t>(table[segment + 1] - table[segment]);
  const int delta = static_cast<int>(std::floor((slope * position + 64) / 128.0));
  return static_cast<int16_t>(table[segment] + delta);
}

// Runs the op on `in` with per-tensor scales (zero points as given; 0 for TFLite's int16).
struct Quant {
  float scale;
  int zero_point = 0;
};

RunResult<int16_t> RunOp(const OpCase &op, const Quant *qi, const Quant *qo,
                         const std::vector<int16_t> &in, TfLiteType out_type = kTfLiteInt16) {
  RunResult<int16_t> r;
  OpModel m;
  const int n = static_cast<int>(in.size());
  TensorSpec si{kTfLiteInt16, {n}}, so{out_type, {}};
  if (qi != nullptr) si = {kTfLiteInt16, {n}, {qi->scale}, {qi->zero_point}};
  if (qo != nullptr) so = {out_type, {}, {qo->scale}, {qo->zero_point}};
  const int ii = m.AddInput(si);
  const int io = m.AddOutput(so);
  m.SetBuiltinOp(op.code, op.reg);
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  m.SetInput(ii, in);
  r.invoke = m.Invoke();
  if (r.invoke == kTfLiteOk && out_type == kTfLiteInt16) r.values = m.GetOutput<int16_t>(io);
  r.error = m.error();
  return r;
}

std::vector<int16_t> Int16From(int first) {
  std::vector<int16_t> v;
  for (int q = first; q <= 32767; ++q) v.push_back(static_cast<int16_t>(q));
  return v;
}

// The largest |f'| and |f''| on [a, b] (0 < a for LOG and RSQRT), for the float check.
struct Slopes {
  double first, second;
};

Slopes MaxSlopes(Fn fn, double a, double b) {
  switch (fn) {
    case Fn::kExp:
      return {std::exp(b), std::exp(b)};
    case Fn::kLog:
      return {1 / a, 1 / (a * a)};
    case Fn::kRsqrt:
      break;
  }
  return {0.5 * std::pow(a, -1.5), 0.75 * std::pow(a, -2.5)};
}

double RealFn(Fn fn, double x) {
  switch (fn) {
    case Fn::kExp:
      return std::exp(x);
    case Fn::kLog:
      return std::log(x);
    case Fn::kRsqrt:
      break;
  }
  return 1 / std::sqrt(x);
}

// Every input from `first` (RSQRT: the non-negative ones) against TFLite's arithmetic, and
// the dequantized output against the real function where that is meaningful: where the
// function stays representable over the neighbouring segments (a clamped sample bends the
// line; for EXP this also keeps away from float's overflow, past which TFLite's table holds
// artefacts of inf - inf, matched above but meaningless), and for LOG and RSQRT away from the
// first segment past 0 (it interpolates towards the x <= 0 value). The tolerance is two
// output steps, plus the interpolation error h^2/8 * max|f''| over a segment (h = 128 input
// steps), plus max|f'| times two input steps (TFLite samples every 65535/512 input steps but
// reads the table as if every 128).
void CheckEveryInput(Fn fn, Quant qi, Quant qo) {
  const OpCase op = Case(fn);
  const int first = fn == Fn::kRsqrt ? 0 : -32768;
  const std::vector<int16_t> in = Int16From(first);
  const auto r = RunOp(op, &qi, &qo, in);
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  ASSERT_EQ(r.values.size(), in.size());

  const std::vector<int16_t> table = TfliteTable(qi.scale, qo.scale, TfliteTransform(fn, qo.scale));
  const double si = qi.scale, so = qo.scale;
  const double h = 128 * si, out_lo = -32768 * so, out_hi = 32767 * so;
  int float_checked = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const int q = in[i];
    const int16_t got = r.values[i];
    ASSERT_EQ(got, TfliteLookup(table, in[i])) << "input " << q << " scales " << si << "/" << so;
    const double x = si * q;
    if (fn != Fn::kExp && q < 256) continue;
    const double a = x - 2 * h, b = x + 2 * h;
    const auto representable = [&](double y) { return y >= out_lo && y <= out_hi; };
    if (!representable(RealFn(fn, a)) || !representable(RealFn(fn, b))) continue;
    const Slopes s = MaxSlopes(fn, a, b);
    const double tolerance = 2 * so + h * h / 8 * s.second + 2 * si * s.first;
    const double want = RealFn(fn, x);
    ASSERT_NEAR(got * so, want, tolerance) << "input " << q << " scales " << si << "/" << so;
    ++float_checked;
  }
  EXPECT_GT(float_checked, 10000);
}

TEST(QuantizedUnaryInt16Test, ExpEveryInputMatchesTfliteTableAndRealExp) {
  CheckEveryInput(Fn::kExp, {8.0f / 32768}, {3000.0f / 32768});  // [-8, 8) -> exp(8) fits
  CheckEveryInput(Fn::kExp, {4.0f / 32768}, {1.0f / 32768});     // saturates above x = 0
  CheckEveryInput(Fn::kExp, {0.004f}, {0.05f});                  // float exp overflows past 88.7
}

TEST(QuantizedUnaryInt16Test, LogEveryInputMatchesTfliteTableAndRealLog) {
  CheckEveryInput(Fn::kLog, {32.0f / 32768}, {4.0f / 32768});  // small x saturate low
  CheckEveryInput(Fn::kLog, {1.0f / 32768}, {12.0f / 32768});  // x in [-1, 1)
  CheckEveryInput(Fn::kLog, {0.05f}, {8.0f / 32768});          // x up to 1638
}

TEST(QuantizedUnaryInt16Test, RsqrtEveryNonNegativeInputMatchesTfliteTableAndRealRsqrt) {
  CheckEveryInput(Fn::kRsqrt, {1.0f / 1024}, {32.0f / 32768});  // 1/sqrt(x) > 32 saturates
  CheckEveryInput(Fn::kRsqrt, {1.0f / 32768}, {256.0f / 32768});
  CheckEveryInput(Fn::kRsqrt, {0.5f}, {1.5f / 32768});
}

// Output bytes (int16 little-endian, hex) of TFLite's table code, see the top of the file.
// EXP: input scale 0.00025, output 0.02; LOG: 0.001, 0.0002; on -32768 + 257 k (k < 256).
// RSQRT: 0.001, 0.001; on 128 k + (37 k mod 128), so every segment at varied positions.
constexpr char kExpGolden[] =
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000100010001000100010001000100010001000100"
    "0100010001000100010001000100020002000200020002000200020002000300030003000300030004000400"
    "040004000500050005000600060006000700070008000800090009000a000b000b000c000d000e000f001000"
    "11001200130014001500160018001a001b001d001f0021002300250028002b002d003000330037003b003f00"
    "430047004c00510057005c00610068006f0077007f00870091009a00a400af00bb00c700d400e200f2000201"
    "1301240138014c0163017a019301ae01cb01e9010a022c0251027802a202cf02ff0232036803a203e0032104"
    "6804b30402055705b20513067a06e8065e07db076008ee088609280ad40a8c0b500c220d010eee0eec0ffa10"
    "1a124e139714f4156817f7189e1a631c451e47206c22b4242427bd29822c762f9d32f8358d395f3d7241c945"
    "6a4a5a4f9e543c5a39609b666b6dad746b7cff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7f"
    "ff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7f";
constexpr char kLogGolden[] =
    "0080008000800080008000800080008000800080008000800080008000800080008000800080008000800080"
    "0080008000800080008000800080008000800080008000800080008000800080008000800080008000800080"
    "0080008000800080008000800080008000800080008000800080008000800080008000800080008000800080"
    "0080008000800080008000800080008000800080008000800080008000800080008000800080008000800080"
    "0080008000800080008000800080008000800080008000800080008000800080008000800080008000800080"
    "0080008000800080008000800080008000800080008000800080008000800080008000805ad86ded5df7eefd"
    "d502c006040acf0c410f6e1162132915ca164b18b019ff1a371c5d1d731e7a1f7420632146221f23ef23b724"
    "77253126e32690273728d82874290c2a9f2a2e2bb92b402cc42c442dc02d3a2eb22e262f972f07307330de30"
    "4731ac3111327232d33231338d33e83341349934f03444359735ea353a368a36d83624377137bb3705384d38"
    "9538db3821396539a939eb392d3a6e3aae3aed3a2b3b6a3ba63be23b1e3c593c933ccd3c053d3d3d753dac3d"
    "e33d193e4e3e823eb73eea3e1d3f503f823fb33fe43f144045407440a340d24000412f415c418941b541e141"
    "0e42394264428f42b942e4420d4337435f438843b043d94300442744";
constexpr char kRsqrtGolden[] =
    "0465d909df068f055c05b00436041e04ca0387034f0344031803f202ea02ca02ae0295028f02790265026102"
    "4f023f0230022d021f0212020f020402f901ee01ec01e301d901d701cf01c801c001be01b701b001ae01a801"
    "a101a0019b01950190018e018a01850184017f017b017601750171016d016c016801640160015f015c015801"
    "5801540151014e014e014a0147014701440142013f013e013b013901390136013401310130012e012c012c01"
    "29012701270125012301210121011f011d011c011a0118011601160114011201120110010f010d010d010b01"
    "0901090108010601050105010301010101010001fe00fd00fd00fb00fa00fa00f900f700f700f600f400f300"
    "f300f200f100f100f000ee00ed00ed00ec00eb00eb00ea00e800e700e700e700e500e500e400e300e200e200"
    "e100df00df00df00de00dd00dd00dc00db00db00da00d900d800d800d700d600d600d500d500d500d400d200"
    "d200d200d200d000d000cf00ce00ce00ce00ce00cc00cc00cc00cb00ca00ca00c900c800c800c800c700c600"
    "c600c500c500c500c400c300c300c300c200c200c200c100c000c000c000bf00be00be00be00bd00bd00bd00"
    "bc00bb00bb00bb00ba00ba00ba00b900b900b900b800b700b700b700b600b600b600b500b500b500b400b300"
    "b300b300b200b200b200b200b100b100b100b000b000b000af00af00";

TEST(QuantizedUnaryInt16Test, MatchesOutputsOfTflitesTableCode) {
  std::vector<int16_t> spread, non_negative;
  for (int k = 0; k < 256; ++k) {
    spread.push_back(static_cast<int16_t>(-32768 + 257 * k));
    non_negative.push_back(static_cast<int16_t>(128 * k + (37 * k) % 128));
  }
  const struct {
    Fn fn;
    Quant in, out;
    const std::vector<int16_t> &x;
    const char *hex;
  } cases[] = {
      {Fn::kExp, {0.00025f}, {0.02f}, spread, kExpGolden},
      {Fn::kLog, {0.001f}, {0.0002f}, spread, kLogGolden},
      {Fn::kRsqrt, {0.001f}, {0.001f}, non_negative, kRsqrtGolden},
  };
  for (const auto &c : cases) {
    const auto r = RunOp(Case(c.fn), &c.in, &c.out, c.x);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    EXPECT_EQ(r.values, octet::testing::FromHex<int16_t>(c.hex));
  }
}

// x <= 0 is sampled as LOG's lowest and RSQRT's highest value, but the segment from the
// sample just below 0 to the first positive one is interpolated and its midpoint corrected,
// so inputs near 0 do not read the saturated code. LOG(0) = -28138 and RSQRT(0) = 29898 at
// these scales are outputs of TFLite's table code (see the top of the file); inputs whose
// whole segment lies below 0 read LOG's lowest code exactly.
TEST(QuantizedUnaryInt16Test, InputsNearZeroAreInterpolatedAsInTflite) {
  const Quant qi{1.0f / 1024}, qo{8.0f / 32768};
  std::vector<int16_t> below = Int16From(-32768);
  below.resize(32768 - 128);  // -32768 .. -129
  const auto log = RunOp(Case(Fn::kLog), &qi, &qo, below);
  ASSERT_EQ(log.invoke, kTfLiteOk) << log.error;
  EXPECT_EQ(log.values, std::vector<int16_t>(below.size(), -32768));
  const auto log0 = RunOp(Case(Fn::kLog), &qi, &qo, {0});
  ASSERT_EQ(log0.invoke, kTfLiteOk) << log0.error;
  EXPECT_EQ(log0.values, (std::vector<int16_t>{-28138}));
  const auto rsqrt0 = RunOp(Case(Fn::kRsqrt), &qi, &qo, {0});
  ASSERT_EQ(rsqrt0.invoke, kTfLiteOk) << rsqrt0.error;
  EXPECT_EQ(rsqrt0.values, (std::vector<int16_t>{29898}));
}

// Scales that make the table's float arithmetic overflow or divide by almost nothing still
// give TFLite's (x86) values, with nothing undefined on the way.
TEST(QuantizedUnaryInt16Test, ExtremeScalesFollowTfliteArithmetic) {
  const std::vector<int16_t> in = Int16From(-32768);
  const std::vector<int16_t> non_negative = Int16From(0);
  const Quant cases[][2] = {
      {{1e38f}, {1.0f}},    // input range overflows float
      {{1e-3f}, {1e-45f}},  // denormal output scale
      {{1e-45f}, {1e30f}},  // everything rounds to one code
  };
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kRsqrt}) {
    for (const auto &c : cases) {
      const std::vector<int16_t> &x = fn == Fn::kRsqrt ? non_negative : in;
      const auto r = RunOp(Case(fn), &c[0], &c[1], x);
      ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
      const auto table = TfliteTable(c[0].scale, c[1].scale, TfliteTransform(fn, c[1].scale));
      for (size_t i = 0; i < x.size(); ++i) {
        ASSERT_EQ(r.values[i], TfliteLookup(table, x[i]))
            << "input " << x[i] << " scales " << c[0].scale << "/" << c[1].scale;
      }
    }
  }
}

TEST(QuantizedUnaryInt16Test, RsqrtNegativeInputFailsAtInvoke) {
  const Quant qi{0.01f}, qo{0.01f};
  const auto r = RunOp(Case(Fn::kRsqrt), &qi, &qo, {7, 0, -1, 3});
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  EXPECT_EQ(r.invoke, kTfLiteError);
  EXPECT_NE(r.error.find("RSQRT: input -1 at index 2 is below the input zero point 0"),
            std::string::npos)
      << r.error;
}

std::string PrepareError(Fn fn, const Quant *qi, const Quant *qo,
                         TfLiteType out_type = kTfLiteInt16) {
  const auto r = RunOp(Case(fn), qi, qo, std::vector<int16_t>(4), out_type);
  return r.build == kTfLiteOk ? "" : r.error;
}

bool Contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

TEST(QuantizedUnaryInt16Test, ZeroPointsMustBeZero) {
  const Quant zero{0.01f, 0}, nonzero{0.01f, 3};
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kRsqrt}) {
    const std::string in_error = PrepareError(fn, &nonzero, &zero);
    EXPECT_TRUE(Contains(in_error, ": input")) << in_error;
    EXPECT_TRUE(Contains(in_error, "is int16 and must have zero_point 0, has 3")) << in_error;
    const std::string out_error = PrepareError(fn, &zero, &nonzero);
    EXPECT_TRUE(Contains(out_error, ": output")) << out_error;
    EXPECT_TRUE(Contains(out_error, "is int16 and must have zero_point 0, has 3")) << out_error;
    EXPECT_EQ(PrepareError(fn, &zero, &zero), "");
  }
}

TEST(QuantizedUnaryInt16Test, QuantizationIsRequired) {
  const Quant q{0.01f};
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kRsqrt}) {
    EXPECT_TRUE(Contains(PrepareError(fn, nullptr, nullptr), "has no quantization parameters"));
    EXPECT_TRUE(Contains(PrepareError(fn, &q, nullptr), "output"));
    EXPECT_TRUE(Contains(PrepareError(fn, nullptr, &q), "input"));
  }
}

TEST(QuantizedUnaryInt16Test, ScalesMustBeFiniteAndPositive) {
  const Quant good{0.01f};
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kRsqrt}) {
    for (float bad : {0.0f, -0.5f, INFINITY, NAN}) {
      const Quant q{bad};
      const std::string in_error = PrepareError(fn, &q, &good);
      EXPECT_TRUE(Contains(in_error, "must be finite and > 0")) << in_error;
      const std::string out_error = PrepareError(fn, &good, &q);
      EXPECT_TRUE(Contains(out_error, "must be finite and > 0")) << out_error;
    }
  }
}

TEST(QuantizedUnaryInt16Test, MismatchedTypesAreRefused) {
  const Quant q{0.01f};
  const char *names[] = {"EXP", "LOG", "RSQRT"};
  int i = 0;
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kRsqrt}) {
    for (TfLiteType out : {kTfLiteInt8, kTfLiteFloat32, kTfLiteInt32}) {
      const std::string error = PrepareError(fn, &q, &q, out);
      EXPECT_TRUE(Contains(error, names[i])) << error;
    }
    ++i;
  }
}

}  // namespace
}  // namespace octet::elementwise_test
