// What the runtime offers kernels beyond tensors: arena-planned scratch
// (RequestScratchBufferInArena), per-node kernel names, profiler events for every invoke, and
// the thread pool behind kTfLiteCpuBackendContext.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/threads/cpu_backend_context.h"
#include "memory/arena_planner.h"
#include "octet/kernel_info.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace {

using namespace tflite;

constexpr size_t kScratchBytes = 4096;

struct ScratchOp {
  int buffer = -1;
};

// out = 2 * in, computed through a scratch buffer requested in prepare.
void* ScratchInit(TfLiteContext*, const char*, size_t) {
  return std::make_unique<ScratchOp>().release();
}
void ScratchFree(TfLiteContext*, void* p) {
  std::unique_ptr<ScratchOp> owned(static_cast<ScratchOp*>(p));
}
TfLiteStatus ScratchPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* op = static_cast<ScratchOp*>(node->user_data);
  TF_LITE_ENSURE_OK(context,
                    context->RequestScratchBufferInArena(context, kScratchBytes, &op->buffer));
  octet::SetNodeKernelName(context, node, "scratch_doubler");
  return context->ResizeTensor(context, GetOutput(context, node, 0),
                               TfLiteIntArrayCopy(GetInput(context, node, 0)->dims));
}
TfLiteStatus ScratchEval(TfLiteContext* context, TfLiteNode* node) {
  auto* op = static_cast<ScratchOp*>(node->user_data);
  auto* scratch = static_cast<float*>(context->GetScratchBuffer(context, op->buffer));
  TF_LITE_ENSURE(context, scratch != nullptr);
  const TfLiteTensor* in = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  for (int i = 0; i < NumElements(in); ++i) scratch[i] = in->data.f[i] * 2;
  std::memcpy(out->data.f, scratch, in->bytes);
  // A scratch request outside prepare is refused.
  int late = -1;
  TF_LITE_ENSURE(context, context->RequestScratchBufferInArena(context, 8, &late) != kTfLiteOk);
  // The interpreter's thread pool is there for kernels.
  TF_LITE_ENSURE(context, octet::GetThreadPool(context) != nullptr);
  return kTfLiteOk;
}
TfLiteRegistration* ScratchRegistration() {
  static TfLiteRegistration r = {ScratchInit, ScratchFree, ScratchPrepare, ScratchEval};
  return &r;
}

// in -> doubler -> doubler -> out
std::unique_ptr<Interpreter> TwoDoublers() {
  auto interp = std::make_unique<Interpreter>();
  interp->AddTensors(3);
  interp->SetInputs({0});
  interp->SetOutputs({2});
  for (int t = 0; t < 3; ++t) {
    interp->SetTensorParametersReadWrite(t, kTfLiteFloat32, "t", {4}, TfLiteQuantizationParams{});
  }
  interp->AddNodeWithParameters({0}, {1}, nullptr, 0, nullptr, ScratchRegistration());
  interp->AddNodeWithParameters({1}, {2}, nullptr, 0, nullptr, ScratchRegistration());
  return interp;
}

TEST(KernelSupport, ScratchBuffersArePlannedInTheArena) {
  auto interp = TwoDoublers();
  ASSERT_EQ(interp->AllocateTensors(), kTfLiteOk);
  const octet::PlannerStats* stats = interp->primary_subgraph().planner_stats();
  ASSERT_NE(stats, nullptr);
  // Both nodes' scratch is in the arena, and, living only during its node, shares one place.
  EXPECT_GE(stats->arena_bytes, kScratchBytes);
  EXPECT_LT(stats->arena_bytes, 2 * kScratchBytes);
  for (int i = 0; i < 4; ++i) interp->typed_input_tensor<float>(0)[i] = static_cast<float>(i);
  ASSERT_EQ(interp->Invoke(), kTfLiteOk);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(interp->typed_output_tensor<float>(0)[i], 4.f * i);
  // A second allocation (after a resize) reuses the node's scratch tensor.
  const size_t tensors = interp->tensors_size();
  ASSERT_EQ(interp->ResizeInputTensor(0, {4}), kTfLiteOk);
  ASSERT_EQ(interp->AllocateTensors(), kTfLiteOk);
  EXPECT_EQ(interp->tensors_size(), tensors);
}

TEST(KernelSupport, NodeKernelNames) {
  auto interp = TwoDoublers();
  ASSERT_EQ(interp->AllocateTensors(), kTfLiteOk);
  EXPECT_STREQ(octet::GetNodeKernelName(interp->primary_subgraph(), 0), "scratch_doubler");
  EXPECT_STREQ(octet::GetNodeKernelName(interp->primary_subgraph(), 1), "scratch_doubler");
  EXPECT_STREQ(octet::GetNodeKernelName(interp->primary_subgraph(), 7), "reference");
}

class RecordingProfiler : public Profiler {
 public:
  uint32_t BeginEvent(const char* tag, EventType type, int64_t m1, int64_t m2) override {
    events.push_back({tag, type, m1, m2, false});
    return static_cast<uint32_t>(events.size());
  }
  void EndEvent(uint32_t handle) override { events[handle - 1].ended = true; }
  struct Event {
    std::string tag;
    EventType type;
    int64_t node, subgraph;
    bool ended;
  };
  std::vector<Event> events;
};

TEST(KernelSupport, ProfilerSeesEveryNodeInvoke) {
  auto interp = TwoDoublers();
  RecordingProfiler profiler;
  interp->SetProfiler(&profiler);
  ASSERT_EQ(interp->AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(interp->Invoke(), kTfLiteOk);
  ASSERT_EQ(profiler.events.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(profiler.events[i].type, Profiler::EventType::OPERATOR_INVOKE_EVENT);
    EXPECT_EQ(profiler.events[i].node, i);
    EXPECT_EQ(profiler.events[i].subgraph, 0);
    EXPECT_TRUE(profiler.events[i].ended);
  }
  interp->SetProfiler(nullptr);
  ASSERT_EQ(interp->Invoke(), kTfLiteOk);
  EXPECT_EQ(profiler.events.size(), 2u);
}

TEST(KernelSupport, ThreadCountReachesThePool) {
  auto interp = TwoDoublers();
  TfLiteContext* context = interp->primary_subgraph().context();
  ASSERT_NE(octet::GetThreadPool(context), nullptr);
  EXPECT_EQ(octet::GetThreadPool(context)->threads(), 1);
  ASSERT_EQ(interp->SetNumThreads(2), kTfLiteOk);
  EXPECT_EQ(octet::GetThreadPool(context)->threads(),
            octet::ThreadPool::CanRunInParallel() ? 2 : 1);
  ASSERT_EQ(interp->SetNumThreads(-1), kTfLiteOk);  // TFLite's default: one thread
  EXPECT_EQ(octet::GetThreadPool(context)->threads(), 1);
  // Subgraphs added later see the same pool.
  interp->AddSubgraphs(1);
  EXPECT_EQ(octet::GetThreadPool(interp->subgraph(1)->context()), octet::GetThreadPool(context));
  // Another runtime's context of that type is not mistaken for Octet's.
  TfLiteExternalContext foreign{kTfLiteCpuBackendContext, nullptr};
  interp->SetExternalContext(kTfLiteCpuBackendContext, &foreign);
  EXPECT_EQ(octet::GetThreadPool(context), nullptr);
  interp->SetExternalContext(kTfLiteCpuBackendContext, nullptr);  // back to the interpreter's
  EXPECT_NE(octet::GetThreadPool(context), nullptr);
}

}  // namespace
