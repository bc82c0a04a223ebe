#include "format/parse_options.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "core/alloc_guard.h"
#include "format/unaligned.h"

namespace octet::format {
namespace {

using namespace tflite;  // NOLINT: schema names are long enough as it is.

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Per-call state: the op being parsed, the pending allocation, error sink.
class Parser {
 public:
  Parser(const Operator& op, BuiltinOperator code, std::string* error)
      : op_(op), code_(code), error_(error) {}

  TfLiteStatus Fail(const std::string& what) {
    if (error_ != nullptr) *error_ = std::string(BuiltinOperatorName(code_)) + ": " + what;
    mem_.reset();
    return kTfLiteError;
  }

  template <typename T>
  T* Alloc() {
    mem_.reset(octet::OrThrow(std::calloc(1, sizeof(T))));
    return static_cast<T*>(mem_.get());
  }

  void* Release() { return mem_.release(); }

  // Fetches builtin_options as OptT. Absent options give *out = nullptr;
  // options of another type are an error.
  template <typename OptT>
  TfLiteStatus Options(const OptT** out) {
    constexpr BuiltinOptions kWant = BuiltinOptionsTraits<OptT>::enum_value;
    *out = nullptr;
    const BuiltinOptions have = op_.builtin_options_type();
    if (have == BuiltinOptions_NONE) return kTfLiteOk;
    if (have != kWant)
      return Mismatch("builtin_options", UnionName(have), EnumNameBuiltinOptions(kWant));
    *out = static_cast<const OptT*>(op_.builtin_options());
    return kTfLiteOk;
  }

  template <typename OptT>
  TfLiteStatus Options2(const OptT** out) {
    constexpr BuiltinOptions2 kWant = BuiltinOptions2Traits<OptT>::enum_value;
    *out = nullptr;
    const BuiltinOptions2 have = op_.builtin_options_2_type();
    if (have == BuiltinOptions2_NONE) return kTfLiteOk;
    if (have != kWant) {
      const char* name = EnumNameBuiltinOptions2(have);
      return Mismatch("builtin_options_2",
                      *name ? std::string(name) : "#" + std::to_string(static_cast<int>(have)),
                      EnumNameBuiltinOptions2(kWant));
    }
    *out = static_cast<const OptT*>(op_.builtin_options_2());
    return kTfLiteOk;
  }

  TfLiteStatus Padding(tflite::Padding in, const char* field, TfLitePadding* out) {
    switch (in) {
      case Padding_SAME:
        *out = kTfLitePaddingSame;
        return kTfLiteOk;
      case Padding_VALID:
        *out = kTfLitePaddingValid;
        return kTfLiteOk;
    }
    return BadEnum(field, in);
  }

  TfLiteStatus Activation(ActivationFunctionType in, const char* field,
                          TfLiteFusedActivation* out) {
    switch (in) {
      case ActivationFunctionType_NONE:
        *out = kTfLiteActNone;
        return kTfLiteOk;
      case ActivationFunctionType_RELU:
        *out = kTfLiteActRelu;
        return kTfLiteOk;
      case ActivationFunctionType_RELU_N1_TO_1:
        *out = kTfLiteActReluN1To1;
        return kTfLiteOk;
      case ActivationFunctionType_RELU6:
        *out = kTfLiteActRelu6;
        return kTfLiteOk;
      case ActivationFunctionType_TANH:
        *out = kTfLiteActTanh;
        return kTfLiteOk;
      case ActivationFunctionType_SIGN_BIT:
        *out = kTfLiteActSignBit;
        return kTfLiteOk;
    }
    return BadEnum(field, in);
  }

  TfLiteStatus Type(TensorType in, const char* field, TfLiteType* out) {
    if (ConvertTensorType(in, out) != kTfLiteOk) return BadEnum(field, in);
    return kTfLiteOk;
  }

  template <typename E>
  TfLiteStatus BadEnum(const char* field, E value) {
    return Fail(std::string("invalid ") + field + " value " +
                std::to_string(static_cast<int>(value)));
  }

