// `octet cpu`: the kernel paths this CPU runs and the one in use (OCTET_ISA may force one),
// for bug reports and for scripts that test every path.
#include <cstdio>

#include "cli_common.h"
#include "commands.h"
#include "kernels/cpu/cpu_features.h"

namespace octet::cli {

int CpuCommand() {
  const std::string problem = cpu::CheckIsaSelection();
  if (!problem.empty()) throw Failure(problem);
  std::printf("kernel paths: %s\n", cpu::SupportedIsaList().c_str());
  std::printf("best: %s\n", cpu::IsaName(cpu::BestIsa()));
  std::printf("active: %s\n", cpu::IsaName(cpu::ActiveIsa()));
  return 0;
}

}  // namespace octet::cli
