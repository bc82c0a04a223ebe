// TFLite_Detection_PostProcess against an independent decode + greedy NMS written here
// (double-precision boxes, sort-and-sweep selection), on float and uint8/int8 inputs, plus
// option and shape validation.
#include "kernels/reference/detection_postprocess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "ops/custom/custom_ops.h"
#include "tensorflow/lite/kernels/register.h"
#include "util/op_model.h"

namespace octet::custom_test {
namespace {

using octet::testing::OpModel;

std::vector<uint8_t> Flex(const std::function<void(flexbuffers::Builder &)> &fill) {
  flexbuffers::Builder b;
  b.Map([&] { fill(b); });
  b.Finish();
  return b.GetBuffer();
}

struct Options {
  int max_detections = 3;
  int max_classes_per_detection = 1;
  int detections_per_class = 100;
  float score_threshold = 0.2f;
  float iou_threshold = 0.5f;
  int num_classes = 3;
  float y_scale = 10, x_scale = 10, h_scale = 5, w_scale = 5;
  bool use_regular_nms = false;

  std::vector<uint8_t> Encode() const {
    return Flex([this](flexbuffers::Builder &b) {
      b.Int("max_detections", max_detections);
      b.Int("max_classes_per_detection", max_classes_per_detection);
      b.Int("detections_per_class", detections_per_class);
      b.Float("nms_score_threshold", score_threshold);
      b.Float("nms_iou_threshold", iou_threshold);
      b.Int("num_classes", num_classes);
      b.Float("y_scale", y_scale);
      b.Float("x_scale", x_scale);
      b.Float("h_scale", h_scale);
      b.Float("w_scale", w_scale);
      b.Bool("use_regular_nms", use_regular_nms);
    });
  }
};

// ---- the independent reference

struct RefBox {
  float ymin, xmin, ymax, xmax;
};

RefBox DecodeRef(const float *e, const float *a, const Options &o) {
  const double yc = e[0] / static_cast<double>(o.y_scale) * a[2] + a[0];
  const double xc = e[1] / static_cast<double>(o.x_scale) * a[3] + a[1];
  const double hh = 0.5 * std::exp(e[2] / static_cast<double>(o.h_scale)) * a[2];
  const double hw = 0.5 * std::exp(e[3] / static_cast<double>(o.w_scale)) * a[3];
  const float y = static_cast<float>(yc), x = static_cast<float>(xc);
  const float h = static_cast<float>(hh), w = static_cast<float>(hw);
  return {y - h, x - w, y + h, x + w};
}

double IouRef(const RefBox &a, const RefBox &b) {
  const double aa = (double(a.ymax) - a.ymin) * (double(a.xmax) - a.xmin);
  const double ab = (double(b.ymax) - b.ymin) * (double(b.xmax) - b.xmin);
  if (aa <= 0 || ab <= 0) return 0;
  const double h =
      std::max(0.0, std::min<double>(a.ymax, b.ymax) - std::max<double>(a.ymin, b.ymin));
  const double w =
      std::max(0.0, std::min<double>(a.xmax, b.xmax) - std::max<double>(a.xmin, b.xmin));
  return h * w / (aa + ab - h * w);
}

// Sort candidates by score (ties: lower index), sweep: take the best remaining, drop every
// remaining candidate overlapping it too much.
std::vector<int> GreedyRef(const std::vector<RefBox> &boxes, const std::vector<float> &scores,
                           float threshold, float iou, int limit) {
  std::vector<int> rest;
  for (int i = 0; i < static_cast<int>(scores.size()); ++i) {
    if (scores[i] >= threshold) rest.push_back(i);
  }
  std::sort(rest.begin(), rest.end(),
            [&](int a, int b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; });
  std::vector<int> out;
  while (!rest.empty() && static_cast<int>(out.size()) < limit) {
    const int best = rest.front();
    out.push_back(best);
    std::vector<int> next;
    for (size_t k = 1; k < rest.size(); ++k) {
      if (IouRef(boxes[best], boxes[rest[k]]) <= iou) next.push_back(rest[k]);
    }
    rest = next;
  }
  return out;
}

struct RefOut {
  std::vector<float> boxes, classes, scores;
  float num = 0;
};

// scores: [n, num_classes + offset].
RefOut Reference(const std::vector<float> &enc, int enc_len, const std::vector<float> &scores,
                 int offset, const std::vector<float> &anchors, const Options &o) {
  const int n = static_cast<int>(anchors.size() / 4);
  const int stride = o.num_classes + offset;
  std::vector<RefBox> boxes;
  for (int i = 0; i < n; ++i) boxes.push_back(DecodeRef(&enc[i * enc_len], &anchors[i * 4], o));
  const int slots = o.max_detections * o.max_classes_per_detection;
  RefOut r{std::vector<float>(slots * 4, 0), std::vector<float>(slots, 0),
           std::vector<float>(slots, 0), 0};
  auto put = [&](int slot, int box, int cls, float score) {
    r.boxes[slot * 4] = boxes[box].ymin;
    r.boxes[slot * 4 + 1] = boxes[box].xmin;
    r.boxes[slot * 4 + 2] = boxes[box].ymax;
    r.boxes[slot * 4 + 3] = boxes[box].xmax;
    r.classes[slot] = static_cast<float>(cls);
    r.scores[slot] = score;
  };
  auto score = [&](int box, int cls) { return scores[box * stride + offset + cls]; };
  if (!o.use_regular_nms) {
    const int k = std::min(o.max_classes_per_detection, o.num_classes);
    std::vector<float> best(n);
    std::vector<std::vector<int>> ranked(n);
    for (int i = 0; i < n; ++i) {
      std::vector<int> cls(o.num_classes);
      for (int c = 0; c < o.num_classes; ++c) cls[c] = c;
      const auto higher = [&](int a, int b) { return score(i, a) > score(i, b); };
      if (k == 1) {  // TFLite: the first maximum
        cls[0] = static_cast<int>(
            std::max_element(cls.begin(), cls.end(), [&](int a, int b) { return higher(b, a); }) -
            cls.begin());
      } else {  // TFLite: std::partial_sort, ties where that algorithm leaves them
        std::partial_sort(cls.begin(), cls.begin() + k, cls.end(), higher);
      }
      ranked[i] = cls;
      best[i] = score(i, cls[0]);
    }
    const std::vector<int> picked =
        GreedyRef(boxes, best, o.score_threshold, o.iou_threshold, o.max_detections);
    for (size_t p = 0; p < picked.size(); ++p) {
      for (int j = 0; j < k; ++j) {
        const int c = ranked[picked[p]][j];
        put(static_cast<int>(p) * o.max_classes_per_detection + j, picked[p], c,
            score(picked[p], c));
      }
    }
    r.num = static_cast<float>(picked.size());
  } else {
    struct Pick {
      float score;
      int box, cls;
    };
    // TFLite: after each class, the running list plus that class's picks is cut to the top
    // max_detections (the first maximum for one, else std::partial_sort).
    std::vector<Pick> all;
    for (int c = 0; c < o.num_classes; ++c) {
      std::vector<float> s(n);
      for (int i = 0; i < n; ++i) s[i] = score(i, c);
      for (int b :
           GreedyRef(boxes, s, o.score_threshold, o.iou_threshold, o.detections_per_class)) {
        all.push_back({s[b], b, c});
      }
      const int m = static_cast<int>(all.size());
      const int keep = std::min(m, o.max_detections);
      std::vector<int> idx(static_cast<size_t>(m));
      for (int i = 0; i < m; ++i) idx[i] = i;
      const auto higher = [&](int a, int b) { return all[a].score > all[b].score; };
      if (keep == 1) {
        idx[0] = static_cast<int>(
            std::max_element(idx.begin(), idx.end(), [&](int a, int b) { return higher(b, a); }) -
            idx.begin());
      } else {
        std::partial_sort(idx.begin(), idx.begin() + keep, idx.end(), higher);
      }
      std::vector<Pick> top;
      for (int i = 0; i < keep; ++i) top.push_back(all[idx[i]]);
      all = top;
    }
    for (size_t p = 0; p < all.size(); ++p)
      put(static_cast<int>(p), all[p].box, all[p].cls, all[p].score);
    r.num = static_cast<float>(all.size());
  }
  return r;
}

// ---- the scene: 8 anchors, four pairs that coincide (their boxes overlap heavily)

struct Scene {
  std::vector<float> enc, scores, anchors;
  int enc_len = 4, offset = 1, num_classes = 3;
};

Scene MakeScene() {
  Scene s;
  const float centers[4][2] = {{0.25f, 0.25f}, {0.25f, 0.75f}, {0.75f, 0.25f}, {0.75f, 0.75f}};
  for (int i = 0; i < 8; ++i) {
    s.anchors.insert(s.anchors.end(), {centers[i / 2][0], centers[i / 2][1], 0.5f, 0.5f});
  }
  const float enc[8][4] = {{0.5f, -0.3f, 0.2f, -0.1f}, {0.7f, -0.1f, 0.4f, 0.1f},
                           {-1.0f, 0.8f, -0.5f, 0.3f}, {2.5f, -2.0f, 0.9f, 0.6f},
                           {0.1f, 0.2f, -0.2f, -0.3f}, {0.0f, 0.4f, 0.0f, -0.2f},
                           {-0.6f, -0.6f, 1.0f, 1.1f}, {1.4f, 1.2f, -0.8f, 0.2f}};
  for (auto &e : enc) s.enc.insert(s.enc.end(), std::begin(e), std::end(e));
  // background, class 0, 1, 2 — no ties within a row or a class column.
  const float scores[8][4] = {{0.1f, 0.90f, 0.05f, 0.30f}, {0.2f, 0.80f, 0.60f, 0.10f},
                              {0.0f, 0.15f, 0.70f, 0.25f}, {0.3f, 0.40f, 0.55f, 0.85f},
                              {0.9f, 0.05f, 0.10f, 0.12f}, {0.1f, 0.35f, 0.65f, 0.45f},
                              {0.0f, 0.75f, 0.20f, 0.50f}, {0.4f, 0.22f, 0.95f, 0.18f}};
  for (auto &r : scores) s.scores.insert(s.scores.end(), std::begin(r), std::end(r));
  return s;
}

struct Outputs {
  TfLiteStatus build = kTfLiteError, invoke = kTfLiteError;
  std::string error;
  std::vector<float> boxes, classes, scores, num;
  std::vector<int> box_shape, class_shape, num_shape;
};

struct Input {
  TfLiteType type;
  std::vector<int> shape;
  std::vector<float> values;
  float scale = 0;
  int zero_point = 0;
};

template <typename T>
std::vector<T> Quantize(const std::vector<float> &v, float scale, int zp) {
  std::vector<T> q;
  for (float x : v) {
    const long r = std::lround(x / scale) + zp;
    q.push_back(static_cast<T>(std::min<long>(std::max<long>(r, std::numeric_limits<T>::min()),
                                              std::numeric_limits<T>::max())));
  }
  return q;
}

// (q - zp) * scale in float, as the kernel dequantizes.
template <typename T>
std::vector<float> Dequantize(const std::vector<T> &q, float scale, int zp) {
  std::vector<float> v;
  for (T x : q) v.push_back((static_cast<float>(x) - static_cast<float>(zp)) * scale);
  return v;
}

Outputs RunOp(const std::vector<Input> &inputs, const std::vector<uint8_t> &options,
              int num_outputs = 4) {
  Outputs r;
  OpModel m;
  std::vector<int> ids;
  for (const Input &in : inputs) {
    if (in.type == kTfLiteFloat32) {
      ids.push_back(m.AddInput({in.type, in.shape}));
    } else {
      ids.push_back(m.AddInput({in.type, in.shape, {in.scale}, {in.zero_point}}));
    }
  }
  std::vector<int> outs;
  for (int i = 0; i < num_outputs; ++i) outs.push_back(m.AddOutput({kTfLiteFloat32, {}}));
  m.SetCustomOp(tflite::ops::custom::Register_DETECTION_POSTPROCESS(), options);
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Input &in = inputs[i];
    if (in.type == kTfLiteFloat32) {
      m.SetInput(ids[i], in.values);
    } else if (in.type == kTfLiteUInt8) {
      m.SetInput(ids[i], Quantize<uint8_t>(in.values, in.scale, in.zero_point));
    } else {
      m.SetInput(ids[i], Quantize<int8_t>(in.values, in.scale, in.zero_point));
    }
  }
  r.invoke = m.Invoke();
  r.error = m.error();
  if (r.invoke != kTfLiteOk) return r;
  r.boxes = m.GetOutput<float>(outs[0]);
  r.classes = m.GetOutput<float>(outs[1]);
  r.scores = m.GetOutput<float>(outs[2]);
  r.num = m.GetOutput<float>(outs[3]);
  r.box_shape = m.GetShape(outs[0]);
  r.class_shape = m.GetShape(outs[1]);
  r.num_shape = m.GetShape(outs[3]);
  return r;
}

std::vector<Input> FloatInputs(const Scene &s) {
  const int n = static_cast<int>(s.anchors.size() / 4);
  return {{kTfLiteFloat32, {1, n, s.enc_len}, s.enc},
          {kTfLiteFloat32, {1, n, s.num_classes + s.offset}, s.scores},
          {kTfLiteFloat32, {n, 4}, s.anchors}};
}

void ExpectMatches(const Outputs &got, const RefOut &want, int slots) {
  ASSERT_EQ(got.invoke, kTfLiteOk) << got.error;
  EXPECT_EQ(got.box_shape, (std::vector<int>{1, slots, 4}));
  EXPECT_EQ(got.class_shape, (std::vector<int>{1, slots}));
  EXPECT_EQ(got.num_shape, (std::vector<int>{1}));
  EXPECT_EQ(got.boxes, want.boxes);
  EXPECT_EQ(got.classes, want.classes);
  EXPECT_EQ(got.scores, want.scores);
  ASSERT_EQ(got.num.size(), 1u);
  EXPECT_EQ(got.num[0], want.num);
}

TEST(DetectionPostProcess, FastNmsFloatOneAndTwoClassesPerDetection) {
  const Scene s = MakeScene();
  for (int per : {1, 2, 5}) {
    Options o;
    o.max_classes_per_detection = per;
    o.max_detections = 4;
    SCOPED_TRACE(per);
    const RefOut want = Reference(s.enc, s.enc_len, s.scores, s.offset, s.anchors, o);
    EXPECT_GT(want.num, 1);
    ExpectMatches(RunOp(FloatInputs(s), o.Encode()), want, o.max_detections * per);
  }
}

TEST(DetectionPostProcess, RegularNmsFloat) {
  const Scene s = MakeScene();
  for (int per_class : {1, 2, 100}) {
    Options o;
    o.use_regular_nms = true;
    o.max_detections = 5;
    o.detections_per_class = per_class;
    o.score_threshold = 0.3f;
    SCOPED_TRACE(per_class);
    const RefOut want = Reference(s.enc, s.enc_len, s.scores, s.offset, s.anchors, o);
    ExpectMatches(RunOp(FloatInputs(s), o.Encode()), want, o.max_detections);
  }
}

TEST(DetectionPostProcess, SuppressionHappensAndThresholdApplies) {
  // Anchors 0 and 1 coincide and their decoded boxes overlap by more than 0.5: fast NMS keeps
  // only anchor 0 (0.90) of the pair; nothing below the 0.2 threshold appears.
  const Scene s = MakeScene();
  Options o;
  o.max_detections = 8;
  auto r = RunOp(FloatInputs(s), o.Encode());
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  const RefOut want = Reference(s.enc, s.enc_len, s.scores, s.offset, s.anchors, o);
  EXPECT_LT(want.num, 8);
  EXPECT_EQ(r.scores[0], 0.95f);  // anchor 7, class 1
  EXPECT_EQ(r.classes[0], 1.0f);
  for (int i = 0; i < static_cast<int>(r.num[0]); ++i) EXPECT_GE(r.scores[i], 0.2f);
  for (int i = static_cast<int>(r.num[0]); i < 8; ++i) EXPECT_EQ(r.scores[i], 0.0f);
  ExpectMatches(r, want, 8);
}

TEST(DetectionPostProcess, TiesAreOrderedAsTfliteOrdersThem) {
  // Every class score equal. NMS candidates keep index order (TFLite's stable sort), while
  // each anchor's classes and the merged picks follow TFLite's std::partial_sort, which does
  // not keep index order for ties (TFLite Micro's stable sorts would give class 0 first).
  Scene s = MakeScene();
  for (size_t i = 0; i < s.scores.size(); ++i) s.scores[i] = (i % 4 == 0) ? 0.1f : 0.5f;
  for (bool regular : {false, true}) {
    Options o;
    o.use_regular_nms = regular;
    o.max_detections = 6;
    o.max_classes_per_detection = 2;
    SCOPED_TRACE(regular);
    const RefOut want = Reference(s.enc, s.enc_len, s.scores, s.offset, s.anchors, o);
    ExpectMatches(RunOp(FloatInputs(s), o.Encode()), want, 12);
  }
}

TEST(DetectionPostProcess, NoBackgroundClassAndLongerEncodings) {
  // Class predictions without the background column, and box encodings with 6 values per box
  // (keypoint coders append values; only the first 4 are used).
  Scene s = MakeScene();
  std::vector<float> scores, enc;
  for (int i = 0; i < 8; ++i) {
    scores.insert(scores.end(), s.scores.begin() + i * 4 + 1, s.scores.begin() + i * 4 + 4);
    enc.insert(enc.end(), s.enc.begin() + i * 4, s.enc.begin() + i * 4 + 4);
    enc.insert(enc.end(), {9.0f, -9.0f});
  }
  Options o;
  o.max_classes_per_detection = 2;
  const RefOut want = Reference(enc, 6, scores, 0, s.anchors, o);
  auto r = RunOp({{kTfLiteFloat32, {1, 8, 6}, enc},
                  {kTfLiteFloat32, {1, 8, 3}, scores},
                  {kTfLiteFloat32, {8, 4}, s.anchors}},
                 o.Encode());
  ExpectMatches(r, want, o.max_detections * 2);
}

TEST(DetectionPostProcess, QuantizedUInt8AndInt8InputsAreDequantized) {
  const Scene s = MakeScene();
  Options o;
  o.max_classes_per_detection = 2;
  struct Q {
    TfLiteType type;
    float enc_scale;
    int enc_zp;
    float score_scale;
    int score_zp;
    float anchor_scale;
    int anchor_zp;
  };
  for (const Q &q : {Q{kTfLiteUInt8, 0.03f, 128, 1.0f / 256, 0, 1.0f / 128, 0},
                     Q{kTfLiteInt8, 0.025f, 3, 1.0f / 256, -128, 1.0f / 200, -100}}) {
    SCOPED_TRACE(q.type);
    std::vector<float> enc, scores, anchors;
    if (q.type == kTfLiteUInt8) {
      enc = Dequantize(Quantize<uint8_t>(s.enc, q.enc_scale, q.enc_zp), q.enc_scale, q.enc_zp);
      scores = Dequantize(Quantize<uint8_t>(s.scores, q.score_scale, q.score_zp), q.score_scale,
                          q.score_zp);
      anchors = Dequantize(Quantize<uint8_t>(s.anchors, q.anchor_scale, q.anchor_zp),
                           q.anchor_scale, q.anchor_zp);
    } else {
      enc = Dequantize(Quantize<int8_t>(s.enc, q.enc_scale, q.enc_zp), q.enc_scale, q.enc_zp);
      scores = Dequantize(Quantize<int8_t>(s.scores, q.score_scale, q.score_zp), q.score_scale,
                          q.score_zp);
      anchors = Dequantize(Quantize<int8_t>(s.anchors, q.anchor_scale, q.anchor_zp), q.anchor_scale,
                           q.anchor_zp);
    }
    const RefOut want = Reference(enc, 4, scores, 1, anchors, o);
    auto r = RunOp({{q.type, {1, 8, 4}, s.enc, q.enc_scale, q.enc_zp},
                    {q.type, {1, 8, 4}, s.scores, q.score_scale, q.score_zp},
                    {q.type, {8, 4}, s.anchors, q.anchor_scale, q.anchor_zp}},
                   o.Encode());
    ExpectMatches(r, want, o.max_detections * 2);
  }
}

// The fast NMS's per-anchor best class (two branch-free passes over 8 lanes) against the
// plain scan in ScoreRanksBefore's order: random rows of every length up to 40 with ties,
// NaN (leading, trailing, everywhere), both zeros and both infinities.
TEST(DetectionPostProcess, FirstMaximumIsTheScansFirstMaximum) {
  std::mt19937 rng(12);
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  const float kInf = std::numeric_limits<float>::infinity();
  const float pool[] = {kNaN, -kInf, kInf, -0.f, 0.f, -1.f, 0.25f, 0.5f, 0.5f, 3.f};
  for (int trial = 0; trial < 4000; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40);
    std::vector<float> row(static_cast<size_t>(n));
    for (float &v : row) {
      v = rng() % 3 == 0 ? pool[rng() % 10] : static_cast<float>(rng() % 64) / 16.f - 2.f;
    }
    if (trial % 50 == 0) std::fill(row.begin(), row.end(), kNaN);
    int scan = 0;
    for (int i = 1; i < n; ++i) {
      scan = reference::detection::ScoreRanksBefore(row[i], row[scan]) ? i : scan;
    }
    ASSERT_EQ(reference::detection::FirstMaximum(row.data(), n), scan) << "trial " << trial;
  }
}

