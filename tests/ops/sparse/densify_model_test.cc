// DENSIFY from a .tflite file: the loader hands a sparse constant's metadata to the runtime
// (SparsityParameters -> TfLiteSparsity), only DENSIFY may read it, and malformed metadata is
// a load error naming the tensor. Models are written with the object API (octet::edit).
#include <gtest/gtest.h>

#include <cstring>

#include "converter/graph.h"
#include "converter/model_io.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/capture_reporter.h"

namespace octet {
namespace {

// The dense matrix [[1,0,0,2],[0,0,0,0],[0,3,0,0],[4,0,5,0]] as rows DENSE, columns CSR.
std::unique_ptr<edit::SparsityParametersT> RowsDenseColumnsCsr(bool with_indices) {
  auto s = std::make_unique<edit::SparsityParametersT>();
  s->traversal_order = {0, 1};
  auto rows = std::make_unique<edit::DimensionMetadataT>();
  rows->format = edit::DimensionType_DENSE;
  rows->dense_size = 4;
  auto cols = std::make_unique<edit::DimensionMetadataT>();
  cols->format = edit::DimensionType_SPARSE_CSR;
  edit::Int32VectorT segments;
  segments.values = {0, 2, 2, 3, 5};
  cols->array_segments.Set(std::move(segments));
  if (with_indices) {
    edit::Uint8VectorT indices;  // the narrow index type the converter picks for small dims
    indices.values = {0, 3, 1, 0, 2};
    cols->array_indices.Set(std::move(indices));
  }
  s->dim_metadata.push_back(std::move(rows));
  s->dim_metadata.push_back(std::move(cols));
  return s;
}

// sparse constant -> `reader` op -> output.
std::vector<uint8_t> Model(edit::BuiltinOperator reader, bool with_indices) {
  edit::ModelT model;
  model.version = 3;
  model.buffers.push_back(std::make_unique<edit::BufferT>());
  auto graph = std::make_unique<edit::SubGraphT>();
  const int32_t sparse =
      converter::AddConstantTensor(model, *graph, edit::TensorType_FLOAT32, {4, 4},
                                   converter::FloatBytes({1, 2, 3, 4, 5}), "sparse_weights");
  graph->tensors[sparse]->sparsity = RowsDenseColumnsCsr(with_indices);
  auto out = std::make_unique<edit::TensorT>();
  out->shape = {4, 4};
  out->name = "dense";
  graph->tensors.push_back(std::move(out));
  auto op = std::make_unique<edit::OperatorT>();
  op->opcode_index = converter::FindOrAddOpCode(model, reader);
  op->inputs = {sparse};
  if (reader == edit::BuiltinOperator_ADD) op->inputs.push_back(sparse);
  op->outputs = {1};
  graph->operators.push_back(std::move(op));
  graph->outputs = {1};
  model.subgraphs.push_back(std::move(graph));
  flatbuffers::FlatBufferBuilder fbb;
  edit::FinishModelBuffer(fbb, edit::Model::Pack(fbb, &model));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

using Collect = ::octet::testing::CaptureReporter;

// Builds an interpreter for `bytes`; the builder's status, messages in *errors.
struct Loaded {
  std::vector<uint8_t> bytes;  // the model reads its buffer in place: it must outlive it
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
  TfLiteStatus status = kTfLiteError;
};
Loaded Load(const std::vector<uint8_t>& bytes, Collect* errors) {
  Loaded loaded;
  loaded.bytes = bytes;
  loaded.model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(loaded.bytes.data()), loaded.bytes.size(), errors);
  if (loaded.model == nullptr) return loaded;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  loaded.status = tflite::InterpreterBuilder(*loaded.model, resolver)(&loaded.interpreter);
  return loaded;
}

TEST(DensifyFromFile, SparseConstantLoadsAndDensifies) {
  Collect errors;
  Loaded loaded = Load(Model(edit::BuiltinOperator_DENSIFY, true), &errors);
  ASSERT_EQ(loaded.status, kTfLiteOk) << errors.text;
  tflite::Interpreter* interp = loaded.interpreter.get();
  ASSERT_EQ(interp->AllocateTensors(), kTfLiteOk) << errors.text;
  ASSERT_EQ(interp->Invoke(), kTfLiteOk) << errors.text;
  const TfLiteTensor* out = interp->tensor(interp->outputs()[0]);
  const float expected[16] = {1, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 5, 0};
  ASSERT_EQ(out->bytes, sizeof expected);
  EXPECT_EQ(std::memcmp(out->data.f, expected, sizeof expected), 0);
}

TEST(DensifyFromFile, OnlyDensifyMayReadASparseConstant) {
  Collect errors;
  EXPECT_NE(Load(Model(edit::BuiltinOperator_ADD, true), &errors).status, kTfLiteOk);
  EXPECT_NE(errors.text.find("only DENSIFY may read a sparse constant"), std::string::npos)
      << errors.text;
}

TEST(DensifyFromFile, CsrWithoutIndicesIsALoadError) {
  Collect errors;
  EXPECT_NE(Load(Model(edit::BuiltinOperator_DENSIFY, false), &errors).status, kTfLiteOk);
  EXPECT_NE(errors.text.find("'sparse_weights'"), std::string::npos) << errors.text;
  EXPECT_NE(errors.text.find("SPARSE_CSR without both"), std::string::npos) << errors.text;
}

}  // namespace
}  // namespace octet
