#include "core/sparsity_loader.h"

#include <cstdlib>

#include "format/parse_options.h"

namespace octet {
namespace {

template <typename Vector>
TfLiteIntArray* ToIntArray(const Vector* values) {
  const int n = values == nullptr ? 0 : static_cast<int>(values->size());
  TfLiteIntArray* out = TfLiteIntArrayCreate(n);
  if (out == nullptr) return nullptr;
  for (int i = 0; i < n; ++i) out->data[i] = static_cast<int>(values->Get(i));
  return out;
}

// One of the three index vector kinds, widened to int.
TfLiteIntArray* IndexVector(tflite::SparseIndexVector type, const void* table) {
  if (table == nullptr) return nullptr;
  switch (type) {
    case tflite::SparseIndexVector_Int32Vector:
      return ToIntArray(static_cast<const tflite::Int32Vector*>(table)->values());
    case tflite::SparseIndexVector_Uint16Vector:
      return ToIntArray(static_cast<const tflite::Uint16Vector*>(table)->values());
    case tflite::SparseIndexVector_Uint8Vector:
      return ToIntArray(static_cast<const tflite::Uint8Vector*>(table)->values());
    default:
      return nullptr;
  }
}

}  // namespace

TfLiteSparsity* ConvertSparsity(const tflite::SparsityParameters& sparsity, std::string* why) {
  auto* out = static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  if (out == nullptr) {
    *why = "no memory for its sparsity metadata";
    return nullptr;
  }
  out->traversal_order = ToIntArray(sparsity.traversal_order());
  out->block_map = ToIntArray(sparsity.block_map());
  const auto* dims = sparsity.dim_metadata();
  const int n = dims == nullptr ? 0 : static_cast<int>(dims->size());
  if (n > 0) {
    out->dim_metadata =
        static_cast<TfLiteDimensionMetadata*>(std::calloc(n, sizeof(TfLiteDimensionMetadata)));
  }
  out->dim_metadata_size = out->dim_metadata != nullptr ? n : 0;
  if (out->traversal_order == nullptr || out->block_map == nullptr ||
      (n > 0 && out->dim_metadata == nullptr)) {
    TfLiteSparsityFree(out);
    *why = "no memory for its sparsity metadata";
    return nullptr;
  }
  for (int d = 0; d < n; ++d) {
    const tflite::DimensionMetadata* meta = dims->Get(d);
    TfLiteDimensionMetadata& target = out->dim_metadata[d];
    if (meta == nullptr) {
      TfLiteSparsityFree(out);
      *why = "sparsity dimension " + std::to_string(d) + " has no metadata";
      return nullptr;
    }
    if (meta->format() == tflite::DimensionType_DENSE) {
      target.format = kTfLiteDimDense;
      target.dense_size = meta->dense_size();
      continue;
    }
    if (meta->format() != tflite::DimensionType_SPARSE_CSR) {
      TfLiteSparsityFree(out);
      *why = "sparsity dimension " + std::to_string(d) + " has unknown format " +
             std::to_string(static_cast<int>(meta->format()));
      return nullptr;
    }
    target.format = kTfLiteDimSparseCSR;
    target.array_segments = IndexVector(meta->array_segments_type(), meta->array_segments());
    target.array_indices = IndexVector(meta->array_indices_type(), meta->array_indices());
    if (target.array_segments == nullptr || target.array_indices == nullptr) {
      TfLiteSparsityFree(out);
      *why = "sparsity dimension " + std::to_string(d) +
             " is SPARSE_CSR without both segment and index vectors";
      return nullptr;
    }
  }
  return out;
}

bool OnlyDensifyReads(const tflite::Model& model, const tflite::SubGraph& subgraph, int index) {
  const auto* ops = subgraph.operators();
  const auto* codes = model.operator_codes();
  if (ops == nullptr) return true;
  for (const tflite::Operator* op : *ops) {
    if (op == nullptr || op->inputs() == nullptr) continue;
    for (int32_t input : *op->inputs()) {
      if (input != index) continue;
      if (codes == nullptr || op->opcode_index() >= codes->size() ||
          format::EffectiveBuiltinCode(*codes->Get(op->opcode_index())) !=
              tflite::BuiltinOperator_DENSIFY) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace octet
