// The kernel paths a test runs on, and a scope that forces one: shared by the micro-kernel
// tests (parameterized over the paths that have a kernel of a family) and the glue and model
// tests (which force each path the CPU runs and compare with the reference).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"

namespace octet::testing {

// The paths for which `kernel_for(isa)` (a dispatch function, e.g. QGemmKernelFor) has a
// kernel on this CPU.
template <typename KernelFor>
std::vector<cpu::Isa> PathsWithKernel(KernelFor kernel_for) {
  std::vector<cpu::Isa> paths;
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (kernel_for(isa) != nullptr) paths.push_back(isa);
  }
  return paths;
}

// Every path this CPU runs except the reference.
inline std::vector<cpu::Isa> OptimizedPaths() {
  std::vector<cpu::Isa> paths;
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (isa != cpu::Isa::kReference && cpu::CpuSupports(isa)) paths.push_back(isa);
  }
  return paths;
}

// Forces a path for the scope's lifetime (then back to OCTET_ISA or the best path).
struct IsaScope {
  explicit IsaScope(cpu::Isa isa) { ok = cpu::SetIsa(isa, nullptr); }
  ~IsaScope() { cpu::ResetIsa(); }
  IsaScope(const IsaScope&) = delete;
  IsaScope& operator=(const IsaScope&) = delete;
  bool ok = false;
};

// Test names for INSTANTIATE_TEST_SUITE_P over paths.
inline std::string PathName(const ::testing::TestParamInfo<cpu::Isa>& info) {
  return cpu::IsaName(info.param);
}

}  // namespace octet::testing
