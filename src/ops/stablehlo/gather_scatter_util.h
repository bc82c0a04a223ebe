// Pieces STABLEHLO_GATHER and STABLEHLO_SCATTER share: checking the dimension lists of their
// options against ranks, row-major strides, reading start indices and walking index spaces.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_util.h"

namespace octet::ops::stablehlo {

// Every entry of `dims[0, n)` is in [0, limit) and appears once; with `sorted`, the entries
// also ascend. `name` is the option's name for the error.
inline TfLiteStatus CheckDimList(TfLiteContext* context, const char* op, const char* name,
                                 const int64_t* dims, int n, int64_t limit, bool sorted) {
  for (int i = 0; i < n; ++i) {
    OCTET_OP_ENSURE(context, dims[i] >= 0 && dims[i] < limit, op,
                    "%s[%d] = %lld is out of range [0, %lld)", name, i,
                    static_cast<long long>(dims[i]), static_cast<long long>(limit));
    for (int j = 0; j < i; ++j) {
      OCTET_OP_ENSURE(context, dims[j] != dims[i], op, "%s lists dimension %lld twice", name,
                      static_cast<long long>(dims[i]));
      OCTET_OP_ENSURE(context, !sorted || dims[j] < dims[i], op, "%s must be sorted", name);
    }
  }
  return kTfLiteOk;
}

inline bool Contains(const int64_t* dims, int n, int64_t value) {
  for (int i = 0; i < n; ++i) {
    if (dims[i] == value) return true;
  }
  return false;
}

inline std::vector<int64_t> TensorDims(const TfLiteTensor* t) {
  return std::vector<int64_t>(t->dims->data, t->dims->data + t->dims->size);
}

// Row-major element strides of `dims`.
inline std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    strides[d] = s;
    s *= dims[d];
  }
  return strides;
}

// Product of `dims`, false when it overflows or a dim is negative.
inline bool CountElements(const std::vector<int64_t>& dims, int64_t* count) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return false;
  }
  *count = n;
  return true;
}

// The start index element at flat position `i` of an INT32 or INT64 tensor.
inline int64_t ReadIndex(const TfLiteTensor* indices, int64_t i) {
  return indices->type == kTfLiteInt64 ? indices->data.i64[i]
                                       : static_cast<int64_t>(indices->data.i32[i]);
}

// Steps `idx` to the next index of `dims` in row-major order. Returns the axis that was
// incremented (axes after it went back to 0), or -1 once every index was visited.
inline int NextIndex(const std::vector<int64_t>& dims, std::vector<int64_t>* idx) {
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    if (++(*idx)[d] < dims[d]) return d;
    (*idx)[d] = 0;
  }
  return -1;
}

// Where the index vectors of a start-indices tensor lie: the vector of batch position `b`
// (indices' axes other than index_vector_dim) has `length` elements `stride` apart. When
// index_vector_dim equals the rank the vectors are implicit single elements.
struct IndexVectors {
  std::vector<int64_t> batch_dims;     // indices' dims without index_vector_dim
  std::vector<int64_t> batch_strides;  // their strides in the indices tensor
  int64_t length = 1;
  int64_t stride = 1;
};

inline IndexVectors DescribeIndexVectors(const TfLiteTensor* indices, int64_t index_vector_dim) {
  IndexVectors v;
  const std::vector<int64_t> dims = TensorDims(indices);
  const std::vector<int64_t> strides = Strides(dims);
  for (size_t d = 0; d < dims.size(); ++d) {
    if (static_cast<int64_t>(d) == index_vector_dim) {
      v.length = dims[d];
      v.stride = strides[d];
    } else {
      v.batch_dims.push_back(dims[d]);
      v.batch_strides.push_back(strides[d]);
    }
  }
  return v;
}

// index_vector_dim in [0, rank(indices)] and the index vectors `expected` long (the size of
// start_index_map / scatter_dims_to_operand_dims).
inline TfLiteStatus CheckIndexVectorDim(TfLiteContext* context, const char* op,
                                        const TfLiteTensor* indices, int64_t index_vector_dim,
                                        int expected, const char* map_name) {
  const int rank = indices->dims->size;
  OCTET_OP_ENSURE(context, index_vector_dim >= 0 && index_vector_dim <= rank, op,
                  "index_vector_dim %lld is out of range [0, %d] for indices of rank %d",
                  static_cast<long long>(index_vector_dim), rank, rank);
  const int64_t length = index_vector_dim < rank ? indices->dims->data[index_vector_dim] : 1;
  OCTET_OP_ENSURE(context, length == expected, op,
                  "%s has %d entries but the index vectors have %lld elements", map_name, expected,
                  static_cast<long long>(length));
  return kTfLiteOk;
}

}  // namespace octet::ops::stablehlo
