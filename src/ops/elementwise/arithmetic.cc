// ADD, SUB, MUL, DIV: broadcasting arithmetic with a fused activation, on
// float32, int32, int64 (not DIV) and quantized data: int8/uint8/int16 for
// ADD/SUB/MUL, uint8 for DIV (quantized_div.cc).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/residual_fusion.h"
#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qbinary/qbinary_linear.h"
#include "kernels/reference/binary.h"
#include "kernels/reference/integer_elementwise.h"
#include "kernels/shape.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "ops/elementwise/binary_rows.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "ops/elementwise/quantized_div.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::elementwise {
namespace {

using reference::ActivationBounds;
using reference::ArithOp;

struct ArithData;
using ArithFn = TfLiteStatus (*)(TfLiteContext *, const ArithData &, const TfLiteTensor *,
                                 const TfLiteTensor *, TfLiteTensor *);

struct ArithData {
  Shape shape1, shape2, out_shape;
  ActivationBounds<float> bounds_f32;
  ActivationBounds<int32_t> bounds_i32;
  ActivationBounds<int64_t> bounds_i64;
  reference::integer::AddSubParams add_sub;
  reference::integer::MulParams mul;
  reference::integer::DivParams div;
  ArithFn eval = nullptr;
  // The optimized 8-bit or float kernel, when prepare chose one.
  const optimized::QBinaryKernel *qbinary = nullptr;
  const optimized::FBinaryKernel *fbinary = nullptr;
  optimized::QBinaryParams qparams{};
  BinaryRows rows;  // how the optimized kernel walks the broadcast

  template <typename T>
  const ActivationBounds<T> &bounds() const {
    if constexpr (std::is_same_v<T, float>) return bounds_f32;
    if constexpr (std::is_same_v<T, int32_t>) return bounds_i32;
    if constexpr (std::is_same_v<T, int64_t>) return bounds_i64;
  }
};

constexpr const char *OpName(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd:
      return "ADD";
    case ArithOp::kSub:
      return "SUB";
    case ArithOp::kMul:
      return "MUL";
    case ArithOp::kDiv:
      return "DIV";
  }
  return "?";
}

template <ArithOp kOp, typename T>
TfLiteStatus EvalArith(TfLiteContext *context, const ArithData &data, const TfLiteTensor *input1,
                       const TfLiteTensor *input2, TfLiteTensor *output) {
  const T *b = tflite::GetTensorData<T>(input2);
  if constexpr (kOp == ArithOp::kDiv && std::is_integral_v<T>) {
    const int64_t n = data.shape2.FlatSize();
    for (int64_t i = 0; i < n; ++i) {
      if (b[i] == 0) {
        TF_LITE_KERNEL_LOG(context, "DIV: integer division by zero (divisor element %lld)",
                           static_cast<long long>(i));
        return kTfLiteError;
      }
    }
  }
  reference::ArithmeticBroadcast<kOp, T>(data.shape1, tflite::GetTensorData<T>(input1), data.shape2,
                                         b, data.out_shape, tflite::GetTensorData<T>(output),
                                         data.bounds<T>());
  return kTfLiteOk;
}

// Quantized ADD/SUB/MUL on int8, uint8 and int16 (seed 003; TFLite Micro's arithmetic).
template <ArithOp kOp, typename T>
TfLiteStatus EvalQuantized(TfLiteContext *, const ArithData &data, const TfLiteTensor *input1,
                           const TfLiteTensor *input2, TfLiteTensor *output) {
  const T *a = tflite::GetTensorData<T>(input1);
  const T *b = tflite::GetTensorData<T>(input2);
  T *out = tflite::GetTensorData<T>(output);
  if constexpr (kOp == ArithOp::kMul) {
    const auto &p = data.mul;
    reference::BroadcastBinary(data.shape1, a, data.shape2, b, data.out_shape, out,
                               [&p](T x, T y) { return reference::integer::Mul<T>(x, y, p); });
  } else {
    constexpr bool kSub = kOp == ArithOp::kSub;
    const auto &p = data.add_sub;
    reference::BroadcastBinary(data.shape1, a, data.shape2, b, data.out_shape, out, [&p](T x, T y) {
      return reference::integer::AddSub<kSub, T>(x, y, p);
    });
  }
  return kTfLiteOk;
}

TfLiteStatus EvalDivUInt8(TfLiteContext *context, const ArithData &data, const TfLiteTensor *input1,
                          const TfLiteTensor *input2, TfLiteTensor *output) {
  return EvalQuantizedDiv(context, data.div, data.shape1, tflite::GetTensorData<uint8_t>(input1),
                          data.shape2, tflite::GetTensorData<uint8_t>(input2), data.out_shape,
                          tflite::GetTensorData<uint8_t>(output));
}

