// Byte-table lookups (8-bit LOGISTIC and the like, requantizing QUANTIZE and CONCATENATION)
// over SSD MobileNet's class scores (1917 x 91 bytes), and the 8-bit bilinear resize of
// DeepLab v3's logits (33x33x21 to 513x513), on the kernel of every path this CPU runs, in
// one process. Gbyte/s of output.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/resize/qresize_bilinear.h"

namespace octet::bench {
namespace {

void Lut(benchmark::State& state, cpu::Isa isa) {
  const optimized::LutKernel* kernel = optimized::LutKernelFor(isa);
  constexpr size_t kBytes = 1917 * 91;
  std::mt19937 rng(4);
  std::vector<uint8_t> table(256), in(kBytes), out(kBytes);
  for (auto& v : table) v = static_cast<uint8_t>(rng());
  for (auto& v : in) v = static_cast<uint8_t>(rng());
  for (auto _ : state) {
    kernel->apply(table.data(), in.data(), out.data(), kBytes);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["Gbyte/s"] =
      benchmark::Counter(kBytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel->name);
}

void Resize(benchmark::State& state, cpu::Isa isa) {
  const optimized::QResizeKernel* kernel = optimized::QResizeKernelFor(isa);
  const Shape in_shape{1, 33, 33, 21}, out_shape{1, 513, 513, 21};
  std::mt19937 rng(5);
  std::vector<uint8_t> in(static_cast<size_t>(in_shape.FlatSize()));
  std::vector<uint8_t> out(static_cast<size_t>(out_shape.FlatSize()));
  for (auto& v : in) v = static_cast<uint8_t>(rng());
  std::vector<int32_t> scratch(optimized::QResizeScratchInts(in_shape, out_shape));
  reference::ResizeParams p;
  p.align_corners = true;
  for (auto _ : state) {
    optimized::QuantizedResizeBilinear<uint8_t>(*kernel, p, in_shape, in.data(), out_shape,
                                                out.data(), scratch.data(), nullptr);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["Gbyte/s"] =
      benchmark::Counter(out.size() * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel->name);
}

int RegisterAll() {
  for (cpu::Isa isa : {cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
    if (!cpu::CpuSupports(isa)) continue;
    benchmark::RegisterBenchmark(
        (std::string("Lut/ssd_scores_1917x91/") + cpu::IsaName(isa)).c_str(),
        [isa](benchmark::State& st) { Lut(st, isa); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(
        (std::string("QResize/deeplab_33x33x21_to_513/") + cpu::IsaName(isa)).c_str(),
        [isa](benchmark::State& st) { Resize(st, isa); })
        ->Unit(benchmark::kMicrosecond);
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
