#include "ops/sparse/sparsity_format.h"

#include <cstring>
#include <limits>

namespace octet::ops::sparse {
namespace {

// Deep enough for any real blocked tensor (TFLite's kernels stop at rank 6).
constexpr int kMaxLevels = 16;
constexpr int64_t kMaxElements = std::numeric_limits<int32_t>::max();

bool Fail(std::string* error, const std::string& message) {
  *error = message;
  return false;
}

std::vector<int> ToVector(const TfLiteIntArray* a) {
  if (a == nullptr || a->size <= 0) return {};
  return std::vector<int>(a->data, a->data + a->size);
}

// Reads a level's segments / indices; both must be present for SPARSE_CSR.
bool ReadCsr(const TfLiteDimensionMetadata& m, int level, int64_t parents, int size,
             DensifyPlan::Level* out, int64_t* positions, std::string* error) {
  const std::string where = "dim_metadata[" + std::to_string(level) + "]";
  if (m.array_segments == nullptr || m.array_indices == nullptr) {
    return Fail(error, where + " is SPARSE_CSR but has no segments or indices");
  }
  const TfLiteIntArray& seg = *m.array_segments;
  const TfLiteIntArray& idx = *m.array_indices;
  if (seg.size < 0 || idx.size < 0 || static_cast<int64_t>(seg.size) != parents + 1) {
    return Fail(error, where + " has " + std::to_string(seg.size) + " segments, expected " +
                           std::to_string(parents + 1));
  }
  if (seg.data[0] != 0) return Fail(error, where + " segments must start at 0");
  for (int i = 1; i < seg.size; ++i) {
    if (seg.data[i] < seg.data[i - 1]) {
      return Fail(error, where + " segments decrease at " + std::to_string(i));
    }
  }
  if (seg.data[seg.size - 1] != idx.size) {
    return Fail(error, where + " segments end at " + std::to_string(seg.data[seg.size - 1]) +
                           " but there are " + std::to_string(idx.size) + " indices");
  }
  // At most `size` entries per parent, so positions stay within the dense element count.
  if (static_cast<int64_t>(idx.size) > parents * size) {
    return Fail(error, where + " has more indices than its dense extent allows");
  }
  for (int i = 0; i < idx.size; ++i) {
    if (idx.data[i] < 0 || idx.data[i] >= size) {
      return Fail(error, where + " index " + std::to_string(idx.data[i]) + " at " +
                             std::to_string(i) + " is outside [0, " + std::to_string(size) + ")");
    }
  }
  out->segments.assign(seg.data, seg.data + seg.size);
  out->indices.assign(idx.data, idx.data + idx.size);
  *positions = idx.size;
  return true;
}

}  // namespace

bool BuildDensifyPlan(const TfLiteSparsity& sparsity, const std::vector<int>& dense_shape,
                      DensifyPlan* plan, std::string* error) {
  const int rank = static_cast<int>(dense_shape.size());
  if (rank < 1) return Fail(error, "a sparse tensor must have rank >= 1");
  plan->dense_shape = dense_shape;
  plan->dense_elements = 1;
  for (int d = 0; d < rank; ++d) {
    if (dense_shape[d] < 0) return Fail(error, "negative dimension in the dense shape");
    plan->dense_elements *= dense_shape[d];
    if (plan->dense_elements > kMaxElements) return Fail(error, "dense shape is too large");
  }

  plan->traversal_order = ToVector(sparsity.traversal_order);
  plan->block_map = ToVector(sparsity.block_map);
  const int blocks = static_cast<int>(plan->block_map.size());
  const int levels = rank + blocks;
  if (levels > kMaxLevels) return Fail(error, "too many sparse dimensions");
  if (static_cast<int>(plan->traversal_order.size()) != levels) {
    return Fail(error, "traversal_order has " + std::to_string(plan->traversal_order.size()) +
                           " entries, expected " + std::to_string(levels));
  }
  if (sparsity.dim_metadata == nullptr || sparsity.dim_metadata_size != levels) {
    return Fail(error, "dim_metadata has " + std::to_string(sparsity.dim_metadata_size) +
                           " entries, expected " + std::to_string(levels));
  }
  // The original dimensions come first in traversal order, the block dimensions after
  // (the converter's layout, which TFLite's SparseToDense relies on).
  std::vector<bool> seen(levels, false);
  for (int i = 0; i < levels; ++i) {
    const int t = plan->traversal_order[i];
    const bool ok = i < rank ? (t >= 0 && t < rank) : (t >= rank && t < levels);
    if (!ok || seen[t]) return Fail(error, "traversal_order is not a valid permutation");
    seen[t] = true;
  }
  for (int k = 0; k < blocks; ++k) {
    const int d = plan->block_map[k];
    if (d < 0 || d >= rank || (k > 0 && d <= plan->block_map[k - 1])) {
      return Fail(error, "block_map must list increasing dimensions below the rank");
    }
  }

  // Block sizes come from the DENSE levels that hold the block dimensions.
  plan->block_size.assign(blocks, 0);
  for (int i = rank; i < levels; ++i) {
    const TfLiteDimensionMetadata& m = sparsity.dim_metadata[i];
    const int k = plan->traversal_order[i] - rank;
    if (m.format != kTfLiteDimDense || m.dense_size <= 0) {
      return Fail(error, "block dimension " + std::to_string(k) + " must be DENSE with size > 0");
    }
    plan->block_size[k] = m.dense_size;
  }
  std::vector<int> expanded(levels);
  for (int d = 0; d < rank; ++d) expanded[d] = dense_shape[d];
  for (int k = 0; k < blocks; ++k) {
    const int d = plan->block_map[k];
    if (dense_shape[d] % plan->block_size[k] != 0) {
      return Fail(error, "block size " + std::to_string(plan->block_size[k]) +
                             " does not divide dimension " + std::to_string(d));
    }
    expanded[d] = dense_shape[d] / plan->block_size[k];
    expanded[rank + k] = plan->block_size[k];
  }

  plan->levels.assign(levels, {});
  int64_t positions = 1;  // positions of the previous level (one root)
  for (int i = 0; i < levels; ++i) {
    const TfLiteDimensionMetadata& m = sparsity.dim_metadata[i];
    DensifyPlan::Level& level = plan->levels[i];
    level.size = expanded[plan->traversal_order[i]];
    if (m.format == kTfLiteDimDense) {
      if (m.dense_size != level.size) {
        return Fail(error, "dim_metadata[" + std::to_string(i) + "] dense_size " +
                               std::to_string(m.dense_size) + " does not match the shape (" +
                               std::to_string(level.size) + ")");
      }
      positions *= level.size;  // bounded by the dense element count
    } else if (m.format == kTfLiteDimSparseCSR) {
      level.sparse = true;
      if (!ReadCsr(m, i, positions, level.size, &level, &positions, error)) return false;
    } else {
      return Fail(error, "dim_metadata[" + std::to_string(i) + "] has an unknown format");
    }
  }
  plan->value_count = positions;
  return true;
}

namespace {

struct Walker {
  const DensifyPlan& plan;
  const uint8_t* values;
  size_t element_size;
  uint8_t* dense;
  std::vector<int64_t> strides;  // of the dense shape
  std::vector<int> coords;       // per level
  int64_t next_value = 0;

