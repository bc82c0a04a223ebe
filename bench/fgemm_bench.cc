// Float convolution kernels (fgemm, fdw) on real layer shapes (ResNet8 and the VWW
// MobileNet of the MLPerf Tiny float models), for every kernel path this CPU runs, with
// GMAC/s next to the path's measured FMA peak.
//   build/octet_bench --benchmark_filter='FConv|FDw'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fdw/fdw_driver.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/threads/thread_pool.h"
#include "peak.h"

namespace octet::bench {
namespace {

using optimized::Window2D;

struct Layer {
  const char* name;
  int in_h, in_w, in_c, out_c, kernel, stride;  // out_c 0: depthwise
};

const Layer kLayers[] = {
    {"resnet8_32_3to16_3x3", 32, 32, 3, 16, 3, 1},
    {"resnet8_32_16to16_3x3", 32, 32, 16, 16, 3, 1},
    {"resnet8_16_32to32_3x3", 16, 16, 32, 32, 3, 1},
    {"resnet8_8_64to64_3x3", 8, 8, 64, 64, 3, 1},
    {"vww_96_3to8_3x3s2", 96, 96, 3, 8, 3, 2},
    {"vww_48_8to16_1x1", 48, 48, 8, 16, 1, 1},
    {"vww_24_32to32_1x1", 24, 24, 32, 32, 1, 1},
    {"vww_6_128to256_1x1", 6, 6, 128, 256, 1, 1},
    {"vww_dw_48x8_3x3", 48, 48, 8, 0, 3, 1},
    {"vww_dw_24x32_3x3", 24, 24, 32, 0, 3, 1},
    {"vww_dw_6x128_3x3", 6, 6, 128, 0, 3, 1},
    {"kws_dw_25x5x64_3x3", 25, 5, 64, 0, 3, 1},
};

Window2D Geometry(const Layer& layer) {
  Window2D s;
  s.in_h = layer.in_h;
  s.in_w = layer.in_w;
  s.in_c = layer.in_c;
  s.kernel_h = s.kernel_w = layer.kernel;
  s.stride_h = s.stride_w = layer.stride;
  s.out_h = (layer.in_h + layer.stride - 1) / layer.stride;
  s.out_w = (layer.in_w + layer.stride - 1) / layer.stride;
  s.pad_h = s.pad_w = std::max(0, ((s.out_h - 1) * layer.stride + layer.kernel - layer.in_h) / 2);
  return s;
}

std::vector<float> Random(size_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

void Report(benchmark::State& state, double macs, cpu::Isa isa, int threads, const char* name) {
  state.counters["GMAC/s"] =
      benchmark::Counter(macs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak%"] =
      benchmark::Counter(macs * 1e-9 * 100.0 / (PeakGfmaPerSecond(isa) * threads),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(name);
}

void FConv(benchmark::State& state, const Layer& layer, cpu::Isa isa, int threads) {
  const optimized::FGemmKernel* kernel = optimized::FGemmKernelFor(isa);
  if (kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  const Window2D s = Geometry(layer);
  const int ks = layer.kernel * layer.kernel;
  const auto input = Random(static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  const auto weights = Random(static_cast<size_t>(layer.out_c) * ks * s.in_c);
  const auto bias = Random(static_cast<size_t>(layer.out_c));
  optimized::FGemmWeightsDesc d;
  d.weights = weights.data();
  d.bias = bias.data();
  d.n = layer.out_c;
  d.ks = ks;
  d.kc = s.in_c;
  d.kernel_w = layer.kernel;
  std::vector<float> packed_buffer(optimized::FGemmPackedFloats(*kernel, d));
  const optimized::FGemmPacked packed = optimized::FGemmPack(*kernel, d, packed_buffer.data());
  const std::vector<float> zero_row(static_cast<size_t>(packed.kc), 0.f);
  std::vector<float> output(static_cast<size_t>(s.out_h) * s.out_w * layer.out_c);
  ThreadPool pool(threads);
  const optimized::FloatClamp relu{0.f, 1e30f};
  for (auto _ : state) {
    if (layer.kernel == 1 && layer.stride == 1) {
      optimized::RunFGemmRows(packed, s.in_h * s.in_w, input.data(), static_cast<size_t>(s.in_c),
                              relu, output.data(), &pool);
    } else {
      optimized::RunFGemmConv(packed, s, input.data(), zero_row.data(), relu, output.data(), &pool);
    }
    benchmark::DoNotOptimize(output.data());
  }
  Report(state, double(s.out_h) * s.out_w * layer.out_c * ks * s.in_c, isa, threads, kernel->name);
}

void FDw(benchmark::State& state, const Layer& layer, cpu::Isa isa, int threads) {
  const optimized::FDwKernel* kernel = optimized::FDwKernelFor(isa);
  if (kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  const Window2D s = Geometry(layer);
  const int ks = layer.kernel * layer.kernel;
  const auto input = Random(static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  const auto weights = Random(static_cast<size_t>(ks) * s.in_c);
  std::vector<float> packed_buffer(optimized::FDwPackedFloats(*kernel, s.in_c, ks));
  const optimized::FDwPacked packed =
      optimized::FDwPack(*kernel, weights.data(), nullptr, s.in_c, ks, packed_buffer.data());
  const std::vector<float> zero_row(static_cast<size_t>(s.in_c), 0.f);
  std::vector<float> output(static_cast<size_t>(s.out_h) * s.out_w * s.in_c);
  ThreadPool pool(threads);
  for (auto _ : state) {
    optimized::RunFDepthwise(packed, s, input.data(), zero_row.data(), {0.f, 6.f}, output.data(),
                             &pool);
    benchmark::DoNotOptimize(output.data());
  }
  Report(state, double(s.out_h) * s.out_w * s.in_c * ks, isa, threads, kernel->name);
}

int RegisterAll() {
  for (const Layer& layer : kLayers) {
    const bool depthwise = layer.out_c == 0;
    const std::string family = depthwise ? "FDw/" : "FConv/";
    auto run = [&layer, depthwise](benchmark::State& st, cpu::Isa isa, int threads) {
      depthwise ? FDw(st, layer, isa, threads) : FConv(st, layer, isa, threads);
    };
    for (cpu::Isa isa : {cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
      if (!cpu::CpuSupports(isa)) continue;
      benchmark::RegisterBenchmark((family + layer.name + "/" + cpu::IsaName(isa)).c_str(),
                                   [run, isa](benchmark::State& st) { run(st, isa, 1); })
          ->Unit(benchmark::kMicrosecond);
    }
    const cpu::Isa best = cpu::BestIsa();
    benchmark::RegisterBenchmark(
        (family + layer.name + "/" + cpu::IsaName(best) + "/threads:2").c_str(),
        [run, best](benchmark::State& st) { run(st, best, 2); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
