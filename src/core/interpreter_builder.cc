#include "tensorflow/lite/interpreter_builder.h"

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/alloc_guard.h"
#include "core/owned_quantization.h"
#include "core/sparsity_loader.h"
#include "format/parse_options.h"
#include "format/unaligned.h"
#include "kernels/cpu/cpu_features.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/util.h"

namespace tflite {
namespace {

std::vector<int> ToVector(const flatbuffers::Vector<int32_t>* v) {
  if (v == nullptr) return {};
  return std::vector<int>(v->begin(), v->end());
}

}  // namespace

InterpreterBuilder::InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver)
    : model_(model.GetModel()),
      op_resolver_(op_resolver),
      error_reporter_(model.error_reporter()),
      allocation_(model.allocation()) {}

InterpreterBuilder::InterpreterBuilder(const ::tflite::Model* model, const OpResolver& op_resolver,
                                       ErrorReporter* error_reporter, const Allocation* allocation)
    : model_(model),
      op_resolver_(op_resolver),
      error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()),
      allocation_(allocation) {}

InterpreterBuilder::~InterpreterBuilder() = default;

void InterpreterBuilder::Report(const char* format, ...) {
  va_list args;
  va_start(args, format);
  error_reporter_->Report(format, args);
  va_end(args);
}

TfLiteStatus InterpreterBuilder::SetNumThreads(int num_threads) {
  if (num_threads < -1 || num_threads == 0) {
    Report("SetNumThreads: %d is not a thread count (use -1 or >= 1)", num_threads);
    return kTfLiteError;
  }
  num_threads_ = num_threads;
  return kTfLiteOk;
}

TfLiteStatus InterpreterBuilder::BuildRegistrations() {
  registrations_.clear();
  const auto* codes = model_->operator_codes();
  if (codes == nullptr) return kTfLiteOk;
  for (const ::tflite::OperatorCode* code : *codes) {
    const int builtin = octet::format::EffectiveBuiltinCode(*code);
    const int version = code->version();
    const TfLiteRegistration* reg = nullptr;
    if (builtin != BuiltinOperator_CUSTOM) {
      reg = op_resolver_.FindOp(static_cast<BuiltinOperator>(builtin), version);
      if (reg == nullptr) {
        Report("unsupported op: builtin %s version %d is not registered",
               octet::format::BuiltinOperatorName(builtin), version);
        return kTfLiteError;
      }
    } else {
      const char* name = code->custom_code() ? code->custom_code()->c_str() : "";
      reg = op_resolver_.FindOp(name, version);
      if (reg == nullptr) {
        // Not fatal yet: a delegate may claim it. Prepare reports it by name otherwise.
        // The name points into the model, which outlives the interpreter (as in TFLite).
        unresolved_.push_back(std::make_unique<TfLiteRegistration>(CreateUnresolvedCustomOp(name)));
        reg = unresolved_.back().get();
      }
    }
    registrations_.push_back(reg);
  }
  return kTfLiteOk;
}