// The broadcasts PlanBinaryRows covers, on the optimized 8-bit kernel.
TfLiteStatus EvalQuantizedOptimized(TfLiteContext *context, const ArithData &data,
                                    const TfLiteTensor *input1, const TfLiteTensor *input2,
                                    TfLiteTensor *output) {
  RunBinaryRows(GetThreadPool(context), data.rows,
                reinterpret_cast<const uint8_t *>(input1->data.raw),
                reinterpret_cast<const uint8_t *>(input2->data.raw),
                reinterpret_cast<uint8_t *>(output->data.raw),
                [&data](const uint8_t *a, const uint8_t *b, uint8_t *out, size_t n, bool a_scalar,
                        bool b_scalar) {
                  optimized::QBinaryCall call;
                  call.a = a;
                  call.b = b;
                  call.out = out;
                  call.n = n;
                  call.a_scalar = a_scalar;
                  call.b_scalar = b_scalar;
                  data.qbinary->run(data.qparams, call);
                });
  return kTfLiteOk;
}

constexpr optimized::FBinaryOp FBinaryOpOf(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd:
      return optimized::FBinaryOp::kAdd;
    case ArithOp::kSub:
      return optimized::FBinaryOp::kSub;
    case ArithOp::kMul:
      return optimized::FBinaryOp::kMul;
    case ArithOp::kDiv:
      return optimized::FBinaryOp::kDiv;
  }
  return optimized::FBinaryOp::kAdd;
}

// Float32 broadcasts PlanBinaryRows covers, on the optimized float kernel (the reference's
// expression, so the same bits).
template <ArithOp kOp>
TfLiteStatus EvalFloatOptimized(TfLiteContext *context, const ArithData &data,
                                const TfLiteTensor *input1, const TfLiteTensor *input2,
                                TfLiteTensor *output) {
  RunBinaryRows(
      GetThreadPool(context), data.rows, input1->data.f, input2->data.f, output->data.f,
      [&data](const float *a, const float *b, float *out, size_t n, bool a_scalar, bool b_scalar) {
        optimized::FBinaryCall call;
        call.op = FBinaryOpOf(kOp);
        call.a = a;
        call.b = b;
        call.out = out;
        call.n = n;
        call.a_scalar = a_scalar;
        call.b_scalar = b_scalar;
        call.act_min = data.bounds_f32.min;
        call.act_max = data.bounds_f32.max;
        data.fbinary->run(call);
      });
  return kTfLiteOk;
}

template <ArithOp kOp>
void ChooseFloatKernel(bool reference_only, ArithData *data) {
  data->fbinary = nullptr;
  if (reference_only) return;
  if (!PlanBinaryRows(data->shape1, data->shape2, data->out_shape, &data->rows)) return;
  const optimized::FBinaryKernel *kernel = optimized::FBinaryKernelFor(cpu::ActiveIsa());
  if (kernel == nullptr) return;
  data->fbinary = kernel;
  data->eval = EvalFloatOptimized<kOp>;
}

// Chooses the optimized 8-bit kernel of the active path when PlanBinaryRows covers the
// broadcast; the reference stays for other broadcasts and for int16.
template <ArithOp kOp>
void ChooseQuantizedKernel(TfLiteType type, bool reference_only, ArithData *data) {
  data->qbinary = nullptr;
  if constexpr (kOp == ArithOp::kDiv) return;
  if (reference_only || (type != kTfLiteInt8 && type != kTfLiteUInt8)) return;
  if (!PlanBinaryRows(data->shape1, data->shape2, data->out_shape, &data->rows)) return;
  const optimized::QBinaryKernel *kernel = optimized::QBinaryKernelFor(cpu::ActiveIsa());
  if (kernel == nullptr) return;
  optimized::QBinaryParams &q = data->qparams;
  q.is_signed = type == kTfLiteInt8;
  if constexpr (kOp == ArithOp::kMul) {
    if (data->mul.saturate) return;  // a degenerate scale: the reference's few lines serve
    q.op = optimized::QBinaryOp::kMul;
    q.input1_offset = data->mul.input1_offset;
    q.input2_offset = data->mul.input2_offset;
    q.output_offset = data->mul.output_offset;
    q.output_multiplier = data->mul.output_multiplier;
    q.output_shift = data->mul.output_shift;
    q.act_min = data->mul.act_min;
    q.act_max = data->mul.act_max;
  } else {
    const auto &p = data->add_sub;
    q.op = kOp == ArithOp::kSub ? optimized::QBinaryOp::kSub : optimized::QBinaryOp::kAdd;
    q.input1_offset = p.input1_offset;
    q.input2_offset = p.input2_offset;
    q.output_offset = p.output_offset;
    q.left_shift = p.left_shift;
    q.input1_multiplier = p.input1_multiplier;
    q.input1_shift = p.input1_shift;
    q.input2_multiplier = p.input2_multiplier;
    q.input2_shift = p.input2_shift;
    q.output_multiplier = p.output_multiplier;
    q.output_shift = p.output_shift;
    q.act_min = p.act_min;
    q.act_max = p.act_max;
  }
  optimized::PlanQBinaryLinear(&q);
  data->qbinary = kernel;
  data->eval = EvalQuantizedOptimized;
}

