#include "delegates/xnnpack/xnnpack_visitors.h"

#include <xnnpack.h>

#include <vector>

#include "delegates/xnnpack/xnnpack_util.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::xnnpack {
namespace {

bool Ok(xnn_status status) { return status == xnn_status_success; }

// The bias value: the model's constant (float32, or int32 quantized as input x filter), or
// zeros of that kind when the op has none.
bool BiasValue(const TfLiteContext* ctx, Builder& b, int input, int filter, int bias, int channels,
               uint32_t* id) {
  if (bias < 0) return b.OwnedZeroBias(input, filter, channels, id);
  const TfLiteTensor* t = TensorAt(ctx, bias);
  const TfLiteTensor* f = TensorAt(ctx, filter);
  const bool type_ok = f->type == kTfLiteFloat32
                           ? IsFloatConstant(ctx, bias)
                           : t != nullptr && t->type == kTfLiteInt32 && IsConstant(*t);
  if (!type_ok || t->dims->size != 1 || t->dims->data[0] != channels) return false;
  return b.Tensor(bias, id);
}

// The family of a weighted node: input and output activations of one family, weights a
// constant of it.
bool WeightedNumeric(const TfLiteContext* ctx, int in, int filter, int out, Numeric* n) {
  return ActivationNumeric(ctx, in, n) && IsActivation(ctx, out, *n) &&
         IsConstantOf(ctx, filter, *n);
}

// The activation bounds and per-axis windows of a CONV_2D / DEPTHWISE_CONV_2D node (NHWC
// input x, filter f with its spatial size in dims 1-2), checked against its output y.
template <typename WindowParams>
bool ConvWindows(const WindowParams& params, const std::vector<int>& x, const std::vector<int>& f,
                 const std::vector<int>& y, int out_channels, float* lo, float* hi, Window* wh,
                 Window* ww) {
  return ActivationRange(params.activation, lo, hi) &&
         ComputeWindow(params.padding, x[1], f[1], params.stride_height,
                       params.dilation_height_factor, wh) &&
         ComputeWindow(params.padding, x[2], f[2], params.stride_width,
                       params.dilation_width_factor, ww) &&
         y == std::vector<int>{x[0], wh->out, ww->out, out_channels};
}

bool VisitConv2d(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const auto* params = static_cast<const TfLiteConvParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), filter = InputIndex(node, 1), bias = InputIndex(node, 2);
  const int out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || node.outputs->size != 1 || !WeightedNumeric(ctx, in, filter, out, &n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), f = Dims(ctx->tensors[filter]),
                         y = Dims(ctx->tensors[out]);
  if (x.size() != 4 || f.size() != 4 || y.size() != 4) return false;
  const int channels = x[3], out_channels = f[0], group_channels = f[3];
  if (channels % group_channels != 0) return false;
  const int groups = channels / group_channels;
  if (out_channels % groups != 0) return false;
  float lo, hi;
  Window wh, ww;
  if (!ConvWindows(*params, x, f, y, out_channels, &lo, &hi, &wh, &ww)) return false;
  uint32_t in_id, filter_id, bias_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(filter, &filter_id) &&
         BiasValue(ctx, b, in, filter, bias, out_channels, &bias_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_convolution_2d(b.subgraph(), wh.before, ww.after, wh.after, ww.before, f[1],
                                      f[2], params->stride_height, params->stride_width,
                                      params->dilation_height_factor, params->dilation_width_factor,
                                      groups, group_channels, out_channels / groups, lo, hi, in_id,
                                      filter_id, bias_id, out_id, 0));
}