TEST(DetectionPostProcess, RegisteredInBuiltinResolver) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  EXPECT_NE(resolver.FindOp("TFLite_Detection_PostProcess", 1), nullptr);
  EXPECT_NE(resolver.FindOp("AudioSpectrogram", 1), nullptr);
  EXPECT_NE(resolver.FindOp("Mfcc", 1), nullptr);
}

// ---- errors

std::string BuildError(const std::vector<uint8_t> &options, const Scene &s = MakeScene(),
                       int num_outputs = 4) {
  auto r = RunOp(FloatInputs(s), options, num_outputs);
  EXPECT_NE(r.build, kTfLiteOk);
  return r.error;
}

TEST(DetectionPostProcess, BadOptionsAreOneLineErrors) {
  const std::string missing = BuildError(Flex([](flexbuffers::Builder &b) {
    b.Int("max_detections", 3);
    b.Int("num_classes", 3);
  }));
  EXPECT_EQ(missing.find("TFLite_Detection_PostProcess: missing options "
                         "'max_classes_per_detection', 'nms_score_threshold', "
                         "'nms_iou_threshold', 'y_scale', 'x_scale', 'h_scale', 'w_scale'\n"),
            0u)
      << missing;

  EXPECT_NE(BuildError({}).find("TFLite_Detection_PostProcess: missing custom options"),
            std::string::npos);
  EXPECT_NE(BuildError({1, 2, 3, 4, 5}).find("not a valid FlexBuffer"), std::string::npos);
  flexbuffers::Builder vec;
  vec.Vector([&] { vec.Int(1); });
  vec.Finish();
  EXPECT_NE(BuildError(vec.GetBuffer()).find("must be a FlexBuffers map"), std::string::npos);

  Options o;
  o.iou_threshold = 1.5f;
  EXPECT_NE(BuildError(o.Encode()).find("nms_iou_threshold must be in (0, 1]"), std::string::npos);
  o = Options();
  o.max_detections = 0;
  EXPECT_NE(BuildError(o.Encode()).find("max_detections must be in [1,"), std::string::npos);
  o = Options();
  o.h_scale = 0;
  EXPECT_NE(BuildError(o.Encode()).find("must be nonzero"), std::string::npos);
  const std::string wrong_kind =
      BuildError(Flex([](flexbuffers::Builder &b) { b.String("max_detections", "three"); }));
  EXPECT_NE(wrong_kind.find("option 'max_detections' must be an integer"), std::string::npos)
      << wrong_kind;
}

