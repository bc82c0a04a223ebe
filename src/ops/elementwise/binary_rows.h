// How a broadcasting binary op (ADD/SUB/MUL/DIV) splits into rows that the contiguous
// optimized kernels take: row r computes out[r * len, (r + 1) * len) from a + r * a_step and
// b + r * b_step, each operand either `len` values or one value repeated (scalar flags).
//
// Covered: equal shapes; an operand with one value; an operand repeating along the leading
// dimensions (a bias or normalization vector: [1, 192, 192, 3] - [1, 1, 1, 3]); an operand
// constant along the trailing dimensions ([48, 48, 17] - [48, 48, 1]). Other broadcasts stay
// on the reference kernels.
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
// none of the covered kinds.
inline bool PlanBinaryRows(const Shape& a_shape, const Shape& b_shape, const Shape& out_shape,
                           BinaryRows* plan) {
  const int64_t n = out_shape.FlatSize();
  const int64_t na = a_shape.FlatSize(), nb = b_shape.FlatSize();
  BinaryRows p;
  if (n == 0) return false;
  if (na == n && nb == n) {
    p.rows = 1;
    p.len = n;
  } else if ((na == 1 || nb == 1) && (na == n || nb == n)) {
    p.rows = 1;
    p.len = n;
    p.a_scalar = na == 1 && n != 1;
    p.b_scalar = nb == 1 && n != 1;
  } else {
    const int rank = out_shape.rank();
    if (a_shape.rank() > rank || b_shape.rank() > rank) return false;
    const bool a_full = na == n;
    if (!a_full && nb != n) return false;  // both broadcast: not covered
    const Shape small = (a_full ? b_shape : a_shape).Extended(rank);
    // The split point k: the small operand matches the output on one side of it and is 1 on
    // the other.
    int k = 0;
    while (k < rank && small.dim(k) == 1) ++k;
    bool trailing_match = true;
    for (int i = k; i < rank; ++i)
      trailing_match = trailing_match && small.dim(i) == out_shape.dim(i);
    if (trailing_match) {  // repeats along the leading dims
      p.len = out_shape.SizeBetween(k, rank);
      p.rows = n / p.len;
      (a_full ? p.a_step : p.b_step) = p.len;
      p.repeated = a_full ? 2 : 1;
    } else {
      int j = rank;
      while (j > 0 && small.dim(j - 1) == 1) --j;
      for (int i = 0; i < j; ++i) {
        if (small.dim(i) != out_shape.dim(i)) return false;
      }
      p.len = out_shape.SizeBetween(j, rank);  // constant along the trailing dims
      p.rows = n / p.len;
      p.a_step = a_full ? p.len : 1;
      p.b_step = a_full ? 1 : p.len;
      p.a_scalar = !a_full;
      p.b_scalar = a_full;
    }
  }
  *plan = p;
  return true;
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
