// Table lookups as TFLite computes them: EMBEDDING_LOOKUP (row copies, or rows of an 8-bit
// table dequantized to float), EMBEDDING_LOOKUP_SPARSE (weighted rows combined per bucket of
// a sparse tensor) and HASHTABLE_LOOKUP (binary search in sorted int32 keys). Every id is
// checked against the table before anything is read; the callers report the first bad one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace octet::reference {

// The first out-of-range id (ok == false), or ok.
struct LookupError {
  bool ok = true;
  int64_t position = 0;  // where in the ids
  int64_t id = 0;
  int64_t limit = 0;  // ids must be in [0, limit)
};

inline LookupError CheckIds(const int32_t* ids, int64_t count, int64_t rows) {
  for (int64_t i = 0; i < count; ++i) {
    if (ids[i] < 0 || ids[i] >= rows) return LookupError{false, i, ids[i], rows};
  }
  return LookupError{};
}

// out row i = table row ids[i], row_bytes each.
inline LookupError EmbeddingLookupBytes(const int32_t* ids, int64_t count, int64_t rows,
                                        int64_t row_bytes, const uint8_t* table, uint8_t* out) {
  const LookupError err = CheckIds(ids, count, rows);
  if (!err.ok) return err;
  for (int64_t i = 0; i < count; ++i) {
    if (row_bytes > 0) {
      std::memcpy(out + i * row_bytes, table + int64_t{ids[i]} * row_bytes,
                  static_cast<size_t>(row_bytes));
    }
  }
  return err;
}

// Hybrid lookup: out row i = table row ids[i] (bytes read as int8, as TFLite reads both int8
// and uint8 tables) times the row's scale, in double as TFLite multiplies. `scales` has one
// entry per table row, or is a single scale when `per_row` is false.
inline LookupError EmbeddingLookupDequantize(const int32_t* ids, int64_t count, int64_t rows,
                                             int64_t cols, const int8_t* table, const float* scales,
                                             bool per_row, float* out) {
  const LookupError err = CheckIds(ids, count, rows);
  if (!err.ok) return err;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = ids[i];
    const double scale = per_row ? scales[row] : scales[0];
    const int8_t* src = table + row * cols;
    float* dst = out + i * cols;
    for (int64_t j = 0; j < cols; ++j) dst[j] = static_cast<float>(src[j] * scale);
  }
  return err;
}

enum class SparseCombiner { kSum, kMean, kSqrtn };

// EMBEDDING_LOOKUP_SPARSE. Lookup i (id ids[i], weight weights[i]) lands in the bucket given
// by the first `lookup_rank - 1` coordinates of indices row i (row-major over dense_shape).
// Consecutive lookups of one bucket are combined: the weighted sum, divided by the sum of
// the weights (mean) or the root of the sum of their squares (sqrtn) when the run ends, as
// TFLite does (so lookups of one bucket are expected to be adjacent, as sorted indices are).
// `out` holds buckets * embedding_size floats and is zeroed first.
struct SparseError {
  enum Kind { kNone, kId, kIndex } kind = kNone;
  int64_t position = 0;  // the lookup
  int dim = 0;           // for kIndex
  int64_t value = 0;
  int64_t limit = 0;
};

inline SparseError EmbeddingLookupSparse(const int32_t* ids, const int32_t* indices,
                                         int lookup_rank, const int32_t* dense_shape,
                                         const float* weights, int64_t num_lookups,
                                         const float* table, int64_t rows, int64_t embedding_size,
                                         int64_t buckets, SparseCombiner combiner, float* out) {
  SparseError err;
  for (int64_t i = 0; i < num_lookups; ++i) {
    if (ids[i] < 0 || ids[i] >= rows) {
      err.kind = SparseError::kId;
      err.position = i;
      err.value = ids[i];
      err.limit = rows;
      return err;
    }
    for (int k = 0; k + 1 < lookup_rank; ++k) {
      const int32_t v = indices[i * lookup_rank + k];
      if (v < 0 || v >= dense_shape[k]) {
        err.kind = SparseError::kIndex;
        err.position = i;
        err.dim = k;
        err.value = v;
        err.limit = dense_shape[k];
        return err;
      }
    }
  }
  std::fill(out, out + buckets * embedding_size, 0.f);
  auto finish = [&](int64_t bucket, int count, float total, float squares) {
    if (combiner == SparseCombiner::kSum || count == 0) return;
    const float divisor = combiner == SparseCombiner::kMean ? total : std::sqrt(squares);
    float* row = out + bucket * embedding_size;
    for (int64_t k = 0; k < embedding_size; ++k) row[k] /= divisor;
  };
  int64_t current = 0;
  int count = 0;
  float total = 0.f, squares = 0.f;
  for (int64_t i = 0; i < num_lookups; ++i) {
    int64_t bucket = 0, stride = 1;
    for (int k = lookup_rank - 2; k >= 0; --k) {
      bucket += int64_t{indices[i * lookup_rank + k]} * stride;
      stride *= dense_shape[k];
    }
    if (bucket != current) {
      finish(current, count, total, squares);
      current = bucket;
      count = 0;
      total = squares = 0.f;
    }
    ++count;
    const float w = weights[i];
    squares += w * w;
    total += w;
    const float* src = table + int64_t{ids[i]} * embedding_size;
    float* dst = out + bucket * embedding_size;
    for (int64_t k = 0; k < embedding_size; ++k) dst[k] += src[k] * w;
  }
  finish(current, count, total, squares);
  return err;
}

// The position of `key` in ascending `keys`, or -1.
inline int64_t HashtableFind(const int32_t* keys, int64_t n, int32_t key) {
  const int32_t* it = std::lower_bound(keys, keys + n, key);
  return (it != keys + n && *it == key) ? it - keys : -1;
}

// The first i with keys[i] < keys[i - 1], or -1 when ascending.
inline int64_t FirstUnsortedKey(const int32_t* keys, int64_t n) {
  for (int64_t i = 1; i < n; ++i) {
    if (keys[i] < keys[i - 1]) return i;
  }
  return -1;
}

// HASHTABLE_LOOKUP on fixed-size rows: out row i = the value row of key lookups[i] (zeros
// when absent), hits[i] = 1 when found.
inline void HashtableLookupBytes(const int32_t* lookups, int64_t count, const int32_t* keys,
                                 int64_t num_keys, const uint8_t* values, int64_t row_bytes,
                                 uint8_t* out, uint8_t* hits) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t at = HashtableFind(keys, num_keys, lookups[i]);
    uint8_t* dst = out + i * row_bytes;
    if (at < 0) {
      if (row_bytes > 0) std::memset(dst, 0, static_cast<size_t>(row_bytes));
      hits[i] = 0;
    } else {
      if (row_bytes > 0) std::memcpy(dst, values + at * row_bytes, static_cast<size_t>(row_bytes));
      hits[i] = 1;
    }
  }
}

}  // namespace octet::reference
