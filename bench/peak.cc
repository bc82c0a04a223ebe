#include "peak.h"

#include <chrono>
#include <cstdint>
#include <map>

namespace octet::bench {

#if defined(OCTET_HAVE_X86_KERNELS)
int64_t PeakLoopAvx2(int64_t iterations);
int64_t PeakLoopAvx512Vnni(int64_t iterations);
int64_t PeakFmaLoopAvx2(int64_t iterations);
int64_t PeakFmaLoopAvx512(int64_t iterations);
#endif

namespace {

template <typename Loop>
double Measure(Loop loop, double macs_per_iteration) {
  loop(1000);
  const int64_t iterations = 20000000;
  const auto start = std::chrono::steady_clock::now();
  volatile int64_t sink = loop(iterations);
  (void)sink;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return iterations * macs_per_iteration / seconds * 1e-9;
}

}  // namespace

double PeakGmacPerSecond(cpu::Isa isa) {
  static std::map<cpu::Isa, double> cache;
  auto it = cache.find(isa);
  if (it != cache.end()) return it->second;
  double peak = 1.0;  // the portable path has no meaningful peak: report % of 1 GMAC/s
#if defined(OCTET_HAVE_X86_KERNELS)
  if (isa == cpu::Isa::kAvx2) peak = Measure(PeakLoopAvx2, 8 * 16);
  if (isa == cpu::Isa::kAvx512Vnni) peak = Measure(PeakLoopAvx512Vnni, 12 * 64);
#endif
  cache[isa] = peak;
  return peak;
}

double PeakGfmaPerSecond(cpu::Isa isa) {
  static std::map<cpu::Isa, double> cache;
  auto it = cache.find(isa);
  if (it != cache.end()) return it->second;
  double peak = 1.0;
#if defined(OCTET_HAVE_X86_KERNELS)
  if (isa == cpu::Isa::kAvx2) peak = Measure(PeakFmaLoopAvx2, 12 * 8);
  if (isa == cpu::Isa::kAvx512Vnni) peak = Measure(PeakFmaLoopAvx512, 12 * 16);
#endif
  cache[isa] = peak;
  return peak;
}

}  // namespace octet::bench
