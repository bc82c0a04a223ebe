// Kernel scratch as node temporaries, as TFLite kernels keep it: tensors added once in init,
// sized in prepare, planned by the arena (live only while their node runs) and fetched at
// invoke. Nothing is allocated per invoke and the planner sees every byte.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "tensorflow/lite/c/common.h"

namespace octet::ops {

class NodeScratch {
 public:
  struct Size {
    TfLiteType type;
    int64_t elements;
  };

  // In init: reserves `count` temporary tensors for this node.
  TfLiteStatus Reserve(TfLiteContext* context, int count);

  // In prepare: makes the first sizes.size() reserved tensors the node's temporaries and sizes
  // them (the rest are not used by this configuration).
  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, std::initializer_list<Size> sizes);

  // At invoke: the data of temporary k.
  template <typename T>
  T* Data(TfLiteContext* context, int k) const {
    return reinterpret_cast<T*>(context->tensors[first_ + k].data.raw);
  }

 private:
  int first_ = -1;
  int count_ = 0;
};

}  // namespace octet::ops
