#include "ops/scratch.h"

#include <limits>

#include "core/alloc_guard.h"

namespace octet::ops {

TfLiteStatus NodeScratch::Reserve(TfLiteContext* context, int count) {
  count_ = count;
  return context->AddTensors(context, count, &first_);
}

TfLiteStatus NodeScratch::Prepare(TfLiteContext* context, TfLiteNode* node,
                                  std::initializer_list<Size> sizes) {
  if (first_ < 0 || static_cast<int>(sizes.size()) > count_) {
    TF_LITE_KERNEL_LOG(context, "scratch: %d temporaries asked, %d reserved",
                       static_cast<int>(sizes.size()), count_);
    return kTfLiteError;
  }
  // The new list first: if it cannot be allocated, the node keeps its old one (freeing that
  // first left a dangling pointer behind the exception, freed again with the node).
  TfLiteIntArray* temporaries = OrThrow(TfLiteIntArrayCreate(static_cast<int>(sizes.size())));
  TfLiteIntArrayFree(node->temporaries);
  node->temporaries = temporaries;
  int k = 0;
  for (const Size& s : sizes) {
    if (s.elements < 0 || s.elements > std::numeric_limits<int>::max()) {
      TF_LITE_KERNEL_LOG(context, "scratch: %lld elements do not fit a tensor",
                         static_cast<long long>(s.elements));
      return kTfLiteError;
    }
    node->temporaries->data[k] = first_ + k;
    TfLiteTensor* t = &context->tensors[first_ + k];
    t->type = s.type;
    t->allocation_type = kTfLiteArenaRw;
    TfLiteIntArray* dims = OrThrow(TfLiteIntArrayCreate(1));
    dims->data[0] = static_cast<int>(s.elements);
    TF_LITE_ENSURE_STATUS(context->ResizeTensor(context, t, dims));
    ++k;
  }
  return kTfLiteOk;
}

}  // namespace octet::ops
