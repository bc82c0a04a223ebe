// The public face (include/octet/kernel_path.h) of the kernel-path selection in cpu_features.
#include "octet/kernel_path.h"

#include "kernels/cpu/cpu_features.h"

namespace octet {

bool SetKernelPath(const std::string& name, std::string* error) {
  std::string message;
  cpu::Isa isa;
  bool ok = false;
  if (!cpu::ParseIsa(name, &isa)) {
    message = "unknown kernel path '" + name + "' (this CPU runs: " + cpu::SupportedIsaList() + ")";
  } else {
    ok = cpu::SetIsa(isa, &message);
  }
  if (!ok && error != nullptr) *error = message;
  return ok;
}

void ResetKernelPath() { cpu::ResetIsa(); }

const char* ActiveKernelPath() { return cpu::IsaName(cpu::ActiveIsa()); }

std::string SupportedKernelPaths() { return cpu::SupportedIsaList(); }

}  // namespace octet
