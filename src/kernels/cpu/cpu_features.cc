#include "kernels/cpu/cpu_features.h"

#include <atomic>
#include <cstdlib>

#if defined(OCTET_HAVE_CPUINFO)
#include <cpuinfo.h>
#endif

namespace octet::cpu {
namespace {

struct Detected {
  bool avx2 = false;
  bool avx512vnni = false;
};

Detected Detect() {
  Detected d;
#if defined(OCTET_HAVE_X86_KERNELS)
#if defined(OCTET_HAVE_CPUINFO)
  if (cpuinfo_initialize()) {
    d.avx2 = cpuinfo_has_x86_avx2() && cpuinfo_has_x86_fma3();
    d.avx512vnni = d.avx2 && cpuinfo_has_x86_avx512f() && cpuinfo_has_x86_avx512bw() &&
                   cpuinfo_has_x86_avx512dq() && cpuinfo_has_x86_avx512vl() &&
                   cpuinfo_has_x86_avx512vnni();
  }
#else
  // Without libcpuinfo, the compiler's runtime (which also checks the OS saves the state).
  __builtin_cpu_init();
  d.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  d.avx512vnni = d.avx2 && __builtin_cpu_supports("avx512f") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#endif
#endif
  return d;
}

const Detected& Features() {
  static const Detected detected = Detect();
  return detected;
}

// -1: not forced through SetIsa.
std::atomic<int> g_forced{-1};

// The OCTET_ISA value, parsed once: ok=false when it names no path.
struct EnvChoice {
  bool set = false;
  bool ok = false;
  Isa isa = Isa::kReference;
  std::string raw;
};

const EnvChoice& FromEnvironment() {
  static const EnvChoice choice = [] {
    EnvChoice c;
    const char* v = std::getenv("OCTET_ISA");
    if (v == nullptr || *v == '\0') return c;
    c.set = true;
    c.raw = v;
    c.ok = ParseIsa(c.raw, &c.isa);
    return c;
  }();
  return choice;
}

}  // namespace

const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kReference:
      return "reference";
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512Vnni:
      return "avx512vnni";
  }
  return "unknown";
}

bool ParseIsa(const std::string& name, Isa* isa) {
  for (Isa candidate : kAllIsas) {
    if (name == IsaName(candidate)) {
      *isa = candidate;
      return true;
    }
  }
  return false;
}

bool CpuSupports(Isa isa) {
  switch (isa) {
    case Isa::kReference:
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      return Features().avx2;
    case Isa::kAvx512Vnni:
      return Features().avx512vnni;
  }
  return false;
}

Isa BestIsa() {
  Isa best = Isa::kScalar;
  for (Isa candidate : kAllIsas) {
    if (CpuSupports(candidate)) best = candidate;
  }
  return best;
}

Isa ActiveIsa() {
  const int forced = g_forced.load(std::memory_order_relaxed);
  if (forced >= 0) return static_cast<Isa>(forced);
  const EnvChoice& env = FromEnvironment();
  if (env.set && env.ok && CpuSupports(env.isa)) return env.isa;
  return BestIsa();
}

bool SetIsa(Isa isa, std::string* error) {
  if (!CpuSupports(isa)) {
    if (error) {
      *error = std::string("kernel path '") + IsaName(isa) +
               "' is not supported by this CPU (supported: " + SupportedIsaList() + ")";
    }
    return false;
  }
  g_forced.store(static_cast<int>(isa), std::memory_order_relaxed);
  return true;
}

void ResetIsa() { g_forced.store(-1, std::memory_order_relaxed); }

std::string CheckIsaSelection() {
  if (g_forced.load(std::memory_order_relaxed) >= 0) return "";
  const EnvChoice& env = FromEnvironment();
  if (!env.set) return "";
  if (!env.ok) {
    return "OCTET_ISA='" + env.raw +
           "' names no kernel path (use one of: reference, scalar, avx2, avx512vnni)";
  }
  if (!CpuSupports(env.isa)) {
    return "OCTET_ISA=" + env.raw +
           ": this CPU cannot run that kernel path (supported: " + SupportedIsaList() + ")";
  }
  return "";
}

std::string SupportedIsaList() {
  std::string list;
  for (int i = static_cast<int>(Isa::kAvx512Vnni); i >= 0; --i) {
    const Isa isa = static_cast<Isa>(i);
    if (!CpuSupports(isa)) continue;
    if (!list.empty()) list += ", ";
    list += IsaName(isa);
  }
  return list;
}

}  // namespace octet::cpu