bool VisitDepthwiseConv2d(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), filter = InputIndex(node, 1), bias = InputIndex(node, 2);
  const int out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || node.outputs->size != 1 || !WeightedNumeric(ctx, in, filter, out, &n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), f = Dims(ctx->tensors[filter]),
                         y = Dims(ctx->tensors[out]);
  if (x.size() != 4 || f.size() != 4 || y.size() != 4 || f[0] != 1) return false;
  const int channels = x[3], out_channels = f[3];
  if (out_channels % channels != 0) return false;
  const int multiplier = out_channels / channels;
  float lo, hi;
  Window wh, ww;
  if (!ConvWindows(*params, x, f, y, out_channels, &lo, &hi, &wh, &ww)) return false;
  uint32_t in_id, filter_id, bias_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(filter, &filter_id) &&
         BiasValue(ctx, b, in, filter, bias, out_channels, &bias_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_depthwise_convolution_2d(
             b.subgraph(), wh.before, ww.after, wh.after, ww.before, f[1], f[2],
             params->stride_height, params->stride_width, params->dilation_height_factor,
             params->dilation_width_factor, multiplier, channels, lo, hi, in_id, filter_id, bias_id,
             out_id, 0));
}

bool VisitFullyConnected(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), weights = InputIndex(node, 1), bias = InputIndex(node, 2);
  const int out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || node.outputs->size != 1 ||
      params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault ||
      !WeightedNumeric(ctx, in, weights, out, &n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), w = Dims(ctx->tensors[weights]),
                         y = Dims(ctx->tensors[out]);
  if (w.size() != 2 || x.empty()) return false;
  const int units = w[0], depth = w[1];
  uint32_t flags = 0;
  if (params->keep_num_dims) {
    std::vector<int> expected = x;
    expected.back() = units;
    if (x.back() != depth || y != expected) return false;
  } else {
    const size_t n = NumElements(x);
    if (n % static_cast<size_t>(depth) != 0 ||
        y != std::vector<int>{static_cast<int>(n / depth), units}) {
      return false;
    }
    flags = XNN_FLAG_TENSORFLOW_RESHAPE_2D;
  }
  float lo, hi;
  if (!ActivationRange(params->activation, &lo, &hi)) return false;
  uint32_t in_id, weights_id, bias_id = XNN_INVALID_VALUE_ID, out_id;
  if (bias >= 0 && !BiasValue(ctx, b, in, weights, bias, units, &bias_id)) return false;
  return b.Tensor(in, &in_id) && b.Tensor(weights, &weights_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_fully_connected(b.subgraph(), lo, hi, in_id, weights_id, bias_id, out_id,
                                       flags));
}

bool VisitPool2d(TfLiteContext* ctx, const TfLiteNode& node, bool max_pool, Builder& b) {
  const auto* params = static_cast<const TfLitePoolParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || node.inputs->size != 1 || node.outputs->size != 1 ||
      !ActivationNumeric(ctx, in, &n) || !IsActivation(ctx, out, n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), y = Dims(ctx->tensors[out]);
  float lo, hi;
  Window wh, ww;
  if (x.size() != 4 || !ActivationRange(params->activation, &lo, &hi) ||
      !ComputeWindow(params->padding, x[1], params->filter_height, params->stride_height, 1, &wh) ||
      !ComputeWindow(params->padding, x[2], params->filter_width, params->stride_width, 1, &ww) ||
      y != std::vector<int>{x[0], wh.out, ww.out, x[3]}) {
    return false;
  }
  uint32_t in_id, out_id;
  if (!b.Tensor(in, &in_id) || !b.Tensor(out, &out_id)) return false;
  if (params->filter_height == 1 && params->filter_width == 1) {
    // XNNPACK has no 1x1 pooling; with stride 1 it is just the activation.
    if (params->stride_height != 1 || params->stride_width != 1) return false;
    return Ok(xnn_define_clamp(b.subgraph(), lo, hi, in_id, out_id, 0));
  }
  if (max_pool) {
    return Ok(xnn_define_max_pooling_2d(b.subgraph(), wh.before, ww.after, wh.after, ww.before,
                                        params->filter_height, params->filter_width,
                                        params->stride_height, params->stride_width, 1, 1, lo, hi,
                                        in_id, out_id, 0));
  }
  return Ok(xnn_define_average_pooling_2d(
      b.subgraph(), wh.before, ww.after, wh.after, ww.before, params->filter_height,
      params->filter_width, params->stride_height, params->stride_width, lo, hi, in_id, out_id, 0));
}

