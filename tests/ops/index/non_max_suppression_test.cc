// NON_MAX_SUPPRESSION_V4 / V5 against hand-worked selections and an eager greedy soft-NMS
// written in the test (after each selection every remaining candidate is decayed or
// dropped at once, instead of the kernel's lazy priority queue).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_NON_MAX_SUPPRESSION_V4;
using tflite::ops::builtin::Register_NON_MAX_SUPPRESSION_V5;

// Six boxes of TensorFlow's NMS tests: two clusters around x = 0 and x = 10, one far away.
const std::vector<float> kBoxes = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                   0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

double Iou(const std::vector<float>& b, int i, int j) {
  auto lo = [](float a, float c) { return a < c ? a : c; };
  auto hi = [](float a, float c) { return a < c ? c : a; };
  const float* p = &b[4 * i];
  const float* q = &b[4 * j];
  const double area_p = (hi(p[0], p[2]) - lo(p[0], p[2])) * (hi(p[1], p[3]) - lo(p[1], p[3]));
  const double area_q = (hi(q[0], q[2]) - lo(q[0], q[2])) * (hi(q[1], q[3]) - lo(q[1], q[3]));
  if (area_p <= 0 || area_q <= 0) return 0;
  const double h =
      std::max(0.0f, lo(hi(p[0], p[2]), hi(q[0], q[2])) - hi(lo(p[0], p[2]), lo(q[0], q[2])));
  const double w =
      std::max(0.0f, lo(hi(p[1], p[3]), hi(q[1], q[3])) - hi(lo(p[1], p[3]), lo(q[1], q[3])));
  return h * w / (area_p + area_q - h * w);
}

void EagerNms(const std::vector<float>& boxes, const std::vector<float>& scores, int max_out,
              float iou_thr, float score_thr, float sigma, std::vector<int32_t>* selected,
              std::vector<float>* selected_scores) {
  std::vector<double> score(scores.begin(), scores.end());
  std::vector<bool> alive(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) alive[i] = scores[i] > score_thr;
  selected->clear();
  selected_scores->clear();
  while (static_cast<int>(selected->size()) < max_out) {
    int best = -1;
    for (size_t i = 0; i < score.size(); ++i) {
      if (alive[i] && (best < 0 || score[i] > score[best])) best = static_cast<int>(i);
    }
    if (best < 0) break;
    alive[best] = false;
    selected->push_back(best);
    selected_scores->push_back(static_cast<float>(score[best]));
    for (size_t i = 0; i < score.size(); ++i) {
      if (!alive[i]) continue;
      const double iou = Iou(boxes, best, static_cast<int>(i));
      if (iou >= iou_thr) {
        alive[i] = false;
        continue;
      }
      if (sigma > 0) score[i] *= std::exp(-0.5 / sigma * iou * iou);
      if (score[i] <= score_thr) alive[i] = false;
    }
  }
}

struct Result {
  std::vector<int32_t> indices;
  std::vector<float> scores;
  int32_t count = -1;
  std::vector<int> shape;
  bool dynamic = false;
};

Result RunNms(bool v5, const std::vector<float>& boxes, const std::vector<float>& scores,
              int max_out, float iou_thr, float score_thr, float sigma, bool const_max) {
  Result r;
  const int n = static_cast<int>(scores.size());
  OpModel m;
  m.AddConstInput<float>({kTfLiteFloat32, {n, 4}}, boxes);
  const int sc = m.AddInput({kTfLiteFloat32, {n}});
  int mx = -1;
  if (const_max) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {max_out});
  } else {
    mx = m.AddInput({kTfLiteInt32, {}});
  }
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {iou_thr});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {score_thr});
  if (v5) m.AddConstInput<float>({kTfLiteFloat32, {}}, {sigma});
  const int idx = m.AddOutput({kTfLiteInt32, {}});
  const int out_scores = v5 ? m.AddOutput({kTfLiteFloat32, {}}) : -1;
  const int count = m.AddOutput({kTfLiteInt32, {}});
  if (v5) {
    m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV5, Register_NON_MAX_SUPPRESSION_V5());
  } else {
    m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV4, Register_NON_MAX_SUPPRESSION_V4());
  }
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  r.dynamic = IsDynamic(m, idx);
  m.SetInput(sc, scores);
  if (!const_max) m.SetInput<int32_t>(mx, {max_out});
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  r.indices = m.GetOutput<int32_t>(idx);
  if (v5) r.scores = m.GetOutput<float>(out_scores);
  r.shape = m.GetShape(idx);
  EXPECT_EQ(m.GetShape(count), std::vector<int>({}));
  const std::vector<int32_t> c = m.GetOutput<int32_t>(count);
  if (!c.empty()) r.count = c[0];
  return r;
}

