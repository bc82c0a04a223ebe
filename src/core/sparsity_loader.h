// Sparse constant tensors (TFLite's SparsityParameters) as the runtime holds them: the
// metadata converted to a TfLiteSparsity, and the rule that only DENSIFY reads such a tensor
// (every other kernel would read a dense-sized buffer from the shorter sparse one).
#ifndef OCTET_CORE_SPARSITY_LOADER_H_
#define OCTET_CORE_SPARSITY_LOADER_H_

#include <string>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {

// A malloc'd TfLiteSparsity (freed by TfLiteSparsityFree), or nullptr with *why set for
// metadata the runtime cannot hold (an unknown dimension format, a missing index vector).
// Only the structure is checked here; DENSIFY's prepare checks the values against the shape.
TfLiteSparsity* ConvertSparsity(const tflite::SparsityParameters& sparsity, std::string* why);

// Frees a converted TfLiteSparsity unless it was handed on.
struct SparsityGuard {
  TfLiteSparsity* sparsity;
  ~SparsityGuard() { TfLiteSparsityFree(sparsity); }
  TfLiteSparsity* Release() {
    TfLiteSparsity* out = sparsity;
    sparsity = nullptr;
    return out;
  }
};

// True when every operator of `subgraph` that reads tensor `index` is DENSIFY.
bool OnlyDensifyReads(const tflite::Model& model, const tflite::SubGraph& subgraph, int index);

}  // namespace octet

#endif  // OCTET_CORE_SPARSITY_LOADER_H_