// Two-input elementwise ops with numpy broadcasting; at most one operand constant.
bool VisitBinary(TfLiteContext* ctx, const TfLiteNode& node, int op, Builder& b) {
  const int a = InputIndex(node, 0), c = InputIndex(node, 1), out = OutputIndex(node, 0);
  Numeric n;
  if (node.inputs->size != 2 || node.outputs->size != 1 || !ActivationNumeric(ctx, out, &n)) {
    return false;
  }
  const bool a_const = IsConstantOf(ctx, a, n), c_const = IsConstantOf(ctx, c, n);
  if ((!a_const && !IsActivation(ctx, a, n)) || (!c_const && !IsActivation(ctx, c, n)) ||
      (a_const && c_const)) {
    return false;
  }
  TfLiteFusedActivation activation = kTfLiteActNone;
  if (node.builtin_data != nullptr) {
    switch (op) {
      case kTfLiteBuiltinAdd:
        activation = static_cast<const TfLiteAddParams*>(node.builtin_data)->activation;
        break;
      case kTfLiteBuiltinSub:
        activation = static_cast<const TfLiteSubParams*>(node.builtin_data)->activation;
        break;
      case kTfLiteBuiltinMul:
        activation = static_cast<const TfLiteMulParams*>(node.builtin_data)->activation;
        break;
      case kTfLiteBuiltinDiv:
        activation = static_cast<const TfLiteDivParams*>(node.builtin_data)->activation;
        break;
      default:
        break;
    }
  }
  float lo, hi;
  if (!ActivationRange(activation, &lo, &hi)) return false;
  auto promoted = [](std::vector<int> d) { return d.empty() ? std::vector<int>{1} : d; };
  std::vector<int> expected;
  if (!BroadcastShape(promoted(Dims(ctx->tensors[a])), promoted(Dims(ctx->tensors[c])),
                      &expected) ||
      expected != promoted(Dims(ctx->tensors[out]))) {
    return false;
  }
  uint32_t a_id, c_id, out_id;
  if (!b.Tensor(a, &a_id) || !b.Tensor(c, &c_id) || !b.Tensor(out, &out_id)) return false;
  xnn_subgraph_t sg = b.subgraph();
  switch (op) {
    case kTfLiteBuiltinAdd:
      return Ok(xnn_define_add2(sg, lo, hi, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinSub:
      return Ok(xnn_define_subtract(sg, lo, hi, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinMul:
      return Ok(xnn_define_multiply2(sg, lo, hi, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinDiv:
      return Ok(xnn_define_divide(sg, lo, hi, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinMaximum:
      return Ok(xnn_define_maximum2(sg, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinMinimum:
      return Ok(xnn_define_minimum2(sg, a_id, c_id, out_id, 0));
    case kTfLiteBuiltinSquaredDifference:
      return Ok(xnn_define_squared_difference(sg, a_id, c_id, out_id, 0));
    default:
      return false;
  }
}

// One-input ops whose output has the input's shape.
bool VisitUnary(TfLiteContext* ctx, const TfLiteNode& node, int op, Builder& b) {
  const int in = InputIndex(node, 0), out = OutputIndex(node, 0);
  Numeric n;
  if (node.inputs->size != 1 || node.outputs->size != 1 || !ActivationNumeric(ctx, in, &n) ||
      !IsActivation(ctx, out, n) || Dims(ctx->tensors[in]) != Dims(ctx->tensors[out])) {
    return false;
  }
  if (op == kTfLiteBuiltinSoftmax) {
    const auto* params = static_cast<const TfLiteSoftmaxParams*>(node.builtin_data);
    if (params == nullptr || params->beta != 1.0f || ctx->tensors[in].dims->size == 0) {
      return false;
    }
  }
  if (op == kTfLiteBuiltinLeakyRelu && node.builtin_data == nullptr) return false;
  // XNNPACK's ABS is float only; int8 ABS requantizes, which Octet's own kernel does.
  if (op == kTfLiteBuiltinAbs && n != Numeric::kFloat) return false;
  uint32_t in_id, out_id;
  if (!b.Tensor(in, &in_id) || !b.Tensor(out, &out_id)) return false;
  xnn_subgraph_t sg = b.subgraph();
  switch (op) {
    case kTfLiteBuiltinRelu:
      return Ok(xnn_define_clamp(sg, 0.f, kInf, in_id, out_id, 0));
    case kTfLiteBuiltinRelu6:
      return Ok(xnn_define_clamp(sg, 0.f, 6.f, in_id, out_id, 0));
    case kTfLiteBuiltinReluN1To1:
      return Ok(xnn_define_clamp(sg, -1.f, 1.f, in_id, out_id, 0));
    case kTfLiteBuiltinLogistic:
      return Ok(xnn_define_sigmoid(sg, in_id, out_id, 0));
    case kTfLiteBuiltinHardSwish:
      return Ok(xnn_define_hardswish(sg, in_id, out_id, 0));
    case kTfLiteBuiltinElu:
      return Ok(xnn_define_elu(sg, 1.f, in_id, out_id, 0));
    case kTfLiteBuiltinLeakyRelu:
      return Ok(xnn_define_leaky_relu(
          sg, static_cast<const TfLiteLeakyReluParams*>(node.builtin_data)->alpha, in_id, out_id,
          0));
    case kTfLiteBuiltinAbs:
      return Ok(xnn_define_abs(sg, in_id, out_id, 0));
    case kTfLiteBuiltinFloor:
      return Ok(xnn_define_floor(sg, in_id, out_id, 0));
    case kTfLiteBuiltinCeil:
      return Ok(xnn_define_ceiling(sg, in_id, out_id, 0));
    case kTfLiteBuiltinNeg:
      return Ok(xnn_define_negate(sg, in_id, out_id, 0));
    case kTfLiteBuiltinSquare:
      return Ok(xnn_define_square(sg, in_id, out_id, 0));
    case kTfLiteBuiltinSqrt:
      return Ok(xnn_define_square_root(sg, in_id, out_id, 0));
    case kTfLiteBuiltinRound:
      return Ok(xnn_define_bankers_rounding(sg, in_id, out_id, 0));
    case kTfLiteBuiltinSoftmax:
      return Ok(xnn_define_softmax(sg, in_id, out_id, 0));
    default:
      return false;
  }
}

bool VisitReshape(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const int in = InputIndex(node, 0), shape = InputIndex(node, 1), out = OutputIndex(node, 0);
  Numeric n;
  if (node.outputs->size != 1 || !ActivationNumeric(ctx, in, &n) || !IsActivation(ctx, out, n)) {
    return false;
  }
  // The output's (static) shape is the new shape; a shape computed at run time is not.
  if (shape >= 0 && !IsConstant(ctx->tensors[shape])) return false;
  const std::vector<int> x = Dims(ctx->tensors[in]), y = Dims(ctx->tensors[out]);
  if (NumElements(x) != NumElements(y)) return false;
  std::vector<size_t> new_shape(y.begin(), y.end());
  if (new_shape.empty()) new_shape.push_back(1);
  uint32_t in_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_static_reshape(b.subgraph(), new_shape.size(), new_shape.data(), in_id,
                                      out_id, 0));
}

bool VisitPad(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const int in = InputIndex(node, 0), paddings = InputIndex(node, 1);
  const int value = InputIndex(node, 2), out = OutputIndex(node, 0);
  Numeric n;
  if (node.outputs->size != 1 || !ActivationNumeric(ctx, in, &n) || !IsActivation(ctx, out, n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), y = Dims(ctx->tensors[out]);
  std::vector<int64_t> p;
  if (x.empty() || !ReadConstantInts(ctx, paddings, &p) ||
      Dims(ctx->tensors[paddings]) != std::vector<int>{static_cast<int>(x.size()), 2} ||
      y.size() != x.size()) {
    return false;
  }
  std::vector<size_t> pre(x.size()), post(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (p[2 * i] < 0 || p[2 * i + 1] < 0 || x[i] + p[2 * i] + p[2 * i + 1] != y[i]) return false;
    pre[i] = static_cast<size_t>(p[2 * i]);
    post[i] = static_cast<size_t>(p[2 * i + 1]);
  }
  float pad_value = 0.f;  // real value; XNNPACK quantizes it for 8-bit tensors
  if (value >= 0) {       // PADV2's constant
    if (!IsConstantOf(ctx, value, n) || NumElements(Dims(ctx->tensors[value])) != 1) return false;
    const TfLiteTensor& v = ctx->tensors[value];
    switch (n) {
      case Numeric::kFloat:
        pad_value = v.data.f[0];
        break;
      case Numeric::kInt8:
        pad_value = (v.data.int8[0] - v.params.zero_point) * v.params.scale;
        break;
      case Numeric::kUInt8:
        pad_value = (v.data.uint8[0] - v.params.zero_point) * v.params.scale;
        break;
    }
  }
  uint32_t in_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_static_constant_pad(b.subgraph(), pre.data(), post.data(), pad_value, in_id,
                                           out_id, 0));
}

// MEAN over height and width of an NHWC tensor: global average pooling.
bool VisitMean(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const auto* params = static_cast<const TfLiteReducerParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), axes = InputIndex(node, 1), out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || node.outputs->size != 1 || !ActivationNumeric(ctx, in, &n) ||
      !IsActivation(ctx, out, n)) {
    return false;
  }
  const std::vector<int> x = Dims(ctx->tensors[in]), y = Dims(ctx->tensors[out]);
  std::vector<int64_t> a;
  if (x.size() != 4 || !ReadConstantInts(ctx, axes, &a) || a.size() != 2) return false;
  bool h = false, w = false;
  for (int64_t axis : a) {
    if (axis < 0) axis += 4;
    h |= axis == 1;
    w |= axis == 2;
  }
  if (!h || !w) return false;
  const std::vector<size_t> pooled = {static_cast<size_t>(x[0]), 1, 1, static_cast<size_t>(x[3])};
  uint32_t in_id, out_id;
  if (params->keep_dims) {
    return y == std::vector<int>{x[0], 1, 1, x[3]} && b.Tensor(in, &in_id) &&
           b.Tensor(out, &out_id) &&
           Ok(xnn_define_global_average_pooling_2d(b.subgraph(), -kInf, kInf, in_id, out_id, 0));
  }
  uint32_t pooled_id;
  const std::vector<size_t> flat = {static_cast<size_t>(x[0]), static_cast<size_t>(x[3])};
  return y == std::vector<int>{x[0], x[3]} && b.Tensor(in, &in_id) && b.Tensor(out, &out_id) &&
         b.InternalLike(out, pooled, &pooled_id) &&
         Ok(xnn_define_global_average_pooling_2d(b.subgraph(), -kInf, kInf, in_id, pooled_id, 0)) &&
         Ok(xnn_define_static_reshape(b.subgraph(), flat.size(), flat.data(), pooled_id, out_id,
                                      0));
}

// QUANTIZE float32 -> int8/uint8 and DEQUANTIZE int8/uint8 -> float32.
bool VisitConvert(TfLiteContext* ctx, const TfLiteNode& node, bool quantize, Builder& b) {
  const int in = InputIndex(node, 0), out = OutputIndex(node, 0);
  Numeric from, to;
  if (node.inputs->size != 1 || node.outputs->size != 1 || !ActivationNumeric(ctx, in, &from) ||
      !ActivationNumeric(ctx, out, &to) || Dims(ctx->tensors[in]) != Dims(ctx->tensors[out])) {
    return false;
  }
  if (quantize ? (from != Numeric::kFloat || to == Numeric::kFloat)
               : (from == Numeric::kFloat || to != Numeric::kFloat)) {
    return false;
  }
  uint32_t in_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_convert(b.subgraph(), in_id, out_id, 0));
}

// RESIZE_BILINEAR to a constant size: half-pixel centres, align_corners, or TensorFlow's
// legacy (neither) sampling, float or 8-bit (input and output share quantization).
bool VisitResizeBilinear(TfLiteContext* ctx, const TfLiteNode& node, Builder& b) {
  const auto* params = static_cast<const TfLiteResizeBilinearParams*>(node.builtin_data);
  const int in = InputIndex(node, 0), size = InputIndex(node, 1), out = OutputIndex(node, 0);
  Numeric n;
  if (params == nullptr || (params->align_corners && params->half_pixel_centers) ||
      node.outputs->size != 1 || !ActivationNumeric(ctx, in, &n) || !IsActivation(ctx, out, n)) {
    return false;
  }
  std::vector<int64_t> hw;
  const std::vector<int> x = Dims(ctx->tensors[in]), y = Dims(ctx->tensors[out]);
  if (!ReadConstantInts(ctx, size, &hw) || hw.size() != 2 || hw[0] <= 0 || hw[1] <= 0 ||
      x.size() != 4 ||
      y != std::vector<int>{x[0], static_cast<int>(hw[0]), static_cast<int>(hw[1]), x[3]}) {
    return false;
  }
  if (n != Numeric::kFloat &&
      (ctx->tensors[in].params.scale != ctx->tensors[out].params.scale ||
       ctx->tensors[in].params.zero_point != ctx->tensors[out].params.zero_point)) {
    return false;
  }
  const uint32_t flags = params->align_corners        ? XNN_FLAG_ALIGN_CORNERS
                         : params->half_pixel_centers ? 0
                                                      : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  uint32_t in_id, out_id;
  return b.Tensor(in, &in_id) && b.Tensor(out, &out_id) &&
         Ok(xnn_define_static_resize_bilinear_2d(b.subgraph(), static_cast<size_t>(hw[0]),
                                                 static_cast<size_t>(hw[1]), in_id, out_id, flags));
}

}  // namespace

bool NodeToXnn(TfLiteContext* ctx, const TfLiteNode& node, const TfLiteRegistration& reg,
               Builder& b) {
  if (node.inputs == nullptr || node.outputs == nullptr || node.delegate != nullptr) return false;
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConv2d:
      return VisitConv2d(ctx, node, b);
    case kTfLiteBuiltinDepthwiseConv2d:
      return VisitDepthwiseConv2d(ctx, node, b);
    case kTfLiteBuiltinFullyConnected:
      return VisitFullyConnected(ctx, node, b);
    case kTfLiteBuiltinAveragePool2d:
      return VisitPool2d(ctx, node, false, b);
    case kTfLiteBuiltinMaxPool2d:
      return VisitPool2d(ctx, node, true, b);
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinSub:
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinDiv:
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinSquaredDifference:
      return VisitBinary(ctx, node, reg.builtin_code, b);
    case kTfLiteBuiltinRelu:
    case kTfLiteBuiltinRelu6:
    case kTfLiteBuiltinReluN1To1:
    case kTfLiteBuiltinLogistic:
    case kTfLiteBuiltinHardSwish:
    case kTfLiteBuiltinElu:
    case kTfLiteBuiltinLeakyRelu:
    case kTfLiteBuiltinAbs:
    case kTfLiteBuiltinFloor:
    case kTfLiteBuiltinCeil:
    case kTfLiteBuiltinNeg:
    case kTfLiteBuiltinSquare:
    case kTfLiteBuiltinSqrt:
    case kTfLiteBuiltinRound:
    case kTfLiteBuiltinSoftmax:
      return VisitUnary(ctx, node, reg.builtin_code, b);
    case kTfLiteBuiltinReshape:
      return VisitReshape(ctx, node, b);
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2:
      return VisitPad(ctx, node, b);
    case kTfLiteBuiltinMean:
      return VisitMean(ctx, node, b);
    case kTfLiteBuiltinResizeBilinear:
      return VisitResizeBilinear(ctx, node, b);
    case kTfLiteBuiltinQuantize:
      return VisitConvert(ctx, node, true, b);
    case kTfLiteBuiltinDequantize:
      return VisitConvert(ctx, node, false, b);
    default:
      return false;
  }
}

}  // namespace octet::xnnpack
