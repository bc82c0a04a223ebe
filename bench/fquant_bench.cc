// The hybrid ops' input quantizer on one 112x112x32 image (a hybrid depthwise layer's input):
// reference::SymmetricQuantize / AsymmetricQuantize against the fquant kernel of every path
// this CPU runs, in one process. GB/s of float input.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fquant/fquant_driver.h"
#include "kernels/reference/hybrid_quantize.h"

namespace octet::bench {
namespace {

constexpr size_t kImage = 112 * 112 * 32;

const std::vector<float>& Image() {
  static const std::vector<float> image = [] {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(-0.5f, 2.f);
    std::vector<float> x(kImage);
    for (float& v : x) v = unit(rng);
    return x;
  }();
  return image;
}

// `isa` kReference: the reference functions.
void FQuant(benchmark::State& state, cpu::Isa isa, bool asymmetric) {
  const optimized::FQuantKernel* kernel = optimized::FQuantKernelFor(isa);
  if (isa != cpu::Isa::kReference && kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  const std::vector<float>& x = Image();
  std::vector<int8_t> q(kImage);
  float scale = 0.f;
  int32_t offset = 0;
  for (auto _ : state) {
    if (kernel == nullptr) {
      if (asymmetric) {
        reference::AsymmetricQuantize(x.data(), kImage, q.data(), &scale, &offset);
      } else {
        reference::SymmetricQuantize(x.data(), kImage, q.data(), &scale);
      }
    } else if (asymmetric) {
      optimized::FQuantAsymmetric(*kernel, x.data(), kImage, q.data(), &scale, &offset);
    } else {
      optimized::FQuantSymmetric(*kernel, x.data(), kImage, q.data(), &scale);
    }
    benchmark::DoNotOptimize(q.data());
    benchmark::DoNotOptimize(scale);
  }
  state.counters["GB/s"] = benchmark::Counter(kImage * sizeof(float) * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel ? kernel->name : "reference");
}

int RegisterAll() {
  for (bool asymmetric : {false, true}) {
    for (cpu::Isa isa :
         {cpu::Isa::kReference, cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
      if (!cpu::CpuSupports(isa)) continue;
      benchmark::RegisterBenchmark(
          (std::string("FQuant/112x112x32/") + (asymmetric ? "asymmetric/" : "symmetric/") +
           cpu::IsaName(isa))
              .c_str(),
          [isa, asymmetric](benchmark::State& st) { FQuant(st, isa, asymmetric); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
