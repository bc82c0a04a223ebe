// Shared by the non-finite tests (nonfinite_test.cc, nonfinite_hybrid_test.cc): the special
// float values fed to every op, the kernel paths this CPU runs, and comparisons that treat
// every NaN as equal to every other (their sign and payload carry no meaning).
#pragma once

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "util/kernel_paths.h"
#include "util/node_outcome.h"
#include "util/op_model.h"

namespace octet::nonfinite_test {

using testing::IsaScope;
using testing::OpModel;
using testing::TensorSpec;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// NaN, infinities, huge finite values, denormals, signed zeros and rounding ties.
inline const std::vector<float>& Specials() {
  static const std::vector<float> v = {
      kNaN,   kInf,    -kInf, 3e38f,    -3e38f,    1e10f,        -1e10f,       FLT_MAX, -FLT_MAX,
      1e-40f, -1e-40f, 0.f,   -0.f,     2.5f,      -2.5f,        FLT_TRUE_MIN, 126.5f,  -128.5f,
      255.5f, 1e-30f,  -kNaN, 32767.5f, -32768.5f, 2147483648.f, -2147483904.f};
  return v;
}

// `n` values: the specials, then ordinary values in [-300, 300), then the specials again at
// the end, so that they land in the SIMD loops' main blocks and in their tails.
inline std::vector<float> MixedInput(size_t n) {
  std::vector<float> v(n);
  uint32_t s = 12345u;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = -300.f + 600.f * static_cast<float>(s >> 8) / 16777216.f;
  }
  const std::vector<float>& sp = Specials();
  for (size_t i = 0; i < sp.size() && i < n; ++i) {
    v[i] = sp[i];
    v[n - 1 - i] = sp[(i * 7) % sp.size()];
  }
  return v;
}

// Every kernel path this CPU runs, the reference first.
inline std::vector<cpu::Isa> Paths() {
  std::vector<cpu::Isa> paths;
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (cpu::CpuSupports(isa)) paths.push_back(isa);
  }
  return paths;
}

inline bool SameValue(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}
template <typename T>
bool SameValue(T a, T b) {
  return a == b;
}

// `want` and `got` equal element by element (NaN == NaN, floats bit for bit otherwise).
template <typename T>
void ExpectSame(const std::vector<T>& want, const std::vector<T>& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_TRUE(SameValue(want[i], got[i]))
        << what << " at " << i << ": want " << +want[i] << ", got " << +got[i];
  }
}

// Runs `run` (which builds and invokes a fresh model) on every path; expects no error and
// the same output on each, and returns the reference path's output.
template <typename T>
std::vector<T> SameOnEveryPath(const std::function<testing::NodeOutcome<T>()>& run,
                               const std::string& what) {
  std::vector<T> first;
  for (cpu::Isa isa : Paths()) {
    IsaScope scope(isa);
    EXPECT_TRUE(scope.ok);
    const testing::NodeOutcome<T> got = run();
    EXPECT_EQ(got.error, "") << what << " on " << cpu::IsaName(isa);
    if (isa == cpu::Isa::kReference) {
      first = got.output;
    } else {
      ExpectSame(first, got.output, what + " on " + cpu::IsaName(isa) + " (" + got.kernel + ")");
    }
  }
  return first;
}

// The error every path reports (empty when the node ran); expects all paths to agree.
inline std::string ErrorOnEveryPath(const std::function<std::string()>& run,
                                    const std::string& what) {
  std::string first;
  bool have = false;
  for (cpu::Isa isa : Paths()) {
    IsaScope scope(isa);
    const std::string e = run();
    if (!have) {
      first = e;
      have = true;
    } else {
      EXPECT_EQ(first, e) << what << " on " << cpu::IsaName(isa);
    }
  }
  return first;
}

}  // namespace octet::nonfinite_test
