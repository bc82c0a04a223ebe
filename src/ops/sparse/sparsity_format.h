// Sparse (TACO-style) tensor layout as .tflite files store it, and its conversion to dense:
// the role of TFLite's sparsity FormatConverter (SparseToDense), over validated metadata.
//
// A tensor of dense shape D (rank n) may be blocked: block_map[k] names the dense dimension
// the k-th block dimension splits, so the expanded shape has n + b dimensions (blocked
// dimension d becomes D[d] / block and a trailing block dimension of size block). The
// traversal order permutes the expanded dimensions into storage levels; each level is DENSE
// (dense_size entries per parent position) or SPARSE_CSR (segments[p]..segments[p+1] index
// the positions under parent p; indices give their coordinates). Values are stored in level
// order, one per position of the last level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::sparse {

// Everything Densify needs, with every index already checked against its bounds.
struct DensifyPlan {
  struct Level {
    bool sparse = false;
    int size = 0;                   // entries of this expanded dimension
    std::vector<int64_t> segments;  // SPARSE_CSR only
    std::vector<int32_t> indices;   // SPARSE_CSR only
  };
  std::vector<int> dense_shape;
  std::vector<int> traversal_order;
  std::vector<int> block_map;
  std::vector<int> block_size;
  std::vector<Level> levels;
  int64_t dense_elements = 0;
  int64_t value_count = 0;  // values the sparse tensor must hold
};

// Checks `sparsity` against the dense shape and fills `plan`; false with a one-line reason
// (which never echoes more than a few numbers) otherwise. Hostile metadata is rejected here
// rather than read out of bounds later: permutations, block maps, level sizes, segment
// monotonicity and ranges, index ranges and the number of values are all checked.
bool BuildDensifyPlan(const TfLiteSparsity& sparsity, const std::vector<int>& dense_shape,
                      DensifyPlan* plan, std::string* error);

// Writes the dense tensor: zero bytes everywhere, then each of plan.value_count values
// (element_size bytes each) at its coordinate.
void Densify(const DensifyPlan& plan, const uint8_t* values, size_t element_size, uint8_t* dense);

}  // namespace octet::ops::sparse
