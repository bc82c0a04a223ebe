#include "format/verifier.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "format/parse_options.h"
#include "format/unaligned.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::format {
namespace {

using flatbuffers::uoffset_t;

constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 31;

// Bytes per element, 0 for types without a fixed size (strings, resources).
// INT4 is reported as 1 and handled specially (packed or unpacked buffers).
size_t ElementSize(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType_BOOL:
    case tflite::TensorType_UINT8:
    case tflite::TensorType_INT8:
    case tflite::TensorType_INT4:
      return 1;
    case tflite::TensorType_FLOAT16:
    case tflite::TensorType_BFLOAT16:
    case tflite::TensorType_INT16:
    case tflite::TensorType_UINT16:
      return 2;
    case tflite::TensorType_FLOAT32:
    case tflite::TensorType_INT32:
    case tflite::TensorType_UINT32:
      return 4;
    case tflite::TensorType_INT64:
    case tflite::TensorType_UINT64:
    case tflite::TensorType_FLOAT64:
    case tflite::TensorType_COMPLEX64:
      return 8;
    case tflite::TensorType_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

// Printable, bounded tensor name for messages.
std::string Printable(const flatbuffers::String* s) {
  if (s == nullptr) return "";
  std::string out;
  for (uoffset_t i = 0; i < s->size() && out.size() < 64; ++i) {
    const char c = s->c_str()[i];
    out.push_back((c >= 0x20 && c < 0x7f) ? c : '?');
  }
  return out;
}

class ModelChecker {
 public:
  ModelChecker(const tflite::Model& model, size_t file_size, std::string* error)
      : model_(model), file_size_(file_size), error_(error) {}

  bool Run() {
    if (model_.version() != 3) {
      return Fail("model version " + std::to_string(model_.version()) +
                  " is unsupported (expected 3)");
    }
    const auto* subgraphs = model_.subgraphs();
    if (subgraphs == nullptr || subgraphs->size() == 0) return Fail("model has no subgraphs");
    num_subgraphs_ = subgraphs->size();
    num_buffers_ = model_.buffers() ? model_.buffers()->size() : 0;
    num_opcodes_ = model_.operator_codes() ? model_.operator_codes()->size() : 0;
    if (!CheckBuffers()) return false;
    callees_.assign(num_subgraphs_, {});
    for (uoffset_t s = 0; s < num_subgraphs_; ++s) {
      if (!CheckSubgraph(s, *subgraphs->Get(s))) return false;
    }
    if (!CheckCallGraph()) return false;
    return CheckModelTables();
  }

 private:
  bool Fail(const std::string& msg) {
    if (error_ != nullptr) *error_ = msg;
    return false;
  }

  // Sizes of the data referenced by each buffer (inline or external).
  bool CheckBuffers() {
    buffer_bytes_.assign(num_buffers_, 0);
    for (uoffset_t b = 0; b < num_buffers_; ++b) {
      const tflite::Buffer* buf = model_.buffers()->Get(b);
      uint64_t bytes = (buf->data() != nullptr) ? buf->data()->size() : 0;
      if (buf->offset() > 1) {
        const uint64_t off = buf->offset(), sz = buf->size();
        if (off > file_size_ || sz > file_size_ - off) {
          return Fail("buffer " + std::to_string(b) + ": external data [offset " +
                      std::to_string(off) + ", size " + std::to_string(sz) +
                      "] lies outside the file (" + std::to_string(file_size_) + " bytes)");
        }
        bytes = sz;
      }
      buffer_bytes_[b] = bytes;
    }
    if (num_buffers_ > 0 && buffer_bytes_[0] != 0) {
      return Fail("buffer 0 must be the empty sentinel buffer but holds " +
                  std::to_string(buffer_bytes_[0]) + " bytes");
    }
    return true;
  }

  std::string TensorRef(uoffset_t s, uoffset_t t, const tflite::Tensor* tensor) {
    std::string r = "subgraph " + std::to_string(s) + ", tensor " + std::to_string(t);
    if (tensor != nullptr && tensor->name() != nullptr)
      r += " ('" + Printable(tensor->name()) + "')";
    return r;
  }

  std::string OpRef(uoffset_t s, uoffset_t o, int code) {
    return "subgraph " + std::to_string(s) + ", op " + std::to_string(o) + " (" +
           (code < 0 ? std::string("?") : BuiltinOperatorName(code)) + ")";
  }

  bool CheckTensor(uoffset_t s, uoffset_t t, const tflite::Tensor& tensor, bool* is_const,
                   bool* is_empty) {
    const std::string ref = TensorRef(s, t, &tensor);
    const int type = static_cast<int>(tensor.type());
    if (type < tflite::TensorType_MIN || type > tflite::TensorType_MAX) {
      return Fail(ref + ": unknown tensor type " + std::to_string(type));
    }
    // Buffer 0 means "no data" and is accepted even when the model has no
    // buffers table at all (some writers omit it).
    if (tensor.buffer() != 0 && tensor.buffer() >= num_buffers_) {
      return Fail(ref + ": buffer index " + std::to_string(tensor.buffer()) +
                  " out of range (model has " + std::to_string(num_buffers_) + " buffers)");
    }
    // Element count with overflow detection.
    uint64_t elements = 1;
    bool overflow = false;
    if (tensor.shape() != nullptr) {
      for (uoffset_t d = 0; d < tensor.shape()->size(); ++d) {
        const int32_t dim = tensor.shape()->Get(d);
        if (dim < 0) {
          return Fail(ref + ": negative dimension " + std::to_string(dim) + " at shape[" +
                      std::to_string(d) + "]");
        }
        if (dim != 0 && elements > std::numeric_limits<uint64_t>::max() / dim) overflow = true;
        elements *= static_cast<uint64_t>(dim);
      }
    }
    if (tensor.shape_signature() != nullptr) {
      for (uoffset_t d = 0; d < tensor.shape_signature()->size(); ++d) {
        if (tensor.shape_signature()->Get(d) < -1) {
          return Fail(ref + ": invalid shape_signature[" + std::to_string(d) +
                      "] = " + std::to_string(tensor.shape_signature()->Get(d)));
        }
      }
    }
    const size_t elem_size = ElementSize(tensor.type());
    uint64_t bytes = 0;
    if (elem_size != 0) {
      if (overflow || elements > (kMaxTensorBytes - 1) / elem_size) {
        return Fail(ref + ": shape is too large (byte size overflows or exceeds 2^31)");
      }
      bytes = elements * elem_size;
    }
    *is_empty = (tensor.shape() != nullptr && elements == 0);
    const uint64_t data_bytes =
        tensor.buffer() < buffer_bytes_.size() ? buffer_bytes_[tensor.buffer()] : 0;
    *is_const = tensor.buffer() != 0 && data_bytes > 0 && !tensor.is_variable();
    if (data_bytes > 0 && elem_size != 0 && tensor.sparsity() == nullptr) {
      const bool int4_packed =
          tensor.type() == tflite::TensorType_INT4 && data_bytes == (elements + 1) / 2;
      if (data_bytes != bytes && !int4_packed) {
        const bool int4 = tensor.type() == tflite::TensorType_INT4;
        return Fail(ref + ": buffer " + std::to_string(tensor.buffer()) + " holds " +
                    std::to_string(data_bytes) + " bytes but the shape needs " +
                    std::to_string(int4 ? (elements + 1) / 2 : bytes) +
                    (int4 ? " (INT4: two values per byte)" : ""));
      }
    }
    return CheckQuantization(ref, tensor, elements);
  }

  bool CheckQuantization(const std::string& ref, const tflite::Tensor& tensor, uint64_t elements) {
    const tflite::QuantizationParameters* q = tensor.quantization();
    if (q == nullptr) return true;
    const uoffset_t scales = q->scale() ? q->scale()->size() : 0;
    const uoffset_t zps = q->zero_point() ? q->zero_point()->size() : 0;
    if (scales > 0 && zps > 0 && zps != scales && zps != 1) {
      return Fail(ref + ": quantization has " + std::to_string(scales) + " scales but " +
                  std::to_string(zps) + " zero points");
    }
    // A zero point must be a value of the storage type, else (q - zero_point) leaves the
    // range every quantized kernel assumes.
    int64_t lo = 0, hi = -1;
    switch (tensor.type()) {
      case tflite::TensorType_INT8:
        lo = -128;
        hi = 127;
        break;
      case tflite::TensorType_UINT8:
        lo = 0;
        hi = 255;
        break;
      case tflite::TensorType_INT16:
        lo = -32768;
        hi = 32767;
        break;
      case tflite::TensorType_INT4:
        lo = -8;
        hi = 7;
        break;
      default:
        break;
    }
    for (uoffset_t i = 0; lo <= hi && i < zps; ++i) {
      const int64_t zp = UnalignedGet(q->zero_point(), i);
      if (zp < lo || zp > hi) {
        return Fail(ref + ": zero point " + std::to_string(zp) + " out of range [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "] for " +
                    tflite::EnumNameTensorType(tensor.type()));
      }
    }
    if (scales > 1) {
      const int rank = tensor.shape() ? static_cast<int>(tensor.shape()->size()) : 0;
      const int qdim = q->quantized_dimension();
      const bool in_range = qdim >= 0 && qdim < rank;
      // Per-channel bias vectors sometimes keep the filter's axis; accept
      // them when there is exactly one scale per element.
      const bool bias_like = rank == 1 && elements == scales;
      if (!in_range && !bias_like) {
        return Fail(ref + ": quantized_dimension " + std::to_string(qdim) +
                    " out of range for rank " + std::to_string(rank) + " with " +
                    std::to_string(scales) + " scales");
      }
    }
    return true;
  }

  // Fetches a subgraph index from the control-flow op's options.
  bool SubgraphRef(uoffset_t s, uoffset_t o, int code, const char* field, int64_t index,
                   std::vector<uoffset_t>* callees) {
    if (index < 0 || index >= static_cast<int64_t>(num_subgraphs_)) {
      return Fail(OpRef(s, o, code) + ": " + field + " " + std::to_string(index) +
                  " out of range (model has " + std::to_string(num_subgraphs_) + " subgraphs)");
    }
    callees->push_back(static_cast<uoffset_t>(index));
    return true;
  }

  bool CheckControlFlow(uoffset_t s, uoffset_t o, int code, const tflite::Operator& op) {
    auto& callees = callees_[s];
    auto missing = [&](const char* table) {
      return Fail(OpRef(s, o, code) + ": missing or mismatched " + table);
    };
    switch (code) {
      case tflite::BuiltinOperator_IF: {
        const auto* opts = op.builtin_options_as_IfOptions();
        if (opts == nullptr) return missing("IfOptions");
        return SubgraphRef(s, o, code, "then_subgraph_index", opts->then_subgraph_index(),
                           &callees) &&
               SubgraphRef(s, o, code, "else_subgraph_index", opts->else_subgraph_index(),
                           &callees);
      }
      case tflite::BuiltinOperator_WHILE: {
        const auto* opts = op.builtin_options_as_WhileOptions();
        if (opts == nullptr) return missing("WhileOptions");
        return SubgraphRef(s, o, code, "cond_subgraph_index", opts->cond_subgraph_index(),
                           &callees) &&
               SubgraphRef(s, o, code, "body_subgraph_index", opts->body_subgraph_index(),
                           &callees);
      }
      case tflite::BuiltinOperator_CALL_ONCE: {
        const auto* opts = op.builtin_options_as_CallOnceOptions();
        if (opts == nullptr) return missing("CallOnceOptions");
        return SubgraphRef(s, o, code, "init_subgraph_index", opts->init_subgraph_index(),
                           &callees);
      }
      case tflite::BuiltinOperator_CALL: {
        const auto* opts = op.builtin_options_as_CallOptions();
        if (opts == nullptr) return missing("CallOptions");
        return SubgraphRef(s, o, code, "subgraph", opts->subgraph(), &callees);
      }
      default:
        return true;
    }
  }

  bool CheckSubgraph(uoffset_t s, const tflite::SubGraph& sg) {
    const uoffset_t num_tensors = sg.tensors() ? sg.tensors()->size() : 0;
    const std::string sref = "subgraph " + std::to_string(s);
    std::vector<char> is_const(num_tensors, 0), available(num_tensors, 0);
    std::vector<char> is_input(num_tensors, 0);
    std::vector<int64_t> writer(num_tensors, -1);

    for (uoffset_t t = 0; t < num_tensors; ++t) {
      const tflite::Tensor* tensor = sg.tensors()->Get(t);
      bool c = false, empty = false;
      if (!CheckTensor(s, t, *tensor, &c, &empty)) return false;
      is_const[t] = c;
      available[t] = c || empty || tensor->is_variable();
    }
    auto check_io = [&](const flatbuffers::Vector<int32_t>* v, const char* what) {
      if (v == nullptr) return true;
      for (uoffset_t i = 0; i < v->size(); ++i) {
        const int32_t t = v->Get(i);
        if (t < 0 || static_cast<uoffset_t>(t) >= num_tensors) {
          return Fail(sref + ": " + what + "[" + std::to_string(i) + "] = tensor index " +
                      std::to_string(t) + " out of range [0, " + std::to_string(num_tensors) + ")");
        }
      }
      return true;
    };
    if (!check_io(sg.inputs(), "inputs") || !check_io(sg.outputs(), "outputs")) return false;
    if (sg.inputs() != nullptr) {
      for (uoffset_t i = 0; i < sg.inputs()->size(); ++i) {
        const int32_t t = sg.inputs()->Get(i);
        if (is_const[t]) {
          return Fail(TensorRef(s, t, sg.tensors()->Get(t)) +
                      ": subgraph input has a constant buffer");
        }
        is_input[t] = 1;
        available[t] = 1;
      }
    }

    const uoffset_t num_ops = sg.operators() ? sg.operators()->size() : 0;
    for (uoffset_t o = 0; o < num_ops; ++o) {
      const tflite::Operator& op = *sg.operators()->Get(o);
      if (op.opcode_index() >= num_opcodes_) {
        return Fail(OpRef(s, o, -1) + ": opcode_index " + std::to_string(op.opcode_index()) +
                    " out of range (model has " + std::to_string(num_opcodes_) +
                    " operator codes)");
      }
      const int code = EffectiveBuiltinCode(*model_.operator_codes()->Get(op.opcode_index()));
      const std::string oref = OpRef(s, o, code);
      auto index_ok = [&](int32_t t, const char* what, uoffset_t i, bool allow_optional) {
        if (allow_optional && t == -1) return true;
        if (t < 0 || static_cast<uoffset_t>(t) >= num_tensors) {
          return Fail(oref + ": " + what + "[" + std::to_string(i) + "] = tensor index " +
                      std::to_string(t) + " out of range [0, " + std::to_string(num_tensors) + ")");
        }
        return true;
      };
      if (op.inputs() != nullptr) {
        for (uoffset_t i = 0; i < op.inputs()->size(); ++i) {
          const int32_t t = op.inputs()->Get(i);
          if (!index_ok(t, "inputs", i, true)) return false;
          if (t >= 0 && !available[t]) {
            return Fail(oref + ": input " + std::to_string(i) + " reads " +
                        TensorRef(s, t, sg.tensors()->Get(t)) +
                        " before any earlier op writes it (read-before-write or cycle)");
          }
        }
      }
      if (op.intermediates() != nullptr) {
        for (uoffset_t i = 0; i < op.intermediates()->size(); ++i) {
          if (!index_ok(op.intermediates()->Get(i), "intermediates", i, false)) return false;
        }
      }
      if (op.outputs() != nullptr) {
        for (uoffset_t i = 0; i < op.outputs()->size(); ++i) {
          const int32_t t = op.outputs()->Get(i);
          if (!index_ok(t, "outputs", i, false)) return false;
          const std::string tref = TensorRef(s, t, sg.tensors()->Get(t));
          if (is_const[t]) return Fail(oref + ": writes constant " + tref);
          if (is_input[t]) return Fail(oref + ": writes " + tref + ", a subgraph input");
          if (writer[t] >= 0) {
            return Fail(oref + ": writes " + tref + ", already written by op " +
                        std::to_string(writer[t]));
          }
          writer[t] = o;
          available[t] = 1;
        }
      }
      if (!CheckControlFlow(s, o, code, op)) return false;
    }
    if (sg.outputs() != nullptr) {
      for (uoffset_t i = 0; i < sg.outputs()->size(); ++i) {
        const int32_t t = sg.outputs()->Get(i);
        if (!available[t]) {
          return Fail(sref + ": output " + std::to_string(i) + " is " +
                      TensorRef(s, t, sg.tensors()->Get(t)) +
                      ", which no op writes and is not an input or constant");
        }
      }
    }
    return true;
  }

  // Rejects recursion between subgraphs (IF/WHILE/CALL_ONCE/CALL).
  bool CheckCallGraph() {
    std::vector<int> state(num_subgraphs_, 0);  // 0 new, 1 on stack, 2 done
    std::vector<uoffset_t> stack;
    for (uoffset_t root = 0; root < num_subgraphs_; ++root) {
      if (state[root] != 0) continue;
      // Iterative DFS: pairs of (node, next callee position).
      std::vector<std::pair<uoffset_t, size_t>> work{{root, 0}};
      state[root] = 1;
      stack.assign(1, root);
      while (!work.empty()) {
        auto& [node, next] = work.back();
        if (next < callees_[node].size()) {
          const uoffset_t callee = callees_[node][next++];
          if (state[callee] == 1) {
            std::string cycle;
            auto it = std::find(stack.begin(), stack.end(), callee);
            for (; it != stack.end(); ++it) cycle += std::to_string(*it) + " -> ";
            cycle += std::to_string(callee);
            return Fail("subgraph call cycle: " + cycle + " (subgraph " + std::to_string(callee) +
                        " calls itself)");
          }
          if (state[callee] == 0) {
            state[callee] = 1;
            stack.push_back(callee);
            work.emplace_back(callee, 0);
          }
        } else {
          state[node] = 2;
          stack.pop_back();
          work.pop_back();
        }
      }
    }
    return true;
  }

  bool CheckModelTables() {
    if (model_.signature_defs() != nullptr) {
      for (uoffset_t i = 0; i < model_.signature_defs()->size(); ++i) {
        const tflite::SignatureDef* sig = model_.signature_defs()->Get(i);
        const std::string ref = "signature_def " + std::to_string(i);
        if (sig->subgraph_index() >= num_subgraphs_) {
          return Fail(ref + ": subgraph_index " + std::to_string(sig->subgraph_index()) +
                      " out of range");
        }
        const auto* sg = model_.subgraphs()->Get(sig->subgraph_index());
        const uoffset_t num_tensors = sg->tensors() ? sg->tensors()->size() : 0;
        for (const auto* maps : {sig->inputs(), sig->outputs()}) {
          if (maps == nullptr) continue;
          for (uoffset_t m = 0; m < maps->size(); ++m) {
            if (maps->Get(m)->tensor_index() >= num_tensors) {
              return Fail(ref + ": tensor_index " + std::to_string(maps->Get(m)->tensor_index()) +
                          " out of range");
            }
          }
        }
      }
    }
    if (model_.metadata() != nullptr) {
      for (uoffset_t i = 0; i < model_.metadata()->size(); ++i) {
        if (model_.metadata()->Get(i)->buffer() >= num_buffers_) {
          return Fail("metadata " + std::to_string(i) + ": buffer index " +
                      std::to_string(model_.metadata()->Get(i)->buffer()) + " out of range");
        }
      }
    }
    return true;
  }

  const tflite::Model& model_;
  size_t file_size_;
  std::string* error_;
  uoffset_t num_subgraphs_ = 0, num_buffers_ = 0, num_opcodes_ = 0;
  std::vector<uint64_t> buffer_bytes_;
  std::vector<std::vector<uoffset_t>> callees_;
};

}  // namespace