template <ArithOp kOp, typename T, typename Params>
TfLiteStatus PrepareQuantized(TfLiteContext *context, const Params *params, const TfLiteTensor *in1,
                              const TfLiteTensor *in2, const TfLiteTensor *output,
                              ArithData *data) {
  constexpr const char *op = OpName(kOp);
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 0", in1));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 1", in2));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "output", output));
  const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
  int32_t act_min, act_max;
  TF_LITE_ENSURE_STATUS(
      QuantizedActivationRange(context, op, activation, output, &act_min, &act_max));
  data->eval = EvalQuantized<kOp, T>;
  const float s1 = in1->params.scale, s2 = in2->params.scale, so = output->params.scale;
  if constexpr (kOp == ArithOp::kMul) {
    auto &p = data->mul;
    p.input1_offset = -in1->params.zero_point;
    p.input2_offset = -in2->params.zero_point;
    p.output_offset = output->params.zero_point;
    const double real = static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(so);
    p.act_min = act_min;
    p.act_max = act_max;
    int32_t unused_multiplier = 0;
    int shift = 0;
    if (std::isfinite(real) && real > 0) {
      quant::QuantizeMultiplier(real, &unused_multiplier, &shift);
    }
    p.saturate = shift > quant::kRequantShifts.max;
    if (p.saturate) return kTfLiteOk;  // see MulParams::saturate
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input0_scale * input1_scale / output_scale", real,
        &p.output_multiplier, &p.output_shift));
    return kTfLiteOk;
  } else {
    auto &p = data->add_sub;
    p = reference::integer::AddSubParams();
    p.act_min = act_min;
    p.act_max = act_max;
    // int16 takes the general rescaling path (left shift 15) whatever pot_scale_int16 says:
    // that is what TFLite Micro (the goldens) does. TFLite proper instead takes a
    // power-of-two path (inputs only right-shifted, no rescale) when pot_scale_int16 is set
    // and every scale is a power of two, which can round differently.
    p.input1_offset = -in1->params.zero_point;
    p.input2_offset = -in2->params.zero_point;
    p.output_offset = output->params.zero_point;
    p.left_shift = std::is_same_v<T, int16_t> ? 15 : 20;
    double m1, m2, mo;
    if constexpr (kOp == ArithOp::kSub) {
      // TFLite Micro's sub_common.cc computes twice_max and the three quotients in float
      // (then widens to double); add_common.cc computes them in double.
      const float twice_max = 2 * std::max(s1, s2);
      m1 = static_cast<double>(s1 / twice_max);
      m2 = static_cast<double>(s2 / twice_max);
      mo = static_cast<double>(twice_max / ((1 << p.left_shift) * so));
    } else {
      const double twice_max = 2 * static_cast<double>(std::max(s1, s2));
      m1 = static_cast<double>(s1) / twice_max;
      m2 = static_cast<double>(s2) / twice_max;
      mo = twice_max / ((1 << p.left_shift) * static_cast<double>(so));
    }
    quant::QuantizeMultiplierSmallerThanOneExp(m1, &p.input1_multiplier, &p.input1_shift);
    quant::QuantizeMultiplierSmallerThanOneExp(m2, &p.input2_multiplier, &p.input2_shift);
    // An infinite mo (a float quotient that overflowed: huge input or tiny output scales)
    // must not reach the multiplier's conversion to int.
    if (!std::isfinite(mo) ||
        !quant::QuantizeMultiplierSmallerThanOneExp(mo, &p.output_multiplier, &p.output_shift)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: output scale %g is too small for input scales %g and %g "
                         "(rescale factor must be < 1)",
                         op, static_cast<double>(so), static_cast<double>(s1),
                         static_cast<double>(s2));
      return kTfLiteError;
    }
    return kTfLiteOk;
  }
}

