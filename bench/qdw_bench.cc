// Quantized depthwise kernels on MobileNetV2-224 int8 layer shapes, for every kernel path this
// CPU runs: GMAC/s and outputs per second (the epilogue's requantization is per output).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qdw/qdw_driver.h"
#include "kernels/threads/thread_pool.h"

namespace octet::bench {
namespace {

struct DwLayer {
  const char* name;
  int in_hw, channels, stride;
};

const DwLayer kDwLayers[] = {
    {"mbv2_112x32_s1", 112, 32, 1},
    {"mbv2_112x96_s2", 112, 96, 2},
    {"mbv2_56x144_s1", 56, 144, 1},
    {"mbv2_28x192_s1", 28, 192, 1},
    {"mbv2_14x384_s1", 14, 384, 1},
    {"mbv2_14x576_s1", 14, 576, 1},
    {"mbv2_7x960_s1", 7, 960, 1},
    // VWW's first depthwise layer: eight channels (half a 16-channel block).
    {"vww_48x8_s1", 48, 8, 1},
};

// `row`: the path's 3x3 row kernel (QDwRowKernelFor) instead of its tap-table kernel.
void QDepthwise(benchmark::State& state, const DwLayer& layer, cpu::Isa isa, bool row) {
  const optimized::QDwKernel* kernel =
      row ? optimized::QDwRowKernelFor(isa) : optimized::QDwKernelFor(isa);
  if (kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  optimized::QDwShape s;
  s.in_h = s.in_w = layer.in_hw;
  s.in_c = layer.channels;
  s.kernel_h = s.kernel_w = 3;
  s.stride_h = s.stride_w = layer.stride;
  s.out_h = s.out_w = (layer.in_hw + layer.stride - 1) / layer.stride;
  s.pad_h = s.pad_w = std::max(0, ((s.out_h - 1) * layer.stride + 3 - layer.in_hw) / 2);
  std::mt19937 rng(2);
  std::vector<uint8_t> input(static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  std::vector<uint8_t> weights(static_cast<size_t>(9) * s.in_c);
  for (auto& v : input) v = static_cast<uint8_t>(rng());
  for (auto& v : weights) v = static_cast<uint8_t>(rng());
  // Per-channel scales as a real model's (not powers of two, whose exact ties would send
  // every lane of the float requantization to the exact path).
  std::vector<int32_t> bias(s.in_c, 10), multiplier(s.in_c);
  std::vector<int> shift(s.in_c, -6);
  for (auto& m : multiplier) m = (1 << 30) + static_cast<int32_t>(rng() % (1u << 30));
  optimized::QDwWeightsDesc d;
  d.weights = weights.data();
  d.channels = s.in_c;
  d.ks = 9;
  d.bias = bias.data();
  d.input_offset = 5;
  d.multiplier = multiplier.data();
  d.shift = shift.data();
  std::vector<uint8_t> packed_buffer(optimized::QDwPackedSize(*kernel, s.in_c, 9));
  const optimized::QDwPacked packed = optimized::QDwPack(*kernel, d, packed_buffer.data());
  std::vector<uint8_t> zero_row(s.in_c, 251);
  std::vector<uint8_t> output(static_cast<size_t>(s.out_h) * s.out_w * s.in_c);
  ThreadPool pool(1);
  for (auto _ : state) {
    optimized::RunQDepthwise(packed, s, input.data(), zero_row.data(), nullptr, output.data(),
                             &pool);
    benchmark::DoNotOptimize(output.data());
  }
  const double outputs = double(s.out_h) * s.out_w * s.in_c;
  state.counters["GMAC/s"] =
      benchmark::Counter(outputs * 9 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["Gout/s"] =
      benchmark::Counter(outputs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel->name);
}

int RegisterAll() {
  for (const DwLayer& layer : kDwLayers) {
    for (cpu::Isa isa : {cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
      if (!cpu::CpuSupports(isa)) continue;
      for (bool row : {false, true}) {
        if (row && optimized::QDwRowKernelFor(isa) == nullptr) continue;
        const std::string name = std::string("QDepthwise/") + layer.name + "/" + cpu::IsaName(isa) +
                                 (row ? "/row3x3" : "");
        benchmark::RegisterBenchmark(name.c_str(), [&layer, isa, row](benchmark::State& st) {
          QDepthwise(st, layer, isa, row);
        })->Unit(benchmark::kMicrosecond);
      }
    }
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
