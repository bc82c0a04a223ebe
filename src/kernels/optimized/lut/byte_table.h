// An 8-bit to 8-bit elementwise function as a 256-entry table. Filled in prepare by calling
// the reference function on every input value, so a lookup is exact by construction; used
// for 8-bit requantization (QUANTIZE int8 <-> uint8) and other unary 8-bit ops. General
// tables run on the active path's lookup kernel (lut.h), chosen when the table is filled.
// Portable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"

namespace octet::optimized {

struct ByteTable {
  uint8_t value[256];
  // Shapes common enough to deserve a loop the compiler vectorizes: a QUANTIZE between int8
  // and uint8 with equal scales and zero points 128 apart only flips the top bit.
  enum class Kind { kGeneral, kIdentity, kFlipTopBit } kind = Kind::kGeneral;
  // The lookup kernel of the path active when the table was filled (none: plain loop).
  const LutKernel* kernel = nullptr;
};

// table[b] = f(In(b)) stored as Out's bytes, for In, Out in {int8_t, uint8_t}.
template <typename In, typename Out, typename F>
void FillByteTable(F&& f, ByteTable* table) {
  for (int b = 0; b < 256; ++b) {
    const In x = static_cast<In>(static_cast<uint8_t>(b));
    table->value[b] = static_cast<uint8_t>(static_cast<Out>(f(x)));
  }
  bool identity = true, flip = true;
  for (int b = 0; b < 256; ++b) {
    identity = identity && table->value[b] == b;
    flip = flip && table->value[b] == (b ^ 0x80);
  }
  table->kind = identity ? ByteTable::Kind::kIdentity
                : flip   ? ByteTable::Kind::kFlipTopBit
                         : ByteTable::Kind::kGeneral;
  table->kernel = LutKernelFor(cpu::ActiveIsa());
}

inline void ApplyByteTable(const ByteTable& table, const uint8_t* in, uint8_t* out, size_t n) {
  switch (table.kind) {
    case ByteTable::Kind::kIdentity:
      if (n > 0 && in != out) std::memmove(out, in, n);
      return;
    case ByteTable::Kind::kFlipTopBit:
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(in[i] ^ 0x80);
      return;
    case ByteTable::Kind::kGeneral:
      if (table.kernel != nullptr) {
        table.kernel->apply(table.value, in, out, n);
      } else {
        for (size_t i = 0; i < n; ++i) out[i] = table.value[in[i]];
      }
      return;
  }
}

}  // namespace octet::optimized
