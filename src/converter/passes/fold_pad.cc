// PAD / PADV2 of zeros around the spatial dims, read only by a VALID CONV_2D or
// DEPTHWISE_CONV_2D, when the padding is exactly what SAME would add: the conv pads itself.
// Exact for float and integer graphs (a SAME conv's padding reads as real zero, i.e. the
// input's zero point, which is what PAD writes).
#include <algorithm>
#include <cstring>

#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

// TFLite's SAME padding for one spatial dim: (before, after), and the output size.
// In 64 bits: strides and dilations come from the file, and int32 sums of them can overflow.
struct SamePadding {
  int64_t before, after, out;
};
SamePadding Same(int64_t in, int64_t filter, int64_t stride, int64_t dilation) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t effective = (filter - 1) * dilation + 1;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return {total / 2, total - total / 2, out};
}

// The [4][2] paddings as int64, or false.
bool Paddings(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t t,
              int64_t pads[4][2]) {
  const std::vector<uint8_t>* bytes = ConstantBytes(model, graph, t);
  if (bytes == nullptr) return false;
  const edit::TensorT& tensor = *graph.tensors[t];
  if (tensor.shape != std::vector<int32_t>{4, 2}) return false;
  for (int i = 0; i < 8; ++i) {
    if (tensor.type == edit::TensorType_INT32 && bytes->size() == 32) {
      int32_t v;
      std::memcpy(&v, bytes->data() + 4 * i, 4);
      pads[i / 2][i % 2] = v;
    } else if (tensor.type == edit::TensorType_INT64 && bytes->size() == 64) {
      std::memcpy(&pads[i / 2][i % 2], bytes->data() + 8 * i, 8);
    } else {
      return false;
    }
  }
  return true;
}

// PADV2's fill value is real zero: 0.0f, or the zero point of a quantized output.
bool FillsZero(const edit::ModelT& model, const edit::SubGraphT& graph, const edit::OperatorT& pad,
               const edit::TensorT& out) {
  if (pad.inputs.size() < 3 || pad.inputs[2] < 0) return true;
  const std::vector<uint8_t>* bytes = ConstantBytes(model, graph, pad.inputs[2]);
  if (bytes == nullptr || graph.tensors[pad.inputs[2]]->type != out.type) return false;
  if (out.type == edit::TensorType_FLOAT32 && bytes->size() == 4) {
    float v;
    std::memcpy(&v, bytes->data(), 4);
    return v == 0.0f;
  }
  if (out.quantization == nullptr || out.quantization->zero_point.size() != 1) return false;
  const int64_t zero = out.quantization->zero_point[0];
  if (out.type == edit::TensorType_INT8 && bytes->size() == 1) {
    return static_cast<int8_t>((*bytes)[0]) == zero;
  }
  if (out.type == edit::TensorType_UINT8 && bytes->size() == 1) return (*bytes)[0] == zero;
  return false;
}

}  // namespace

bool FoldPad(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  for (auto& graph_ptr : model.subgraphs) {
    edit::SubGraphT& graph = *graph_ptr;
    const Usage usage(graph);
    std::vector<bool> erase(graph.operators.size(), false);
    for (size_t c = 0; c < graph.operators.size(); ++c) {
      edit::OperatorT& conv = *graph.operators[c];
      const edit::BuiltinOperator code = OpCodeOf(model, conv);
      if (code != edit::BuiltinOperator_CONV_2D &&
          code != edit::BuiltinOperator_DEPTHWISE_CONV_2D) {
        continue;
      }
      if (conv.inputs.size() < 2 || conv.inputs[0] < 0 || conv.inputs[1] < 0) continue;
      edit::Padding* padding = nullptr;
      int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
      if (auto* o = conv.builtin_options.AsConv2DOptions()) {
        padding = &o->padding;
        stride_h = o->stride_h, stride_w = o->stride_w;
        dilation_h = o->dilation_h_factor, dilation_w = o->dilation_w_factor;
      } else if (auto* d = conv.builtin_options.AsDepthwiseConv2DOptions()) {
        padding = &d->padding;
        stride_h = d->stride_h, stride_w = d->stride_w;
        dilation_h = d->dilation_h_factor, dilation_w = d->dilation_w_factor;
      }
      if (padding == nullptr || *padding != edit::Padding_VALID || stride_h < 1 || stride_w < 1 ||
          dilation_h < 1 || dilation_w < 1) {
        continue;
      }
      const int32_t x = conv.inputs[0];
      const int p = usage.producer(x);
      if (p < 0 || erase[p] || !usage.only_feeds(x, static_cast<int>(c))) continue;
      const edit::OperatorT& pad = *graph.operators[p];
      const edit::BuiltinOperator pad_code = OpCodeOf(model, pad);
      if ((pad_code != edit::BuiltinOperator_PAD && pad_code != edit::BuiltinOperator_PADV2) ||
          pad.inputs.size() < 2 || pad.inputs[0] < 0) {
        continue;
      }
      const edit::TensorT& data = *graph.tensors[pad.inputs[0]];
      const edit::TensorT& padded = *graph.tensors[x];
      const edit::TensorT& filter = *graph.tensors[conv.inputs[1]];
      int64_t pads[4][2];
      if (!Paddings(model, graph, pad.inputs[1], pads) || data.shape.size() != 4 ||
          ElementCount(data.shape) < 0 || filter.shape.size() != 4 || data.type != padded.type ||
          !SameQuantization(data, padded) || !FillsZero(model, graph, pad, padded) ||
          pads[0][0] != 0 || pads[0][1] != 0 || pads[3][0] != 0 || pads[3][1] != 0) {
        continue;
      }
      const SamePadding h = Same(data.shape[1], filter.shape[1], stride_h, dilation_h);
      const SamePadding w = Same(data.shape[2], filter.shape[2], stride_w, dilation_w);
      const auto valid_out = [](int64_t in, int64_t filter_size, int64_t stride, int64_t dilation) {
        return (in - ((filter_size - 1) * dilation + 1)) / stride + 1;
      };
      if (pads[1][0] != h.before || pads[1][1] != h.after || pads[2][0] != w.before ||
          pads[2][1] != w.after ||
          valid_out(data.shape[1] + pads[1][0] + pads[1][1], filter.shape[1], stride_h,
                    dilation_h) != h.out ||
          valid_out(data.shape[2] + pads[2][0] + pads[2][1], filter.shape[2], stride_w,
                    dilation_w) != w.out) {
        continue;
      }
      *padding = edit::Padding_SAME;
      conv.inputs[0] = pad.inputs[0];
      erase[p] = true;
      log.Add(OpNameOf(model, pad) + " #" + std::to_string(p) + " + " + OpNameOf(model, conv) +
              " #" + std::to_string(c) + " -> " + OpNameOf(model, conv) + " with SAME padding");
    }
    EraseOperators(graph, erase);
  }
  return true;
}

}  // namespace octet::converter::passes
