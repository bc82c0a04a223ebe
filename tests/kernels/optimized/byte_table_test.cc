// Byte tables against the function they were filled from: general tables, and the identity
// and top-bit-flip shapes that take their own loops (detected, applied out of place and in
// place, any length).
#include "kernels/optimized/lut/byte_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace octet::optimized {
namespace {

template <typename In, typename Out, typename F>
void ExpectTableComputes(F f, ByteTable::Kind want_kind) {
  ByteTable table;
  FillByteTable<In, Out>(f, &table);
  EXPECT_EQ(table.kind, want_kind);
  std::mt19937 rng(5);
  for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{64}, size_t{1000}}) {
    std::vector<uint8_t> in(n);
    for (auto& b : in) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> want(n);
    for (size_t i = 0; i < n; ++i) {
      want[i] = static_cast<uint8_t>(static_cast<Out>(f(static_cast<In>(in[i]))));
    }
    std::vector<uint8_t> out(n, 0xEE);
    ApplyByteTable(table, in.data(), out.data(), n);
    EXPECT_EQ(out, want) << "n " << n;
    ApplyByteTable(table, in.data(), in.data(), n);  // in place
    EXPECT_EQ(in, want) << "in place, n " << n;
  }
}

TEST(ByteTable, GeneralFunction) {
  ExpectTableComputes<int8_t, int8_t>([](int8_t x) { return static_cast<int8_t>(x / 3); },
                                      ByteTable::Kind::kGeneral);
}

TEST(ByteTable, IdentityIsDetected) {
  ExpectTableComputes<uint8_t, uint8_t>([](uint8_t x) { return x; }, ByteTable::Kind::kIdentity);
}

// uint8 -> int8 with equal scales and zero points 128 apart, as converters emit at inputs.
TEST(ByteTable, ZeroPointShiftOf128IsDetected) {
  ExpectTableComputes<uint8_t, int8_t>([](uint8_t x) { return static_cast<int8_t>(x - 128); },
                                       ByteTable::Kind::kFlipTopBit);
  ExpectTableComputes<int8_t, uint8_t>([](int8_t x) { return static_cast<uint8_t>(x + 128); },
                                       ByteTable::Kind::kFlipTopBit);
}

// Almost a flip but one entry differs: must stay general.
TEST(ByteTable, NearFlipStaysGeneral) {
  ExpectTableComputes<uint8_t, int8_t>(
      [](uint8_t x) { return static_cast<int8_t>(x == 200 ? 0 : x - 128); },
      ByteTable::Kind::kGeneral);
}

}  // namespace
}  // namespace octet::optimized