TEST(Index_NonMaxSuppression, HardNmsHandWorked) {
  for (bool const_max : {true, false}) {
    const Result r = RunNms(false, kBoxes, kScores, 3, 0.5f, 0.0f, 0.0f, const_max);
    EXPECT_EQ(r.dynamic, !const_max);
    EXPECT_EQ(r.shape, std::vector<int>({3}));
    EXPECT_EQ(r.indices, std::vector<int32_t>({3, 0, 5}));
    EXPECT_EQ(r.count, 3);
    // More room than selections: the rest is zero.
    const Result wide = RunNms(false, kBoxes, kScores, 6, 0.5f, 0.0f, 0.0f, const_max);
    EXPECT_EQ(wide.indices, std::vector<int32_t>({3, 0, 5, 0, 0, 0}));
    EXPECT_EQ(wide.count, 3);
    // The score threshold keeps 3 and 0 only; max_output_size 0 selects nothing.
    EXPECT_EQ(RunNms(false, kBoxes, kScores, 6, 0.5f, 0.4f, 0.0f, const_max).count, 2);
    const Result none = RunNms(false, kBoxes, kScores, 0, 0.5f, 0.0f, 0.0f, const_max);
    EXPECT_EQ(none.count, 0);
    EXPECT_EQ(none.shape, std::vector<int>({0}));
  }
}

TEST(Index_NonMaxSuppression, V5HardMatchesV4AndReportsScores) {
  const Result r = RunNms(true, kBoxes, kScores, 4, 0.5f, 0.0f, 0.0f, true);
  EXPECT_EQ(r.indices, std::vector<int32_t>({3, 0, 5, 0}));
  EXPECT_EQ(r.scores, std::vector<float>({0.95f, 0.9f, 0.3f, 0.0f}));
  EXPECT_EQ(r.count, 3);
}

TEST(Index_NonMaxSuppression, SoftNmsMatchesEagerGreedy) {
  for (float sigma : {0.5f, 0.2f}) {
    for (float iou_thr : {1.0f, 0.9f}) {
      for (bool const_max : {true, false}) {
        std::vector<int32_t> want;
        std::vector<float> want_scores;
        EagerNms(kBoxes, kScores, 6, iou_thr, 0.0f, sigma, &want, &want_scores);
        const Result r = RunNms(true, kBoxes, kScores, 6, iou_thr, 0.0f, sigma, const_max);
        ASSERT_EQ(r.count, static_cast<int>(want.size())) << sigma << " " << iou_thr;
        for (int i = 0; i < r.count; ++i) {
          EXPECT_EQ(r.indices[i], want[i]) << i;
          EXPECT_TRUE(octet::testing::Near(r.scores[i], want_scores[i], 1e-6f, 1e-5f))
              << i << ": " << r.scores[i] << " vs " << want_scores[i];
        }
        for (int i = r.count; i < 6; ++i) {
          EXPECT_EQ(r.indices[i], 0);
          EXPECT_EQ(r.scores[i], 0.0f);
        }
      }
    }
  }
  // Hand-worked: sigma 0.5, no hard suppression. Box 1 overlaps box 0 with IoU 0.9/1.1, so
  // its score decays to 0.75 * exp(-(0.9 / 1.1)^2) ~= 0.3836 and it comes third.
  const Result r = RunNms(true, kBoxes, kScores, 3, 1.0f, 0.0f, 0.5f, true);
  EXPECT_EQ(r.indices, std::vector<int32_t>({3, 0, 1}));
  EXPECT_TRUE(octet::testing::Near(r.scores[2], 0.75f * std::exp(-(0.9f / 1.1f) * (0.9f / 1.1f)),
                                   1e-6f, 1e-5f))
      << r.scores[2];
}

