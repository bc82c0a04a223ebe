// TFLite_Detection_PostProcess: decodes SSD box encodings against anchors and runs
// non-max suppression (TFLite's custom op of that name). Inputs: box encodings
// [1, num_boxes, >=4], class predictions [1, num_boxes, num_classes (+1 background)],
// anchors [num_boxes, 4]; float32, or uint8/int8 dequantized with each tensor's own
// parameters. Outputs (float32): boxes [1, N, 4], classes [1, N], scores [1, N],
// num_detections [1], N = max_detections * max_classes_per_detection.
#include "kernels/reference/detection_postprocess.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/alloc_guard.h"
#include "ops/custom/custom_ops.h"
#include "ops/custom/flex_options.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::custom {
namespace {

namespace det = reference::detection;

constexpr const char *kOp = "TFLite_Detection_PostProcess";

struct OpData {
  std::string options_error;
  det::NmsParams nms;
  bool use_regular_nms = false;
  det::CenterSize scale{};
};

void *Init(TfLiteContext *, const char *buffer, size_t length) {
  auto *data = new OpData;
  FlexOptions o(kOp, buffer, length);
  int64_t max_detections = 0, max_classes = 0, per_class = 100, num_classes = 0;
  double score_threshold = 0, iou_threshold = 0, ys = 0, xs = 0, hs = 0, ws = 0;
  o.Int("max_detections", true, &max_detections);
  o.Int("max_classes_per_detection", true, &max_classes);
  o.Int("detections_per_class", false, &per_class);
  o.Int("num_classes", true, &num_classes);
  o.Float("nms_score_threshold", true, &score_threshold);
  o.Float("nms_iou_threshold", true, &iou_threshold);
  o.Float("y_scale", true, &ys);
  o.Float("x_scale", true, &xs);
  o.Float("h_scale", true, &hs);
  o.Float("w_scale", true, &ws);
  o.Bool("use_regular_nms", false, &data->use_regular_nms);
  if (o.ok()) {
    constexpr int64_t kLimit = 1 << 20;
    auto positive = [&o](const char *name, int64_t v) {
      if (v <= 0 || v > kLimit) {
        o.Fail(std::string(name) + " must be in [1, " + std::to_string(kLimit) + "], got " +
               std::to_string(v));
      }
    };
    positive("max_detections", max_detections);
    positive("max_classes_per_detection", max_classes);
    positive("detections_per_class", per_class);
    positive("num_classes", num_classes);
    if (!(iou_threshold > 0 && iou_threshold <= 1)) {
      o.Fail("nms_iou_threshold must be in (0, 1], got " + std::to_string(iou_threshold));
    }
    for (double s : {ys, xs, hs, ws}) {
      if (s == 0) {
        o.Fail("y_scale, x_scale, h_scale and w_scale must be nonzero");
        break;
      }
    }
    if (o.ok() && max_detections * max_classes > kLimit) {
      o.Fail("max_detections * max_classes_per_detection is too large");
    }
  }
  data->options_error = o.error();
  data->nms.max_detections = static_cast<int>(max_detections);
  data->nms.max_classes_per_detection = static_cast<int>(max_classes);
  data->nms.detections_per_class = static_cast<int>(per_class);
  data->nms.num_classes = static_cast<int>(num_classes);
  data->nms.score_threshold = static_cast<float>(score_threshold);
  data->nms.iou_threshold = static_cast<float>(iou_threshold);
  data->scale = {static_cast<float>(ys), static_cast<float>(xs), static_cast<float>(hs),
                 static_cast<float>(ws)};
  return data;
}

void Free(TfLiteContext *, void *buffer) { delete static_cast<OpData *>(buffer); }

bool SupportedType(TfLiteType t) {
  return t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt8;
}

TfLiteStatus Resize(TfLiteContext *context, TfLiteTensor *t, std::initializer_list<int> dims) {
  TfLiteIntArray *a = octet::OrThrow(TfLiteIntArrayCreate(static_cast<int>(dims.size())));
  int i = 0;
  for (int d : dims) a->data[i++] = d;
  return context->ResizeTensor(context, t, a);
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const OpData *>(node->user_data);
  if (!data.options_error.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s", data.options_error.c_str());
    return kTfLiteError;
  }
  if (tflite::NumInputs(node) != 3 || tflite::NumOutputs(node) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: expects 3 inputs and 4 outputs, got %d and %d", kOp,
                       tflite::NumInputs(node), tflite::NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor *boxes = tflite::GetInput(context, node, 0);
  const TfLiteTensor *scores = tflite::GetInput(context, node, 1);
  const TfLiteTensor *anchors = tflite::GetInput(context, node, 2);
  if (boxes == nullptr || scores == nullptr || anchors == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: all three inputs are required", kOp);
    return kTfLiteError;
  }
  const char *names[3] = {"box encodings", "class predictions", "anchors"};
  const TfLiteTensor *inputs[3] = {boxes, scores, anchors};
  for (int i = 0; i < 3; ++i) {
    if (!SupportedType(inputs[i]->type)) {
      TF_LITE_KERNEL_LOG(context, "%s: %s type %s is not supported (float32, uint8, int8)", kOp,
                         names[i], TfLiteTypeGetName(inputs[i]->type));
      return kTfLiteError;
    }
    if (inputs[i]->type != kTfLiteFloat32 && !(inputs[i]->params.scale > 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: quantized %s need a positive scale", kOp, names[i]);
      return kTfLiteError;
    }
  }
  if (tflite::NumDimensions(boxes) != 3 || tflite::NumDimensions(scores) != 3 ||
      tflite::NumDimensions(anchors) != 2) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: box encodings and class predictions must be 3-D and anchors 2-D "
                       "(got ranks %d, %d, %d)",
                       kOp, tflite::NumDimensions(boxes), tflite::NumDimensions(scores),
                       tflite::NumDimensions(anchors));
    return kTfLiteError;
  }
  const int num_boxes = boxes->dims->data[1];
  if (boxes->dims->data[0] != 1 || scores->dims->data[0] != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: batch size must be 1", kOp);
    return kTfLiteError;
  }
  if (boxes->dims->data[2] < 4) {
    TF_LITE_KERNEL_LOG(context, "%s: box encodings need at least 4 values per box, got %d", kOp,
                       boxes->dims->data[2]);
    return kTfLiteError;
  }
  if (scores->dims->data[1] != num_boxes || anchors->dims->data[0] != num_boxes ||
      anchors->dims->data[1] != 4) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: class predictions [1, %d, C] and anchors [%d, 4] must match the %d "
                       "boxes",
                       kOp, scores->dims->data[1], anchors->dims->data[0], num_boxes);
    return kTfLiteError;
  }
  const int label_offset = scores->dims->data[2] - data.nms.num_classes;
  if (label_offset != 0 && label_offset != 1) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: class predictions have %d classes per box; num_classes is %d (one "
                       "extra background class at most)",
                       kOp, scores->dims->data[2], data.nms.num_classes);
    return kTfLiteError;
  }
  const int n = data.nms.max_detections * data.nms.max_classes_per_detection;
  for (int i = 0; i < 4; ++i) {
    TfLiteTensor *out = tflite::GetOutput(context, node, i);
    if (out == nullptr || out->type != kTfLiteFloat32) {
      TF_LITE_KERNEL_LOG(context, "%s: output %d must be a float32 tensor", kOp, i);
      return kTfLiteError;
    }
  }
  TF_LITE_ENSURE_STATUS(Resize(context, tflite::GetOutput(context, node, 0), {1, n, 4}));
  TF_LITE_ENSURE_STATUS(Resize(context, tflite::GetOutput(context, node, 1), {1, n}));
  TF_LITE_ENSURE_STATUS(Resize(context, tflite::GetOutput(context, node, 2), {1, n}));
  return Resize(context, tflite::GetOutput(context, node, 3), {1});
}