  void Store() {
    const int rank = static_cast<int>(plan.dense_shape.size());
    int64_t original[kMaxLevels];
    for (int i = 0; i < rank; ++i) original[plan.traversal_order[i]] = coords[i];
    for (size_t i = rank; i < coords.size(); ++i) {
      const int k = plan.traversal_order[i] - rank;
      const int d = plan.block_map[k];
      original[d] = original[d] * plan.block_size[k] + coords[i];
    }
    int64_t flat = 0;
    for (int d = 0; d < rank; ++d) flat += original[d] * strides[d];
    std::memcpy(dense + flat * element_size, values + next_value * element_size, element_size);
    ++next_value;
  }

  void Walk(size_t level, int64_t parent) {
    if (level == plan.levels.size()) {
      Store();
      return;
    }
    const DensifyPlan::Level& l = plan.levels[level];
    if (!l.sparse) {
      for (int j = 0; j < l.size; ++j) {
        coords[level] = j;
        Walk(level + 1, parent * l.size + j);
      }
      return;
    }
    for (int64_t k = l.segments[parent]; k < l.segments[parent + 1]; ++k) {
      coords[level] = l.indices[k];
      Walk(level + 1, k);
    }
  }
};

}  // namespace

void Densify(const DensifyPlan& plan, const uint8_t* values, size_t element_size, uint8_t* dense) {
  if (plan.dense_elements == 0) return;
  std::memset(dense, 0, static_cast<size_t>(plan.dense_elements) * element_size);
  const int rank = static_cast<int>(plan.dense_shape.size());
  Walker w{plan,
           values,
           element_size,
           dense,
           std::vector<int64_t>(rank, 1),
           std::vector<int>(plan.levels.size(), 0)};
  for (int d = rank - 2; d >= 0; --d) w.strides[d] = w.strides[d + 1] * plan.dense_shape[d + 1];
  w.Walk(0, 0);
}

}  // namespace octet::ops::sparse