TEST(Index_NonMaxSuppression, NaNScoresAreNeverSelected) {
  std::vector<float> scores = kScores;
  scores[3] = std::numeric_limits<float>::quiet_NaN();
  const Result r = RunNms(false, kBoxes, scores, 6, 0.5f, 0.0f, 0.0f, true);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(std::vector<int32_t>(r.indices.begin(), r.indices.begin() + 3),
            std::vector<int32_t>({0, 4, 5}));
}

TEST(Index_NonMaxSuppression, RefusesBadInputs) {
  {  // negative sigma, at invoke
    OpModel m;
    m.AddConstInput<float>({kTfLiteFloat32, {1, 4}}, {0, 0, 1, 1});
    m.AddConstInput<float>({kTfLiteFloat32, {1}}, {1});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {1});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.5f});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {-1.0f});
    m.AddOutput({kTfLiteInt32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV5, Register_NON_MAX_SUPPRESSION_V5());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    ExpectInvokeError(m, "NON_MAX_SUPPRESSION_V5: soft_nms_sigma must be >= 0, got -1");
  }
  {  // negative runtime max_output_size
    OpModel m;
    m.AddConstInput<float>({kTfLiteFloat32, {1, 4}}, {0, 0, 1, 1});
    m.AddConstInput<float>({kTfLiteFloat32, {1}}, {1});
    const int mx = m.AddInput({kTfLiteInt32, {}});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.5f});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddOutput({kTfLiteInt32, {}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV4, Register_NON_MAX_SUPPRESSION_V4());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(mx, {-2});
    ExpectInvokeError(m, "NON_MAX_SUPPRESSION_V4: max_output_size must be non-negative, got -2");
  }
  struct Case {
    std::vector<int> boxes_dims, scores_dims;
    TfLiteType boxes_type, max_type;
    std::vector<int> iou_dims;
    int max_value;
    const char* message;
  };
  const Case cases[] = {
      {{3, 3},
       {3},
       kTfLiteFloat32,
       kTfLiteInt32,
       {},
       1,
       "NON_MAX_SUPPRESSION_V4: boxes must have shape [num_boxes, 4]"},
      {{3, 4},
       {2},
       kTfLiteFloat32,
       kTfLiteInt32,
       {},
       1,
       "NON_MAX_SUPPRESSION_V4: scores must have shape [3] (one per box)"},
      {{3, 4},
       {3},
       kTfLiteInt8,
       kTfLiteInt32,
       {},
       1,
       "NON_MAX_SUPPRESSION_V4: boxes must be FLOAT32, got INT8"},
      {{3, 4},
       {3},
       kTfLiteFloat32,
       kTfLiteInt64,
       {},
       1,
       "NON_MAX_SUPPRESSION_V4: max_output_size must be INT32, got INT64"},
      {{3, 4},
       {3},
       kTfLiteFloat32,
       kTfLiteInt32,
       {1},
       1,
       "NON_MAX_SUPPRESSION_V4: iou_threshold must be a scalar, got rank 1"},
      {{3, 4},
       {3},
       kTfLiteFloat32,
       kTfLiteInt32,
       {},
       -1,
       "NON_MAX_SUPPRESSION_V4: max_output_size must be non-negative, got -1"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.boxes_type, c.boxes_dims});
    m.AddInput({kTfLiteFloat32, c.scores_dims});
    const int64_t max_value = c.max_value;
    m.AddConstInput({c.max_type, {}}, &max_value, TfLiteTypeGetSize(c.max_type));
    m.AddConstInput<float>({kTfLiteFloat32, c.iou_dims}, {0.5f});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddOutput({kTfLiteInt32, {}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV4, Register_NON_MAX_SUPPRESSION_V4());
    ExpectBuildError(m, c.message);
  }
  OpModel m;  // V5 needs 6 inputs and 3 outputs
  for (int i = 0; i < 5; ++i) m.AddInput({kTfLiteFloat32, {}});
  m.AddOutput({kTfLiteInt32, {}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinNonMaxSuppressionV5, Register_NON_MAX_SUPPRESSION_V5());
  ExpectBuildError(m, "NON_MAX_SUPPRESSION_V5: expected 6 inputs, got 5");
}

}  // namespace
}  // namespace octet::index_test