// `reference_only` pins the reference kernel (Register_X_REF).
template <ArithOp kOp, typename Params, bool reference_only = false>
TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  constexpr const char *op = OpName(kOp);
  auto *data = static_cast<ArithData *>(node->user_data);
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 2, in, &output));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, op, in, 2));
  const TfLiteType type = in[0]->type;
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, op, output, type));

  const auto *params = static_cast<const Params *>(node->builtin_data);
  const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
  switch (type) {
    case kTfLiteFloat32:
      data->eval = EvalArith<kOp, float>;
      TF_LITE_ENSURE_STATUS(
          ActivationRange(context, op, activation, &data->bounds_f32.min, &data->bounds_f32.max));
      break;
    case kTfLiteInt32:
      data->eval = EvalArith<kOp, int32_t>;
      TF_LITE_ENSURE_STATUS(
          ActivationRange(context, op, activation, &data->bounds_i32.min, &data->bounds_i32.max));
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16:
      if constexpr (kOp != ArithOp::kDiv) {
        if (type == kTfLiteInt8) {
          TF_LITE_ENSURE_STATUS(
              (PrepareQuantized<kOp, int8_t>(context, params, in[0], in[1], output, data)));
        } else if (type == kTfLiteUInt8) {
          TF_LITE_ENSURE_STATUS(
              (PrepareQuantized<kOp, uint8_t>(context, params, in[0], in[1], output, data)));
        } else {
          TF_LITE_ENSURE_STATUS(
              (PrepareQuantized<kOp, int16_t>(context, params, in[0], in[1], output, data)));
        }
        break;
      }
      if (type == kTfLiteUInt8) {  // DIV version 2; TFLite has no int8/int16 DIV
        TF_LITE_ENSURE_STATUS(
            PrepareQuantizedDiv(context, activation, in[0], in[1], output, &data->div));
        data->eval = EvalDivUInt8;
        break;
      }
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", op, TypeName(type));
      return kTfLiteError;
    case kTfLiteInt64:
      if (kOp != ArithOp::kDiv) {
        data->eval = EvalArith<kOp, int64_t>;
        TF_LITE_ENSURE_STATUS(
            ActivationRange(context, op, activation, &data->bounds_i64.min, &data->bounds_i64.max));
        break;
      }
      [[fallthrough]];
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", op, TypeName(type));
      return kTfLiteError;
  }

  data->shape1 = Shape::Of(in[0]);
  data->shape2 = Shape::Of(in[1]);
  TF_LITE_ENSURE_STATUS(
      BroadcastOutputShape(context, op, data->shape1, data->shape2, &data->out_shape));
  ChooseQuantizedKernel<kOp>(type, reference_only, data);
  if (data->qbinary) SetNodeKernelName(context, node, data->qbinary->name);
  if (type == kTfLiteFloat32) {
    ChooseFloatKernel<kOp>(reference_only, data);
    if (data->fbinary) SetNodeKernelName(context, node, data->fbinary->name);
    // Its producer's optimized kernel may compute a same-shape ADD in its output stage (the
    // core checks the shapes; core/residual_fusion.h).
    if (kOp == ArithOp::kAdd && data->fbinary) {
      AllowResidualFusion(context, node, data->bounds_f32.min, data->bounds_f32.max);
    }
  }
  return ResizeOutput(context, output, data->out_shape);
}

template <ArithOp kOp>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  constexpr const char *op = OpName(kOp);
  const auto &data = *static_cast<const ArithData *>(node->user_data);
  const TfLiteTensor *input1 = tflite::GetInput(context, node, 0);
  const TfLiteTensor *input2 = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "input 0", input1));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "input 1", input2));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", output));
  return data.eval(context, data, input1, input2, output);
}

template <ArithOp kOp, typename Params, bool reference_only = false>
TfLiteRegistration *Registration() {
  static TfLiteRegistration r = MakeRegistration(InitData<ArithData>, FreeData<ArithData>,
                                                 Prepare<kOp, Params, reference_only>, Eval<kOp>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

using octet::ops::elementwise::Registration;
using octet::reference::ArithOp;

TfLiteRegistration *Register_ADD() { return Registration<ArithOp::kAdd, TfLiteAddParams>(); }
TfLiteRegistration *Register_SUB() { return Registration<ArithOp::kSub, TfLiteSubParams>(); }
TfLiteRegistration *Register_MUL() { return Registration<ArithOp::kMul, TfLiteMulParams>(); }
TfLiteRegistration *Register_DIV() { return Registration<ArithOp::kDiv, TfLiteDivParams>(); }
TfLiteRegistration *Register_ADD_REF() {
  return Registration<ArithOp::kAdd, TfLiteAddParams, true>();
}
TfLiteRegistration *Register_SUB_REF() {
  return Registration<ArithOp::kSub, TfLiteSubParams, true>();
}
TfLiteRegistration *Register_MUL_REF() {
  return Registration<ArithOp::kMul, TfLiteMulParams, true>();
}

}  // namespace tflite::ops::builtin