TfLiteStatus InterpreterBuilder::ParseTensors(const ::tflite::SubGraph* subgraph,
                                              Subgraph* target) {
  const auto* tensors = subgraph->tensors();
  const auto* buffers = model_->buffers();
  if (tensors == nullptr) return kTfLiteOk;
  const auto* file_base = allocation_ ? static_cast<const uint8_t*>(allocation_->base()) : nullptr;
  for (flatbuffers::uoffset_t i = 0; i < tensors->size(); ++i) {
    const ::tflite::Tensor* t = tensors->Get(i);
    TfLiteType type;
    if (octet::format::ConvertTensorType(t->type(), &type) != kTfLiteOk) {
      Report("tensor %u has unknown type %d", i, static_cast<int>(t->type()));
      return kTfLiteError;
    }
    const char* name = t->name() ? t->name()->c_str() : "";
    std::vector<int> dims = ToVector(t->shape());

    octet::OwnedQuantization quant;  // freed on every early exit until handed to the tensor
    const auto* q = t->quantization();
    if (q != nullptr && q->details_type() == ::tflite::QuantizationDetails_BlockwiseQuantization) {
      // LiteRT's INT4 LLM weights: fp16 scales per block of input channels in another tensor.
      // Read as affine they would be wrong numbers; say so instead.
      const auto* blockwise = q->details_as_BlockwiseQuantization();
      Report(
          "tensor %u '%s' uses blockwise quantization (block size %d), which Octet does not "
          "support",
          i, name, blockwise != nullptr ? blockwise->block_size() : 0);
      return kTfLiteError;
    }
    if (q != nullptr && q->scale() != nullptr && q->scale()->size() > 0) {
      const int n = static_cast<int>(q->scale()->size());
      auto* affine = static_cast<TfLiteAffineQuantization*>(
          octet::OrThrow(std::calloc(1, sizeof(TfLiteAffineQuantization))));
      quant.value.type = kTfLiteAffineQuantization;
      quant.value.params = affine;
      affine->scale = octet::OrThrow(TfLiteFloatArrayCreate(n));
      affine->zero_point = octet::OrThrow(TfLiteIntArrayCreate(n));
      const auto* zps = q->zero_point();
      for (int k = 0; k < n; ++k) {
        affine->scale->data[k] = q->scale()->Get(k);
        // A single stored zero point applies to every channel.
        int64_t zp = 0;
        if (zps != nullptr && zps->size() > 0) {
          zp = octet::format::UnalignedGet(
              zps, zps->size() == static_cast<flatbuffers::uoffset_t>(n) ? k : 0);
        }
        affine->zero_point->data[k] = static_cast<int>(zp);
      }
      affine->quantized_dimension = q->quantized_dimension();
    }

    const uint8_t* data = nullptr;
    size_t size = 0;
    if (buffers != nullptr && t->buffer() != 0 && t->buffer() < buffers->size()) {
      const ::tflite::Buffer* b = buffers->Get(t->buffer());
      if (b->offset() > 1 && file_base != nullptr) {
        data = file_base + b->offset();  // large-model layout: bytes after the flatbuffer
        size = static_cast<size_t>(b->size());
      } else if (b->data() != nullptr && b->data()->size() > 0) {
        data = b->data()->data();
        size = b->data()->size();
      }
    }

    TfLiteSparsity* sparsity = nullptr;
    if (t->sparsity() != nullptr && data != nullptr) {
      // A sparse constant holds only its non-zero blocks: DENSIFY alone may read it.
      if (!octet::OnlyDensifyReads(*model_, *subgraph, static_cast<int>(i))) {
        Report("tensor %u ('%s') is sparse; only DENSIFY may read a sparse constant", i, name);
        return kTfLiteError;
      }
      std::string why;
      sparsity = octet::ConvertSparsity(*t->sparsity(), &why);
      if (sparsity == nullptr) {
        Report("tensor %u ('%s'): %s", i, name, why.c_str());
        return kTfLiteError;
      }
    }
    octet::SparsityGuard owned_sparsity{sparsity};

    if (data != nullptr && !t->is_variable()) {
      // Constants are used in place (zero copy). Kernels read them as typed arrays, so a
      // buffer that is not aligned for its element type is copied once.
      const char* ptr = reinterpret_cast<const char*>(data);
      const size_t align = std::max<size_t>(TfLiteTypeGetSize(type), 1);
      if (reinterpret_cast<uintptr_t>(ptr) % std::min<size_t>(align, 16) != 0) {
        void* copy = target->context()->AllocatePersistentBuffer(target->context(), size);
        if (copy == nullptr) {
          Report("tensor %u ('%s'): no memory for an aligned copy of its %zu bytes", i, name, size);
          return kTfLiteError;
        }
        std::memcpy(copy, ptr, size);
        ptr = static_cast<const char*>(copy);
      }
      if (target->SetTensorParametersReadOnly(static_cast<int>(i), type, name, dims,
                                              quant.Release(), ptr, size, allocation_,
                                              owned_sparsity.Release()) != kTfLiteOk) {
        return kTfLiteError;
      }
    } else {
      const std::vector<int> signature = ToVector(t->shape_signature());
      if (target->SetTensorParametersReadWrite(static_cast<int>(i), type, name, dims,
                                               quant.Release(), t->is_variable(),
                                               signature) != kTfLiteOk) {
        return kTfLiteError;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus InterpreterBuilder::ParseNodes(const ::tflite::SubGraph* subgraph, Subgraph* target) {
  const auto* ops = subgraph->operators();
  if (ops == nullptr) return kTfLiteOk;
  for (flatbuffers::uoffset_t i = 0; i < ops->size(); ++i) {
    const ::tflite::Operator* op = ops->Get(i);
    if (op->opcode_index() >= registrations_.size()) {
      Report("operator %u uses opcode index %u, but the model has %zu operator codes", i,
             op->opcode_index(), registrations_.size());
      return kTfLiteError;
    }
    const TfLiteRegistration* reg = registrations_[op->opcode_index()];
    const int code = reg->builtin_code;
    if (code == BuiltinOperator_CUSTOM) {
      const char* init_data = nullptr;
      size_t init_size = 0;
      if (op->custom_options() != nullptr) {
        init_data = reinterpret_cast<const char*>(op->custom_options()->data());
        init_size = op->custom_options()->size();
      }
      TF_LITE_ENSURE_STATUS(target->AddNodeWithParameters(
          ToVector(op->inputs()), ToVector(op->outputs()), ToVector(op->intermediates()), init_data,
          init_size, nullptr, reg));
    } else {
      void* builtin_data = nullptr;
      std::string error;
      if (octet::format::ParseBuiltinOptions(*op, static_cast<BuiltinOperator>(code), &builtin_data,
                                             &error) != kTfLiteOk) {
        Report("operator %u (%s): %s", i, octet::format::BuiltinOperatorName(code), error.c_str());
        return kTfLiteError;
      }
      // Ours until AddNodeWithParameters takes it: the index lists below may fail to allocate.
      std::unique_ptr<void, decltype(&std::free)> params(builtin_data, &std::free);
      const std::vector<int> inputs = ToVector(op->inputs());
      const std::vector<int> outputs = ToVector(op->outputs());
      const std::vector<int> intermediates = ToVector(op->intermediates());
      TF_LITE_ENSURE_STATUS(target->AddNodeWithParameters(inputs, outputs, intermediates, nullptr,
                                                          0, params.release(), reg));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter,
                                            int num_threads) {
  TF_LITE_ENSURE_STATUS(SetNumThreads(num_threads));
  return (*this)(interpreter);
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter) {
  return octet::GuardStatus(error_reporter_, "building the interpreter",
                            [&] { return Build(interpreter); });
}

TfLiteStatus InterpreterBuilder::Build(std::unique_ptr<Interpreter>* interpreter) {
  if (interpreter == nullptr) return kTfLiteError;
  interpreter->reset();
  if (model_ == nullptr) {
    Report("no model to build an interpreter from (it failed to load)");
    return kTfLiteError;
  }
  // A forced kernel path this CPU cannot run (OCTET_ISA) is refused here, before any kernel.
  const std::string isa_problem = octet::cpu::CheckIsaSelection();
  if (!isa_problem.empty()) {
    Report("%s", isa_problem.c_str());
    return kTfLiteError;
  }
  const auto* subgraphs = model_->subgraphs();
  if (subgraphs == nullptr || subgraphs->size() == 0) {
    Report("model has no subgraphs");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(BuildRegistrations());

  auto result = std::make_unique<Interpreter>(error_reporter_);
  if (max_memory_set_) result->SetMaxMemoryBytes(max_memory_bytes_);
  if (subgraphs->size() > 1) result->AddSubgraphs(static_cast<int>(subgraphs->size()) - 1);
  for (flatbuffers::uoffset_t s = 0; s < subgraphs->size(); ++s) {
    const ::tflite::SubGraph* sg = subgraphs->Get(s);
    Subgraph* target = result->subgraph(static_cast<int>(s));
    if (sg->name()) target->SetName(sg->name()->str());
    const int num_tensors = sg->tensors() ? static_cast<int>(sg->tensors()->size()) : 0;
    TF_LITE_ENSURE_STATUS(target->AddTensors(num_tensors));
    TF_LITE_ENSURE_STATUS(ParseTensors(sg, target));
    TF_LITE_ENSURE_STATUS(target->SetInputs(ToVector(sg->inputs())));
    TF_LITE_ENSURE_STATUS(target->SetOutputs(ToVector(sg->outputs())));
    std::vector<int> variables;
    for (int t = 0; t < num_tensors; ++t) {
      if (target->tensor(t)->is_variable) variables.push_back(t);
    }
    TF_LITE_ENSURE_STATUS(target->SetVariables(std::move(variables)));
    TF_LITE_ENSURE_STATUS(ParseNodes(sg, target));
  }

  if (const auto* defs = model_->signature_defs()) {
    for (const ::tflite::SignatureDef* def : *defs) {
      Interpreter::SignatureDef sig;
      sig.key = def->signature_key() ? def->signature_key()->str() : "";
      sig.subgraph_index = static_cast<int>(def->subgraph_index());
      if (sig.subgraph_index < 0 || sig.subgraph_index >= static_cast<int>(subgraphs->size())) {
        Report("signature '%s' refers to subgraph %d, which does not exist", sig.key.c_str(),
               sig.subgraph_index);
        return kTfLiteError;
      }
      const int tensor_count =
          static_cast<int>(result->subgraph(sig.subgraph_index)->tensors_size());
      auto read_map = [&](const auto* maps, std::map<std::string, uint32_t>* out) {
        if (maps == nullptr) return true;
        for (const ::tflite::TensorMap* m : *maps) {
          if (static_cast<int>(m->tensor_index()) >= tensor_count) return false;
          (*out)[m->name() ? m->name()->str() : ""] = m->tensor_index();
        }
        return true;
      };
      if (!read_map(def->inputs(), &sig.inputs) || !read_map(def->outputs(), &sig.outputs)) {
        Report("signature '%s' refers to a tensor that does not exist", sig.key.c_str());
        return kTfLiteError;
      }
      result->AddSignature(std::move(sig));
    }
  }

  TF_LITE_ENSURE_STATUS(result->SetNumThreads(num_threads_));
  for (TfLiteDelegate* d : delegates_) {
    TF_LITE_ENSURE_STATUS(result->ModifyGraphWithDelegate(d));
  }
  *interpreter = std::move(result);
  return kTfLiteOk;
}

}  // namespace tflite