  // Copies a flatbuffer vector into a fixed array of `cap` elements.
  template <typename Dst, typename Src>
  TfLiteStatus CopyVector(const flatbuffers::Vector<Src>* v, const char* field, Dst* dst,
                          size_t cap, int* count) {
    if (v == nullptr) {
      if (count) *count = 0;
      return kTfLiteOk;
    }
    if (v->size() > cap) {
      return Fail(std::string(field) + " has " + std::to_string(v->size()) + " entries, at most " +
                  std::to_string(cap) + " supported");
    }
    for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
      dst[i] = static_cast<Dst>(UnalignedGet(v, i));  // [long] vectors may be misaligned
    }
    if (count) *count = static_cast<int>(v->size());
    return kTfLiteOk;
  }

 private:
  static std::string UnionName(BuiltinOptions t) {
    const char* name = EnumNameBuiltinOptions(t);
    return *name ? std::string(name) : "#" + std::to_string(static_cast<int>(t));
  }

  TfLiteStatus Mismatch(const char* field, const std::string& have, const char* want) {
    return Fail(std::string(field) + " has type " + have + ", expected " + want);
  }

  const Operator& op_;
  BuiltinOperator code_;
  std::string* error_;
  std::unique_ptr<void, FreeDeleter> mem_;
};

#define OCTET_TRY(expr)                           \
  do {                                            \
    if ((expr) != kTfLiteOk) return kTfLiteError; \
  } while (0)

TfLiteStatus ParseInto(Parser& p, BuiltinOperator code, bool* has_params) {
  *has_params = true;
  switch (code) {
    case BuiltinOperator_CONV_2D: {
      auto* out = p.Alloc<TfLiteConvParams>();
      const Conv2DOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Padding(o->padding(), "Conv2DOptions.padding", &out->padding));
        out->stride_width = o->stride_w();
        out->stride_height = o->stride_h();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "Conv2DOptions.fused_activation_function", &out->activation));
        out->dilation_width_factor = o->dilation_w_factor();
        out->dilation_height_factor = o->dilation_h_factor();
        OCTET_TRY(p.Type(o->quantized_bias_type(), "Conv2DOptions.quantized_bias_type",
                         &out->quantized_bias_type));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_CONV_3D:
    case BuiltinOperator_CONV_3D_TRANSPOSE: {
      auto* out = p.Alloc<TfLiteConv3DParams>();
      const Conv3DOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Padding(o->padding(), "Conv3DOptions.padding", &out->padding));
        out->stride_depth = o->stride_d();
        out->stride_width = o->stride_w();
        out->stride_height = o->stride_h();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "Conv3DOptions.fused_activation_function", &out->activation));
        out->dilation_depth_factor = o->dilation_d_factor();
        out->dilation_width_factor = o->dilation_w_factor();
        out->dilation_height_factor = o->dilation_h_factor();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_AVERAGE_POOL_2D:
    case BuiltinOperator_MAX_POOL_2D:
    case BuiltinOperator_L2_POOL_2D: {
      auto* out = p.Alloc<TfLitePoolParams>();
      const Pool2DOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Padding(o->padding(), "Pool2DOptions.padding", &out->padding));
        out->stride_width = o->stride_w();
        out->stride_height = o->stride_h();
        out->filter_width = o->filter_width();
        out->filter_height = o->filter_height();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "Pool2DOptions.fused_activation_function", &out->activation));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_DEPTHWISE_CONV_2D: {
      auto* out = p.Alloc<TfLiteDepthwiseConvParams>();
      const DepthwiseConv2DOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Padding(o->padding(), "DepthwiseConv2DOptions.padding", &out->padding));
        out->stride_width = o->stride_w();
        out->stride_height = o->stride_h();
        out->depth_multiplier = o->depth_multiplier();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "DepthwiseConv2DOptions.fused_activation_function",
                               &out->activation));
        out->dilation_width_factor = o->dilation_w_factor();
        out->dilation_height_factor = o->dilation_h_factor();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SVDF: {
      auto* out = p.Alloc<TfLiteSVDFParams>();
      const SVDFOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->rank = o->rank();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "SVDFOptions.fused_activation_function", &out->activation));
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_RNN: {
      auto* out = p.Alloc<TfLiteRNNParams>();
      const RNNOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "RNNOptions.fused_activation_function", &out->activation));
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN: {
      auto* out = p.Alloc<TfLiteSequenceRNNParams>();
      const SequenceRNNOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->time_major = o->time_major();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "SequenceRNNOptions.fused_activation_function", &out->activation));
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN: {
      auto* out = p.Alloc<TfLiteBidirectionalSequenceRNNParams>();
      const BidirectionalSequenceRNNOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->time_major = o->time_major();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "BidirectionalSequenceRNNOptions.fused_activation_function",
                               &out->activation));
        out->merge_outputs = o->merge_outputs();
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_FULLY_CONNECTED: {
      auto* out = p.Alloc<TfLiteFullyConnectedParams>();
      const FullyConnectedOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "FullyConnectedOptions.fused_activation_function",
                               &out->activation));
        switch (o->weights_format()) {
          case FullyConnectedOptionsWeightsFormat_DEFAULT:
            out->weights_format = kTfLiteFullyConnectedWeightsFormatDefault;
            break;
          case FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8:
            out->weights_format = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
            break;
          default:
            return p.BadEnum("FullyConnectedOptions.weights_format", o->weights_format());
        }
        out->keep_num_dims = o->keep_num_dims();
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
        OCTET_TRY(p.Type(o->quantized_bias_type(), "FullyConnectedOptions.quantized_bias_type",
                         &out->quantized_bias_type));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_LSH_PROJECTION: {
      auto* out = p.Alloc<TfLiteLSHProjectionParams>();
      const LSHProjectionOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        switch (o->type()) {
          case LSHProjectionType_UNKNOWN:
            out->type = kTfLiteLshProjectionUnknown;
            break;
          case LSHProjectionType_SPARSE:
            out->type = kTfLiteLshProjectionSparse;
            break;
          case LSHProjectionType_DENSE:
            out->type = kTfLiteLshProjectionDense;
            break;
          default:
            return p.BadEnum("LSHProjectionOptions.type", o->type());
        }
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SOFTMAX: {
      auto* out = p.Alloc<TfLiteSoftmaxParams>();
      const SoftmaxOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->beta = o->beta();
      return kTfLiteOk;
    }
    case BuiltinOperator_CONCATENATION: {
      auto* out = p.Alloc<TfLiteConcatenationParams>();
      const ConcatenationOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->axis = o->axis();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "ConcatenationOptions.fused_activation_function", &out->activation));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_ADD: {
      auto* out = p.Alloc<TfLiteAddParams>();
      const AddOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "AddOptions.fused_activation_function", &out->activation));
        out->pot_scale_int16 = o->pot_scale_int16();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SUB: {
      auto* out = p.Alloc<TfLiteSubParams>();
      const SubOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "SubOptions.fused_activation_function", &out->activation));
        out->pot_scale_int16 = o->pot_scale_int16();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_MUL: {
      auto* out = p.Alloc<TfLiteMulParams>();
      const MulOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "MulOptions.fused_activation_function", &out->activation));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_DIV: {
      auto* out = p.Alloc<TfLiteDivParams>();
      const DivOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "DivOptions.fused_activation_function", &out->activation));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_L2_NORMALIZATION: {
      auto* out = p.Alloc<TfLiteL2NormParams>();
      const L2NormOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "L2NormOptions.fused_activation_function", &out->activation));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION: {
      auto* out = p.Alloc<TfLiteLocalResponseNormParams>();
      const LocalResponseNormalizationOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->radius = o->radius();
        out->bias = o->bias();
        out->alpha = o->alpha();
        out->beta = o->beta();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_LSTM: {
      auto* out = p.Alloc<TfLiteLSTMParams>();
      const LSTMOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "LSTMOptions.fused_activation_function", &out->activation));
        out->cell_clip = o->cell_clip();
        out->proj_clip = o->proj_clip();
        switch (o->kernel_type()) {
          case LSTMKernelType_FULL:
            out->kernel_type = kTfLiteLSTMFullKernel;
            break;
          case LSTMKernelType_BASIC:
            out->kernel_type = kTfLiteLSTMBasicKernel;
            break;
          default:
            return p.BadEnum("LSTMOptions.kernel_type", o->kernel_type());
        }
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM: {
      auto* out = p.Alloc<TfLiteUnidirectionalSequenceLSTMParams>();
      const UnidirectionalSequenceLSTMOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "UnidirectionalSequenceLSTMOptions.fused_activation_function",
                               &out->activation));
        out->cell_clip = o->cell_clip();
        out->proj_clip = o->proj_clip();
        out->time_major = o->time_major();
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
        out->diagonal_recurrent_tensors = o->diagonal_recurrent_tensors();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM: {
      auto* out = p.Alloc<TfLiteBidirectionalSequenceLSTMParams>();
      const BidirectionalSequenceLSTMOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "BidirectionalSequenceLSTMOptions.fused_activation_function",
                               &out->activation));
        out->cell_clip = o->cell_clip();
        out->proj_clip = o->proj_clip();
        out->merge_outputs = o->merge_outputs();
        out->time_major = o->time_major();
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_RESIZE_BILINEAR: {
      auto* out = p.Alloc<TfLiteResizeBilinearParams>();
      const ResizeBilinearOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->align_corners = o->align_corners();
        out->half_pixel_centers = o->half_pixel_centers();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_RESIZE_NEAREST_NEIGHBOR: {
      auto* out = p.Alloc<TfLiteResizeNearestNeighborParams>();
      const ResizeNearestNeighborOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->align_corners = o->align_corners();
        out->half_pixel_centers = o->half_pixel_centers();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_RESHAPE: {
      auto* out = p.Alloc<TfLiteReshapeParams>();
      const ReshapeOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.CopyVector(o->new_shape(), "ReshapeOptions.new_shape", out->shape,
                               TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT, &out->num_dimensions));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SKIP_GRAM: {
      auto* out = p.Alloc<TfLiteSkipGramParams>();
      const SkipGramOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->ngram_size = o->ngram_size();
        out->max_skip_size = o->max_skip_size();
        out->include_all_ngrams = o->include_all_ngrams();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SPACE_TO_DEPTH: {
      auto* out = p.Alloc<TfLiteSpaceToDepthParams>();
      const SpaceToDepthOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->block_size = o->block_size();
      return kTfLiteOk;
    }
    case BuiltinOperator_DEPTH_TO_SPACE: {
      auto* out = p.Alloc<TfLiteDepthToSpaceParams>();
      const DepthToSpaceOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->block_size = o->block_size();
      return kTfLiteOk;
    }
    case BuiltinOperator_CAST: {
      auto* out = p.Alloc<TfLiteCastParams>();
      const CastOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Type(o->in_data_type(), "CastOptions.in_data_type", &out->in_data_type));
        OCTET_TRY(p.Type(o->out_data_type(), "CastOptions.out_data_type", &out->out_data_type));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_EMBEDDING_LOOKUP_SPARSE: {
      auto* out = p.Alloc<TfLiteEmbeddingLookupSparseParams>();
      const EmbeddingLookupSparseOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        switch (o->combiner()) {
          case CombinerType_SUM:
            out->combiner = kTfLiteCombinerTypeSum;
            break;
          case CombinerType_MEAN:
            out->combiner = kTfLiteCombinerTypeMean;
            break;
          case CombinerType_SQRTN:
            out->combiner = kTfLiteCombinerTypeSqrtn;
            break;
          default:
            return p.BadEnum("EmbeddingLookupSparseOptions.combiner", o->combiner());
        }
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_GATHER: {
      auto* out = p.Alloc<TfLiteGatherParams>();
      const GatherOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->axis = o->axis();
        out->batch_dims = o->batch_dims();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_MEAN:
    case BuiltinOperator_SUM:
    case BuiltinOperator_REDUCE_PROD:
    case BuiltinOperator_REDUCE_MAX:
    case BuiltinOperator_REDUCE_MIN:
    case BuiltinOperator_REDUCE_ANY:
    case BuiltinOperator_REDUCE_ALL: {
      auto* out = p.Alloc<TfLiteReducerParams>();
      const ReducerOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->keep_dims = o->keep_dims();
      return kTfLiteOk;
    }
    case BuiltinOperator_SPLIT: {
      auto* out = p.Alloc<TfLiteSplitParams>();
      const SplitOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->num_splits = o->num_splits();
      return kTfLiteOk;
    }
    case BuiltinOperator_SPLIT_V: {
      auto* out = p.Alloc<TfLiteSplitVParams>();
      const SplitVOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->num_splits = o->num_splits();
      return kTfLiteOk;
    }
    case BuiltinOperator_SQUEEZE: {
      auto* out = p.Alloc<TfLiteSqueezeParams>();
      const SqueezeOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.CopyVector(o->squeeze_dims(), "SqueezeOptions.squeeze_dims", out->squeeze_dims,
                               8, &out->num_squeeze_dims));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STRIDED_SLICE: {
      auto* out = p.Alloc<TfLiteStridedSliceParams>();
      const StridedSliceOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->begin_mask = o->begin_mask();
        out->end_mask = o->end_mask();
        out->ellipsis_mask = o->ellipsis_mask();
        out->new_axis_mask = o->new_axis_mask();
        out->shrink_axis_mask = o->shrink_axis_mask();
        out->offset = o->offset();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_ARG_MAX: {
      auto* out = p.Alloc<TfLiteArgMaxParams>();
      const ArgMaxOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) OCTET_TRY(p.Type(o->output_type(), "ArgMaxOptions.output_type", &out->output_type));
      return kTfLiteOk;
    }
    case BuiltinOperator_ARG_MIN: {
      auto* out = p.Alloc<TfLiteArgMinParams>();
      const ArgMinOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) OCTET_TRY(p.Type(o->output_type(), "ArgMinOptions.output_type", &out->output_type));
      return kTfLiteOk;
    }
    case BuiltinOperator_TRANSPOSE_CONV: {
      auto* out = p.Alloc<TfLiteTransposeConvParams>();
      const TransposeConvOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Padding(o->padding(), "TransposeConvOptions.padding", &out->padding));
        out->stride_width = o->stride_w();
        out->stride_height = o->stride_h();
        OCTET_TRY(p.Activation(o->fused_activation_function(),
                               "TransposeConvOptions.fused_activation_function", &out->activation));
        OCTET_TRY(p.Type(o->quantized_bias_type(), "TransposeConvOptions.quantized_bias_type",
                         &out->quantized_bias_type));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_SPARSE_TO_DENSE: {
      auto* out = p.Alloc<TfLiteSparseToDenseParams>();
      const SparseToDenseOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->validate_indices = o->validate_indices();
      return kTfLiteOk;
    }
    case BuiltinOperator_SHAPE: {
      auto* out = p.Alloc<TfLiteShapeParams>();
      const ShapeOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) OCTET_TRY(p.Type(o->out_type(), "ShapeOptions.out_type", &out->out_type));
      return kTfLiteOk;
    }
    case BuiltinOperator_FAKE_QUANT: {
      auto* out = p.Alloc<TfLiteFakeQuantParams>();
      const FakeQuantOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->min = o->min();
        out->max = o->max();
        out->num_bits = o->num_bits();
        out->narrow_range = o->narrow_range();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_PACK: {
      auto* out = p.Alloc<TfLitePackParams>();
      const PackOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->values_count = o->values_count();
        out->axis = o->axis();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_UNPACK: {
      auto* out = p.Alloc<TfLiteUnpackParams>();
      const UnpackOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->num = o->num();
        out->axis = o->axis();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_ONE_HOT: {
      auto* out = p.Alloc<TfLiteOneHotParams>();
      const OneHotOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->axis = o->axis();
      return kTfLiteOk;
    }
    case BuiltinOperator_LEAKY_RELU: {
      auto* out = p.Alloc<TfLiteLeakyReluParams>();
      const LeakyReluOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->alpha = o->alpha();
      return kTfLiteOk;
    }
    case BuiltinOperator_MIRROR_PAD: {
      auto* out = p.Alloc<TfLiteMirrorPaddingParams>();
      const MirrorPadOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        switch (o->mode()) {
          case MirrorPadMode_REFLECT:
            out->mode = kTfLiteMirrorPaddingReflect;
            break;
          case MirrorPadMode_SYMMETRIC:
            out->mode = kTfLiteMirrorPaddingSymmetric;
            break;
          default:
            return p.BadEnum("MirrorPadOptions.mode", o->mode());
        }
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_UNIQUE: {
      auto* out = p.Alloc<TfLiteUniqueParams>();
      const UniqueOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        OCTET_TRY(p.Type(o->idx_out_type(), "UniqueOptions.idx_out_type", &out->index_out_type));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_REVERSE_SEQUENCE: {
      auto* out = p.Alloc<TfLiteReverseSequenceParams>();
      const ReverseSequenceOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->seq_dim = o->seq_dim();
        out->batch_dim = o->batch_dim();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_IF: {
      auto* out = p.Alloc<TfLiteIfParams>();
      const IfOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->then_subgraph_index = o->then_subgraph_index();
        out->else_subgraph_index = o->else_subgraph_index();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_WHILE: {
      auto* out = p.Alloc<TfLiteWhileParams>();
      const WhileOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->cond_subgraph_index = o->cond_subgraph_index();
        out->body_subgraph_index = o->body_subgraph_index();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_CALL_ONCE: {
      auto* out = p.Alloc<TfLiteCallOnceParams>();
      const CallOnceOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->init_subgraph_index = o->init_subgraph_index();
      return kTfLiteOk;
    }
    case BuiltinOperator_CUMSUM: {
      auto* out = p.Alloc<TfLiteCumsumParams>();
      const CumsumOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->exclusive = o->exclusive();
        out->reverse = o->reverse();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_BATCH_MATMUL: {
      auto* out = p.Alloc<TfLiteBatchMatMulParams>();
      const BatchMatMulOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->adj_x = o->adj_x();
        out->adj_y = o->adj_y();
        out->asymmetric_quantize_inputs = o->asymmetric_quantize_inputs();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_HASHTABLE: {
      auto* out = p.Alloc<TfLiteHashtableParams>();
      const HashtableOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->table_id = o->table_id();
        OCTET_TRY(p.Type(o->key_dtype(), "HashtableOptions.key_dtype", &out->key_dtype));
        OCTET_TRY(p.Type(o->value_dtype(), "HashtableOptions.value_dtype", &out->value_dtype));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_VAR_HANDLE: {
      auto* out = p.Alloc<TfLiteVarHandleParams>();
      const VarHandleOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->container = o->container() ? o->container()->c_str() : nullptr;
        out->shared_name = o->shared_name() ? o->shared_name()->c_str() : nullptr;
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_RANDOM_STANDARD_NORMAL:
    case BuiltinOperator_RANDOM_UNIFORM:
    case BuiltinOperator_MULTINOMIAL: {
      auto* out = p.Alloc<TfLiteRandomParams>();
      const RandomOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        out->seed = static_cast<int>(o->seed());
        out->seed2 = static_cast<int>(o->seed2());
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_BUCKETIZE: {
      auto* out = p.Alloc<TfLiteBucketizeParams>();
      const BucketizeOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) {
        if (o->boundaries() == nullptr) return p.Fail("BucketizeOptions.boundaries is missing");
        out->num_boundaries = static_cast<int>(o->boundaries()->size());
        out->boundaries = o->boundaries()->data();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_GELU: {
      auto* out = p.Alloc<TfLiteGeluParams>();
      const GeluOptions* o;
      OCTET_TRY(p.Options(&o));
      if (o) out->approximate = o->approximate();
      return kTfLiteOk;
    }
    // ---- ops whose options live in builtin_options_2 ----
    case BuiltinOperator_STABLEHLO_CONCATENATE: {
      auto* out = p.Alloc<TfLiteStablehloConcatenateParams>();
      const StablehloConcatenateOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) out->dimension = o->dimension();
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_SCATTER: {
      auto* out = p.Alloc<TfLiteStablehloScatterParams>();
      const StablehloScatterOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        constexpr size_t kCap = TFLITE_STABLEHLO_SCATTER_PARAMS_MAX_DIMENSION_COUNT;
        out->indices_are_sorted = o->indices_are_sorted();
        OCTET_TRY(p.CopyVector(o->update_window_dims(),
                               "StablehloScatterOptions.update_window_dims",
                               out->update_window_dims, kCap, &out->num_update_window_dims));
        OCTET_TRY(p.CopyVector(o->inserted_window_dims(),
                               "StablehloScatterOptions.inserted_window_dims",
                               out->inserted_window_dims, kCap, &out->num_inserted_window_dims));
        OCTET_TRY(p.CopyVector(o->scatter_dims_to_operand_dims(),
                               "StablehloScatterOptions.scatter_dims_to_operand_dims",
                               out->scatter_dims_to_operand_dims, kCap,
                               &out->num_scatter_dims_to_operand_dims));
        out->index_vector_dim = o->index_vector_dim();
        out->unique_indices = o->unique_indices();
        out->update_computation_subgraph_index = o->update_computation_subgraph_index();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR: {
      auto* out = p.Alloc<TfLiteStablehloRngBitGeneratorParams>();
      const StablehloRngBitGeneratorOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        switch (o->algorithm()) {
          case RngAlgorithm_DEFAULT:
            out->algorithm = kTfLiteRngAlgorithmDefault;
            break;
          case RngAlgorithm_PHILOX:
            out->algorithm = kTfLiteRngAlgorithmPhilox;
            break;
          case RngAlgorithm_THREEFRY:
            out->algorithm = kTfLiteRngAlgorithmThreefry;
            break;
          default:
            return p.BadEnum("StablehloRngBitGeneratorOptions.algorithm", o->algorithm());
        }
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_GATHER: {
      auto* out = p.Alloc<TfLiteStablehloGatherParams>();
      const StablehloGatherOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        constexpr size_t kCap = TFLITE_STABLEHLO_GATHER_PARAMS_MAX_DIMENSION_COUNT;
        OCTET_TRY(p.CopyVector(o->offset_dims(), "StablehloGatherOptions.offset_dims",
                               out->offset_dims, kCap, &out->num_offset_dims));
        OCTET_TRY(p.CopyVector(o->collapsed_slice_dims(),
                               "StablehloGatherOptions.collapsed_slice_dims",
                               out->collapsed_slice_dims, kCap, &out->num_collapsed_slice_dims));
        OCTET_TRY(p.CopyVector(o->start_index_map(), "StablehloGatherOptions.start_index_map",
                               out->start_index_map, kCap, &out->num_start_index_map));
        out->index_vector_dim = o->index_vector_dim();
        OCTET_TRY(p.CopyVector(o->slice_sizes(), "StablehloGatherOptions.slice_sizes",
                               out->slice_sizes, kCap, &out->num_slice_sizes));
        out->indices_are_sorted = o->indices_are_sorted();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_REDUCE_WINDOW: {
      auto* out = p.Alloc<TfLiteStablehloReduceWindowParams>();
      const StablehloReduceWindowOptions* o;
      OCTET_TRY(p.Options2(&o));
      constexpr size_t kCap = TFLITE_STABLEHLO_REDUCE_WINDOW_PARAMS_MAX_DIMENSION_COUNT;
      // Unset window attributes default to 1, padding to 0.
      std::fill_n(out->window_dimensions, kCap, 1);
      std::fill_n(out->window_strides, kCap, 1);
      std::fill_n(out->base_dilations, kCap, 1);
      std::fill_n(out->window_dilations, kCap, 1);
      if (o) {
        OCTET_TRY(p.CopyVector(o->window_dimensions(),
                               "StablehloReduceWindowOptions.window_dimensions",
                               out->window_dimensions, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->window_strides(), "StablehloReduceWindowOptions.window_strides",
                               out->window_strides, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->base_dilations(), "StablehloReduceWindowOptions.base_dilations",
                               out->base_dilations, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->window_dilations(),
                               "StablehloReduceWindowOptions.window_dilations",
                               out->window_dilations, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->padding(), "StablehloReduceWindowOptions.padding", out->padding,
                               2 * kCap, nullptr));
        out->body_subgraph_index = o->body_subgraph_index();
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_REDUCE_WINDOW: {
      auto* out = p.Alloc<TfLiteReduceWindowParams>();
      const ReduceWindowOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        const int f = static_cast<int>(o->reduce_function());
        if (f < ReduceWindowFunction_MIN || f > ReduceWindowFunction_MAX) {
          return p.BadEnum("ReduceWindowOptions.reduce_function", f);
        }
        out->reduce_function = static_cast<TfLiteReduceWindowFunction>(f);
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_PAD: {
      auto* out = p.Alloc<TfLiteStablehloPadParams>();
      const StablehloPadOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        constexpr size_t kCap = TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT;
        OCTET_TRY(p.CopyVector(o->edge_padding_low(), "StablehloPadOptions.edge_padding_low",
                               out->edge_padding_low, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->edge_padding_high(), "StablehloPadOptions.edge_padding_high",
                               out->edge_padding_high, kCap, nullptr));
        OCTET_TRY(p.CopyVector(o->interior_padding(), "StablehloPadOptions.interior_padding",
                               out->interior_padding, kCap, nullptr));
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_COMPOSITE: {
      auto* out = p.Alloc<TfLiteStablehloCompositeParams>();
      const StableHLOCompositeOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        out->name = o->name() ? o->name()->c_str() : nullptr;
        out->subgraph_index = o->decomposition_subgraph_index();
        out->version = o->version();
        if (o->composite_attributes() != nullptr) {
          out->attributes = o->composite_attributes()->data();
          out->attributes_size = o->composite_attributes()->size();
        }
      }
      return kTfLiteOk;
    }
    case BuiltinOperator_STABLEHLO_CASE: {
      auto* out = p.Alloc<TfLiteStablehloCaseParams>();
      const StablehloCaseOptions* o;
      OCTET_TRY(p.Options2(&o));
      if (o) {
        int n = 0;
        OCTET_TRY(p.CopyVector(
            o->branch_subgraph_indices(), "StablehloCaseOptions.branch_subgraph_indices",
            out->branch_subgraph_indices, TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT, &n));
        out->num_branches = static_cast<uint32_t>(n);
      }
      return kTfLiteOk;
    }
    default:
      // Everything else (elementwise ops, PAD, TRANSPOSE, CUSTOM, ...) has
      // no param struct.
      *has_params = false;
      return kTfLiteOk;
  }
}

#undef OCTET_TRY

}  // namespace

TfLiteStatus ConvertTensorType(tflite::TensorType type, TfLiteType* out) {
  switch (type) {
    case tflite::TensorType_FLOAT32:
      *out = kTfLiteFloat32;
      return kTfLiteOk;
    case tflite::TensorType_FLOAT16:
      *out = kTfLiteFloat16;
      return kTfLiteOk;
    case tflite::TensorType_INT32:
      *out = kTfLiteInt32;
      return kTfLiteOk;
    case tflite::TensorType_UINT8:
      *out = kTfLiteUInt8;
      return kTfLiteOk;
    case tflite::TensorType_INT64:
      *out = kTfLiteInt64;
      return kTfLiteOk;
    case tflite::TensorType_STRING:
      *out = kTfLiteString;
      return kTfLiteOk;
    case tflite::TensorType_BOOL:
      *out = kTfLiteBool;
      return kTfLiteOk;
    case tflite::TensorType_INT16:
      *out = kTfLiteInt16;
      return kTfLiteOk;
    case tflite::TensorType_COMPLEX64:
      *out = kTfLiteComplex64;
      return kTfLiteOk;
    case tflite::TensorType_INT8:
      *out = kTfLiteInt8;
      return kTfLiteOk;
    case tflite::TensorType_FLOAT64:
      *out = kTfLiteFloat64;
      return kTfLiteOk;
    case tflite::TensorType_COMPLEX128:
      *out = kTfLiteComplex128;
      return kTfLiteOk;
    case tflite::TensorType_UINT64:
      *out = kTfLiteUInt64;
      return kTfLiteOk;
    case tflite::TensorType_RESOURCE:
      *out = kTfLiteResource;
      return kTfLiteOk;
    case tflite::TensorType_VARIANT:
      *out = kTfLiteVariant;
      return kTfLiteOk;
    case tflite::TensorType_UINT32:
      *out = kTfLiteUInt32;
      return kTfLiteOk;
    case tflite::TensorType_UINT16:
      *out = kTfLiteUInt16;
      return kTfLiteOk;
    case tflite::TensorType_INT4:
      *out = kTfLiteInt4;
      return kTfLiteOk;
    case tflite::TensorType_BFLOAT16:
      *out = kTfLiteBFloat16;
      return kTfLiteOk;
  }
  *out = kTfLiteNoType;
  return kTfLiteError;
}

TfLiteStatus ParseBuiltinOptions(const tflite::Operator& op, tflite::BuiltinOperator code,
                                 void** builtin_data, std::string* error) {
  *builtin_data = nullptr;
  Parser parser(op, code, error);
  bool has_params = false;
  if (ParseInto(parser, code, &has_params) != kTfLiteOk) return kTfLiteError;
  if (has_params) *builtin_data = parser.Release();
  return kTfLiteOk;
}

const char* BuiltinOperatorName(int code) {
  if (code < tflite::BuiltinOperator_MIN || code > tflite::BuiltinOperator_MAX) return "UNKNOWN";
  const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
  return (name != nullptr && *name != '\0') ? name : "UNKNOWN";
}

int EffectiveBuiltinCode(const tflite::OperatorCode& op_code) {
  return std::max(static_cast<int>(op_code.builtin_code()),
                  static_cast<int>(op_code.deprecated_builtin_code()));
}

}  // namespace octet::format
