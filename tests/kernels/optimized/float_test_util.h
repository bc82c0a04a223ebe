// Random data and the error bound of the float kernels' differential tests: outputs are
// compared with an exact (double) computation, allowing the classical bound for any order of
// a K-term sum, |got - exact| <= (K + 1) u Σ|terms| with u = 2^-24 (doubled for margin),
// applied after the clamp, which cannot increase an error.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/optimized/fgemm/fgemm_driver.h"

namespace octet::optimized::testing {

inline std::vector<float> RandomFloats(std::mt19937& rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

inline FloatClamp RandomClamp(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0:
      return {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
    case 1:
      return {0.f, std::numeric_limits<float>::max()};  // RELU
    case 2:
      return {0.f, 6.f};  // RELU6
    default:
      return {-1.f, 1.f};  // RELU_N1_TO_1
  }
}

// Expected value and error bound of one output.
struct Expected {
  double value;
  double bound;
};

inline Expected Finish(double sum, double magnitude, int terms, FloatClamp clamp) {
  const double u = std::ldexp(1.0, -24);
  const double value = std::min(std::max(sum, double{clamp.min}), double{clamp.max});
  return {value, 2.0 * (terms + 2) * u * magnitude + 1e-30};
}

inline void ExpectWithin(const std::vector<float>& got, const std::vector<Expected>& want,
                         const std::string& label) {
  ASSERT_EQ(got.size(), want.size()) << label;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_LE(std::fabs(got[i] - want[i].value), want[i].bound)
        << label << ": output " << i << " got " << got[i] << " want " << want[i].value;
  }
}

}  // namespace octet::optimized::testing
