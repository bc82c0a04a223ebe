// Writes the small models the Python tests need and the shared corpus lacks, built with
// Octet's model builder:
//   signatures.tflite  subgraph 0 "add": sum = x + y ([1, 2] float32); subgraph 1
//                      "mul": product = a * b with shape signature [-1, 3] (resizable)
//   dynamic.tflite     out = x + x, x of shape [1, 4] and shape signature [-1, 4]
//   variable.tflite    out = x + state, state a [1, 3] float32 variable tensor
//   int16.tflite       out = x + x, int16 with scale 0.5 (quantization in the details)
// usage: octet_python_test_models OUTPUT_DIR
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "format/model_builder.h"

namespace {

using octet::format::ModelBuilder;
using octet::format::TensorSpec;

TensorSpec Float(std::vector<int32_t> shape, const std::string& name) {
  TensorSpec spec;
  spec.type = tflite::TensorType_FLOAT32;
  spec.shape = std::move(shape);
  spec.name = name;
  return spec;
}

std::vector<uint8_t> Signatures() {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int mul = b.AddOperatorCode(tflite::BuiltinOperator_MUL);
  const int x = b.AddTensor(Float({1, 2}, "x"));
  const int y = b.AddTensor(Float({1, 2}, "y"));
  const int sum = b.AddTensor(Float({1, 2}, "sum"));
  b.AddOperator(add, {x, y}, {sum}, b.AddOptions());
  b.SetInputs({x, y});
  b.SetOutputs({sum});

  const int second = b.AddSubgraph("mul");
  TensorSpec a_spec = Float({1, 3}, "a"), b_spec = Float({1, 3}, "b");
  TensorSpec p_spec = Float({1, 3}, "product");
  a_spec.shape_signature = b_spec.shape_signature = p_spec.shape_signature =
      std::vector<int32_t>{-1, 3};
  const int a = b.AddTensor(a_spec);
  const int bb = b.AddTensor(b_spec);
  const int product = b.AddTensor(p_spec);
  b.AddOperator(mul, {a, bb}, {product}, b.MulOptions());
  b.SetInputs({a, bb});
  b.SetOutputs({product});

  b.AddSignature("add", {{"x", x}, {"y", y}}, {{"sum", sum}}, 0);
  b.AddSignature("mul", {{"a", a}, {"b", bb}}, {{"product", product}},
                 static_cast<uint32_t>(second));
  return b.Finish();
}

std::vector<uint8_t> Dynamic() {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  TensorSpec in = Float({1, 4}, "x"), out = Float({1, 4}, "out");
  in.shape_signature = out.shape_signature = std::vector<int32_t>{-1, 4};
  const int x = b.AddTensor(in);
  const int o = b.AddTensor(out);
  b.AddOperator(add, {x, x}, {o}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({o});
  return b.Finish();
}

std::vector<uint8_t> Variable() {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int x = b.AddTensor(Float({1, 3}, "x"));
  TensorSpec state_spec = Float({1, 3}, "state");
  state_spec.is_variable = true;
  const int state = b.AddTensor(state_spec);
  const int o = b.AddTensor(Float({1, 3}, "out"));
  b.AddOperator(add, {x, state}, {o}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({o});
  return b.Finish();
}

std::vector<uint8_t> Int16() {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD, 3);
  const int x = b.AddQuantizedTensor(tflite::TensorType_INT16, {1, 4}, "x", {0.5f}, {0});
  const int o = b.AddQuantizedTensor(tflite::TensorType_INT16, {1, 4}, "out", {0.5f}, {0});
  b.AddOperator(add, {x, x}, {o}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({o});
  return b.Finish();
}

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  if (!file) {
    std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const bool ok = Write(dir + "/signatures.tflite", Signatures()) &&
                  Write(dir + "/dynamic.tflite", Dynamic()) &&
                  Write(dir + "/variable.tflite", Variable()) &&
                  Write(dir + "/int16.tflite", Int16());
  return ok ? 0 : 1;
}
