// The measured int8 MAC peak of one core on a kernel path (independent multiply-accumulate
// chains in a loop, timed once per process), for "% of peak" in the benchmarks.
#pragma once

#include "kernels/cpu/cpu_features.h"

namespace octet::bench {

double PeakGmacPerSecond(cpu::Isa isa);

// The measured float32 FMA peak (G FMAs/s) of one core on a kernel path (1 for the portable
// path, which has no meaningful peak).
double PeakGfmaPerSecond(cpu::Isa isa);

}  // namespace octet::bench
