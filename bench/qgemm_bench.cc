// Quantized convolution kernels on real layer shapes (MobileNetV2-224 int8, ResNet8), for
// every kernel path this CPU runs, with GMAC/s next to the path's measured peak.
//   build/octet_bench --benchmark_filter=QConv
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/threads/thread_pool.h"
#include "peak.h"

namespace octet::bench {
namespace {

struct Layer {
  const char* name;
  int in_h, in_w, in_c, out_c, kernel, stride;
};

// The int8 CONV_2D layers of MobileNetV2 1.0/224 (each shape once), ResNet8's 3x3s, and
// single-row GEMMs.
const Layer kLayers[] = {
    {"mbv2_conv0_3x3s2", 224, 224, 3, 32, 3, 2},
    {"mbv2_112_32to16", 112, 112, 32, 16, 1, 1},
    {"mbv2_112_16to96", 112, 112, 16, 96, 1, 1},
    {"mbv2_56_24to144", 56, 56, 24, 144, 1, 1},
    {"mbv2_56_144to24", 56, 56, 144, 24, 1, 1},
    {"mbv2_28_32to192", 28, 28, 32, 192, 1, 1},
    {"mbv2_28_192to32", 28, 28, 192, 32, 1, 1},
    {"mbv2_14_64to384", 14, 14, 64, 384, 1, 1},
    {"mbv2_14_384to64", 14, 14, 384, 64, 1, 1},
    {"mbv2_14_576to96", 14, 14, 576, 96, 1, 1},
    {"mbv2_7_160to960", 7, 7, 160, 960, 1, 1},
    {"mbv2_7_960to320", 7, 7, 960, 320, 1, 1},
    {"mbv2_7_320to1280", 7, 7, 320, 1280, 1, 1},
    {"resnet8_32_3to16_3x3", 32, 32, 3, 16, 3, 1},
    {"resnet8_32_16to16_3x3", 32, 32, 16, 16, 3, 1},
    {"resnet8_32_16to32_1x1s2", 32, 32, 16, 32, 1, 2},
    {"resnet8_16_32to32_3x3", 16, 16, 32, 32, 3, 1},
    {"resnet8_8_64to64_3x3", 8, 8, 64, 64, 3, 1},
    // VWW's first layer: three input channels, eight outputs.
    {"vww_96_3to8_3x3s2", 96, 96, 3, 8, 3, 2},
    {"vww_48_8to16", 48, 48, 8, 16, 1, 1},
    // FULLY_CONNECTED with batch 1 (a 1x1 image): MobileNetV2's classifier, ToyCar's layers.
    {"fc_1280to1001", 1, 1, 1280, 1001, 1, 1},
    {"fc_640to128", 1, 1, 640, 128, 1, 1},
    {"fc_128to640", 1, 1, 128, 640, 1, 1},
};

// `wide`: the path's wide-input variant, the input widened to int16 inside the timed loop
// as the op does it per invoke.
void QConv(benchmark::State& state, const Layer& layer, cpu::Isa isa, int threads,
           bool wide = false) {
  // As FULLY_CONNECTED chooses at prepare: a one-row GEMM takes the few-rows variant.
  const bool one_row = layer.in_h == 1 && layer.in_w == 1;
  const optimized::QGemmKernel* kernel = wide      ? optimized::QGemmWideInputKernelFor(isa)
                                         : one_row ? optimized::QGemmFewRowsKernelFor(isa)
                                                   : optimized::QGemmKernelFor(isa);
  if (kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  optimized::QConvShape s;
  s.in_h = layer.in_h;
  s.in_w = layer.in_w;
  s.in_c = layer.in_c;
  s.kernel_h = s.kernel_w = layer.kernel;
  s.stride_h = s.stride_w = layer.stride;
  s.out_h = (layer.in_h + layer.stride - 1) / layer.stride;
  s.out_w = (layer.in_w + layer.stride - 1) / layer.stride;
  s.pad_h = s.pad_w = std::max(0, ((s.out_h - 1) * layer.stride + layer.kernel - layer.in_h) / 2);
  const int ks = layer.kernel * layer.kernel;
  std::mt19937 rng(1);
  std::vector<uint8_t> input(static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  std::vector<uint8_t> weights(static_cast<size_t>(layer.out_c) * ks * s.in_c);
  for (auto& v : input) v = static_cast<uint8_t>(rng());
  for (auto& v : weights) v = static_cast<uint8_t>(rng());
  std::vector<int32_t> bias(layer.out_c, 100), multiplier(layer.out_c, 1 << 30);
  std::vector<int> shift(layer.out_c, -8);
  optimized::QGemmWeightsDesc d;
  d.weights = weights.data();
  d.n = layer.out_c;
  d.ks = ks;
  d.kc = s.in_c;
  d.bias = bias.data();
  d.input_offset = 3;
  d.multiplier = multiplier.data();
  d.shift = shift.data();
  d.kernel_w = layer.kernel;
  if (wide && !optimized::QGemmConvTakesWideInput(*kernel, d)) {
    state.SkipWithError("layer stays on the byte kernel");
    return;
  }
  std::vector<uint8_t> packed_buffer(optimized::QGemmPackedSize(*kernel, d));
  const optimized::QGemmPacked packed = optimized::QGemmPack(*kernel, d, packed_buffer.data());
  // The input zero point (253 as a byte, -3 as int16, matching input_offset 3).
  std::vector<uint8_t> zero_row(optimized::QGemmZeroRowBytes(packed), 253);
  if (wide) {
    for (size_t i = 1; i < zero_row.size(); i += 2) zero_row[i] = 0xff;
  }
  std::vector<int16_t> widened(wide ? input.size() : 0);
  std::vector<uint8_t> output(static_cast<size_t>(s.out_h) * s.out_w * layer.out_c);
  ThreadPool pool(threads);
  for (auto _ : state) {
    if (wide) {
      optimized::WidenToInt16(input.data(), input.size(), true, widened.data());
      optimized::RunQGemmConv(packed, s, reinterpret_cast<const uint8_t*>(widened.data()),
                              2 * input.size(), zero_row.data(), output.data(), &pool);
    } else {
      optimized::RunQGemmConv(packed, s, input.data(), input.size(), zero_row.data(), output.data(),
                              &pool);
    }
    benchmark::DoNotOptimize(output.data());
  }
  const double macs = double(s.out_h) * s.out_w * layer.out_c * ks * s.in_c;
  state.counters["GMAC/s"] =
      benchmark::Counter(macs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak%"] = 100.0 * state.counters["GMAC/s"] / 1.0;  // fixed up below
  state.counters["peak%"] =
      benchmark::Counter(macs * 1e-9 * 100.0 / (PeakGmacPerSecond(isa) * threads),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel->name);
}

// One benchmark per (layer, path) and a 2-thread run on the best path.
int RegisterAll() {
  for (const Layer& layer : kLayers) {
    for (cpu::Isa isa : {cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
      if (!cpu::CpuSupports(isa)) continue;
      benchmark::RegisterBenchmark(
          (std::string("QConv/") + layer.name + "/" + cpu::IsaName(isa)).c_str(),
          [&layer, isa](benchmark::State& st) { QConv(st, layer, isa, 1); })
          ->Unit(benchmark::kMicrosecond);
    }
    for (cpu::Isa isa : {cpu::Isa::kAvx2}) {
      if (!cpu::CpuSupports(isa) || layer.in_h * layer.in_w == 1) continue;
      benchmark::RegisterBenchmark(
          (std::string("QConv/") + layer.name + "/" + cpu::IsaName(isa) + "_i16").c_str(),
          [&layer, isa](benchmark::State& st) { QConv(st, layer, isa, 1, true); })
          ->Unit(benchmark::kMicrosecond);
    }
    const cpu::Isa best = cpu::BestIsa();
    benchmark::RegisterBenchmark(
        (std::string("QConv/") + layer.name + "/" + cpu::IsaName(best) + "/threads:2").c_str(),
        [&layer, best](benchmark::State& st) { QConv(st, layer, best, 2); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