TEST(DetectionPostProcess, BadShapesAreOneLineErrors) {
  Options o;
  o.num_classes = 5;  // class predictions have 4 columns
  EXPECT_NE(BuildError(o.Encode()).find("num_classes is 5"), std::string::npos);

  Scene s = MakeScene();
  s.anchors.resize(7 * 4);
  auto r = RunOp({{kTfLiteFloat32, {1, 8, 4}, s.enc},
                  {kTfLiteFloat32, {1, 8, 4}, s.scores},
                  {kTfLiteFloat32, {7, 4}, s.anchors}},
                 Options().Encode());
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("TFLite_Detection_PostProcess: class predictions [1, 8, C] and anchors "
                         "[7, 4] must match the 8 boxes"),
            std::string::npos)
      << r.error;

  EXPECT_NE(BuildError(Options().Encode(), MakeScene(), 3).find("expects 3 inputs and 4 outputs"),
            std::string::npos);

  auto t = RunOp({{kTfLiteInt32, {1, 8, 4}, {}},
                  {kTfLiteFloat32, {1, 8, 4}, s.scores},
                  {kTfLiteFloat32, {8, 4}, {}}},
                 Options().Encode());
  EXPECT_NE(t.error.find("box encodings type INT32 is not supported"), std::string::npos)
      << t.error;
}

}  // namespace
}  // namespace octet::custom_test
