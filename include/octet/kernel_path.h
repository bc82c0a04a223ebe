// Choosing the kernel path (instruction set) of Octet's built-in kernels, as OCTET_ISA does,
// from a program: for tests, bug reports and A/B timing. An Octet extension.
//
// Paths: "reference" (the reference loops), "scalar" (portable C++ optimized kernels),
// "avx2", "avx512vnni". By default the best path the CPU runs is used. Nodes read the
// path when they are prepared, so a change applies to interpreters built (or tensors
// allocated) afterwards.
#pragma once

#include <string>

namespace octet {

// Forces `name` for the rest of the process. Returns false, and fills *error when given,
// for an unknown name or a path this CPU lacks (the message lists the ones it has).
bool SetKernelPath(const std::string& name, std::string* error = nullptr);

// Back to OCTET_ISA, or to the best path when it is not set.
void ResetKernelPath();

// The path nodes prepared now would use, e.g. "avx512vnni".
const char* ActiveKernelPath();

// The paths this CPU runs, best first: "avx512vnni, avx2, scalar, reference".
std::string SupportedKernelPaths();

}  // namespace octet
