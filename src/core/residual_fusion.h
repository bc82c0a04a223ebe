// Residual ADDs fused into the convolution before them. A float CONV_2D whose output only a
// same-shape ADD reads (a residual connection: conv + shortcut) can add the shortcut in its
// own output stage and write the ADD's output directly; the ADD node is then skipped, saving
// a pass over three tensors. The sums and clamps are the ADD's, so the bits are the same.
//
// The core finds the candidates from the graph before the nodes prepare (the producer's only
// reader is the ADD, which runs later; the other input exists before the producer runs), the
// two kernels opt in during prepare (each only on its optimized float path), and the fusion
// holds when both did and the shapes agree. The memory planner then starts the ADD output's
// life at the producer, so no tensor the producer reads shares its bytes.
#pragma once

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet {

// Before the nodes prepare: records every candidate pair of `subgraph` (forgets old ones).
void FindResidualFusions(tflite::Subgraph& subgraph);
// After they did (the nodes from `first_unprepared` on prepare at invoke and cannot take
// part): keeps the pairs both kernels accepted whose tensors agree.
void ConfirmResidualFusions(tflite::Subgraph& subgraph, size_t first_unprepared);

// For a producer, during its prepare: its kernel would compute an ADD fused into it (a
// no-op unless the graph has one for it).
void AcceptResidualFusion(TfLiteContext* context, const TfLiteNode* node);
// For an ADD, during its prepare: its kernel (same-shape float32, bounds of its activation)
// may be skipped for its producer's.
void AllowResidualFusion(TfLiteContext* context, const TfLiteNode* node, float act_min,
                         float act_max);

// For a producer, at invoke: the fused ADD it must compute (the ADD node will not run), or
// false.
struct FusedResidualAdd {
  const float* residual;  // the ADD's other input
  float* output;          // the ADD's output, written instead of the producer's
  float act_min, act_max;
};
bool ActiveResidualFusion(TfLiteContext* context, const TfLiteNode* node, FusedResidualAdd* add);

// Whether node `node_index` of `subgraph` is an ADD its producer computes.
bool IsAbsorbedAdd(const tflite::Subgraph& subgraph, int node_index);

}  // namespace octet
