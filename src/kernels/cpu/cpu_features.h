// Which kernel path (instruction set) Octet runs, decided once per process from the CPU's
// features (libcpuinfo), optionally forced by OCTET_ISA or SetIsa for tests and bug reports.
#pragma once

#include <string>

namespace octet::cpu {

// Kernel paths, slowest first. kReference pins the reference loops (no optimized kernels);
// kScalar is the portable C++ path of the optimized kernels, built everywhere.
enum class Isa { kReference = 0, kScalar = 1, kAvx2 = 2, kAvx512Vnni = 3 };

constexpr Isa kAllIsas[] = {Isa::kReference, Isa::kScalar, Isa::kAvx2, Isa::kAvx512Vnni};

// "reference", "scalar", "avx2", "avx512vnni".
const char* IsaName(Isa isa);
// Parses one of the names above; false for anything else.
bool ParseIsa(const std::string& name, Isa* isa);

// True when the path's code was built into this binary and the CPU (and OS) can run it.
bool CpuSupports(Isa isa);

// The best path this CPU supports.
Isa BestIsa();

// The path kernels use: the one forced by SetIsa, else by the OCTET_ISA environment variable
// (read once), else BestIsa(). A forced path the CPU cannot run is an error, reported by
// CheckIsaSelection; until it is fixed kernels fall back to BestIsa().
Isa ActiveIsa();

// Forces a path for the rest of the process (kernels prepared afterwards use it). Returns
// false and fills *error when the CPU cannot run it.
bool SetIsa(Isa isa, std::string* error);
// Forgets SetIsa: back to OCTET_ISA or the best path.
void ResetIsa();

// Empty when the selection is valid, else a one-line message naming the problem
// (an unknown OCTET_ISA name, or a path this CPU lacks, with the paths it has).
std::string CheckIsaSelection();

// "avx512vnni, avx2, scalar, reference": the paths this CPU supports, best first.
std::string SupportedIsaList();

}  // namespace octet::cpu
