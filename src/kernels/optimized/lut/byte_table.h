// An 8-bit to 8-bit elementwise function as a 256-entry table. Filled in prepare by calling
// the reference function on every input value, so a lookup is exact by construction; used
// for 8-bit requantization (QUANTIZE int8 <-> uint8) and other unary 8-bit ops. Portable.
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

struct ByteTable {
  uint8_t value[256];
};

// table[b] = f(In(b)) stored as Out's bytes, for In, Out in {int8_t, uint8_t}.
template <typename In, typename Out, typename F>
void FillByteTable(F&& f, ByteTable* table) {
  for (int b = 0; b < 256; ++b) {
    const In x = static_cast<In>(static_cast<uint8_t>(b));
    table->value[b] = static_cast<uint8_t>(static_cast<Out>(f(x)));
  }
}

inline void ApplyByteTable(const ByteTable& table, const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = table.value[in[i]];
}

}  // namespace octet::optimized
