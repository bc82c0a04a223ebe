// Writing a delegate without the TfLiteDelegate plumbing: implement SimpleDelegateInterface
// (which nodes it takes, and a factory of kernels) and SimpleDelegateKernelInterface (one
// delegated partition: Init / Prepare / Eval), then
//
//   auto delegate = tflite::TfLiteDelegateFactory::Create(std::make_unique<MyDelegate>());
//   interpreter->ModifyGraphWithDelegate(std::move(delegate));
//
// Partitions come from GraphPartitionHelper (delegates/utils.h), on Octet's partitioner.
#pragma once

#include <cstdint>
#include <memory>

#include "tensorflow/lite/c/common.h"

namespace tflite {

using TfLiteDelegateUniquePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;

// One delegated partition (its nodes are params->nodes_to_replace).
class SimpleDelegateKernelInterface {
 public:
  virtual ~SimpleDelegateKernelInterface() {}
  virtual TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) = 0;
  virtual TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) = 0;
  // Tensor data pointers may change between invokes: read them here, not in Init.
  virtual TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) = 0;
};

class SimpleDelegateInterface {
 public:
  // How the graph is split between the delegate and the built-in kernels.
  struct Options {
    // At most this many partitions, largest first (<= 0: all).
    int max_delegated_partitions = 0;
    // Partitions with fewer nodes stay on the built-in kernels (<= 0: any size).
    int min_nodes_per_partition = 0;
  };

  virtual ~SimpleDelegateInterface() {}
  virtual bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration,
                                         const TfLiteNode* node, TfLiteContext* context) const = 0;
  // Called once per ModifyGraphWithDelegate, before any node is looked at.
  virtual TfLiteStatus Initialize(TfLiteContext* context) = 0;
  // Also the delegate kernels' custom_name (profiles, PrintInterpreterState).
  virtual const char* Name() const = 0;
  virtual std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() = 0;
  virtual SimpleDelegateInterface::Options DelegateOptions() const = 0;
};

class TfLiteDelegateFactory {
 public:
  // The TfLiteDelegate owns simple_delegate; free it with DeleteSimpleDelegate.
  static TfLiteDelegate* CreateSimpleDelegate(
      std::unique_ptr<SimpleDelegateInterface> simple_delegate,
      int64_t flags = kTfLiteDelegateFlagsNone);
  static void DeleteSimpleDelegate(TfLiteDelegate* delegate);
  inline static TfLiteDelegateUniquePtr Create(
      std::unique_ptr<SimpleDelegateInterface> simple_delegate) {
    return TfLiteDelegateUniquePtr(CreateSimpleDelegate(std::move(simple_delegate)),
                                   DeleteSimpleDelegate);
  }
};

}  // namespace tflite
