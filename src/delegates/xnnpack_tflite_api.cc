// TFLite's TfLiteXNNPackDelegate* functions on Octet's XNNPACK delegate.
#include <cstdio>

#include "octet/xnnpack_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

extern "C" {

TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void) {
  TfLiteXNNPackDelegateOptions options;
  options.num_threads = 0;
  options.flags = TFLITE_XNNPACK_DELEGATE_FLAG_QS8 | TFLITE_XNNPACK_DELEGATE_FLAG_QU8;
  return options;
}

TfLiteDelegate* TfLiteXNNPackDelegateCreate(const TfLiteXNNPackDelegateOptions* options) {
  if (!OctetXnnpackAvailable()) {
    std::fprintf(stderr,
                 "XNNPACK delegate: not available (Octet was built without XNNPACK, or it does "
                 "not initialize on this CPU)\n");
    return nullptr;
  }
  OctetXnnpackOptions octet_options = OctetXnnpackOptionsDefault();
  if (options != nullptr && options->num_threads > 1) {
    octet_options.num_threads = options->num_threads;
  }
  return OctetXnnpackDelegateCreate(&octet_options);
}

void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate) {
  if (delegate != nullptr) OctetXnnpackDelegateDelete(delegate);
}

}  // extern "C"
