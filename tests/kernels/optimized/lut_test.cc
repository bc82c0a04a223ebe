// The byte-lookup kernels against the table itself, on every path: every byte value through
// random tables and structured ones (identity, constant, reversed, one entry set), lengths
// around the vector steps, in place and out of place.
#include "kernels/optimized/lut/lut.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/optimized/dispatch.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

class LutPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const LutKernel& kernel() const { return *LutKernelFor(GetParam()); }
};

std::vector<std::vector<uint8_t>> Tables(std::mt19937& rng) {
  std::vector<std::vector<uint8_t>> tables;
  for (int t = 0; t < 6; ++t) {
    std::vector<uint8_t> table(256);
    for (uint8_t& v : table) v = static_cast<uint8_t>(rng());
    tables.push_back(table);
  }
  std::vector<uint8_t> identity(256), reversed(256), constant(256, 0xA5), single(256, 0);
  for (int i = 0; i < 256; ++i) {
    identity[i] = static_cast<uint8_t>(i);
    reversed[i] = static_cast<uint8_t>(255 - i);
  }
  single[200] = 1;
  for (auto* t : {&identity, &reversed, &constant, &single}) tables.push_back(*t);
  return tables;
}

TEST_P(LutPathTest, EveryByteThroughEveryTable) {
  std::mt19937 rng(8);
  std::vector<uint8_t> in(256 * 3 + 17);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + i / 256);
  for (const auto& table : Tables(rng)) {
    std::vector<uint8_t> out(in.size(), 0);
    kernel().apply(table.data(), in.data(), out.data(), in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      ASSERT_EQ(out[i], table[in[i]]) << kernel().name << " byte " << int(in[i]) << " at " << i;
    }
  }
}

TEST_P(LutPathTest, LengthsAndInPlace) {
  std::mt19937 rng(9);
  const auto tables = Tables(rng);
  for (size_t n : {0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 200, 1000}) {
    std::vector<uint8_t> in(n);
    for (uint8_t& v : in) v = static_cast<uint8_t>(rng());
    const auto& table = tables[n % tables.size()];
    std::vector<uint8_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = table[in[i]];
    // Exactly n bytes each: ASan sees any access past them.
    std::vector<uint8_t> out(n, 0);
    kernel().apply(table.data(), in.data(), out.data(), n);
    EXPECT_EQ(out, want) << kernel().name << " n " << n;
    std::vector<uint8_t> inplace = in;
    kernel().apply(table.data(), inplace.data(), inplace.data(), n);
    EXPECT_EQ(inplace, want) << kernel().name << " in place, n " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, LutPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(LutKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