bool VerifyModel(const uint8_t* data, size_t size, std::string* error) {
  auto fail = [error](const std::string& msg) {
    if (error != nullptr) *error = msg;
    return false;
  };
  if (data == nullptr || size == 0) return fail("empty model file (0 bytes)");
  if (size < 8) return fail("model file too small (" + std::to_string(size) + " bytes)");
  if (!flatbuffers::BufferHasIdentifier(data, tflite::ModelIdentifier())) {
    std::string id;
    for (int i = 4; i < 8; ++i) {
      const char c = static_cast<char>(data[i]);
      id.push_back((c >= 0x20 && c < 0x7f) ? c : '?');
    }
    return fail("wrong file identifier '" + id + "' (expected 'TFL3'); not a TFLite model");
  }
  // Models > 2GB keep their flatbuffer at the front and raw data after it.
  const size_t fb_size =
      std::min<size_t>(size, static_cast<size_t>(FLATBUFFERS_MAX_BUFFER_SIZE) - 1);
  flatbuffers::Verifier verifier(data, fb_size, /*max_depth=*/128,
                                 /*max_tables=*/100000000);
  if (!tflite::VerifyModelBuffer(verifier)) {
    return fail("flatbuffer verification failed: file is truncated or corrupt");
  }
  const tflite::Model* model = tflite::GetModel(data);
  return ModelChecker(*model, size, error).Run();
}

}  // namespace octet::format