// A float/uint8/int8 tensor's elements as floats ((q - zero_point) * scale), the type switch
// outside the loop.
std::vector<float> ValuesOf(const TfLiteTensor *t) {
  std::vector<float> out(static_cast<size_t>(tflite::NumElements(t)));
  const float zero_point = static_cast<float>(t->params.zero_point);
  const float scale = t->params.scale;
  switch (t->type) {
    case kTfLiteUInt8:
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = (static_cast<float>(t->data.uint8[i]) - zero_point) * scale;
      }
      break;
    case kTfLiteInt8:
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = (static_cast<float>(t->data.int8[i]) - zero_point) * scale;
      }
      break;
    default:
      std::copy(t->data.f, t->data.f + out.size(), out.begin());
      break;
  }
  return out;
}

TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const OpData *>(node->user_data);
  const TfLiteTensor *boxes = tflite::GetInput(context, node, 0);
  const TfLiteTensor *scores = tflite::GetInput(context, node, 1);
  const TfLiteTensor *anchors = tflite::GetInput(context, node, 2);
  TfLiteTensor *outputs[4];
  for (int i = 0; i < 4; ++i) outputs[i] = tflite::GetOutput(context, node, i);
  for (const TfLiteTensor *t :
       {boxes, scores, anchors, static_cast<const TfLiteTensor *>(outputs[0])}) {
    if (t->data.raw == nullptr && tflite::NumElements(t) > 0) {
      TF_LITE_KERNEL_LOG(context, "%s: a tensor has no data", kOp);
      return kTfLiteError;
    }
  }
  const int num_boxes = boxes->dims->data[1];
  const int box_len = boxes->dims->data[2];
  const int num_scores = scores->dims->data[2];
  const int label_offset = num_scores - data.nms.num_classes;

  const std::vector<float> box_values = ValuesOf(boxes);
  const std::vector<float> anchor_values = ValuesOf(anchors);
  std::vector<det::BoxCorner> decoded(num_boxes);
  for (int b = 0; b < num_boxes; ++b) {
    const float *e = box_values.data() + static_cast<int64_t>(b) * box_len;
    const float *a = anchor_values.data() + int64_t{4} * b;
    const det::CenterSize enc{e[0], e[1], e[2], e[3]};
    const det::CenterSize anchor{a[0], a[1], a[2], a[3]};
    decoded[b] = det::Decode(enc, anchor, data.scale);
    // TFLite rejects inverted boxes (ymin > ymax or xmin > xmax), e.g. negative anchor sizes.
    if (!(decoded[b].ymin <= decoded[b].ymax && decoded[b].xmin <= decoded[b].xmax)) {
      TF_LITE_KERNEL_LOG(context, "%s: decoded box %d is inverted or not finite", kOp, b);
      return kTfLiteError;
    }
  }
  const std::vector<float> score_values = ValuesOf(scores);

  const int n = data.nms.max_detections * data.nms.max_classes_per_detection;
  det::Detections d;
  d.boxes.assign(n, det::BoxCorner{0, 0, 0, 0});
  d.classes.assign(n, 0.0f);
  d.scores.assign(n, 0.0f);
  if (data.use_regular_nms) {
    det::RegularNms(decoded, score_values.data(), label_offset, data.nms, &d);
  } else {
    det::FastNms(decoded, score_values.data(), label_offset, data.nms, &d);
  }
  float *out_boxes = outputs[0]->data.f;
  for (int i = 0; i < n; ++i) {
    out_boxes[4 * i] = d.boxes[i].ymin;
    out_boxes[4 * i + 1] = d.boxes[i].xmin;
    out_boxes[4 * i + 2] = d.boxes[i].ymax;
    out_boxes[4 * i + 3] = d.boxes[i].xmax;
    outputs[1]->data.f[i] = d.classes[i];
    outputs[2]->data.f[i] = d.scores[i];
  }
  outputs[3]->data.f[0] = static_cast<float>(d.num_detections);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::custom

namespace tflite::ops::custom {

TfLiteRegistration *Register_DETECTION_POSTPROCESS() {
  static TfLiteRegistration r = [] {
    TfLiteRegistration reg{};
    reg.init = octet::ops::custom::Init;
    reg.free = octet::ops::custom::Free;
    reg.prepare = octet::ops::custom::Prepare;
    reg.invoke = octet::ops::custom::Eval;
    return reg;
  }();
  return &r;
}

}  // namespace tflite::ops::custom
