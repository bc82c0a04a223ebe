// How a broadcasting binary op (ADD/SUB/MUL/DIV) splits into rows that the contiguous
// optimized kernels take: row r computes out[r * len, (r + 1) * len) from a + r * a_step and
// b + r * b_step, each operand either `len` values or one value repeated (scalar flags).
//
// Covered: every broadcast with a split point s where each operand, on the dimensions before
// s, either equals the output or is all 1s (then it repeats from row to row), and on the
// dimensions from s on either equals the output or is all 1s (then one value per row). That
// includes equal shapes, single values, a vector repeating along leading dimensions
// ([1, 192, 192, 3] - [1, 1, 1, 3]), an operand constant along trailing ones
// ([48, 48, 17] - [48, 48, 1]) and outer-product shapes ([48, 48, 1] - [1, 17]). Other
// broadcasts (a middle dimension) stay on the reference kernels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/shape.h"
#include "kernels/threads/thread_pool.h"

namespace octet::ops::elementwise {

struct BinaryRows {
  int64_t rows = 0;
  int64_t len = 0;
  int64_t a_step = 0;
  int64_t b_step = 0;
  bool a_scalar = false;
  bool b_scalar = false;
  // The operand repeating along leading dims (0 none, 1 a, 2 b): its `len` values repeat for
  // every row, so a caller may tile them into a longer row to make fewer, longer calls.
  int repeated = 0;
};

// The plan for `a` op `b` -> `out` (shapes as given, any ranks), or false when the broadcast is
// not covered. The longest rows win (the first split point that works).
inline bool PlanBinaryRows(const Shape& a_shape, const Shape& b_shape, const Shape& out_shape,
                           BinaryRows* plan) {
  const int rank = out_shape.rank();
  if (out_shape.FlatSize() == 0 || a_shape.rank() > rank || b_shape.rank() > rank) return false;
  const Shape a = a_shape.Extended(rank), b = b_shape.Extended(rank);
  // How one operand reads at split point s; false when it cannot.
  struct Side {
    int64_t step;
    bool scalar;
  };
  const auto side = [&](const Shape& x, int s, int64_t len, Side* out) {
    bool lead_full = true, lead_ones = true, trail_full = true, trail_ones = true;
    for (int i = 0; i < s; ++i) {
      lead_full = lead_full && x.dim(i) == out_shape.dim(i);
      lead_ones = lead_ones && x.dim(i) == 1;
    }
    for (int i = s; i < rank; ++i) {
      trail_full = trail_full && x.dim(i) == out_shape.dim(i);
      trail_ones = trail_ones && x.dim(i) == 1;
    }
    if (!(lead_full || lead_ones) || !(trail_full || trail_ones)) return false;
    out->scalar = !trail_full;
    out->step = lead_full ? (trail_full ? len : 1) : 0;
    return true;
  };
  for (int s = 0; s <= rank; ++s) {
    const int64_t len = out_shape.SizeBetween(s, rank);
    Side sa, sb;
    if (!side(a, s, len, &sa) || !side(b, s, len, &sb)) continue;
    BinaryRows p;
    p.rows = out_shape.SizeBetween(0, s);
    p.len = len;
    p.a_step = sa.step;
    p.b_step = sb.step;
    // A one-value operand in a single row is the scalar case of the kernels.
    p.a_scalar = sa.scalar && len != 1;
    p.b_scalar = sb.scalar && len != 1;
    // A vector that every row reuses, against a full operand: tileable.
    if (p.rows > 1 && !p.a_scalar && !p.b_scalar) {
      if (sa.step == 0 && sb.step == len) p.repeated = 1;
      if (sb.step == 0 && sa.step == len) p.repeated = 2;
    }
    *plan = p;
    return true;
  }
  return false;
}

// Runs the plan: call(a, b, out, count, a_scalar, b_scalar) on contiguous pieces, split over
// the pool. A short repeating operand is first tiled into a buffer of up to kTile values so
// that each call covers many rows (a 3-value normalization vector would otherwise cost a call
// per pixel).
template <typename T, typename Call>
void RunBinaryRows(ThreadPool* pool, const BinaryRows& p, const T* a, const T* b, T* out,
                   const Call& call) {
  constexpr int64_t kTile = 1024;
  if (p.rows == 1) {
    ParallelForChunks(pool, static_cast<size_t>(p.len), kElementwiseChunk,
                      [&](size_t begin, size_t end) {
                        call(p.a_scalar ? a : a + begin, p.b_scalar ? b : b + begin, out + begin,
                             end - begin, p.a_scalar, p.b_scalar);
                      });
    return;
  }
  int64_t rows = p.rows, len = p.len, a_step = p.a_step, b_step = p.b_step;
  T tiled[kTile];
  if (p.repeated != 0 && len < kTile / 2) {
    const T* vector = p.repeated == 1 ? a : b;
    const int64_t copies = kTile / len;
    for (int64_t c = 0; c < copies; ++c) std::copy(vector, vector + len, tiled + c * len);
    len *= copies;
    if (p.repeated == 1) {
      a = tiled;  // the same tile for every row
      b_step = len;
    } else {
      b = tiled;
      a_step = len;
    }
    rows = p.rows / copies;
    // The rows that do not fill a whole tile: one shorter call at the end.
    const int64_t rest = (p.rows - rows * copies) * p.len;
    if (rest > 0) {
      const int64_t done = rows * len;
      call(p.repeated == 1 ? a : a + done, p.repeated == 2 ? b : b + done, out + done,
           static_cast<size_t>(rest), false, false);
    }
  }
  const size_t min_rows = std::max<size_t>(1, kElementwiseChunk / static_cast<size_t>(len));
  ParallelForChunks(pool, static_cast<size_t>(rows), min_rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const int64_t i = static_cast<int64_t>(r);
      call(a + i * a_step, b + i * b_step, out + i * len, static_cast<size_t>(len), p.a_scalar,
           p.b_scalar);
    }
  });
}

}  // namespace octet::ops::elementwise
