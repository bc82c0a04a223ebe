// The 8-bit ADD of TFLite Micro's simple_add example (two 128x128 int8 inputs, scales 0.0407
// and 0.0412, output 0.0584): the kernel of every path this CPU runs, through the linear form
// (qbinary.h) and with the linear form turned off (three exact requantizations per element),
// in one process. Gelem/s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qbinary/qbinary_linear.h"
#include "quant/quantization_util.h"

namespace octet::bench {
namespace {

constexpr size_t kElements = 128 * 128;

optimized::QBinaryParams SimpleAddParams(bool linear) {
  const double s1 = 0.0407254, s2 = 0.0412456, so = 0.0583774;
  optimized::QBinaryParams q{};
  q.op = optimized::QBinaryOp::kAdd;
  q.is_signed = true;
  q.input1_offset = 2;
  q.input2_offset = 1;
  q.output_offset = -3;
  q.left_shift = 20;
  const double twice_max = 2 * std::max(s1, s2);
  quant::QuantizeMultiplierSmallerThanOneExp(s1 / twice_max, &q.input1_multiplier, &q.input1_shift);
  quant::QuantizeMultiplierSmallerThanOneExp(s2 / twice_max, &q.input2_multiplier, &q.input2_shift);
  quant::QuantizeMultiplierSmallerThanOneExp(twice_max / ((1 << 20) * so), &q.output_multiplier,
                                             &q.output_shift);
  q.act_min = -128;
  q.act_max = 127;
  if (linear) optimized::PlanQBinaryLinear(&q);
  return q;
}

void QAdd(benchmark::State& state, cpu::Isa isa, bool linear) {
  const optimized::QBinaryKernel* kernel = optimized::QBinaryKernelFor(isa);
  if (kernel == nullptr) {
    state.SkipWithError("path not supported on this CPU");
    return;
  }
  const optimized::QBinaryParams q = SimpleAddParams(linear);
  std::mt19937 rng(3);
  std::vector<uint8_t> a(kElements), b(kElements), out(kElements);
  for (auto& v : a) v = static_cast<uint8_t>(rng());
  for (auto& v : b) v = static_cast<uint8_t>(rng());
  optimized::QBinaryCall call{};
  call.a = a.data();
  call.b = b.data();
  call.out = out.data();
  call.n = kElements;
  for (auto _ : state) {
    kernel->run(q, call);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["Gelem/s"] =
      benchmark::Counter(kElements * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel->name);
}

int RegisterAll() {
  for (bool linear : {false, true}) {
    for (cpu::Isa isa : {cpu::Isa::kScalar, cpu::Isa::kAvx2, cpu::Isa::kAvx512Vnni}) {
      if (!cpu::CpuSupports(isa)) continue;
      benchmark::RegisterBenchmark((std::string("QAdd/simple_add_128x128/") +
                                    (linear ? "linear/" : "exact/") + cpu::IsaName(isa))
                                       .c_str(),
                                   [isa, linear](benchmark::State& st) { QAdd(st, isa, linear); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace
}  // namespace octet::bench
